//go:build goexperiment.simd && amd64

package simdkit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// cols are the columns of P as the kernels see them (whole columns by
// row), each exactly hi rows long, so that a kernel that read or wrote at
// or past hi would panic.
type cols struct {
	x, vx, y, vy, a, b []float32
	n, m               []int32
}

func newCols(hi int, seed uint64) cols {
	r := rand.New(rand.NewPCG(seed, 3))
	edges := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 100, 1, 2, 1.5}
	f := func() []float32 {
		s := make([]float32, hi)
		for i := range s {
			if r.IntN(3) == 0 {
				s[i] = edges[r.IntN(len(edges))]
			} else {
				s[i] = (r.Float32()*2 - 1) * 300
			}
		}
		return s
	}
	n := func() []int32 {
		s := make([]int32, hi)
		for i := range s {
			s[i] = int32(r.IntN(120)) - 30
		}
		return s
	}
	return cols{f(), f(), f(), f(), f(), f(), n(), n()}
}

func (c cols) bits() []uint32 {
	var out []uint32
	for _, s := range [][]float32{c.x, c.vx, c.y, c.vy, c.a, c.b} {
		for _, v := range s {
			out = append(out, math.Float32bits(v))
		}
	}
	for _, s := range [][]int32{c.n, c.m} {
		for _, v := range s {
			out = append(out, uint32(v))
		}
	}
	return out
}

// spans runs every variant system's span on rows lo..hi-1 of c with the
// variants of width w (0: the scalar loop alone), in the schema's order,
// and returns where each variant stopped.
func spans(c cols, w, lo, hi int) []int {
	const dt = float32(1.0 / 60)
	pick := func(v8, v16 any) any {
		switch w {
		case 8:
			return v8
		case 16:
			return v16
		}
		return nil
	}
	var stops []int
	stop := func(n int) { stops = append(stops, n) }
	kb := Bounce{pX: c.x, pVX: c.vx, dt32: dt}
	fb, _ := pick(bounceSIMD8, bounceSIMD16).(func(*Bounce, int, int) int)
	if fb != nil {
		stop(fb(&Bounce{pX: append([]float32(nil), c.x...), pVX: append([]float32(nil), c.vx...), dt32: dt}, lo, hi))
	}
	run(&kb, fb, (*Bounce).span, lo, hi)
	fc, _ := pick(countSIMD8, countSIMD16).(func(*Count, int, int) int)
	run(&Count{pN: c.n, pM: c.m}, fc, (*Count).span, lo, hi)
	fa, _ := pick(armsSIMD8, armsSIMD16).(func(*Arms, int, int) int)
	run(&Arms{pY: c.y, pA: c.a, pB: c.b, pN: c.n, pM: c.m}, fa, (*Arms).span, lo, hi)
	fm, _ := pick(mixSIMD8, mixSIMD16).(func(*Mix, int, int) int)
	run(&Mix{pY: c.y, pVY: c.vy, pB: c.b, pN: c.n, pM: c.m, dt32: dt}, fm, (*Mix).span, lo, hi)
	fo, _ := pick(orderSIMD8, orderSIMD16).(func(*Order, int, int) int)
	run(&Order{pA: c.a, pB: c.b, pN: c.n, pM: c.m}, fo, (*Order).span, lo, hi)
	return stops
}

// run runs a variant system's kernel on rows lo..hi-1 as
// tickwork.ChunkKernel does: the variant v (nil: none) on the whole
// vectors, span on the rest.
func run[S any](k *S, v func(*S, int, int) int, span func(*S, int, int), lo, hi int) {
	if v != nil {
		lo = v(k, lo, hi)
	}
	span(k, lo, hi)
}

// TestEveryTail: for every span length 0..80 and several starts, each
// lane's span (the variant on whole vectors, the scalar loop on the tail)
// gives the bits of the scalar loop alone on rows lo..hi-1, leaves rows
// before lo untouched, and its variant stops at the last whole vector
// (the columns end at hi, so a read or write past it would panic).
func TestEveryTail(t *testing.T) {
	for _, lane := range []struct {
		l tickwork.Lane
		w int
	}{{tickwork.LaneAVX2, 8}, {tickwork.LaneAVX512, 16}} {
		if _, err := tickwork.SelectLane(lane.l); err != nil {
			t.Logf("lane %s not tested: %v", lane.l, err)
			continue
		}
		t.Run(lane.l.String(), func(t *testing.T) {
			for _, lo := range []int{0, 1, 5, 8, 64} {
				for n := range 81 {
					hi := lo + n
					seed := uint64(lo*1000 + n)
					want, got := newCols(hi, seed), newCols(hi, seed)
					spans(want, 0, lo, hi)
					stops := spans(got, lane.w, lo, hi)
					require.Equal(t, []int{lo + n&^(lane.w-1)}, stops, "lo %d, n %d: where the variant stops", lo, n)
					require.Equal(t, want.bits(), got.bits(), fmt.Sprintf("lo %d, n %d: the lane's bits differ from the scalar loop's", lo, n))
				}
			}
		})
	}
}

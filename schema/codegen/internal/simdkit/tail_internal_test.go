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
	kb := bounceKernel{pX: c.x, pVX: c.vx, dt32: dt}
	if f, _ := pick(bounceSIMD8, bounceSIMD16).(func(*bounceKernel, int, int) int); f != nil {
		stop(f(&bounceKernel{pX: append([]float32(nil), c.x...), pVX: append([]float32(nil), c.vx...), dt32: dt}, lo, hi))
		kb.simd = f
	}
	kb.span(lo, hi)
	kc := countKernel{pN: c.n, pM: c.m}
	if f, _ := pick(countSIMD8, countSIMD16).(func(*countKernel, int, int) int); f != nil {
		kc.simd = f
	}
	kc.span(lo, hi)
	ka := armsKernel{pY: c.y, pA: c.a, pB: c.b, pN: c.n, pM: c.m}
	if f, _ := pick(armsSIMD8, armsSIMD16).(func(*armsKernel, int, int) int); f != nil {
		ka.simd = f
	}
	ka.span(lo, hi)
	km := mixKernel{pY: c.y, pVY: c.vy, pB: c.b, pN: c.n, pM: c.m, dt32: dt}
	if f, _ := pick(mixSIMD8, mixSIMD16).(func(*mixKernel, int, int) int); f != nil {
		km.simd = f
	}
	km.span(lo, hi)
	ko := orderKernel{pA: c.a, pB: c.b, pN: c.n, pM: c.m}
	if f, _ := pick(orderSIMD8, orderSIMD16).(func(*orderKernel, int, int) int); f != nil {
		ko.simd = f
	}
	ko.span(lo, hi)
	return stops
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

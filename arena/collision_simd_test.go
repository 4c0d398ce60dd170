//go:build goexperiment.simd && amd64

package arena

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// collideRef is collideScan as Collision's generated scalar loop computes
// it: Lease.Find as Lease.Words states it, then the match's three tests.
func collideRef(tgt []tickwork.Handle, px, py []float32, ttl []int32, words []uint32, bx, by []float32, r2 float32, live uint64) uint64 {
	n := min(len(words), len(bx), len(by))
	var m uint64
	for i := range 64 {
		if live&(1<<i) == 0 {
			continue
		}
		h := tgt[i]
		row := -1
		if idx, w := h.Index(), uint32(uint64(h)>>32); uint64(idx) < uint64(n) && w != 0 && words[idx] == w {
			row = int(idx)
		}
		switch {
		case row < 0:
		case float32((bx[row]-px[i])*(bx[row]-px[i]))+float32((by[row]-py[i])*(by[row]-py[i])) <= r2:
		case ttl[i] <= 0:
		default:
			continue
		}
		m |= 1 << i
	}
	return m
}

// TestCollideScan: the scan of each SIMD lane (AVX2, AVX-512) marks exactly the live rows on which
// the scalar match takes an arm, over random states (every row live, or a
// random quarter): absent rows, stale and
// zero handles, handles of other tags, indexes past the table (up to
// 2^32-1), TTL 0, negative and extreme, NaN and infinite positions, and
// distances exactly on the radius and within a few ulps of it (where a
// fused multiply-add would round to the other side).
func TestCollideScan(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		scan := map[tickwork.Lane]func([]tickwork.Handle, []float32, []float32, []int32, []uint32, []float32, []float32, float32, uint64) uint64{
			tickwork.LaneAVX2: collideScan8, tickwork.LaneAVX512: collideScan}[l]
		if scan == nil {
			t.Skip("the scalar lane has no scan")
		}
		testCollideScan(t, scan)
	})
}

func testCollideScan(t *testing.T, scan func([]tickwork.Handle, []float32, []float32, []int32, []uint32, []float32, []float32, float32, uint64) uint64) {
	r := rand.New(rand.NewPCG(21, 19))
	const bodies = 1000
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	words := make([]uint32, bodies)
	bx, by := make([]float32, bodies), make([]float32, bodies)
	var tgt [64]tickwork.Handle
	var px, py [64]float32
	var ttl [64]int32
	near, marked := 0, 0
	for trial := range 20000 {
		for i := range words {
			words[i] = 0 // absent
			if r.IntN(5) > 0 {
				words[i] = uint32(r.IntN(1024))<<22 | uint32(r.IntN(1<<21))<<1 | 1 // a tag and an odd generation
			}
			bx[i], by[i] = r.Float32()*64, r.Float32()*64
		}
		for i := range 64 {
			idx := uint32(r.IntN(bodies))
			word := words[idx]
			switch r.IntN(12) {
			case 0:
				word += 2 // stale
			case 1:
				word = 0
			case 2:
				word ^= 1 << 22 // another tag
			case 3:
				idx = bodies + uint32(r.IntN(64)) // past the table
			case 4:
				idx = [...]uint32{1 << 31, math.MaxUint32, math.MaxInt32, bodies}[r.IntN(4)]
			}
			tgt[i] = tickwork.Handle(uint64(word)<<32 | uint64(idx))
			if r.IntN(64) == 0 {
				tgt[i] = 0
			}
			px[i], py[i] = r.Float32()*64, r.Float32()*64
			ttl[i] = int32(r.IntN(200))
			switch r.IntN(16) {
			case 0:
				ttl[i] = 0
			case 1:
				ttl[i] = [...]int32{-1, math.MinInt32, math.MaxInt32, 1}[r.IntN(4)]
			}
			if idx >= bodies {
				continue
			}
			switch r.IntN(8) {
			case 0, 1, 2: // around the radius: exactly on it, or within ulps
				a := r.Float64() * 2 * math.Pi
				dx, dy := float32(3*math.Cos(a)), float32(3*math.Sin(a))
				if r.IntN(4) == 0 {
					dx, dy = [...]float32{3, -3, 0, 0}[r.IntN(4)], 0
				}
				bx[idx], by[idx] = px[i]+dx, py[i]+dy
				near++
			case 3:
				bx[idx] = [...]float32{nan, inf, -inf, px[i]}[r.IntN(4)]
			case 4:
				px[i] = [...]float32{nan, inf, -inf, bx[idx]}[r.IntN(4)]
			}
		}
		live := ^uint64(0)
		if trial%2 == 1 {
			live = r.Uint64() & r.Uint64() // a quarter of the rows live
		}
		want := collideRef(tgt[:], px[:], py[:], ttl[:], words, bx, by, R2, live)
		got := scan(tgt[:], px[:], py[:], ttl[:], words, bx, by, R2, live)
		require.Equal(t, want, got, "trial %d: marks want %064b got %064b", trial, want, got)
		marked += bits.OnesCount64(want)
	}
	t.Logf("%d rows, %d marked, %d placed around the radius", 20000*64, marked, near)
}

// BenchmarkCollideScan: the scan alone over the used Projectile rows of
// the arena's default world after the default warm-up, 64 rows a call
// with their enabled bits: the AVX-512 scan (simd) and collideRef, the
// scalar loop's tests (scalar).
func BenchmarkCollideScan(b *testing.B) {
	if _, err := tickwork.SelectLane(tickwork.LaneAVX512); err != nil {
		b.Skipf("lane avx512 not available: %v", err)
	}
	cfg := rules.DefaultConfig()
	cfg.Workers = 1
	if u := os.Getenv("COLLIDE_UNITS"); u != "" {
		cfg.Units, _ = strconv.Atoi(u)
	}
	s := warmSim(b, cfg, nil)
	k := s.sys.Collision
	tab := s.t.Projectile.Table
	rows := tab.UsedChunks() * tab.ChunkRows()
	words := k.bProbe.Lease().Words()
	live := make([]uint64, rows/64)
	for c := range tab.UsedChunks() {
		copy(live[c*tab.ChunkRows()/64:], tab.Enabled(c))
	}
	var sink uint64
	b.Run("simd", func(b *testing.B) {
		for b.Loop() {
			for w, m := range live {
				sink += collisionScanAVX512(k, w*64, m)
			}
		}
	})
	b.Run("simd8", func(b *testing.B) {
		for b.Loop() {
			for w, m := range live {
				sink += collisionScanAVX2(k, w*64, m)
			}
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			for w, m := range live {
				row := w * 64
				sink += collideRef(k.pTarget[row:], k.pX[row:], k.pY[row:], k.pTTL[row:], words, k.bX, k.bY, R2, m)
			}
		}
	})
	_ = sink
}

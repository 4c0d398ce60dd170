package lanes_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/lanes"
)

// benchUnits is the arena's default unit count.
const benchUnits = 100_000

// benchLanes are the sub-benchmarks of each comparison: the best lane of
// this build and CPU ("simd"; skipped when that is Scalar) against the
// scalar oracle, in the same run.
func benchLanes(b *testing.B, f func(b *testing.B, l lanes.Lane)) {
	b.Run("simd", func(b *testing.B) {
		if lanes.Best() == lanes.Scalar {
			b.Skip("no SIMD lane in this build or on this CPU (build with GOEXPERIMENT=simd on amd64)")
		}
		f(b, lanes.Best())
	})
	b.Run("scalar", func(b *testing.B) { f(b, lanes.Scalar) })
}

// arenaLike fills n points as the arena spawns them: positions in [0, W),
// velocities in [-VMax, VMax).
func arenaLike(n int) (x, y, vx, vy []float32) {
	r := rand.New(rand.NewPCG(42, 42))
	x, y, vx, vy = make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range n {
		x[i], y[i] = r.Float32()*2048, r.Float32()*2048
		vx[i], vy[i] = r.Float32()*64-32, r.Float32()*64-32
	}
	return x, y, vx, vy
}

func BenchmarkMoveBounce(b *testing.B) {
	benchLanes(b, func(b *testing.B, l lanes.Lane) {
		x, y, vx, vy := arenaLike(benchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(16 * benchUnits))
		for b.Loop() {
			lanes.MoveBounce(l, x, y, vx, vy, 1.0/64, 2048)
		}
	})
}

func BenchmarkAdvance(b *testing.B) {
	benchLanes(b, func(b *testing.B, l lanes.Lane) {
		x, y, vx, vy := arenaLike(benchUnits)
		ttl := make([]int32, benchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(20 * benchUnits))
		for b.Loop() {
			lanes.Advance(l, x, y, vx, vy, ttl, 1.0/64)
		}
	})
}

func BenchmarkSlots(b *testing.B) {
	benchLanes(b, func(b *testing.B, l lanes.Lane) {
		x, y, _, _ := arenaLike(benchUnits)
		h := make([]int32, benchUnits)
		alive := make([]uint64, (benchUnits+63)/64)
		for i := range alive {
			alive[i] = ^uint64(0) >> (i % 3)
		}
		dst := make([]uint32, 4*benchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(28 * benchUnits))
		for b.Loop() {
			lanes.Slots(l, dst, x, y, h, alive)
		}
	})
}

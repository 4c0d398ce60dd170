package arena

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// forLanes runs f as one subtest per lane, skipping (and saying so in -v
// output) the lanes this build or CPU cannot run.
func forLanes(t *testing.T, f func(t *testing.T, l tickwork.Lane)) {
	for _, l := range [...]tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512} {
		t.Run(l.String(), func(t *testing.T) {
			if _, err := tickwork.SelectLane(l); err != nil {
				t.Skipf("lane %s not available: %v", l, err)
			}
			f(t, l)
		})
	}
}

// sizes cover empty, below one vector, around 8, 16 and 64, and long runs
// with tails of every kind.
var sizes = []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 47, 63, 64, 65, 127, 128, 129, 200, 1000, 1024, 1031}

func neg(f float32) float32 { return math.Float32frombits(math.Float32bits(f) ^ 1<<31) }

// special are values at and around the edges of the rules: signed zeros,
// the walls, their neighbours, subnormals, the extremes, infinities, NaN.
var special = []float32{
	0, neg(0), 1, -1, rules.W, -rules.W, 2 * rules.W, -2 * rules.W, rules.W / 2,
	math.Nextafter32(0, 1), math.Nextafter32(0, -1), math.Nextafter32(rules.W, 0), math.Nextafter32(rules.W, 2*rules.W),
	math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1e-40, -1e-40,
	math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
}

// value draws one input: mostly in [-scale/4, 5*scale/4), often a special
// value, sometimes any bit pattern at all.
func value(r *rand.Rand, scale float32) float32 {
	switch r.IntN(8) {
	case 0:
		return special[r.IntN(len(special))]
	case 1:
		return math.Float32frombits(r.Uint32())
	default:
		return (r.Float32()*1.5 - 0.25) * scale
	}
}

// sameBits reports the first index where a and b differ in their bits, or -1.
func sameBits(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestPresentLanes: in every lane, presentLane writes the records of
// presentRows, bit for bit (and those of a model written from presentRows'
// doc), at every tail length, with a bitmap whose bits all vary, and
// writes nothing past len(pres).
func TestPresentLanes(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		r := rand.New(rand.NewPCG(23, uint64(l)))
		for _, n := range sizes {
			x, y, h := make([]float32, n), make([]float32, n), make([]int32, n)
			mask := make([]uint64, (n+63)/64+1)
			for i := range n {
				x[i], y[i], h[i] = value(r, rules.W), value(r, rules.W), int32(r.Uint32())
			}
			for i := range mask {
				mask[i] = r.Uint64()
			}
			sentinel := rules.Slot{X: 1.5, Y: -2.5, Health: -7, Alive: 9}
			got, want := make([]rules.Slot, n+9), make([]rules.Slot, n)
			for i := range got {
				got[i] = sentinel
			}
			presentLane(l, got[:n], x, y, h, mask)
			presentRows(want, x, y, h, mask)
			for i := range n {
				g, w := got[i], want[i]
				require.Equalf(t, [4]uint32{math.Float32bits(w.X), math.Float32bits(w.Y), uint32(w.Health), uint32(w.Alive)},
					[4]uint32{math.Float32bits(g.X), math.Float32bits(g.Y), uint32(g.Health), uint32(g.Alive)}, "n %d: record %d", n, i)
				require.Equalf(t, [4]uint32{math.Float32bits(x[i]), math.Float32bits(y[i]), uint32(h[i]), uint32(mask[i/64]>>(i%64)) & 1},
					[4]uint32{math.Float32bits(g.X), math.Float32bits(g.Y), uint32(g.Health), uint32(g.Alive)}, "n %d: record %d against the model", n, i)
			}
			for i := n; i < len(got); i++ {
				require.Equalf(t, sentinel, got[i], "n %d: record %d written", n, i)
			}
			assert.Zero(t, testing.AllocsPerRun(10, func() { presentLane(l, got[:n], x, y, h, mask) }))
		}
	})
}

// BenchmarkPresentRows: presentLane over 100 000 records in one span (a
// whole bitmap of live rows but every third word's first bits), in the
// best lane (simd) and the scalar lane (presentRows).
func BenchmarkPresentRows(b *testing.B) {
	benchHandLanes(b, func(b *testing.B, l tickwork.Lane) {
		u := arenaUnits(handBenchUnits)
		h := make([]int32, handBenchUnits)
		mask := make([]uint64, (handBenchUnits+63)/64)
		for i := range mask {
			mask[i] = ^uint64(0) >> (i % 3)
		}
		pres := make([]rules.Slot, handBenchUnits)
		b.ReportAllocs()
		b.SetBytes(int64(28 * handBenchUnits))
		for b.Loop() {
			presentLane(l, pres, u.x, u.y, h, mask)
		}
	})
}

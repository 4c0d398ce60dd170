package simdkit_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/simdkit"
)

const (
	rows   = 1000
	frames = 12
	dt     = 1.0 / 60 // inexact: every v*dt rounds, so an FMA would show
)

// The systems simdkit.tw declares with a SIMD variant, and the one without.
var (
	vectorized = []string{"Bounce", "Count", "Arms", "Mix", "Order"}
	scalarOnly = []string{"Wide"}
)

// Edge values the rows draw from, besides random ones: NaNs (two
// payloads), ±0, ±Inf, the largest and smallest (subnormal) float32s, the
// walls of Bounce and just past them.
var (
	floatEdges = []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), math.Float32frombits(0x7fc00123),
		float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32,
		-1e-40, 100, math.Nextafter32(100, 200), -math.SmallestNonzeroFloat32, 1, 2, 1.5, 0.1, 1e30, -1e30}
	intEdges = []int32{math.MinInt32, math.MaxInt32, math.MinInt32 + 1, 0, 1, -1, 9, 10, 11, 19, 20, 21, 39, 40, 41, 50, 51, 60, 61, 1 << 30}
)

// row is one P row, and the model of simdkit.tw: each system's meaning
// written by hand, the reference of both lanes.
type row struct {
	x, vx, y, vy, a, b float32
	n, m               int32
	big                int64
}

func initial(i int) row {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	f := func(scale float32) float32 {
		if r.IntN(4) == 0 {
			return floatEdges[r.IntN(len(floatEdges))]
		}
		return (r.Float32()*2 - 1) * scale
	}
	n := func() int32 {
		if r.IntN(3) == 0 {
			return intEdges[r.IntN(len(intEdges))]
		}
		return int32(r.IntN(100)) - 20
	}
	return row{x: f(150) + 50, vx: f(3000), y: f(3), vy: f(50), a: f(10), b: f(10), n: n(), m: n(), big: int64(i)}
}

// tick is one fixed tick of the model: Bounce, Count, Arms, Mix, Order,
// Wide.
func (p *row) tick(dt float32) {
	p.x += float32(p.vx * dt)
	if p.x < 0 {
		p.x, p.vx = -p.x, -p.vx
	} else if p.x > 100 {
		p.x, p.vx = 200-p.x, -p.vx
	}
	p.n--
	p.m = p.m*3 + p.n - 7
	switch {
	case p.n < 10:
		p.a = 1
	case p.n < 20:
		p.a, p.b = 2, float32(p.b*-1)
	case p.y != p.y || (p.y >= 1 && !(p.y > 2)):
		p.a, p.b = 3, p.b-0.5
	case p.m == 50:
	case p.n >= 40 && p.n <= 60:
		if p.m <= 0 {
			p.b = 4
		} else {
			p.b--
			p.a = float32(p.b * p.b)
		}
	default:
		p.a = -p.a
	}
	p.y = float32(p.y*1.1) + float32(p.vy*dt)
	p.b = p.b/3 + float32(float32(p.n)*0.7)
	p.m = -p.m
	p.vy = float32(p.vy * 1.0001)
	p.m = p.n + 1
	p.b = float32(p.a * 2)
	p.a = float32(p.n)
	p.big++
}

// holes are the rows deleted before the first frame.
func hole(i int) bool { return i%13 == 5 || (i >= 300 && i < 340) }

type world struct {
	w        *tickwork.World
	t        *simdkit.Tables
	hs       []tickwork.Handle
	lane     tickwork.Lane
	boids    []tickwork.Handle // struct_test.go
	trackers []tickwork.Handle
	fish     []tickwork.Handle
}

// newWorld builds the schema's world with the systems in lane l.
func newWorld(t *testing.T, l tickwork.Lane, workers int) *world {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
	tabs, err := simdkit.Declare(b, simdkit.DefaultSizes())
	require.NoError(t, err)
	sys := simdkit.NewSystems(tabs)
	require.NoError(t, sys.SetLane(l))
	b.Add(sys.All()...)
	b.Add(gust(tabs))
	wd := &world{t: tabs, hs: make([]tickwork.Handle, rows), lane: l}
	b.Add(grid(tabs, &wd.fish))
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	wd.w = w
	wd.addBoids(t)
	wd.addFish(t)
	require.NoError(t, tabs.P.Table.InsertN(wd.hs))
	for i, h := range wd.hs {
		r := initial(i)
		p := tabs.P
		p.X.Set(h, r.x)
		p.VX.Set(h, r.vx)
		p.Y.Set(h, r.y)
		p.VY.Set(h, r.vy)
		p.A.Set(h, r.a)
		p.B.Set(h, r.b)
		p.N.Set(h, r.n)
		p.M.Set(h, r.m)
		p.Big.Set(h, r.big)
	}
	for i, h := range wd.hs {
		if hole(i) {
			require.True(t, tabs.P.Table.Delete(h))
		}
	}
	return wd
}

// columns returns every column's bits, holes included, by name.
func (wd *world) columns() map[string][]uint64 {
	out := map[string][]uint64{}
	p := wd.t.P
	for name, c := range map[string]*tickwork.Column[float32]{"X": p.X, "VX": p.VX, "Y": p.Y, "VY": p.VY, "A": p.A, "B": p.B} {
		for _, v := range c.All() {
			out[name] = append(out[name], uint64(math.Float32bits(v)))
		}
	}
	for name, c := range map[string]*tickwork.Column[int32]{"N": p.N, "M": p.M} {
		for _, v := range c.All() {
			out[name] = append(out[name], uint64(uint32(v)))
		}
	}
	for _, v := range p.Big.All() {
		out["Big"] = append(out["Big"], uint64(v))
	}
	return out
}

// checkModel compares every live row with the model, bit for bit.
func (wd *world) checkModel(t *testing.T, model []row, frame int) {
	t.Helper()
	p := wd.t.P
	bad := 0
	for i, h := range wd.hs {
		if hole(i) {
			continue
		}
		want := model[i]
		got := row{}
		got.x, _ = p.X.Get(h)
		got.vx, _ = p.VX.Get(h)
		got.y, _ = p.Y.Get(h)
		got.vy, _ = p.VY.Get(h)
		got.a, _ = p.A.Get(h)
		got.b, _ = p.B.Get(h)
		got.n, _ = p.N.Get(h)
		got.m, _ = p.M.Get(h)
		got.big, _ = p.Big.Get(h)
		if bits(got) != bits(want) {
			bad++
			if bad <= 3 {
				t.Errorf("lane %s, frame %d, row %d: got %+v, the model %+v", wd.lane, frame, i, got, want)
			}
		}
	}
	assert.Zero(t, bad, "lane %s, frame %d: rows that differ from the model", wd.lane, frame)
}

func bits(r row) [9]uint64 {
	f := math.Float32bits
	return [9]uint64{uint64(f(r.x)), uint64(f(r.vx)), uint64(f(r.y)), uint64(f(r.vy)), uint64(f(r.a)), uint64(f(r.b)),
		uint64(uint32(r.n)), uint64(uint32(r.m)), uint64(r.big)}
}

// simdLanes are the SIMD lanes this build and CPU run; with skip, the
// test skips, saying so, when there is none.
func simdLanes(t *testing.T, skip bool) []tickwork.Lane {
	var out []tickwork.Lane
	for _, l := range []tickwork.Lane{tickwork.LaneAVX2, tickwork.LaneAVX512} {
		if _, err := tickwork.SelectLane(l); err == nil {
			out = append(out, l)
		} else {
			t.Logf("lane %s not tested: %v", l, err)
		}
	}
	if len(out) == 0 && skip {
		t.Skip("no SIMD lane in this build or on this CPU: build with GOEXPERIMENT=simd on amd64 with AVX2")
	}
	return out
}

// TestLanesBitIdentical: in every SIMD lane, with 1 and 2 workers, every
// column (holes included) has after every frame the bits of the scalar
// lane, and every live row the model's. The rows hold NaNs, ±0, ±Inf,
// subnormals, the walls, int32 extremes and random values; dt is inexact,
// so products round (a MulAdd would differ), and Arms has rows where
// several arms are true (a blend order other than first-true-wins would
// differ).
//
// The scalar lane runs too, against the model alone: it is the oracle, and
// on a build without SIMD lanes (arm64, GOAMD64=v3) the test that its
// products are not fused.
func TestLanesBitIdentical(t *testing.T) {
	for _, l := range append([]tickwork.Lane{tickwork.LaneScalar}, simdLanes(t, false)...) {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", l, workers), func(t *testing.T) {
				scalar, simd := newWorld(t, tickwork.LaneScalar, workers), newWorld(t, l, workers)
				model := make([]row, rows)
				for i := range model {
					model[i] = initial(i)
				}
				for f := range frames {
					require.NoError(t, scalar.w.Frame(dt))
					require.NoError(t, simd.w.Frame(dt))
					for i := range model {
						model[i].tick(float32(dt))
					}
					want, got := scalar.columns(), simd.columns()
					for name, w := range want {
						g := got[name]
						require.Len(t, g, len(w))
						for i := range w {
							if g[i] != w[i] {
								t.Fatalf("frame %d: column %s row %d: lane %s has bits %#x, scalar %#x", f, name, i, l, g[i], w[i])
							}
						}
					}
					scalar.checkModel(t, model, f)
					simd.checkModel(t, model, f)
				}
				for _, name := range vectorized {
					assert.Equal(t, l.String(), simd.w.Report().System(name).Lane, name)
					assert.Equal(t, "scalar", scalar.w.Report().System(name).Lane, name)
				}
				for _, name := range scalarOnly {
					assert.Equal(t, "scalar", simd.w.Report().System(name).Lane, name)
				}
			})
		}
	}
}

// TestSetLane: NewSystems picks tickwork.BestLane; SetLane refuses a lane
// this build or CPU cannot run, changing nothing, and forces scalar.
func TestSetLane(t *testing.T) {
	b := tickwork.NewBuilder()
	tabs, err := simdkit.Declare(b, simdkit.DefaultSizes())
	require.NoError(t, err)
	sys := simdkit.NewSystems(tabs)
	best := tickwork.BestLane()
	assert.Equal(t, best.String(), sys.Bounce.System().Lane)
	assert.Equal(t, "scalar", sys.Wide.System().Lane)
	for _, l := range []tickwork.Lane{tickwork.LaneAVX2, tickwork.LaneAVX512, tickwork.Lane(9)} {
		if l.Available() {
			continue
		}
		err := sys.SetLane(l)
		require.Error(t, err, l.String())
		assert.True(t, errorsIsAny(err, tickwork.ErrLaneUnavailable, tickwork.ErrUnknownLane), err.Error())
		assert.Equal(t, best.String(), sys.Bounce.System().Lane, "a refused lane changes nothing")
	}
	require.NoError(t, sys.SetLane(tickwork.LaneScalar))
	for _, s := range []tickwork.System{sys.Bounce.System(), sys.Count.System(), sys.Arms.System(), sys.Mix.System()} {
		assert.Equal(t, "scalar", s.Lane, s.Name)
	}
}

// TestZeroAllocs: frames in the best lane allocate nothing.
func TestZeroAllocs(t *testing.T) {
	wd := newWorld(t, tickwork.BestLane(), 2)
	require.NoError(t, wd.w.Frame(dt))
	allocs := testing.AllocsPerRun(20, func() {
		if err := wd.w.Frame(dt); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "allocations per frame in lane %s", wd.lane)
}

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

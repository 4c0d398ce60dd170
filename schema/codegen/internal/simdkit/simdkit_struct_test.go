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

// The flock of simdkit.tw: struct columns (Boid.Pos, Boid.Vel: Vec2), the
// resource Flock that the hand-written system Gust writes each tick and
// the declared systems read, and the untyped constant Half.

const (
	boids    = 1000
	trackers = 64
)

// windAt is the wind Gust sets in fixed tick n.
func windAt(n uint64) simdkit.Vec2 {
	return simdkit.Vec2{X: float32(n%7) - 3.3, Y: float32(n%5)*0.7 - 1}
}

// gust is the hand-written system that builds the per-tick part of the
// resource: the declared systems read it after it (Steer: after: Gust).
func gust(tabs *simdkit.Tables) tickwork.System {
	return tickwork.System{Name: "Gust", Phase: tickwork.FixedUpdate, Declare: func(d *tickwork.Decl) tickwork.RunFunc {
		f := tickwork.WriteResource(d, tabs.Flock)
		return func(ctx *tickwork.Context) { f.Wind = windAt(ctx.Tick()) }
	}}
}

// grid is the hand-written system that builds the per-tick cells Align
// reads: the mean velocity of the fish of each cell (sums in handle
// order).
func grid(tabs *simdkit.Tables, fish *[]tickwork.Handle) tickwork.System {
	return tickwork.System{Name: "Grid", Phase: tickwork.FixedUpdate,
		Declare: func(d *tickwork.Decl) tickwork.RunFunc {
			px, py := tickwork.Read(d, tabs.Fish.Pos.X), tickwork.Read(d, tabs.Fish.Pos.Y)
			vx, vy := tickwork.Read(d, tabs.Fish.Vel.X), tickwork.Read(d, tabs.Fish.Vel.Y)
			cells := tickwork.WriteResource(d, tabs.Cells)
			return func(*tickwork.Context) {
				var sum cellSums
				for _, h := range *fish {
					x, ok := px.Get(h)
					if !ok {
						continue
					}
					y, _ := py.Get(h)
					bx, _ := vx.Get(h)
					by, _ := vy.Get(h)
					sum.add(x, y, bx, by)
				}
				cells.VX, cells.VY = sum.means()
			}
		}}
}

// cellSums accumulates Grid's cells.
type cellSums struct {
	vx, vy [64]float32
	n      [64]int32
}

func (s *cellSums) add(px, py, vx, vy float32) {
	c := cellOf(px, py)
	s.vx[c] += vx
	s.vy[c] += vy
	s.n[c]++
}

func (s *cellSums) means() (vx, vy [64]float32) {
	for c := range s.n {
		if s.n[c] > 0 {
			vx[c], vy[c] = s.vx[c]/float32(s.n[c]), s.vy[c]/float32(s.n[c])
		}
	}
	return vx, vy
}

// cellOf is Align's cell, by hand: floor(x / Cell) + Side * floor(y /
// Cell) in int32 (wrapping), floor saturated and 0 for NaN, the index
// wrapped into 0..63.
func cellOf(px, py float32) int {
	i := floorSat(px/12.5) + 8*floorSat(py/12.5)
	return int(((i % 64) + 64) % 64)
}

func floorSat(x float32) int32 {
	f := math.Floor(float64(x))
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// boid is one Boid row and the model of Steer, by hand.
type boid struct {
	px, py, vx, vy float32
	tag            int32
}

// boidEdges are floatEdges but the NaN with a payload: when an addition
// meets two NaNs of different payloads, which one it returns depends on
// the operand order the compiler picks for a commutative instruction
// (seen here: a boid with Pos.X the payload NaN and Vel.X the default one
// gave one in the scalar loop and AVX-512, the other in AVX2), so
// bit identity holds for NaNs of one payload only.
var boidEdges = func() []float32 {
	var out []float32
	for _, v := range floatEdges {
		if math.Float32bits(v) != 0x7fc00123 {
			out = append(out, v)
		}
	}
	return out
}()

func initialBoid(i int) boid {
	r := rand.New(rand.NewPCG(uint64(i), 11))
	f := func(scale float32) float32 {
		if r.IntN(5) == 0 {
			return boidEdges[r.IntN(len(boidEdges))]
		}
		return (r.Float32()*2 - 1) * scale
	}
	return boid{px: f(80) + 50, py: f(80) + 50, vx: f(900), vy: f(900), tag: intEdges[r.IntN(len(intEdges))]}
}

// flock is the resource's values the model uses: the schema's initial
// ones and the tick's wind.
type flock struct{ drag, wall, limit, windX, windY float32 }

func (b *boid) tick(f flock, dt float32) {
	b.vx = float32(b.vx * f.drag)
	b.vy = float32(b.vy * f.drag)
	b.vx += float32(f.windX * dt)
	b.vy += float32(f.windY * dt)
	b.px += float32(b.vx * dt)
	b.py += float32(b.vy * dt)
	switch {
	case b.px < 0:
		b.px, b.vx = -b.px, -b.vx
	case b.px > f.wall:
		b.px, b.vx = float32(2*f.wall)-b.px, -b.vx
	}
	if b.py < 0 || b.py > f.wall {
		b.vy = float32(-b.vy * 0.5)
		b.tag++
	}
}

func (b boid) fast(f flock) bool { return float32(b.vx*b.vx)+float32(b.vy*b.vy) > f.limit }

func boidHole(i int) bool { return i%11 == 3 || (i >= 500 && i < 530) }

// addBoids fills Boid (with holes) and Tracker (each tracking a boid, some
// of them deleted).
func (wd *world) addBoids(t *testing.T) {
	t.Helper()
	tb := wd.t.Boid
	wd.boids = make([]tickwork.Handle, boids)
	require.NoError(t, tb.Table.InsertN(wd.boids))
	for i, h := range wd.boids {
		b := initialBoid(i)
		require.True(t, tb.Pos.Set(h, simdkit.Vec2{X: b.px, Y: b.py}))
		require.True(t, tb.Vel.Set(h, simdkit.Vec2{X: b.vx, Y: b.vy}))
		require.True(t, tb.Tag.Set(h, b.tag))
	}
	wd.trackers = make([]tickwork.Handle, trackers)
	require.NoError(t, wd.t.Tracker.Table.InsertN(wd.trackers))
	for i, h := range wd.trackers {
		wd.t.Tracker.Target.Set(h, wd.boids[tracked(i)])
	}
	for i, h := range wd.boids {
		if boidHole(i) {
			require.True(t, tb.Table.Delete(h))
		}
	}
}

// tracked is the boid tracker i follows.
func tracked(i int) int { return i * 13 % boids }

// boidColumns returns every Boid column's bits, holes included, by
// engine column name.
func (wd *world) boidColumns(t *testing.T) map[string][]uint64 {
	out := map[string][]uint64{}
	tb := wd.t.Boid
	for name, c := range map[string]*tickwork.Column[float32]{"Pos.X": tb.Pos.X, "Pos.Y": tb.Pos.Y, "Vel.X": tb.Vel.X, "Vel.Y": tb.Vel.Y} {
		require.Equal(t, name, c.Name(), "the engine column of a struct field is COLUMN.FIELD")
		for _, v := range c.All() {
			out[name] = append(out[name], uint64(math.Float32bits(v)))
		}
	}
	for _, v := range tb.Tag.All() {
		out["Tag"] = append(out["Tag"], uint64(uint32(v)))
	}
	return out
}

// TestStructsBitIdentical: Steer's SIMD variant on the struct columns'
// fields gives in every lane, with 1 and 2 workers, after every frame,
// every Boid column's bits (holes included) of the scalar lane and every
// live row the model's, with the wind the hand-written Gust writes into
// the resource each tick; Speeding's counter is the model's count of fast
// boids, and Follow copies each tracked boid's Pos whole (-1 in both
// fields for a deleted one).
func TestStructsBitIdentical(t *testing.T) {
	f := flock{drag: 0.99, wall: 100, limit: 400}
	for _, l := range append([]tickwork.Lane{tickwork.LaneScalar}, simdLanes(t, false)...) {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", l, workers), func(t *testing.T) {
				scalar, simd := newWorld(t, tickwork.LaneScalar, workers), newWorld(t, l, workers)
				model := make([]boid, boids)
				for i := range model {
					model[i] = initialBoid(i)
				}
				for fr := range frames {
					require.NoError(t, scalar.w.Frame(dt))
					require.NoError(t, simd.w.Frame(dt))
					w := windAt(uint64(fr))
					f.windX, f.windY = w.X, w.Y
					fast := int64(0)
					for i := range model {
						model[i].tick(f, float32(dt))
						if !boidHole(i) && model[i].fast(f) {
							fast++
						}
					}
					want, got := scalar.boidColumns(t), simd.boidColumns(t)
					for name, wc := range want {
						gc := got[name]
						require.Len(t, gc, len(wc))
						for i := range wc {
							if gc[i] != wc[i] {
								t.Fatalf("frame %d: column %s row %d: lane %s has bits %#x, scalar %#x", fr, name, i, l, gc[i], wc[i])
							}
						}
					}
					for _, wd := range []*world{scalar, simd} {
						wd.checkBoids(t, model, fr)
						n, ok := wd.w.Report().Counter("Speeding", "fast")
						require.True(t, ok)
						assert.Equal(t, fast, n, "frame %d: fast boids", fr)
						wd.checkTrackers(t, model, fr)
					}
				}
				assert.Equal(t, l.String(), simd.w.Report().System("Steer").Lane)
			})
		}
	}
}

// checkBoids compares every live boid with the model, bit for bit,
// through the generated Vec2Columns.Get.
func (wd *world) checkBoids(t *testing.T, model []boid, frame int) {
	t.Helper()
	tb := wd.t.Boid
	bad := 0
	for i, h := range wd.boids {
		if boidHole(i) {
			_, ok := tb.Pos.Get(h)
			assert.False(t, ok, "a deleted boid has no Pos")
			continue
		}
		pos, ok1 := tb.Pos.Get(h)
		vel, ok2 := tb.Vel.Get(h)
		tag, ok3 := tb.Tag.Get(h)
		require.True(t, ok1 && ok2 && ok3)
		got := boid{pos.X, pos.Y, vel.X, vel.Y, tag}
		if boidBits(got) != boidBits(model[i]) {
			bad++
			if bad <= 3 {
				t.Errorf("lane %s, frame %d, boid %d: got %+v, the model %+v", wd.lane, frame, i, got, model[i])
			}
		}
	}
	assert.Zero(t, bad, "lane %s, frame %d: boids that differ from the model", wd.lane, frame)
}

func (wd *world) checkTrackers(t *testing.T, model []boid, frame int) {
	t.Helper()
	for i, h := range wd.trackers {
		at, ok := wd.t.Tracker.At.Get(h)
		require.True(t, ok)
		want := simdkit.Vec2{X: -1, Y: -1}
		if j := tracked(i); !boidHole(j) {
			want = simdkit.Vec2{X: model[j].px, Y: model[j].py}
		}
		assert.Equal(t, [2]uint32{math.Float32bits(want.X), math.Float32bits(want.Y)}, [2]uint32{math.Float32bits(at.X), math.Float32bits(at.Y)},
			"frame %d, tracker %d", frame, i)
	}
}

func boidBits(b boid) [5]uint32 {
	f := math.Float32bits
	return [5]uint32{f(b.px), f(b.py), f(b.vx), f(b.vy), uint32(b.tag)}
}

// nanBits is x's bits, every NaN as one.
func nanBits(x float32) uint32 {
	if x != x {
		return 0x7fc00000
	}
	return math.Float32bits(x)
}

// fish is one Fish row.
type fish struct{ px, py, vx, vy float32 }

const fishes = 500

func initialFish(i int) fish {
	r := rand.New(rand.NewPCG(uint64(i), 13))
	f := func(scale float32) float32 {
		if r.IntN(8) == 0 {
			return floatEdges[r.IntN(len(floatEdges))]
		}
		return r.Float32() * scale
	}
	// Positions mostly in the grid's square, some past it (they wrap),
	// NaN (cell 0) and infinite (floor saturates).
	return fish{px: f(100) + float32(i%3-1)*60, py: f(100), vx: (f(2) - 1) * 50, vy: (f(2) - 1) * 50}
}

// addFish fills Fish.
func (wd *world) addFish(t *testing.T) {
	t.Helper()
	wd.fish = make([]tickwork.Handle, fishes)
	require.NoError(t, wd.t.Fish.Table.InsertN(wd.fish))
	for i, h := range wd.fish {
		f := initialFish(i)
		require.True(t, wd.t.Fish.Pos.Set(h, simdkit.Vec2{X: f.px, Y: f.py}))
		require.True(t, wd.t.Fish.Vel.Set(h, simdkit.Vec2{X: f.vx, Y: f.vy}))
	}
}

// TestGridAndSteer: Align, the declared steer, moves every fish's velocity
// toward the mean velocity of its cell that the hand-written Grid builds
// into the resource Cells each tick, as the model does, with 1 and 2
// workers: floor of a NaN position is cell 0, of an infinite one the
// int32 limit, and an index outside the 64 cells wraps. NaNs compare as
// NaNs: Grid's means and Align's sums add NaNs of both signs (x86's
// default NaN has the sign bit), and which one an addition of two NaNs
// returns is the compiler's choice of operand order (docs/schema.md,
// SIMD variants).
func TestGridAndSteer(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			wd := newWorld(t, tickwork.BestLane(), workers)
			model := make([]fish, fishes)
			for i := range model {
				model[i] = initialFish(i)
			}
			for fr := range frames {
				require.NoError(t, wd.w.Frame(dt))
				var sum cellSums
				for _, m := range model {
					sum.add(m.px, m.py, m.vx, m.vy)
				}
				mvx, mvy := sum.means()
				for i := range model {
					c := cellOf(model[i].px, model[i].py)
					model[i].vx += float32((mvx[c] - model[i].vx) * 0.125)
					model[i].vy += float32((mvy[c] - model[i].vy) * 0.125)
				}
				cells := wd.t.Cells.Get()
				for c := range mvx {
					require.Equal(t, nanBits(mvx[c]), nanBits(cells.VX[c]), "frame %d: cell %d", fr, c)
				}
				for i, h := range wd.fish {
					pos, _ := wd.t.Fish.Pos.Get(h)
					vel, ok := wd.t.Fish.Vel.Get(h)
					require.True(t, ok)
					m := model[i]
					require.Equal(t, [4]uint32{nanBits(m.px), nanBits(m.py), nanBits(m.vx), nanBits(m.vy)},
						[4]uint32{nanBits(pos.X), nanBits(pos.Y), nanBits(vel.X), nanBits(vel.Y)}, "frame %d: fish %d (cell %d)", fr, i, cellOf(m.px, m.py))
				}
			}
			// The grid is not trivial: several cells, each with its mean.
			cells := wd.t.Cells.Get()
			distinct := map[uint32]bool{}
			for _, v := range cells.VX {
				distinct[nanBits(v)] = true
			}
			assert.Greater(t, len(distinct), 20)
		})
	}
}

// TestResourceRead: the declared systems' reads of Flock are in their
// manifests, so a hand-written writer of Flock that nothing orders against
// them is refused by Build (the conflict check covers resources); the
// resource starts at the schema's initial values, and the untyped
// constant takes the type of its use.
func TestResourceRead(t *testing.T) {
	b := tickwork.NewBuilder()
	tabs, err := simdkit.Declare(b, simdkit.DefaultSizes())
	require.NoError(t, err)
	assert.Equal(t, simdkit.Flock{Drag: 0.99, Wall: 100, Limit: 400}, *tabs.Flock.Get())
	var half float32 = simdkit.Half
	assert.Equal(t, float32(0.5), half)
	b.Add(simdkit.NewSystems(tabs).All()...)
	b.Add(gust(tabs), grid(tabs, new([]tickwork.Handle)))
	b.Add(tickwork.System{Name: "Calm", Phase: tickwork.FixedUpdate, Declare: func(d *tickwork.Decl) tickwork.RunFunc {
		f := tickwork.WriteResource(d, tabs.Flock)
		return func(*tickwork.Context) { f.Drag = 1 }
	}})
	_, err = b.Build()
	require.ErrorIs(t, err, tickwork.ErrConflict)
	var ce *tickwork.ConflictError
	require.True(t, errors.As(err, &ce))
	var with []string
	for _, c := range ce.Conflicts {
		if c.Overlap.Datum == "resource Flock" {
			with = append(with, c.A+"/"+c.B)
		}
	}
	assert.ElementsMatch(t, []string{"Gust/Calm", "Steer/Calm", "Speeding/Calm"}, with, err.Error())
}

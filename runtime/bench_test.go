package runtime_test

import (
	"testing"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// The benchmark world: particles with a position, a velocity and an age.
// Each frame runs one fixed tick (OneTickPerFrame): move integrates every
// live particle and bounces it off [0, 1000]; expire ages them and deletes
// those older than benchLife ticks; spawn (FrameEnd) creates benchSpawn new
// ones. In steady state benchSpawn*(benchLife+1) particles live.
const (
	benchSpawn = 64
	benchLife  = 128
	benchCap   = 16384
	benchDT    = 1.0 / 64
)

type benchWorld struct {
	w       *runtime.World
	t       *ephemeral.Table
	x, v    *ephemeral.Column[float32]
	age     *ephemeral.Column[int32]
	n       int // spawn counter
	xs, vs  []float32
	kernel  func(worker, chunk int)
	frameDT float32
}

func newBenchWorld(tb testing.TB, workers int) *benchWorld {
	tb.Helper()
	bw := &benchWorld{}
	b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithPacing(runtime.OneTickPerFrame), runtime.WithFixedStep(benchDT))
	bw.t, _ = b.Table(ephemeral.TableSpec{Name: "Particle", Capacity: benchCap})
	bw.x, _ = runtime.AddColumn[float32](b, bw.t, "x")
	bw.v, _ = runtime.AddColumn[float32](b, bw.t, "v")
	bw.age, _ = runtime.AddColumn[int32](b, bw.t, "age")
	x, v, age := systems.Col(bw.x), systems.Col(bw.v), systems.Col(bw.age)
	bw.kernel = bw.move
	err := b.Add(
		systems.System{Name: "move", Phase: systems.FixedUpdate,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{x, v}},
			Run: func(ctx *systems.Context) error {
				var err error
				if bw.xs, err = systems.Write(ctx, bw.x); err != nil {
					return err
				}
				if bw.vs, err = systems.Write(ctx, bw.v); err != nil {
					return err
				}
				bw.frameDT = float32(ctx.FixedDT())
				ctx.RunKernel(bw.t.Chunks(), bw.kernel)
				return nil
			}},
		systems.System{Name: "expire", Phase: systems.FixedUpdate, After: []string{"move"},
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{age}, Deletes: []*ephemeral.Table{bw.t}},
			Run: func(ctx *systems.Context) error {
				ages, err := systems.Write(ctx, bw.age)
				if err != nil {
					return err
				}
				r, err := ctx.Recorder(bw.t)
				if err != nil {
					return err
				}
				for c := 0; c < bw.t.Chunks(); c++ {
					if bw.t.ChunkLen(c) == 0 {
						continue
					}
					base := c * bw.t.ChunkRows()
					en := bw.t.Enabled(c)
					for i := range bw.t.ChunkRows() {
						if !en.Contains(uint32(i)) {
							continue
						}
						if ages[base+i]++; ages[base+i] > benchLife {
							h, _ := bw.t.HandleAt(base + i)
							r.Delete(h)
						}
					}
				}
				return nil
			}},
		systems.System{Name: "spawn", Phase: systems.FrameEnd,
			Manifest: systems.Manifest{Creates: []*ephemeral.Table{bw.t}, Writes: []systems.ColumnRef{x, v, age}},
			Run: func(ctx *systems.Context) error {
				r, err := ctx.Recorder(bw.t)
				if err != nil {
					return err
				}
				for range benchSpawn {
					h := r.Create()
					commands.Set(r, bw.x, h, float32(bw.n%1000))
					commands.Set(r, bw.v, h, float32(bw.n%17)-8)
					bw.n++
				}
				return nil
			}},
	)
	if err != nil {
		tb.Fatal(err)
	}
	if bw.w, err = b.Build(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = bw.w.Close() })
	return bw
}

func (bw *benchWorld) move(_, c int) {
	if bw.t.ChunkLen(c) == 0 {
		return
	}
	base := c * bw.t.ChunkRows()
	xs, vs, dt := bw.xs, bw.vs, bw.frameDT
	ephemeral.EachRun(bw.t.Enabled(c), func(lo, hi int) {
		for r := base + lo; r < base+hi; r++ {
			x := xs[r] + vs[r]*dt
			if x < 0 || x > 1000 {
				vs[r] = -vs[r]
			}
			xs[r] = x
		}
	})
}

// benchLoop is the same work written by hand: plain slices, a live flag
// and the lowest-free-slot policy of ephemeral, no scheduler.
type benchLoop struct {
	x, v  []float32
	age   []int32
	live  []bool
	n     int
	count int
}

func newBenchLoop() *benchLoop {
	return &benchLoop{x: make([]float32, benchCap), v: make([]float32, benchCap), age: make([]int32, benchCap), live: make([]bool, benchCap)}
}

func (l *benchLoop) frame() {
	const dt = float32(benchDT)
	for r := range l.live {
		if !l.live[r] {
			continue
		}
		x := l.x[r] + l.v[r]*dt
		if x < 0 || x > 1000 {
			l.v[r] = -l.v[r]
		}
		l.x[r] = x
	}
	for r := range l.live {
		if l.live[r] {
			if l.age[r]++; l.age[r] > benchLife {
				l.live[r] = false
				l.count--
			}
		}
	}
	slot := 0
	for range benchSpawn {
		for l.live[slot] {
			slot++
		}
		l.live[slot], l.x[slot], l.v[slot], l.age[slot] = true, float32(l.n%1000), float32(l.n%17)-8, 0
		l.n++
		l.count++
	}
}

// TestBenchWorldsAgree: the runtime world and the hand-written loop do the
// same work and end in the same state.
func TestBenchWorldsAgree(t *testing.T) {
	bw := newBenchWorld(t, 2)
	l := newBenchLoop()
	for range 300 {
		if err := bw.w.Frame(benchDT); err != nil {
			t.Fatal(err)
		}
		l.frame()
	}
	if bw.t.Len() != l.count || l.count != benchSpawn*(benchLife+1) {
		t.Fatalf("live: world %d, loop %d, want %d", bw.t.Len(), l.count, benchSpawn*(benchLife+1))
	}
	for r := range l.live {
		_, ok := bw.t.HandleAt(r)
		if ok != l.live[r] || (ok && (bw.x.All()[r] != l.x[r] || bw.v.All()[r] != l.v[r] || bw.age.All()[r] != l.age[r])) {
			t.Fatalf("row %d differs: world %v %v %v %v, loop %v %v %v %v", r,
				ok, bw.x.All()[r], bw.v.All()[r], bw.age.All()[r], l.live[r], l.x[r], l.v[r], l.age[r])
		}
	}
}

// BenchmarkFrame compares one frame of the runtime (8256 live particles,
// 64 created and 64 deleted per frame, one fixed tick) with the same work
// as a hand-written loop, in the same run.
func BenchmarkFrame(b *testing.B) {
	for _, bc := range []struct {
		name    string
		workers int
	}{{"tickwork", 1}, {"tickwork-2workers", 2}} {
		b.Run(bc.name, func(b *testing.B) {
			bw := newBenchWorld(b, bc.workers)
			for range 2 * benchLife {
				_ = bw.w.Frame(benchDT)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := bw.w.Frame(benchDT); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bw.t.Len()), "rows")
		})
	}
	b.Run("loop", func(b *testing.B) {
		l := newBenchLoop()
		for range 2 * benchLife {
			l.frame()
		}
		b.ReportAllocs()
		for b.Loop() {
			l.frame()
		}
		b.ReportMetric(float64(l.count), "rows")
	})
}

package runtime_test

import (
	"testing"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
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
	w    *runtime.World
	t    *ephemeral.Table
	x, v *ephemeral.Column[float32]
	age  *ephemeral.Column[int32]
	n    int // spawn counter
}

// benchMove is the move kernel's state, passed by value to Parallel.
type benchMove struct {
	q  ephemeral.Query2[float32, float32]
	dt float32
}

func newBenchWorld(tb testing.TB, workers int) *benchWorld {
	tb.Helper()
	bw := &benchWorld{}
	b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithPacing(scheduler.OneTickPerFrame), runtime.WithFixedStep(benchDT))
	bw.t = b.Table(ephemeral.TableSpec{Name: "Particle", Capacity: benchCap})
	bw.x = runtime.AddColumn[float32](b, bw.t, "x")
	bw.v = runtime.AddColumn[float32](b, bw.t, "v")
	bw.age = runtime.AddColumn[int32](b, bw.t, "age")
	b.System("move", systems.FixedUpdate, func(s *systems.Decl) systems.RunFunc {
		q := systems.NewQuery2(systems.Write(s, bw.x), systems.Write(s, bw.v))
		return func(ctx *systems.Context) {
			systems.Parallel(ctx, bw.t.Chunks(), benchMove{q, float32(ctx.DT())}, (*benchMove).chunk)
		}
	})
	b.System("expire", systems.FixedUpdate, func(s *systems.Decl) systems.RunFunc {
		s.After("move")
		q := systems.NewQuery1(systems.Write(s, bw.age))
		rec := systems.Record(s, bw.t)
		return func(*systems.Context) {
			for r, h := range q.All() {
				age := r.Get()
				if *age++; *age > benchLife {
					rec.Delete(h)
				}
			}
		}
	})
	b.System("spawn", systems.FrameEnd, func(s *systems.Decl) systems.RunFunc {
		sp := systems.NewSpawner2(s, bw.x, bw.v)
		return func(*systems.Context) {
			for range benchSpawn {
				sp.Spawn(float32(bw.n%1000), float32(bw.n%17)-8)
				bw.n++
			}
		}
	})
	var err error
	if bw.w, err = b.Build(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = bw.w.Close() })
	return bw
}

func (k *benchMove) chunk(_, c int) {
	for r := range k.q.Chunk(c) {
		x, v := r.Get()
		nx := *x + float32(*v*k.dt)
		if nx < 0 || nx > 1000 {
			*v = -*v
		}
		*x = nx
	}
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
		x := l.x[r] + float32(l.v[r]*dt)
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

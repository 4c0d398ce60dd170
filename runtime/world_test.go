package runtime_test

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// churn is a world with one table and two ordered systems: spawn creates
// rows every frame, age ages them and deletes the old ones.
type churn struct {
	w   *runtime.World
	t   *ephemeral.Table
	age *ephemeral.Column[int32]
}

func newChurn(tb testing.TB, opts ...runtime.Option) *churn {
	tb.Helper()
	c := &churn{}
	b := runtime.NewBuilder(opts...)
	c.t, _ = b.Table(ephemeral.TableSpec{Name: "Particle", Capacity: 512, ChunkRows: 64})
	c.age, _ = runtime.AddColumn[int32](b, c.t, "age")
	age := systems.Col(c.age)
	_ = b.Add(systems.System{
		Name: "spawn", Phase: systems.Update,
		Manifest: systems.Manifest{Creates: []*ephemeral.Table{c.t}, Writes: []systems.ColumnRef{age}},
		Run: func(ctx *systems.Context) error {
			r, err := ctx.Recorder(c.t)
			if err != nil {
				return err
			}
			for range 8 {
				commands.Set(r, c.age, r.Create(), 0)
			}
			return nil
		},
	}, systems.System{
		Name: "age", Phase: systems.Update, After: []string{"spawn"},
		Manifest: systems.Manifest{Writes: []systems.ColumnRef{age}, Deletes: []*ephemeral.Table{c.t}},
		Run: func(ctx *systems.Context) error {
			ages, err := systems.Write(ctx, c.age)
			if err != nil {
				return err
			}
			r, err := ctx.Recorder(c.t)
			if err != nil {
				return err
			}
			for row := range ages {
				h, ok := c.t.HandleAt(row)
				if !ok {
					continue
				}
				if ages[row]++; ages[row] > 5 {
					r.Delete(h)
				}
			}
			return nil
		},
	})
	w, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = w.Close() })
	c.w = w
	return c
}

func TestChurnZeroAlloc(t *testing.T) {
	c := newChurn(t)
	for range 20 { // warm up: buffers grow to their working size
		if err := c.w.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(1000, func() {
		if err := c.w.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("a frame allocates %v times, want 0", n)
	}
	// Steady state: 8 spawned per frame, each lives 6 frames.
	if got := c.t.Len(); got != 48 {
		t.Fatalf("%d live rows, want 48", got)
	}
	r := c.w.Report()
	if r.Commands.Created != 8 || r.Commands.Deleted != 8 || r.AllocBytes != 0 || r.CommandsDropped() != 0 {
		t.Fatalf("report: created %d deleted %d alloc %d B dropped %d", r.Commands.Created, r.Commands.Deleted, r.AllocBytes, r.CommandsDropped())
	}
	if got := c.w.Frames(); got != 20+1000+1 { // AllocsPerRun runs once more to warm up
		t.Fatalf("Frames() = %d", got)
	}
}

// goroutinesAtMost polls runtime.NumGoroutine every millisecond, for up to
// 2 s, until it is at most want, and returns the last count. A pool's
// goroutines end a moment after its Close returns (errgroup.Wait returns
// when their functions have, before they exit), so a count taken right
// after Close may be briefly high. (Not assert.Eventually: it starts a
// goroutine of its own.)
func goroutinesAtMost(want int) int {
	deadline := time.Now().Add(2 * time.Second)
	n := goruntime.NumGoroutine()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		n = goruntime.NumGoroutine()
	}
	return n
}

// settledGoroutines returns the goroutine count once it has stopped
// falling (goroutines of earlier tests' pools may still be exiting): the
// lowest count seen, after it has held for 20 polls of 1 ms, or after 2 s.
func settledGoroutines() int {
	deadline := time.Now().Add(2 * time.Second)
	low, held := goruntime.NumGoroutine(), 0
	for held < 20 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		if n := goruntime.NumGoroutine(); n < low {
			low, held = n, 0
		} else {
			held++
		}
	}
	return low
}

func TestCloseStopsGoroutines(t *testing.T) {
	before := settledGoroutines()
	a := newChurn(t, runtime.WithWorkers(4))
	b := newChurn(t, runtime.WithWorkers(3))
	require.GreaterOrEqual(t, goruntime.NumGoroutine(), before+5, "two pools start 3 + 2 goroutines")
	for range 3 {
		require.NoError(t, a.w.Frame(0.01))
	}
	// Worlds are independent: b has not run.
	assert.Equal(t, uint64(0), b.w.Frames())
	assert.Equal(t, 0, b.t.Len())
	assert.Equal(t, 24, a.t.Len(), "3 frames of 8 spawns, none old enough to die")
	for _, w := range []*runtime.World{a.w, b.w} {
		require.NoError(t, w.Close())
		require.NoError(t, w.Close(), "second Close")
		require.ErrorIs(t, w.Frame(0.01), runtime.ErrClosed)
	}
	assert.LessOrEqual(t, goroutinesAtMost(before), before, "goroutines after Close")
}

func TestOptions(t *testing.T) {
	for name, opt := range map[string]runtime.Option{
		"workers 0":   runtime.WithWorkers(0),
		"workers big": runtime.WithWorkers(1 << 20),
		"pacing":      runtime.WithPacing(9),
		"step":        runtime.WithFixedStep(0),
		"ticks":       runtime.WithMaxTicksPerFrame(0),
		"window":      runtime.WithReportWindow(0),
		"records":     runtime.WithCommandRecords(0),
	} {
		_, err := runtime.NewBuilder(opt).Build()
		var oe *runtime.OptionError
		if !errors.As(err, &oe) || !errors.Is(err, runtime.ErrOption) {
			t.Errorf("%s: Build = %v, want an *OptionError", name, err)
		}
	}
	w, err := runtime.NewBuilder(runtime.WithNoPersistence(), runtime.WithWorkers(2), runtime.WithPacing(runtime.OneTickPerFrame),
		runtime.WithFixedStep(0.02), runtime.WithMaxTicksPerFrame(2), runtime.WithReportWindow(16), runtime.WithCommandRecords(8)).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Workers() != 2 || w.Persistence() != runtime.NoPersistence || w.Scheduler().FixedStep() != 0.02 {
		t.Fatalf("options not applied: %d workers, step %v", w.Workers(), w.Scheduler().FixedStep())
	}
	if err := w.Frame(1); err != nil || w.Time().Ticks != 1 {
		t.Fatalf("OneTickPerFrame: err %v, %d ticks", err, w.Time().Ticks)
	}
}

func TestBuildErrors(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(4)) // a failed Build stops the pool it started
	tab, _ := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	x, _ := runtime.AddColumn[float32](b, tab, "x")
	w := systems.System{Name: "w", Phase: systems.Update, Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(x)}}, Run: func(*systems.Context) error { return nil }}
	r := w
	r.Name = "r"
	_ = b.Add(w, r)
	before := settledGoroutines()
	_, err := b.Build()
	if !errors.Is(err, scheduler.ErrConflict) {
		t.Fatalf("Build = %v, want a conflict", err)
	}
	if _, err := b.Build(); !errors.Is(err, runtime.ErrBuilt) {
		t.Fatalf("second Build = %v", err)
	}
	if _, err := b.Table(ephemeral.TableSpec{Name: "U", Capacity: 8}); !errors.Is(err, runtime.ErrBuilt) {
		t.Fatalf("Table after Build = %v", err)
	}
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("failed Build left goroutines: %d, want %d", got, before)
	}

	b = runtime.NewBuilder()
	if _, err := b.Table(ephemeral.TableSpec{Name: "", Capacity: 8}); !errors.Is(err, ephemeral.ErrDefinition) {
		t.Fatalf("Table = %v", err)
	}
	if _, err := b.Build(); !errors.Is(err, ephemeral.ErrDefinition) {
		t.Fatalf("Build after a failed Table = %v, want the first error", err)
	}
	b = runtime.NewBuilder()
	if _, err := runtime.AddEvents[int](b, events.Spec{Name: "e"}); !errors.Is(err, events.ErrDefinition) {
		t.Fatalf("AddEvents = %v", err)
	}
	b = runtime.NewBuilder()
	if err := b.Add(systems.System{Name: "x"}); !errors.Is(err, systems.ErrNoRun) {
		t.Fatalf("Add = %v", err)
	}
}

// swarm is a world whose FixedUpdate system runs a parallel kernel: every
// chunk moves its rows, records deletes and creates through per-worker
// recorders and emits events through per-worker segments.
type swarm struct {
	w      *runtime.World
	t      *ephemeral.Table
	x, v   *ephemeral.Column[int64]
	bounce *events.Table[int64]
	seen   []int64 // every event read, in order

	// per-run state of the kernel, set by the system before pool.Run
	xs, vs []int64
	recs   systems.WorkerRecorders
	par    *events.Parallel[int64]
	kernel func(worker, chunk int)
}

func newSwarm(tb testing.TB, workers int) *swarm {
	tb.Helper()
	s := &swarm{}
	b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithPacing(runtime.OneTickPerFrame))
	s.t, _ = b.Table(ephemeral.TableSpec{Name: "Mote", Capacity: 2048, ChunkRows: 64})
	s.x, _ = runtime.AddColumn[int64](b, s.t, "x")
	s.v, _ = runtime.AddColumn[int64](b, s.t, "v")
	s.bounce, _ = runtime.AddEvents[int64](b, events.Spec{Name: "bounce", Capacity: 4096})
	s.kernel = s.chunk
	seed := systems.System{Name: "seed", Phase: systems.FrameStart,
		Manifest: systems.Manifest{Creates: []*ephemeral.Table{s.t}, Writes: []systems.ColumnRef{systems.Col(s.x), systems.Col(s.v)},
			Consumes: []events.Buffer{s.bounce}},
		Run: func(ctx *systems.Context) error {
			evs, err := systems.Reader(ctx, s.bounce)
			if err != nil {
				return err
			}
			s.seen = append(s.seen, evs...)
			if ctx.Frame() != 0 {
				return nil
			}
			r, err := ctx.Recorder(s.t)
			if err != nil {
				return err
			}
			for i := range 1500 {
				h := r.Create()
				commands.Set(r, s.x, h, int64(i*7919%1000))
				commands.Set(r, s.v, h, int64(i%13)-6)
			}
			return nil
		}}
	move := systems.System{Name: "move", Phase: systems.FixedUpdate,
		Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(s.x), systems.Col(s.v)},
			Creates: []*ephemeral.Table{s.t}, Deletes: []*ephemeral.Table{s.t}, Emits: []events.Buffer{s.bounce}},
		Run: func(ctx *systems.Context) error {
			var err error
			if s.xs, err = systems.Write(ctx, s.x); err != nil {
				return err
			}
			if s.vs, err = systems.Write(ctx, s.v); err != nil {
				return err
			}
			if s.recs, err = ctx.WorkerRecorders(s.t); err != nil {
				return err
			}
			if s.par, err = systems.ParallelEmitter(ctx, s.bounce); err != nil {
				return err
			}
			ctx.RunKernel(s.t.Chunks(), s.kernel)
			return nil
		}}
	if err := b.Add(seed, move); err != nil {
		tb.Fatal(err)
	}
	w, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = w.Close() })
	s.w = w
	return s
}

// chunk is the kernel: rows move by v and bounce off [0, 1000]; a bounce
// emits the row's x and, at odd bounces of a chunk in a tick, the row dies and
// a new one is born.
func (s *swarm) chunk(w, c int) {
	n := s.t.ChunkRows()
	base := c * n
	seg := s.par.Worker(w)
	seg.Begin(c)
	rec := s.recs.Chunk(w, c)
	bounces := 0
	ephemeral.EachRun(s.t.Enabled(c), func(lo, hi int) {
		for r := base + lo; r < base+hi; r++ {
			s.xs[r] += s.vs[r]
			if s.xs[r] < 0 || s.xs[r] > 1000 {
				s.vs[r] = -s.vs[r]
				_ = seg.Emit(s.xs[r]*4096 + int64(r))
				if bounces++; bounces%2 == 1 {
					// Create before Delete: the newborn takes the lowest
					// slot free at its playback, which the deletes played
					// before it (other chunks') decide, so the rows depend
					// on the merge playing chunks in order.
					h, _ := s.t.HandleAt(r)
					nh := rec.Create()
					commands.Set(rec, s.x, nh, int64(r%1000))
					commands.Set(rec, s.v, nh, int64(r%11)-5)
					rec.Delete(h)
				}
			}
		}
	})
}

// state is the swarm's full observable state: every live row's handle
// (slot and generation: the tag is each world's own) and values, and every
// event read.
func (s *swarm) state() string {
	out := fmt.Sprint(s.seen, "|")
	for row := 0; row < s.t.Chunks()*s.t.ChunkRows(); row++ {
		if h, ok := s.t.HandleAt(row); ok {
			out += fmt.Sprint(h.Index(), ":", h.Generation(), s.x.All()[row], s.v.All()[row], ";")
		}
	}
	return out
}

// TestParallelKernelDeterministic: a kernel that writes rows, records
// creates and deletes through worker recorders and emits events in
// parallel leaves the same rows, handles and event log for 1, 2, 4 and 8
// workers, with the pool's normal split and with chunks dealt out reversed
// or shuffled (internal/chunkorder), all equal to one worker's.
func TestParallelKernelDeterministic(t *testing.T) {
	var want string
	for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%v/workers=%d", o, workers), func(t *testing.T) {
				restore := chunkorder.Set(o)
				s := newSwarm(t, workers) // its pool takes the order
				restore()
				created, deleted := 0, 0
				for range 120 {
					if err := s.w.Frame(1.0 / 60); err != nil {
						t.Fatal(err)
					}
					created += s.w.Report().Commands.Created
					deleted += s.w.Report().Commands.Deleted
				}
				if len(s.seen) == 0 || created <= 1500 || deleted == 0 {
					t.Fatalf("the kernel did nothing (%d events, %d created, %d deleted)", len(s.seen), created, deleted)
				}
				got := s.state()
				if want == "" {
					t.Logf("%d events, %d created, %d deleted", len(s.seen), created, deleted)
					want = got
					return
				}
				if got != want {
					t.Fatalf("state differs from the normal split's, workers 1")
				}
			})
		}
	}
}

func TestParallelKernelZeroAlloc(t *testing.T) {
	s := newSwarm(t, 2)
	for range 30 {
		if err := s.w.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	s.seen = slices.Grow(s.seen[:0], 1<<16)
	if n := testing.AllocsPerRun(100, func() {
		if err := s.w.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		s.seen = s.seen[:0]
	}); n != 0 {
		t.Fatalf("a frame with a parallel kernel allocates %v times, want 0", n)
	}
}

func TestWorldResolve(t *testing.T) {
	var made ephemeral.Handle
	b := runtime.NewBuilder()
	tab, _ := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	_ = b.Add(systems.System{Name: "make", Phase: systems.FrameEnd, Manifest: systems.Manifest{Creates: []*ephemeral.Table{tab}},
		Run: func(ctx *systems.Context) error {
			if ctx.Frame() == 0 {
				r, _ := ctx.Recorder(tab)
				made = r.Create()
			}
			return nil
		}})
	w, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Frame(0); err != nil {
		t.Fatal(err)
	}
	h, ok := w.Resolve(made)
	if !ok || !tab.IsAlive(h) || h == made {
		t.Fatalf("Resolve(%v) = %v, %v", made, h, ok)
	}
	if got := w.Order(systems.FrameEnd); !slices.Equal(got, []string{"make"}) || len(w.Tables()) != 1 {
		t.Fatalf("Order = %v", got)
	}
}

// TestUndeclaredAccessFailsFrame: a system asking for data outside its
// manifest gets an *AccessError, which stops the frame as a SystemError.
func TestUndeclaredAccessFailsFrame(t *testing.T) {
	b := runtime.NewBuilder()
	tab, _ := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	x, _ := runtime.AddColumn[float32](b, tab, "x")
	ev, _ := runtime.AddEvents[int](b, events.Spec{Name: "e", Capacity: 4})
	var errs []error
	_ = b.Add(systems.System{Name: "sneaky", Phase: systems.Update,
		Manifest: systems.Manifest{Reads: []systems.ColumnRef{systems.Col(x)}},
		Run: func(ctx *systems.Context) error {
			_, err1 := systems.Write(ctx, x)
			_, err2 := ctx.Recorder(tab)
			_, err3 := systems.NewEmitter(ctx, ev)
			_, err4 := systems.Reader(ctx, ev)
			errs = []error{err1, err2, err3, err4}
			return err1
		}})
	w, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	err = w.Frame(0.01)
	var ae *systems.AccessError
	if !errors.Is(err, scheduler.ErrSystem) || !errors.As(err, &ae) || ae.What != "T.x" || ae.Access != systems.AccessWrite {
		t.Fatalf("Frame = %v, want a SystemError wrapping the AccessError for T.x", err)
	}
	for i, e := range errs {
		if !errors.Is(e, systems.ErrNotDeclared) {
			t.Errorf("acquisition %d = %v, want ErrNotDeclared", i, e)
		}
	}
}

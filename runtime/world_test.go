package runtime_test

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/internal/workerpolicy"
	"github.com/tickwork/tickwork/kernels"
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
	c.t = b.Table(ephemeral.TableSpec{Name: "Particle", Capacity: 512, ChunkRows: 64})
	c.age = runtime.AddColumn[int32](b, c.t, "age")
	b.System("spawn", systems.Update, func(s *systems.Decl) systems.RunFunc {
		sp := systems.NewSpawner1(s, c.age)
		return func(*systems.Context) {
			for range 8 {
				sp.Spawn(0)
			}
		}
	})
	b.System("age", systems.Update, func(s *systems.Decl) systems.RunFunc {
		s.After("spawn")
		q := systems.NewQuery1(systems.Write(s, c.age))
		rec := systems.Record(s, c.t)
		return func(*systems.Context) {
			for r, h := range q.All() {
				age := r.Get()
				if *age++; *age > 5 {
					rec.Delete(h) // the row the scan is at: one call
				}
			}
		}
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
	w, err := runtime.NewBuilder(runtime.WithWorkers(2), runtime.WithPacing(scheduler.OneTickPerFrame),
		runtime.WithFixedStep(0.02), runtime.WithMaxTicksPerFrame(2), runtime.WithReportWindow(16), runtime.WithCommandRecords(8)).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Workers() != 2 || w.Time().Step != 20*time.Millisecond {
		t.Fatalf("options not applied: %d workers, step %v", w.Workers(), w.Time().Step)
	}
	if err := w.Frame(1); err != nil || w.Time().Ticks != 1 {
		t.Fatalf("OneTickPerFrame: err %v, %d ticks", err, w.Time().Ticks)
	}
}

// usedWorkers counts the workers that ran a kernel; a chunk waits until
// want workers have started one (or 2 s have passed).
type usedWorkers struct {
	n       *[kernels.MaxWorkers]atomic.Int32
	started *atomic.Int32
	want    int32
}

func (u *usedWorkers) chunk(w, _ int) {
	if u.n[w].Add(1) == 1 {
		u.started.Add(1)
	}
	for deadline := time.Now().Add(2 * time.Second); u.started.Load() < u.want && time.Now().Before(deadline); {
		goruntime.Gosched()
	}
}

// count returns how many workers ran since the last count, and resets.
func (u *usedWorkers) count() int {
	n := 0
	for w := range u.n {
		if u.n[w].Swap(0) > 0 {
			n++
		}
	}
	u.started.Store(0)
	return n
}

// TestDefaultWorkers: a world has GOMAXPROCS workers by default and its
// kernels follow the default policy; WithKernelPolicy sets the world's
// policy and systems.ParallelPolicy overrides it for one run. Work claiming
// lets a fast worker take every chunk, so each kernel's chunks wait until
// as many workers as expected have started one (or 2 s): a run offered to
// fewer workers counts fewer, one offered to more counts more.
func TestDefaultWorkers(t *testing.T) {
	const chunks = 12
	used := func(wantWorld, wantOwn int, opts ...runtime.Option) (workers, byWorld, byOwn int) {
		u := usedWorkers{n: new([kernels.MaxWorkers]atomic.Int32), started: new(atomic.Int32)}
		b := runtime.NewBuilder(opts...)
		b.System("look", systems.Update, func(*systems.Decl) systems.RunFunc {
			return func(ctx *systems.Context) {
				u.want = int32(wantWorld)
				systems.Parallel(ctx, chunks, u, (*usedWorkers).chunk)
				byWorld = u.count()
				u.want = int32(wantOwn)
				systems.ParallelPolicy(ctx, kernels.Policy{Grain: 1, Max: 3}, chunks, u, (*usedWorkers).chunk)
				byOwn = u.count()
			}
		})
		w, err := b.Build()
		require.NoError(t, err)
		defer w.Close()
		require.NoError(t, w.Frame(0.01))
		return w.Workers(), byWorld, byOwn
	}
	procs := min(goruntime.GOMAXPROCS(0), kernels.MaxWorkers)
	wantWorld, wantOwn := kernels.Policy{}.Workers(chunks, procs, procs), min(3, procs)
	n, world, own := used(wantWorld, wantOwn)
	assert.Equal(t, procs, n, "GOMAXPROCS workers by default")
	assert.Equal(t, wantWorld, world)
	assert.Equal(t, wantOwn, own)
	n, world, own = used(1, 3, runtime.WithWorkers(3), runtime.WithKernelPolicy(kernels.Policy{Grain: 7, Max: 1}))
	assert.Equal(t, 3, n)
	assert.Equal(t, 1, world, "the world's policy: at most 1 worker")
	assert.Equal(t, 3, own, "the run's own policy")
}

func TestBuildErrors(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(4)) // a failed Build stops the pool it started
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	x := runtime.AddColumn[float32](b, tab, "x")
	b.System("w", systems.Update, declare(func(s *systems.Decl) { systems.Write(s, x) }))
	b.System("r", systems.Update, declare(func(s *systems.Decl) { systems.Write(s, x) }))
	before := settledGoroutines()
	_, err := b.Build()
	if !errors.Is(err, scheduler.ErrConflict) {
		t.Fatalf("Build = %v, want a conflict", err)
	}
	if _, err := b.Build(); !errors.Is(err, runtime.ErrBuilt) {
		t.Fatalf("second Build = %v", err)
	}
	if tab := b.Table(ephemeral.TableSpec{Name: "U", Capacity: 8}); tab != nil || !errors.Is(b.Err(), runtime.ErrBuilt) {
		t.Fatalf("Table after Build = %v, %v", tab, b.Err())
	}
	if got := goroutinesAtMost(before); got > before {
		t.Fatalf("failed Build left goroutines: %d, want %d", got, before)
	}

	b = runtime.NewBuilder()
	b.Table(ephemeral.TableSpec{Name: "", Capacity: 8})
	if _, err := b.Build(); !errors.Is(err, ephemeral.ErrDefinition) {
		t.Fatalf("Build after a failed Table = %v, want the first error", err)
	}
	b = runtime.NewBuilder()
	runtime.AddEvents[int](b, events.Spec{Name: "e"})
	if err := b.Err(); !errors.Is(err, events.ErrDefinition) {
		t.Fatalf("AddEvents = %v", err)
	}
	b = runtime.NewBuilder()
	b.Add(systems.System{Name: "x"})
	if err := b.Err(); !errors.Is(err, systems.ErrNoDeclare) {
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
}

// moveKernel is the swarm kernel's state, passed by value to Parallel.
type moveKernel struct {
	q   ephemeral.Query2[int64, int64]
	rec *systems.Recorder
	sp  systems.Spawner2[int64, int64]
	em  *systems.ParallelEmitter[int64]
}

func newSwarm(tb testing.TB, workers int) *swarm {
	tb.Helper()
	s := &swarm{}
	b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithPacing(scheduler.OneTickPerFrame))
	s.t = b.Table(ephemeral.TableSpec{Name: "Mote", Capacity: 2048, ChunkRows: 64})
	s.x = runtime.AddColumn[int64](b, s.t, "x")
	s.v = runtime.AddColumn[int64](b, s.t, "v")
	s.bounce = runtime.AddEvents[int64](b, events.Spec{Name: "bounce", Capacity: 4096})
	b.System("seed", systems.FrameStart, func(d *systems.Decl) systems.RunFunc {
		in := systems.Consume(d, s.bounce)
		sp := systems.NewSpawner2(d, s.x, s.v)
		return func(ctx *systems.Context) {
			s.seen = append(s.seen, in.Read()...)
			if ctx.Frame() != 0 {
				return
			}
			for i := range 1500 {
				sp.Spawn(int64(i*7919%1000), int64(i%13)-6)
			}
		}
	})
	b.System("move", systems.FixedUpdate, func(d *systems.Decl) systems.RunFunc {
		k := moveKernel{
			q:   systems.NewQuery2(systems.Write(d, s.x), systems.Write(d, s.v)),
			rec: systems.Record(d, s.t),
			sp:  systems.NewSpawner2(d, s.x, s.v),
			em:  systems.EmitParallel(d, s.bounce),
		}
		return func(ctx *systems.Context) { systems.Parallel(ctx, s.t.Chunks(), k, (*moveKernel).chunk) }
	})
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
func (k *moveKernel) chunk(w, c int) {
	seg := k.em.Worker(w, c)
	rec := k.rec.Worker(w, c)
	sp := k.sp.Worker(w, c)
	bounces := 0
	for r, h := range k.q.Chunk(c) {
		x, v := r.Get()
		*x += *v
		if *x < 0 || *x > 1000 {
			row := int64(h.Index())
			*v = -*v
			seg.Emit(*x*4096 + row)
			if bounces++; bounces%2 == 1 {
				// Create before Delete: the newborn takes the lowest slot
				// free at its playback, which the deletes played before it
				// (other chunks') decide, so the rows depend on the merge
				// playing chunks in order.
				sp.Spawn(row%1000, row%11-5)
				rec.Delete(h)
			}
		}
	}
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
				unforce := workerpolicy.Force() // every Run on every worker, however few the chunks
				s := newSwarm(t, workers)       // its pool takes the order and the policy
				unforce()
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
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	b.System("make", systems.FrameEnd, func(s *systems.Decl) systems.RunFunc {
		r := systems.Record(s, tab)
		return func(ctx *systems.Context) {
			if ctx.Frame() == 0 {
				made = r.Create()
			}
		}
	})
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

// TestAccessorAfterDeclaration: an accessor asked for in the body, after
// the declaration returned, panics with the fix instead of silently
// escaping the manifest.
func TestAccessorAfterDeclaration(t *testing.T) {
	b := runtime.NewBuilder()
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
	x := runtime.AddColumn[float32](b, tab, "x")
	var late func()
	b.System("late", systems.Update, func(s *systems.Decl) systems.RunFunc {
		late = func() { systems.Write(s, x) }
		return noop
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	assert.PanicsWithValue(t, `systems: Write with an accessor of system "late" after its declaration returned `+
		`(from a run body, or from another system's DeclareFunc): each system asks for its own accessors `+
		`in its DeclareFunc and uses them only in the body it returns`, late)
}

// TestSetupInsertN: the initial entities go in before the first frame with
// a host query's InsertN: values set in place, 0 bytes per row once the
// world is built (byte count of inserting 20 000 rows).
func TestSetupInsertN(t *testing.T) {
	b := runtime.NewBuilder()
	tab := b.Table(ephemeral.TableSpec{Name: "P", Capacity: 100_000})
	x := runtime.AddColumn[float32](b, tab, "x")
	v := runtime.AddColumn[float32](b, tab, "v")
	var sum float64
	b.System("move", systems.FixedUpdate, func(s *systems.Decl) systems.RunFunc {
		q := systems.NewQuery2(systems.Write(s, x), systems.Read(s, v))
		return func(ctx *systems.Context) {
			for r := range q.All() {
				px, pv := r.Get()
				*px += *pv
				sum += float64(*px)
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	q, err := ephemeral.NewQuery2(x, v)
	require.NoError(t, err)
	i := float32(0)
	fill := func(_ ephemeral.Handle, px, pv *float32) { *px, *pv, i = i, 1, i+1 }
	// Bytes allocated by the whole process while inserting 20 000 rows: the
	// least of three tries, so that another goroutine's allocation (the test
	// framework's, the race detector's) does not count.
	least := uint64(1 << 62)
	for try := range 3 {
		if try > 0 {
			tab.DeleteN(liveHandles(tab))
			i = 0
		}
		var ms0, ms1 goruntime.MemStats
		goruntime.ReadMemStats(&ms0)
		require.NoError(t, q.InsertN(20_000, fill))
		goruntime.ReadMemStats(&ms1)
		least = min(least, ms1.TotalAlloc-ms0.TotalAlloc)
	}
	assert.Zero(t, least, "bytes allocated inserting 20 000 rows")
	assert.Equal(t, 20_000, tab.Len())
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, float64(20_000*(20_000+1)/2), sum, "the first frame sees every row with its values")
}

// TestParallelState: a Parallel kernel's state is copied per call into a
// slot of the system, so a run allocates nothing, and every worker sees the
// run's state.
func TestParallelState(t *testing.T) {
	type state struct {
		mul  int64
		hits []int64
	}
	hits := make([]int64, 64)
	b := runtime.NewBuilder(runtime.WithWorkers(2))
	var mul int64 = 1
	b.System("k", systems.Update, func(*systems.Decl) systems.RunFunc {
		return func(ctx *systems.Context) {
			systems.Parallel(ctx, len(hits), state{mul, hits}, func(st *state, _, c int) { st.hits[c] += st.mul })
			systems.Parallel(ctx, 3, state{2 * mul, hits}, func(st *state, _, c int) { st.hits[c] += st.mul })
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(0.01))
	mul = 10
	allocs := testing.AllocsPerRun(50, func() { require.NoError(t, w.Frame(0.01)) })
	assert.Zero(t, allocs)
	// One frame with mul 1, then 51 (AllocsPerRun warms up once) with 10.
	assert.Equal(t, 1+51*10+2*(1+51*10), int(hits[0]), "both call sites ran with the run's state")
	assert.Equal(t, 1+51*10, int(hits[63]))
}

func liveHandles(tab *ephemeral.Table) []ephemeral.Handle {
	var hs []ephemeral.Handle
	for row := range tab.Chunks() * tab.ChunkRows() {
		if h, ok := tab.HandleAt(row); ok {
			hs = append(hs, h)
		}
	}
	return hs
}

// TestRunChunks: between frames RunChunks calls fn once for every chunk
// (on up to the pool's workers); on a closed world it still calls every
// chunk, inline on worker 0, in ascending order.
func TestRunChunks(t *testing.T) {
	for _, workers := range []int{1, 4} {
		c := newChurn(t, runtime.WithWorkers(workers))
		require.NoError(t, c.w.Frame(1.0/60))
		var seen [40]atomic.Int32
		var maxWorker atomic.Int32
		require.True(t, c.w.RunChunks(len(seen), func(w, chunk int) {
			seen[chunk].Add(1)
			if int32(w) > maxWorker.Load() {
				maxWorker.Store(int32(w))
			}
		}), "between frames the pool runs it")
		for i := range seen {
			require.Equal(t, int32(1), seen[i].Load(), "workers %d: chunk %d", workers, i)
		}
		require.Less(t, int(maxWorker.Load()), workers)
		require.NoError(t, c.w.Close())
		var order []int
		require.False(t, c.w.RunChunks(5, func(w, chunk int) {
			require.Zero(t, w)
			order = append(order, chunk)
		}), "a closed world runs it inline")
		require.Equal(t, []int{0, 1, 2, 3, 4}, order, "closed world: inline, ascending")
	}
}

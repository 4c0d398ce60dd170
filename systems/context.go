package systems

import (
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
)

// Env is the frame-wide state that a scheduler shares with the Contexts of
// its systems: the kernel pool, the command playback (for Resolve), the fixed
// step and the frame and tick counters. The scheduler owns it and updates it
// between system runs; systems read it through their Context.
//
// Not safe for concurrent use: only the scheduler's goroutine calls its
// setters, never while a system runs.
type Env struct {
	pool     *kernels.Pool
	playback *commands.Playback
	fixedDT  float64 // seconds
	dt       float64 // seconds
	frame    uint64
	tick     uint64

	inline bool // a RunKernel without a pool is running (nested ones panic)
}

// NewEnv returns an Env over pool (nil: kernels run inline on the calling
// goroutine, one worker) and playback, which makes and plays the systems'
// command buffers (nil: Context.Resolve returns every handle as is, with
// true, and no system may record), with a fixed step of fixedDT seconds. The frame
// and tick counters start at 0. The Env does not own the pool.
func NewEnv(pool *kernels.Pool, playback *commands.Playback, fixedDT float64) *Env {
	return &Env{pool: pool, playback: playback, fixedDT: fixedDT}
}

// SetFrame sets the frame number (0 for the first frame) and the frame's
// delta in seconds, at the start of a frame. Scheduler only, between system
// runs.
func (e *Env) SetFrame(frame uint64, dt float64) { e.frame, e.dt = frame, dt }

// SetTick sets the fixed tick counter: the number of fixed ticks run before
// the current one (so the first tick of a world is tick 0). Scheduler only,
// between system runs.
func (e *Env) SetTick(tick uint64) { e.tick = tick }

// buffers is the Env's playback, which makes the systems' command buffers
// (charging them to its memory budget) and plays them.
func (e *Env) buffers() *commands.Playback {
	if e.playback == nil {
		panic("systems: a system that records commands needs a Playback: pass NewEnv the commands.Playback that plays its buffers back")
	}
	return e.playback
}

// Workers is the number of kernel workers, the scheduler's goroutine
// included: the pool's, or 1 without a pool. Safe for concurrent use (the
// pool's worker count never changes).
func (e *Env) Workers() int {
	if e.pool == nil {
		return 1
	}
	return e.pool.Workers()
}

// merger is the untyped face of an *events.Parallel[T].
type merger interface{ Merge() (dropped int) }

// Context is what a system sees while it runs: its manifest's data and the
// frame's clock. The scheduler builds one per system at set-up with
// NewContext and reuses it for every run; no method allocates once the
// acquisitions of the first run have been made (ParallelEmitter and
// WorkerRecorders create their per-worker state on first use).
//
// Acquisitions (Lease, Read, Write, Recorder, WorkerRecorders, NewEmitter,
// ParallelEmitter, Reader, Resource) check the manifest once per call — a
// scan of a few-element slice — and fail with an *AccessError (errors.Is
// ErrNotDeclared) for anything undeclared, nil arguments included. Only
// these acquisitions are checked: data a system touches directly (a
// column's Span, a table's Insert) escapes the manifest (see the package
// doc).
//
// Concurrency: call Context methods from the system's goroutine only, never
// from inside a kernel; kernels use what the methods returned (slices,
// leases, WorkerRecorders, event segments).
type Context struct {
	name     string
	phase    Phase
	env      *Env
	records  int
	reads    []ColumnRef // reads and writes
	writes   []ColumnRef
	tables   []*ephemeral.Table // every table the manifest names (leases)
	rec      []*ephemeral.Table // tables of Creates and Deletes (recorders)
	emits    []events.Buffer
	consumes []events.Buffer
	readers  []events.Consumer // per consumes entry: the system's reader of it
	res      []Resource

	cmd      *commands.Buffer   // the serial recorder's buffer
	workers  []*commands.Buffer // per-worker buffers, made on first WorkerRecorders
	parallel []merger           // per Emits entry, made on first ParallelEmitter
	used     []merger           // parallel emitters acquired in this run
}

// NewContext builds the context of system sys over env; its command
// buffers start with room for records records each (they grow while
// warming up, see package commands) and are made by env's playback
// (commands.Playback.NewBuffer, charged to its memory budget: its
// *memory.BudgetError is returned). A system that may record nothing (no
// Creates or Deletes) gets no buffer. It
// registers the system's reader with each event table it consumes
// (events.Buffer.NewConsumer: PerTick in FixedUpdate, PerFrame elsewhere),
// which from then on holds the events that reader has not read: build one
// Context per system, and run it (or drop the table) rather than leaving
// it idle. It returns sys.Validate's *DefinitionError (errors.Is
// ErrDefinition) for a bad system. It allocates; call it at set-up, in the
// order the systems will play back, from one goroutine.
func NewContext(sys *System, env *Env, records int) (*Context, error) {
	if err := sys.Validate(); err != nil {
		return nil, err
	}
	m := &sys.Manifest
	c := &Context{name: sys.Name, phase: sys.Phase, env: env, records: records}
	for _, r := range m.Writes {
		c.writes = addNew(c.writes, r)
		c.reads = addNew(c.reads, r)
		c.tables = addNew(c.tables, r.Table)
	}
	for _, r := range m.Reads {
		c.reads = addNew(c.reads, r)
		c.tables = addNew(c.tables, r.Table)
	}
	for _, t := range slices.Concat(m.Creates, m.Deletes) {
		c.tables = addNew(c.tables, t)
		c.rec = addNew(c.rec, t)
	}
	for _, b := range m.Emits {
		c.emits = addNew(c.emits, b)
	}
	for _, b := range m.Consumes {
		c.consumes = addNew(c.consumes, b)
	}
	c.res = m.resources()
	c.parallel = make([]merger, len(c.emits))
	c.used = make([]merger, 0, len(c.emits))
	if len(c.rec) > 0 {
		var err error
		if c.cmd, err = env.buffers().NewBuffer(sys.Name, records); err != nil {
			return nil, err
		}
	}
	cadence := events.PerFrame
	if sys.Phase == FixedUpdate {
		cadence = events.PerTick
	}
	c.readers = make([]events.Consumer, len(c.consumes))
	for i, b := range c.consumes {
		c.readers[i] = b.NewConsumer(cadence)
	}
	return c, nil
}

// Name is the system's name. Safe from kernels.
func (c *Context) Name() string { return c.name }

// Phase is the system's phase. Safe from kernels.
func (c *Context) Phase() Phase { return c.phase }

// DT is the delta of the current frame in seconds, as given to the frame
// (also in FixedUpdate). Fixed-step systems integrate with FixedDT instead.
// Safe from kernels (the scheduler changes it only between system runs).
func (c *Context) DT() float64 { return c.env.dt }

// FixedDT is the fixed step in seconds, as configured (the scheduler's
// accumulator counts it truncated to the nanosecond). Safe from kernels.
func (c *Context) FixedDT() float64 { return c.env.fixedDT }

// Frame is the number of the current frame; the first frame is 0. Safe
// from kernels.
func (c *Context) Frame() uint64 { return c.env.frame }

// Tick is the fixed tick counter: in FixedUpdate the number of the running
// tick (the first tick of a world is 0), elsewhere the number of ticks run
// so far (in FrameStart, before this frame's ticks; after them in Update,
// LateUpdate and FrameEnd). Safe from kernels.
func (c *Context) Tick() uint64 { return c.env.tick }

// Pool is the kernel pool, or nil when the world runs kernels inline; use
// Workers for the count and RunKernel to run one. Call it from the
// system's goroutine (a kernel must not start a kernel).
func (c *Context) Pool() *kernels.Pool { return c.env.pool }

// Workers is the number of kernel workers (1 without a pool). Worker indexes
// passed to kernels are 0..Workers()-1. Safe from kernels.
func (c *Context) Workers() int { return c.env.Workers() }

// RunKernel calls fn(worker, chunk) for every chunk in 0..chunks-1, in
// parallel on the pool (kernels.Pool.Run: worker w runs the contiguous,
// ascending range kernels.Span(chunks, Workers(), w)), or inline as worker
// 0 without a pool. It returns when every call has returned. Build fn at
// set-up (a closure created per run may allocate). Call it from the
// system's goroutine: called from inside a kernel it panics with
// kernels.ErrNestedRun, with or without a pool (see package kernels,
// "Nested Run"); it panics when the world's pool is closed.
func (c *Context) RunKernel(chunks int, fn func(worker, chunk int)) {
	if c.env.pool != nil {
		c.env.pool.Run(chunks, fn)
		return
	}
	if c.env.inline {
		panic(kernels.ErrNestedRun)
	}
	c.env.inline = true
	defer func() { c.env.inline = false }()
	kernels.Scalar(chunks, fn)
}

// Resolve maps a provisional handle (returned by a recorder's Create) to the
// handle of the row playback created, and returns any other nonzero handle
// as is, with true (commands.Playback.Resolve). It returns false for the
// zero handle and for a provisional handle whose create has not been played
// back yet, failed (capacity), or was released. The scheduler releases
// right after each FrameStart's playback: a create played in FixedUpdate,
// Update, LateUpdate or FrameEnd resolves until the next frame's FrameStart
// has played back; a FrameStart create resolves only for records of its own
// playback. The real handle may since have been deleted: check liveness
// with the table. Safe from kernels (no playback runs while a system does).
func (c *Context) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) {
	if c.env.playback == nil {
		return h, true
	}
	return c.env.playback.Resolve(h)
}

// Lease returns a row lease of t, a table the manifest names (in a column
// reference, Creates or Deletes), or an *AccessError (errors.Is
// ErrNotDeclared; What is empty for a nil t). The lease may be used from
// kernels (see ephemeral.Lease); row indexes it gives stay valid for this
// run, since structural changes wait for playback.
func (c *Context) Lease(t *ephemeral.Table) (ephemeral.Lease, error) {
	if err := c.checkTable(AccessLease, c.tables, t); err != nil {
		return ephemeral.Lease{}, err
	}
	return t.Lease(), nil
}

// Read returns the whole of column col, indexed by row: Chunks()*ChunkRows()
// elements (ephemeral.Column.All), rows of dead entities included (walk a
// chunk's live rows with its enabled bitmap). It returns an *AccessError
// (errors.Is ErrNotDeclared) unless the manifest declares col read or
// written; a nil col (what a failed AddColumn returns) gets one with an
// empty What. Kernels may read the slice concurrently; to write through it,
// declare the write and use Write.
func Read[T any](c *Context, col *ephemeral.Column[T]) ([]T, error) {
	return column(c, AccessRead, c.reads, col)
}

// Write returns the whole of column col, indexed by row, for writing:
// Chunks()*ChunkRows() elements (ephemeral.Column.All). It returns an
// *AccessError (errors.Is ErrNotDeclared) unless the manifest declares col
// written (an empty What for a nil col). Kernels may write it concurrently,
// each worker only rows of the chunks it was given. Writes take effect at
// once (unlike commands).
//
// Write is also how the scheduler knows a system writes a column: a system
// that writes through Column.Span or All instead is not checked against its
// manifest (see the package doc).
func Write[T any](c *Context, col *ephemeral.Column[T]) ([]T, error) {
	return column(c, AccessWrite, c.writes, col)
}

// column returns col.All() when declared lists col, else the *AccessError
// of access. Read and Write share it.
func column[T any](c *Context, access string, declared []ColumnRef, col *ephemeral.Column[T]) ([]T, error) {
	if col == nil {
		return nil, c.denied(access, "")
	}
	if r := Col(col); !slices.Contains(declared, r) {
		return nil, c.denied(access, r.String())
	}
	return col.All(), nil
}

// checkTable returns nil when declared lists t, else the *AccessError of
// access (with an empty What for a nil t). Lease, Recorder and
// WorkerRecorders share it.
func (c *Context) checkTable(access string, declared []*ephemeral.Table, t *ephemeral.Table) error {
	if t == nil || !slices.Contains(declared, t) {
		return c.denied(access, tableName(t))
	}
	return nil
}

// Recorder returns a deferred-command recorder for t, a table in the
// manifest's Creates or Deletes, or an *AccessError (errors.Is
// ErrNotDeclared; What is empty for a nil t). Declared Writes of t's columns
// do not suffice: a recorder can create and delete rows, structural changes
// that the scheduler conflict-checks only for Creates and Deletes tables; a
// system that writes columns writes them directly through Write. A
// recorder's records (creates, deletes, deferred Sets of any column of t)
// are not checked one by one: the structural declaration covers them all.
// Commands play back at the end of the phase (after each fixed tick in
// FixedUpdate), in the sealed system order, this system's serial records
// before its WorkerRecorders' records. All recorders of a system share one
// buffer: use them from the system's goroutine only, not from kernels (use
// WorkerRecorders there). The first call for a table allocates a little;
// later calls allocate nothing.
func (c *Context) Recorder(t *ephemeral.Table) (commands.Recorder, error) {
	if err := c.checkTable(AccessRecorder, c.rec, t); err != nil {
		return commands.Recorder{}, err
	}
	return c.cmd.Recorder(t), nil
}

// WorkerRecorders returns the per-worker recorders of t for a parallel
// kernel, under the same rule as Recorder: t must be in Creates or Deletes
// (an *AccessError, errors.Is ErrNotDeclared, otherwise). In the kernel,
// worker w calls Chunk(w, chunk) before recording for a chunk; playback
// then follows the chunk order whatever the number of workers. The first
// call of a system allocates one command buffer per worker (Workers()),
// made by the Env's playback and charged to its memory budget: the
// *memory.BudgetError of a set that does not fit is returned (nothing is
// made or charged), and a later call tries again.
func (c *Context) WorkerRecorders(t *ephemeral.Table) (WorkerRecorders, error) {
	if err := c.checkTable(AccessRecorder, c.rec, t); err != nil {
		return WorkerRecorders{}, err
	}
	if c.workers == nil {
		ws, err := c.env.buffers().NewBuffers(c.name, c.env.Workers(), c.records)
		if err != nil {
			return WorkerRecorders{}, err
		}
		c.workers = ws
	}
	return WorkerRecorders{bufs: c.workers, t: t}, nil
}

// WorkerRecorders hands each kernel worker its own recorder of one table.
// A small value: copy it into the kernel. Worker w may use only its own
// recorder (Chunk(w, ...)), and only inside the run that acquired it;
// different workers record concurrently.
type WorkerRecorders struct {
	bufs []*commands.Buffer
	t    *ephemeral.Table
}

// Chunk starts chunk chunk on worker w's buffer and returns w's recorder
// of the table. The scheduler plays the worker buffers of a system as one
// stream (commands.Playback.PlayMerged), after the system's serial records:
// segments in ascending chunk order (equal chunks in worker order), records
// in order within a segment, so the resulting handles and rows do not
// depend on the worker count. Safe to call from worker w while other
// workers use their own; call it again for each chunk, even for another
// table of the same system.
//
// Chunk panics when w is outside 0..Context.Workers()-1: pass the worker
// index that RunKernel gave the kernel, and use the WorkerRecorders of the
// same Context.
func (r WorkerRecorders) Chunk(w, chunk int) commands.Recorder {
	if uint(w) >= uint(len(r.bufs)) {
		workerPanic(w, len(r.bufs), r.t)
	}
	b := r.bufs[w]
	b.Begin(chunk)
	return b.Recorder(r.t)
}

// Emitter emits events of one table; NewEmitter checks the manifest. A
// small value. Use it from the system's goroutine only, not from kernels
// (they use ParallelEmitter).
type Emitter[T any] struct{ t *events.Table[T] }

// Emit appends v to the table's events of this frame (events.Table.Emit):
// on overflow it drops v and returns the table's *events.OverflowError
// (errors.Is events.ErrOverflow). Allocates nothing.
func (e Emitter[T]) Emit(v T) error { return e.t.Emit(v) }

// NewEmitter returns an emitter of ev, an event table the manifest emits,
// or an *AccessError (errors.Is ErrNotDeclared; What is empty for a nil ev).
func NewEmitter[T any](c *Context, ev *events.Table[T]) (Emitter[T], error) {
	if _, err := eventIndex(c, AccessEmit, c.emits, ev); err != nil {
		return Emitter[T]{}, err
	}
	return Emitter[T]{t: ev}, nil
}

// ParallelEmitter returns ev's per-worker emission state for a parallel
// kernel (events.Table.Parallel with Workers() workers), for an event table
// the manifest emits, or an *AccessError (errors.Is ErrNotDeclared; What is
// empty for a nil ev). In the
// kernel, worker w takes Worker(w), calls Begin with the chunk index before
// emitting for a chunk, then Emit. The scheduler merges it into ev when the
// system returns (Context.EndRun), in chunk order. The first call for a
// table allocates the per-worker state (Capacity events per worker),
// charged to ev's memory budget: when it does not fit, that call returns
// the *memory.BudgetError (errors.Is events.ErrMemoryBudget) and a later
// call tries again.
func ParallelEmitter[T any](c *Context, ev *events.Table[T]) (*events.Parallel[T], error) {
	i, err := eventIndex(c, AccessEmit, c.emits, ev)
	if err != nil {
		return nil, err
	}
	p, _ := c.parallel[i].(*events.Parallel[T])
	if p == nil {
		if p, err = ev.Parallel(c.env.Workers()); err != nil {
			return nil, err
		}
		c.parallel[i] = p
	}
	c.used = addNew(c.used, merger(p)) // no allocation: cap is len(c.emits)
	return p, nil
}

// Reader returns the events of ev, an event table the manifest consumes,
// that this system has not read yet and may read now, in emission order
// (the system's events.Reader: the delivery rule is in
// docs/architecture.md, Events), or an *AccessError (errors.Is
// ErrNotDeclared; What is empty for a nil ev). Every call in a run returns
// the same events (the first call's, even after the system's own emits); when
// the run ends (EndRun) they count as read and are not returned again. A
// run that never calls Reader leaves its events for a later run. The slice
// is the table's own: do not modify it. It stays valid until the run ends;
// kernels may read it concurrently.
func Reader[T any](c *Context, ev *events.Table[T]) ([]T, error) {
	i, err := eventIndex(c, AccessConsume, c.consumes, ev)
	if err != nil {
		return nil, err
	}
	return c.readers[i].(*events.Reader[T]).Read(), nil
}

// eventIndex returns the index of ev in declared, or the *AccessError of
// access (with an empty What for a nil ev). NewEmitter, ParallelEmitter and
// Reader share it.
func eventIndex[T any](c *Context, access string, declared []events.Buffer, ev *events.Table[T]) (int, error) {
	if ev == nil {
		return -1, c.denied(access, "")
	}
	i := slices.Index(declared, events.Buffer(ev))
	if i < 0 {
		return -1, c.denied(access, ev.Name())
	}
	return i, nil
}

// Resource checks that the manifest declares resource name, for writing when
// write is true; it returns nil or an *AccessError (errors.Is
// ErrNotDeclared; Access AccessResource, or AccessResourceWrite when write
// is true, and What the name). Resources are host data (a clock, a random stream) that
// the runtime does not hold: the check lets a system assert its manifest.
func (c *Context) Resource(name string, write bool) error {
	for _, r := range c.res {
		if r.Name == name && (r.Write || !write) {
			return nil
		}
	}
	if write {
		return c.denied(AccessResourceWrite, name)
	}
	return c.denied(AccessResource, name)
}

func (c *Context) denied(access, what string) error {
	return &AccessError{System: c.name, Access: access, What: what}
}

func tableName(t *ephemeral.Table) string {
	if t == nil {
		return ""
	}
	return t.Name()
}

// CommandBuffer returns the buffer of the system's serial recorders, nil
// for a system that may record nothing. For the scheduler, which plays it
// back (commands.Playback.PlayAll) before the worker buffers.
func (c *Context) CommandBuffer() *commands.Buffer { return c.cmd }

// WorkerBuffers returns the per-worker buffers, one per kernel worker, once
// WorkerRecorders was called (nil before). For the scheduler, which plays
// them as one keyed stream (commands.Playback.PlayMerged). The slice is the
// context's own.
func (c *Context) WorkerBuffers() []*commands.Buffer { return c.workers }

// EndRun finishes a run for the scheduler: it merges the parallel emitters
// acquired in the run into their tables, then marks what the run's Reader
// calls returned as read (events.Reader.Done), which retires NextFrame
// events every consumer has read. Drops are counted by the tables
// (events.Buffer.Dropped). Call it after every run, from the scheduler's
// goroutine once the system has returned. Allocates nothing in steady
// state.
func (c *Context) EndRun() {
	for _, p := range c.used {
		p.Merge()
	}
	c.used = c.used[:0]
	for _, r := range c.readers {
		r.Done()
	}
}

// workerPanic reports a worker index outside 0..workers-1 given to
// WorkerRecorders.Chunk. Kept out of line so that Chunk stays small.
//
//go:noinline
func workerPanic(w, workers int, t *ephemeral.Table) {
	if workers == 0 {
		panic("systems: WorkerRecorders.Chunk on a zero WorkerRecorders: use the value Context.WorkerRecorders returned with a nil error")
	}
	panic("systems: WorkerRecorders.Chunk(" + strconv.Itoa(w) + ", ...) of table " + strconv.Quote(tableName(t)) +
		": worker index out of range 0.." + strconv.Itoa(workers-1) +
		"; pass the worker index RunKernel gave the kernel (0..Context.Workers()-1)")
}

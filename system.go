package tickwork

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Phase is the part of a frame a system runs in. A frame runs FrameStart,
// then FixedUpdate once per fixed tick (zero or more times), then Update,
// LateUpdate and FrameEnd; each phase's commands are played back after it
// (docs/architecture.md, Frame path).
type Phase uint8

// The phases, in running order.
const (
	FrameStart  = Phase(systems.FrameStart)
	FixedUpdate = Phase(systems.FixedUpdate)
	Update      = Phase(systems.Update)
	LateUpdate  = Phase(systems.LateUpdate)
	FrameEnd    = Phase(systems.FrameEnd)
)

// String returns the phase's name, "FrameStart" .. "FrameEnd".
func (p Phase) String() string { return systems.Phase(p).String() }

// Valid reports whether p is one of the five phases.
func (p Phase) Valid() bool { return systems.Phase(p).Valid() }

// RunFunc is a system's body, run once per run of the system (once per
// fixed tick in FixedUpdate, once per frame elsewhere) on the frame's
// goroutine.
type RunFunc func(ctx *Context)

// DeclareFunc declares a system: it asks its Decl for the accessors the
// body uses (Read, Write, Record, Emit, Consume, ReadResource, ...) and
// returns the body. It runs once, in Builder.Build; the accessors are the
// system's manifest, from which the builder refuses unordered systems
// that touch the same data (ErrConflict). A DeclareFunc that panics fails
// Build with a *SystemDefinitionError (errors.Is ErrDeclarePanic) naming
// the system and the panic value, whose Cause is a *DeclarePanicError
// with the stack; the world is not built and its workers stop.
type DeclareFunc func(d *Decl) RunFunc

// System is a system as Builder.Add takes it; Builder.System is the short
// form without Before, After and Lane.
type System struct {
	Name    string      // non-empty, unique in the world
	Phase   Phase       // the phase it runs in
	Before  []string    // systems that run after this one
	After   []string    // systems that run before this one
	Declare DeclareFunc // declares the system and returns its body
	Lane    string      // the lane its kernels run ("avx2"), shown in the report; "" when not stated
}

// Validate checks the name, the phase and Declare: nil, or an error
// matching ErrSystemDefinition (for a bad phase or a nil Declare also
// ErrBadPhase or ErrNoDeclare).
func (s *System) Validate() error {
	e := s.engine()
	return e.Validate()
}

// engine is s as the scheduler takes it; its Declare adapts s.Declare
// (made once, at set-up: a run costs one more indirect call).
func (s *System) engine() systems.System {
	e := systems.System{Name: s.Name, Phase: systems.Phase(s.Phase), Before: s.Before, After: s.After, Lane: s.Lane}
	if s.Declare != nil {
		e.Declare = engineDeclare(s.Declare)
	}
	return e
}

func engineDeclare(declare DeclareFunc) systems.DeclareFunc {
	return func(d *systems.Decl) systems.RunFunc {
		run := declare((*Decl)(d))
		if run == nil {
			return nil
		}
		return func(ctx *systems.Context) { run((*Context)(ctx)) }
	}
}

// faceSystem is the System of an engine system (Hook.Lookup).
func faceSystem(e systems.System) System {
	s := System{Name: e.Name, Phase: Phase(e.Phase), Before: e.Before, After: e.After, Lane: e.Lane}
	if declare := e.Declare; declare != nil {
		s.Declare = func(d *Decl) RunFunc {
			run := declare((*systems.Decl)(d))
			if run == nil {
				return nil
			}
			return func(ctx *Context) { run((*systems.Context)(ctx)) }
		}
	}
	return s
}

// Decl is a system being declared, valid only during its DeclareFunc call;
// the accessors it hands out are valid for the world's life. A bad
// declaration fails Build with an error matching ErrSystemDefinition.
type Decl systems.Decl

func (d *Decl) e() *systems.Decl { return (*systems.Decl)(d) }

// Name is the system's name.
func (d *Decl) Name() string { return d.e().Name() }

// Phase is the system's phase.
func (d *Decl) Phase() Phase { return Phase(d.e().Phase()) }

// After orders the system after the systems named (as System.After).
func (d *Decl) After(names ...string) { d.e().After(names...) }

// Before orders the system before the systems named (as System.Before).
func (d *Decl) Before(names ...string) { d.e().Before(names...) }

// CondFunc is a run condition's test (Decl.RunIf): whether the system runs
// now. It runs on the frame's goroutine at the system's slot, before each
// run (each fixed tick in FixedUpdate), and reads only through the
// accessors its condition declaration asked for (docs/architecture.md,
// Run conditions).
type CondFunc func(ctx *Context) bool

// RunIf adds a run condition: declare runs at once with a condition Decl
// c, asks c for what the condition reads (Read, ReadResource, ReadIndex,
// Consume, queries and joins over reads) and returns the test. Those
// reads are the system's too: an unordered writer of one is a conflict
// Build refuses, naming both systems (ErrConflict, "read by run
// condition"). The system runs only when every condition holds; a
// skipped run is counted in SystemReport.Skips and costs nothing else.
// Write, WriteResource, Record, spawners, Emit, EmitParallel, Counter and
// MaintainIndex asked of c, or a nil test, fail Build with an error
// matching ErrConditionAccess (ErrBadDeclaration for the nil test); a nil
// declare, or RunIf called on c, panics. Call it in the DeclareFunc; it
// allocates. The rule of what a condition may do, when it runs and what
// a skipped consumer's events become: docs/architecture.md, Run
// conditions.
func (d *Decl) RunIf(declare func(c *Decl) CondFunc) {
	if declare == nil {
		d.e().RunIf(nil) // panics, saying the fix
		return
	}
	d.e().RunIf(func(c *systems.Decl) systems.CondFunc {
		test := declare((*Decl)(c))
		if test == nil {
			return nil
		}
		return func(ctx *systems.Context) bool { return test((*Context)(ctx)) }
	})
}

// Counter declares the system's counter name (non-empty, unique in the
// system; a bad name fails the declaration with ErrBadDeclaration) and
// returns it. It allocates: call it in the DeclareFunc.
func (d *Decl) Counter(name string) Counter { return Counter{d.e().Counter(name)} }

// Counter is a named per-system counter, declared by Decl.Counter: the
// body adds to it, and the frame report has what each frame's runs added
// (FrameReport.Counter). A small value; copy it freely.
type Counter struct{ c systems.Counter }

// Add adds n to the counter, from its own system's body only, never from
// a kernel, another system or the host. It allocates nothing; it panics on
// a zero Counter and when its system's body is not the one running.
func (c Counter) Add(n int64) { c.c.Add(n) }

// Name is the counter's name ("" for a zero Counter).
func (c Counter) Name() string { return c.c.Name() }

// Total is what every run of the system added since the world was built.
// Call it between frames or from the body; 0 for a zero Counter.
func (c Counter) Total() int64 { return c.c.Total() }

// Context is what a running body sees: the world's clock and workers, and
// its own failure. Valid during the body's run; its methods are safe from
// the body's kernels, Fail excepted.
type Context systems.Context

func (c *Context) e() *systems.Context { return (*systems.Context)(c) }

// DT is the system's time step in seconds: the fixed step in FixedUpdate,
// the frame's delta in the other phases.
func (c *Context) DT() float64 { return c.e().DT() }

// FrameDT is the frame's delta in seconds, as the host gave it to Frame,
// in every phase.
func (c *Context) FrameDT() float64 { return c.e().FrameDT() }

// Frame is the number of the current frame; the first is 0.
func (c *Context) Frame() uint64 { return c.e().Frame() }

// Tick is the fixed tick counter: in FixedUpdate the running tick's number
// (the first is 0), elsewhere the ticks run so far.
func (c *Context) Tick() uint64 { return c.e().Tick() }

// Workers is the number of kernel workers: Parallel's worker indexes are
// 0..Workers()-1.
func (c *Context) Workers() int { return c.e().Workers() }

// Name is the system's name.
func (c *Context) Name() string { return c.e().Name() }

// Phase is the system's phase.
func (c *Context) Phase() Phase { return Phase(c.e().Phase()) }

// Resolve maps a provisional handle (a recorder's Create) to the handle of
// the row its playback created; other nonzero handles come back as they
// are. False for a create not played back yet, failed or released
// (docs/architecture.md, Provisional handles).
func (c *Context) Resolve(h Handle) (Handle, bool) {
	r, ok := c.e().Resolve(ephemeral.Handle(h))
	return Handle(r), ok
}

// Fail reports err as the system's failure: when the body returns, the
// frame stops after this system and Frame returns a *SystemError wrapping
// err (the first of a run). A nil err is ignored. Call it from the body,
// not from kernels.
func (c *Context) Fail(err error) { c.e().Fail(err) }

// KernelPolicy decides how many workers a kernel run uses (package
// kernels, Worker policy). The zero KernelPolicy is the default.
type KernelPolicy struct {
	// Grain is the least number of chunks a worker is given; 0 or less
	// means DefaultGrain. Raise it for cheap chunks, lower it (1) for
	// expensive ones.
	Grain int
	// Max caps the workers of a run; 0 or less means GOMAXPROCS. The
	// world's worker count caps it in every case.
	Max int
	// Fixed keeps the count Grain and Max give, never fewer workers on
	// the kernel's measured cost (package kernels, Measured cost).
	Fixed bool
}

// DefaultGrain is the grain of the zero KernelPolicy.
const DefaultGrain = kernels.DefaultGrain

// MaxParallelChunks is the largest chunk count of Parallel and
// ParallelPolicy, 2^30 (MaxCapacity: a unit per row of the largest table).
const MaxParallelChunks = systems.MaxParallelChunks

// Parallel calls fn(&st, worker, chunk) for every chunk in 0..chunks-1 on
// the world's kernel workers and returns when every call has returned;
// the workers claim the chunks, each worker's in ascending order (package
// kernels, Work claiming), and with one worker they run inline. chunks is
// a count of work units, 0..MaxParallelChunks (0 runs nothing; a count
// below 0 or above the bound panics, saying the bound, before anything
// runs: the rule, package systems, Kernels): a table's chunks
// (Table.UsedChunks) for a kernel over rows, or units of the kernel's own,
// such as 400 grid cells; chunk is the index of one, which a query's Chunk
// and Spans accept only when it is a table chunk, and which
// Recorder.Worker and ParallelEmitter.Worker take as the key their output
// merges by (package systems, Kernels). st is the kernel's state, copied once per call:
// pass a function or method expression, not a closure that captures (that
// allocates each run). Each worker writes only the rows of its chunks and
// uses only its own recorder and emitter (Recorder.Worker,
// ParallelEmitter.Worker). Call it from the body; a panic in fn comes back
// on the body's goroutine as a panic wrapping ErrKernelPanic.
func Parallel[S any](ctx *Context, chunks int, st S, fn func(st *S, worker, chunk int)) {
	systems.Parallel((*systems.Context)(ctx), chunks, st, fn)
}

// ParallelPolicy is Parallel under the worker policy pol instead of the
// world's (WithKernelPolicy); chunks is bounded as Parallel's.
func ParallelPolicy[S any](ctx *Context, pol KernelPolicy, chunks int, st S, fn func(st *S, worker, chunk int)) {
	systems.ParallelPolicy((*systems.Context)(ctx), kernels.Policy(pol), chunks, st, fn)
}

// Hook is what a hook function (Builder.Hook) sees in Build: every system
// added, by name, to order a package's systems against the host's or to
// substitute one's body. Valid only during the hook call: kept past it,
// Add, Order and Substitute return ErrHookDone and change nothing.
type Hook scheduler.Hook

func (h *Hook) e() *scheduler.Hook { return (*scheduler.Hook)(h) }

// Names lists the systems' names in the order they were added.
func (h *Hook) Names() []string { return h.e().Names() }

// Lookup returns the system named name, or false.
func (h *Hook) Lookup(name string) (System, bool) {
	s, ok := h.e().Lookup(name)
	if !ok {
		return System{}, false
	}
	return faceSystem(s), true
}

// Add adds a system, as Builder.Add (the system's errors come back; so
// does ErrHookDone after the hook returned).
func (h *Hook) Add(sys System) error { return h.e().Add(sys.engine()) }

// Order runs system first before system then (both in one phase); an
// unknown name gives an *UnknownSystemError, a call after the hook
// returned ErrHookDone.
func (h *Hook) Order(first, then string) error { return h.e().Order(first, then) }

// Substitute replaces the declaration of the system named name by
// declare, which must declare the same manifest (a *SubstituteError
// otherwise; ErrHookDone after the hook returned).
func (h *Hook) Substitute(name string, declare DeclareFunc) error {
	var d systems.DeclareFunc
	if declare != nil {
		d = engineDeclare(declare)
	}
	return h.e().Substitute(name, d)
}

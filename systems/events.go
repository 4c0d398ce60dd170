package systems

import (
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Emitter emits events of one table from the system's goroutine (Emit).
type Emitter[T any] struct {
	t   *events.Table[T]
	ctx *Context // the system's: Emit panics while one of its Parallel kernels runs
}

// Emit declares that the system emits into event table ev and returns its
// emitter. A nil ev fails the declaration.
func Emit[T any](s *Decl, ev *events.Table[T]) *Emitter[T] {
	d := s.use("Emit")
	if ev == nil {
		d.fail("Emit", "nil event table (the AddEvents that made it failed: its error comes first)")
		return &Emitter[T]{}
	}
	d.man.Emits = frame.AddNew(d.man.Emits, events.Buffer(ev))
	return &Emitter[T]{t: ev, ctx: d.ctx}
}

// Emit appends v to the table's events and returns true. When the table
// holds its capacity it drops v, counts it and returns false; Frame then
// returns the table's *events.OverflowError (see Errors in package
// scheduler), so a caller may ignore the result. Allocates nothing.
//
// Call it from the body: called inside a Parallel kernel of the system it
// panics before touching the table (a kernel emits through EmitParallel's
// ParallelEmitter.Worker).
func (e *Emitter[T]) Emit(v T) bool {
	if c := e.ctx; c != nil && c.inKernel.Load() {
		serialPanic("Emitter", "tickwork.Emit", "event table", e.t.Name(), c.name,
			"emit through a tickwork.ParallelEmitter (tickwork.EmitParallel) and its Worker(worker, chunk)")
	}
	if debugChecks {
		e.ctx.inRun("Emitter", "event table", e.t.Name())
	}
	return e.t.Emit(v) == nil
}

// ParallelEmitter emits events of one table from the workers of a Parallel
// kernel: worker w emits through Worker(w, chunk), and the system's
// segments merge into the table in chunk order when its body returns, so
// readers see the same order whatever the worker count.
type ParallelEmitter[T any] struct{ p *events.Parallel[T] }

// EmitParallel declares that the system emits into event table ev from
// kernels and returns its per-worker emitter; its staging (Capacity events
// per worker) is allocated at seal and charged to ev's memory budget (when
// it does not fit, Seal fails with the *memory.BudgetError). A nil ev
// fails the declaration.
func EmitParallel[T any](s *Decl, ev *events.Table[T]) *ParallelEmitter[T] {
	d := s.use("EmitParallel")
	pe := &ParallelEmitter[T]{}
	if ev == nil {
		d.fail("EmitParallel", "nil event table (the AddEvents that made it failed: its error comes first)")
		return pe
	}
	d.man.Emits = frame.AddNew(d.man.Emits, events.Buffer(ev))
	d.bind(func(run *frame.Run) error {
		p, err := ev.Parallel(run.Env.Workers())
		if err != nil {
			return err
		}
		pe.p = p
		run.Mergers = append(run.Mergers, p)
		return nil
	})
	return pe
}

// Worker starts worker w's segment for chunk chunk and returns its
// emitter. chunk is the merge key, the index the kernel was given: a
// table chunk or a unit of its own such as a grid cell (Kernels in the
// package doc); segments merge in ascending key order. Call it again for
// every chunk. It panics when w is outside
// 0..Context.Workers()-1 (pass the worker index Parallel gave the kernel).
func (e *ParallelEmitter[T]) Worker(w, chunk int) WorkerEmitter[T] {
	s := e.p.Worker(w)
	s.Begin(chunk)
	return WorkerEmitter[T]{s}
}

// WorkerEmitter emits one kernel worker's events (ParallelEmitter.Worker).
// A small value; only its worker may use it.
type WorkerEmitter[T any] struct{ s *events.Segment[T] }

// Emit stages v and returns true. When the worker's staging or, at the
// merge, the table is full, v is dropped and counted, and Frame returns
// the table's *events.OverflowError; Emit returns false when the staging
// refused it. Allocates nothing.
func (e WorkerEmitter[T]) Emit(v T) bool { return e.s.Emit(v) == nil }

// Consumer reads the events of one table (which, and when: the delivery
// rule, docs/architecture.md, Events).
type Consumer[T any] struct {
	dbg consumerDebug // the debug build's (debug_on.go); empty otherwise
	r   *events.Reader[T]
}

// Consume declares that the system reads event table ev and returns its
// consumer. Its reader (events.Reader: PerTick in FixedUpdate, PerFrame in
// the other phases) is registered with ev at seal; from then on ev holds
// the events it has not read. A nil ev fails the declaration.
func Consume[T any](s *Decl, ev *events.Table[T]) *Consumer[T] {
	d := s.use("Consume")
	c := &Consumer[T]{}
	if ev == nil {
		d.fail("Consume", "nil event table (the AddEvents that made it failed: its error comes first)")
		return c
	}
	d.man.Consumes = frame.AddNew(d.man.Consumes, events.Buffer(ev))
	c.dbg = consumerDebugOf(d, ev.Name())
	cadence := events.PerFrame
	if d.phase == FixedUpdate {
		cadence = events.PerTick
	}
	d.bind(func(run *frame.Run) error {
		c.r = ev.NewReader(cadence)
		run.Readers = append(run.Readers, c.r)
		return nil
	})
	return c
}

// Read returns the events the system has not read yet and may read now, in
// emission order (events.Reader.Read; which those are: docs/architecture.md,
// Delivery rule). The slice is the table's: do not modify it; it is
// valid until the run ends and kernels may read it.
func (c *Consumer[T]) Read() []T {
	if debugChecks {
		c.dbg.inRun()
	}
	return c.r.Read()
}

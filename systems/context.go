package systems

import (
	"strconv"
	"sync/atomic"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/kernels"
)

// Context is what a system's body sees while it runs: the clock, the
// kernel workers, resolutions of provisional handles and a way to fail.
// The data it touches come from the accessors of its declaration. One
// Context per system, made at declaration and reused by every run;
// nothing allocates.
//
// Concurrency: the body calls its Context from the scheduler's goroutine;
// DT, FrameDT, Frame, Tick, Workers, Name and Phase are also safe from
// kernels (they change only between runs).
type Context struct {
	run   *frame.Run
	name  string
	phase Phase
	// inKernel is set while a Parallel call of this system runs: a nested
	// call (from any worker) fails its compare-and-swap before it touches
	// the kernel slots, so the refusal is race-free.
	inKernel atomic.Bool
}

// Name is the system's name.
func (c *Context) Name() string { return c.name }

// Phase is the system's phase.
func (c *Context) Phase() Phase { return c.phase }

// DT is the system's time step in seconds: the fixed step in FixedUpdate
// (every tick integrates by one step, however long the frame), the frame's
// delta in the other phases. See Time in the package doc.
func (c *Context) DT() float64 { return c.run.Env.DT() }

// FrameDT is the frame's delta in seconds, as the host gave it to Frame,
// in every phase.
func (c *Context) FrameDT() float64 { return c.run.Env.FrameDT }

// Frame is the number of the current frame; the first frame is 0.
func (c *Context) Frame() uint64 { return c.run.Env.Frame }

// Tick is the fixed tick counter: in FixedUpdate the number of the running
// tick (the first tick of a world is 0), elsewhere the number of ticks run
// so far (before this frame's ticks in FrameStart, after them later).
func (c *Context) Tick() uint64 { return c.run.Env.Tick }

// Workers is the number of kernel workers (1 without a pool): the worker
// indexes Parallel passes are 0..Workers()-1.
func (c *Context) Workers() int { return c.run.Env.Workers() }

// Resolve maps a provisional handle (from a recorder's Create) to the
// handle of the row its playback created; any other nonzero handle comes
// back as is, with true. It returns false for a create not played back
// yet, failed or released (docs/architecture.md, Provisional handles).
// Safe from kernels.
func (c *Context) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) {
	if c.run.Env.Playback == nil {
		return h, h != 0
	}
	return c.run.Env.Playback.Resolve(h)
}

// Fail reports err as the system's failure: when the body returns, the
// frame stops after this system and Frame returns a
// *scheduler.SystemError wrapping err (the first one, if Fail is called
// more than once in a run). A nil err is ignored. Call it from the body,
// not from kernels.
func (c *Context) Fail(err error) {
	if c.run.Err == nil {
		c.run.Err = err
	}
}

// kernel is the slot of one Parallel call site of a system: the state and
// function of the current run, and the method value the pool calls, made
// once.
type kernel[S any] struct {
	st   S
	fn   func(st *S, worker, chunk int)
	call func(worker, chunk int)
	cost kernels.Cost // the call site's measured cost (kernels.Pool.RunCost)
}

func (k *kernel[S]) do(w, c int) { k.fn(&k.st, w, c) }

// Parallel calls fn(&st, worker, chunk) for every chunk in 0..chunks-1 on
// the world's kernel workers and returns when every call has returned
// (see package kernels: the pool's worker policy picks n workers from the
// chunk count, "Worker policy", one when the call site's measured chunks
// are too cheap to share, "Measured cost", and the workers claim the
// chunks, each worker's ascending, "Work claiming"; with one worker they
// run inline). chunks is any count of work units, a table's chunks or the
// kernel's own such as grid cells, and chunk the index of one (Kernels in
// the package doc). st is the kernel's state,
// copied once per call into a slot of the system: fn reads it through its
// pointer, so nothing is shared through outer variables and no closure is
// built per run. Pass a function or method expression, not a closure that
// captures variables (that would allocate each run). Slots are taken by
// the order of Parallel calls within a run: the first run to make its k-th
// call allocates slot k, and later runs allocate nothing as long as their
// k-th call has the same state type S (a body whose calls change order or
// type from run to run makes a new slot each time it does).
//
// Each worker may write only the rows of the chunks it was given, and use
// only its own worker's recorder and emitter segment (Recorder.Worker,
// ParallelEmitter.Worker). Call Parallel from the body: called from a
// kernel (on any worker, any number of workers at once) it panics with
// ErrNestedParallel before touching anything, with or without a pool, so
// the kernel stops and the outer Parallel panics on the body's goroutine
// with a *kernels.PanicError whose Value is ErrNestedParallel (errors.Is
// kernels.ErrNestedRun holds too). A panic in fn comes back as a
// *kernels.PanicError panic on the body's goroutine.
func Parallel[S any](ctx *Context, chunks int, st S, fn func(st *S, worker, chunk int)) {
	parallel(ctx, kernels.Policy{}, false, chunks, st, fn)
}

// ParallelPolicy is Parallel under the worker policy pol instead of the
// pool's (kernels.Pool.RunPolicy): how a system whose chunks cost more or
// less than most states its own grain, such as kernels.Policy{Grain: 1}
// for chunks of tens of microseconds. Without a pool it runs inline, as
// Parallel does. Same contract as Parallel otherwise.
func ParallelPolicy[S any](ctx *Context, pol kernels.Policy, chunks int, st S, fn func(st *S, worker, chunk int)) {
	parallel(ctx, pol, true, chunks, st, fn)
}

// MaxParallelChunks is the largest chunk count Parallel and
// ParallelPolicy take (the rule: the package doc, Kernels).
const MaxParallelChunks = ephemeral.MaxCapacity

// badChunks panics for a chunk count outside 0..MaxParallelChunks; out of
// line, so that parallel's check stays two compares.
func badChunks(call string, chunks int) {
	panic("systems: " + call + "(ctx, " + strconv.Itoa(chunks) + ", ...): the chunk count must be 0.." +
		strconv.Itoa(MaxParallelChunks) + " (MaxParallelChunks, a unit per row of the largest table); " +
		"pass a table's UsedChunks or a count of the kernel's own units")
}

// parallel is Parallel (own false: the pool's policy) and ParallelPolicy.
func parallel[S any](ctx *Context, pol kernels.Policy, own bool, chunks int, st S, fn func(st *S, worker, chunk int)) {
	if chunks < 0 || chunks > MaxParallelChunks {
		call := "Parallel"
		if own {
			call = "ParallelPolicy"
		}
		badChunks(call, chunks)
	}
	if !ctx.inKernel.CompareAndSwap(false, true) {
		panic(ErrNestedParallel)
	}
	defer ctx.inKernel.Store(false) // also when a kernel panics
	r := ctx.run
	i := r.Kernel
	r.Kernel++
	var k *kernel[S]
	if i < len(r.Kernels) {
		k, _ = r.Kernels[i].(*kernel[S])
	}
	if k == nil {
		k = &kernel[S]{}
		k.call = k.do
		if i < len(r.Kernels) {
			r.Kernels[i] = k
		} else {
			r.Kernels = append(r.Kernels, k)
		}
	}
	k.st, k.fn = st, fn
	if p := r.Env.Pool; p != nil {
		if !own {
			pol = p.Policy()
		}
		p.RunCost(pol, &k.cost, chunks, k.call)
	} else {
		inline(r.Env, chunks, k.call)
	}
	var zero S
	k.st, k.fn = zero, nil
}

// inline runs a kernel without a pool, on the calling goroutine; one
// started from inside it (through another system's Context) panics with
// ErrNestedParallel, as a nested Parallel of the same system does.
func inline(env *frame.Env, chunks int, fn func(worker, chunk int)) {
	if env.Inline {
		panic(ErrNestedParallel)
	}
	env.Inline = true
	defer func() { env.Inline = false }()
	kernels.Scalar(chunks, fn)
}

// ErrNestedParallel: Parallel (or ParallelPolicy) called from inside a
// kernel that Parallel runs. The nested call panics with it at once, before
// touching the system's kernel slots; the outer Parallel then panics on the
// body's goroutine with a *kernels.PanicError whose Value is it. It also
// matches kernels.ErrNestedRun under errors.Is.
var ErrNestedParallel error = nestedParallel{}

type nestedParallel struct{}

func (nestedParallel) Error() string {
	return "systems: Parallel called from inside a kernel of Parallel; a kernel must not start a kernel: " +
		"split the work into two systems, or into two Parallel calls made one after the other from the system's body"
}

// Is reports whether target is kernels.ErrNestedRun.
func (nestedParallel) Is(target error) bool { return target == kernels.ErrNestedRun }

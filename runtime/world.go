package runtime

import (
	"errors"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// World is a sealed simulation: tables, event tables, resources, systems
// in phases and a kernel pool. A host's game loop calls Frame once per
// frame.
//
// Worlds are independent: two worlds in one process share nothing (there
// is no global state, and a Builder refuses what was declared elsewhere).
// A World is not safe for concurrent use: one goroutine (the host's loop)
// calls its methods; its kernels run on its own pool. Between frames the
// host owns the world's tables and resources (set-up inserts, reading
// results); during Frame only the systems touch them.
//
// Make a World with Builder.Build: on a zero World{} or a nil *World,
// Frame and Close return ErrZeroWorld and the other methods panic with
// its message.
type World struct {
	sched  *scheduler.Scheduler
	pool   *kernels.Pool
	tables []*ephemeral.Table
	budget *memory.Budget
	state  *worldState // what snapshots hold (state.go)
	closed bool
	// restores counts the snapshots World.Restore loaded: a Rollback
	// forgets its history when it changes (rollback.go).
	restores uint64
	upkeep   *upkeep // the declared indexes, nil without any (index.go)
}

// made returns w, or panics with ErrZeroWorld's message for a World not
// made by Builder.Build (a zero World{} or a nil *World): the methods
// without an error result call it.
func (w *World) made() *World {
	if w == nil || w.sched == nil {
		panic(zeroWorld)
	}
	return w
}

// Frame runs one frame with delta dt in seconds (see
// scheduler.Scheduler.Frame for the frame path and what each error means;
// IsFatal tells the errors after which no frame can run). It returns
// ErrClosed after Close and ErrZeroWorld on a World not made by
// Builder.Build. It allocates nothing in steady state. Call it
// from one goroutine: called from a system during its frame it returns
// scheduler.ErrReentrant, from another goroutine while a frame runs
// scheduler.ErrConcurrentFrame (race-free; the running frame goes on).
func (w *World) Frame(dt float64) error {
	if w == nil || w.sched == nil {
		return ErrZeroWorld
	}
	if w.closed {
		return ErrClosed
	}
	return w.sched.Frame(dt)
}

// IsFatal reports whether err, returned by World.Frame, means the world can
// run no more frames: ErrClosed, ErrZeroWorld, or scheduler.IsFatal (a
// panic poisoned it). Every other error is recoverable: the next Frame runs (see Errors
// in the package doc).
func IsFatal(err error) bool {
	return errors.Is(err, ErrClosed) || errors.Is(err, ErrZeroWorld) || scheduler.IsFatal(err)
}

// Report returns the report of the last completed frame, or nil before the
// first frame. The report is the world's own, overwritten by the next
// Frame: copy what must outlive it. Allocates nothing. Call it from the
// goroutine that calls Frame.
func (w *World) Report() *scheduler.FrameReport { return w.made().sched.Report() }

// Resolve maps a provisional handle (from a recorder's Create) to the
// handle of the row its playback created; other nonzero handles come back
// as they are, with true. It returns false for a create not played yet,
// failed or released (docs/architecture.md, Provisional handles).
// Allocates nothing. Call it from the goroutine that calls Frame.
func (w *World) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) {
	return w.made().sched.Resolve(h)
}

// Time returns the fixed-step clock's account (frames, ticks, simulated,
// dropped and remaining time), a copy. Call it from the goroutine that
// calls Frame.
func (w *World) Time() scheduler.Time { return w.made().sched.Time() }

// Frames is the number of frames run (failed ones included, refused ones
// not). Call it from the goroutine that calls Frame.
func (w *World) Frames() uint64 { return w.made().sched.Frames() }

// Order returns the names of phase p's systems in running order, nil for
// an invalid phase. It allocates. Call it from the goroutine that calls
// Frame.
func (w *World) Order(p systems.Phase) []string { return w.made().sched.Order(p) }

// Workers is the number of kernel workers, the frame loop's goroutine
// included (WithWorkers; GOMAXPROCS by default). Safe for concurrent use.
func (w *World) Workers() int { return w.made().pool.Workers() }

// RunChunks calls fn(worker, chunk) once for every chunk in 0..chunks-1
// on the world's kernel pool under its policy (kernels.Pool.Run: one
// completion, worker 0 the caller, workers claim chunks in ascending
// batches) and returns when every call has returned; the worker count
// depends only on chunks and the policy. For a host's scan between
// frames, from the goroutine that calls Frame (a declared query's
// parallel lane). Called while a frame runs (from a system), or on a
// closed world, it runs every chunk inline on the caller as worker 0, in
// ascending order, and returns false (true when the pool had the run).
// fn must not call RunChunks or Frame.
func (w *World) RunChunks(chunks int, fn func(worker, chunk int)) bool {
	w = w.made()
	if w.closed || w.sched.Running() {
		for c := range chunks {
			fn(0, c)
		}
		return false
	}
	w.pool.Run(chunks, fn)
	return true
}

// Tables returns the tables declared with the builder, in order. The slice
// is the world's own: do not modify it. Safe for concurrent use (it never
// changes); the tables themselves are not, while Frame runs.
func (w *World) Tables() []*ephemeral.Table { return w.made().tables }

// Budget is the world's memory budget (WithMemoryBudget): its limit and the
// bytes charged by the Builder's declarations and the systems' per-worker
// event staging. Its methods are safe for concurrent use.
func (w *World) Budget() *memory.Budget { return w.made().budget }

// Close stops the world: the kernel pool's goroutines end before it
// returns (none outlives it). Calling it again is a no-op returning nil;
// Frame then returns ErrClosed, and so does every structural change of
// the world's tables and domains (ephemeral.Domain.SetClosed: the rule
// is in docs/architecture.md, Storage, "After Close"); their rows stay
// readable, nothing of them is freed. Called from a system while a frame runs,
// it returns ErrRunning and closes nothing: close the world after Frame
// returns. On a World not made by Builder.Build it returns ErrZeroWorld.
func (w *World) Close() error {
	if w == nil || w.sched == nil {
		return ErrZeroWorld
	}
	if w.sched.Running() {
		return ErrRunning
	}
	if w.closed {
		return nil
	}
	w.closed = true
	for _, d := range w.state.domains {
		d.SetClosed(ErrClosed)
	}
	return w.pool.Close()
}

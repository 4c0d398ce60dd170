package tickwork

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// World is a sealed simulation, made by Builder.Build: tables, event
// tables, resources, systems in phases and a kernel pool. A host's game
// loop calls Frame once per frame. Worlds share nothing. A World is used
// from one goroutine (the host's loop); its kernels run on its own pool.
// Between frames the host owns its tables and resources (set-up inserts,
// reading results); during Frame only the systems touch them.
//
// On a zero World or a nil *World, Frame and Close return ErrZeroWorld and
// the other methods panic with its message.
type World struct {
	w      *runtime.World
	tables []*Table     // w's tables, as Tables returns them
	report *FrameReport // the face of w's report, made by the first frame
}

func (w *World) e() *runtime.World {
	if w == nil {
		return nil
	}
	return w.w
}

// Frame runs one frame with delta dt in seconds: FrameStart, the fixed
// ticks the clock owes (FixedUpdate each), Update, LateUpdate, FrameEnd,
// each phase's commands played back after it (docs/architecture.md,
// Frame path). Its errors are recoverable (the next frame runs) or fatal
// (IsFatal tells them apart): ErrBadDelta, ErrSystem (a *SystemError),
// ErrOverflow, ErrPlayback, ErrPoisoned, ErrClosed after Close,
// ErrZeroWorld. A panic in a system goes on through Frame as a
// *PanicError and poisons the world. It allocates nothing in steady
// state: an error value it returns may be reused by a later frame's
// (a *CommandPlaybackError is), so read or copy it (err.Error()) before
// the next Frame.
func (w *World) Frame(dt float64) error {
	err := w.e().Frame(dt)
	if w != nil && w.report == nil && w.w != nil {
		w.Report() // the report's room, made in the first frame rather than in a host's loop
	}
	return err
}

// Frames is the number of frames run (failed ones included, refused ones
// not).
func (w *World) Frames() uint64 { return w.e().Frames() }

// Report returns the report of the last completed frame, or nil before the
// first frame. The report is the world's own, refreshed by each call:
// copy what must outlive the next Report. Allocates nothing (the first
// frame makes its room).
func (w *World) Report() *FrameReport {
	r := w.e().Report()
	if r == nil {
		return nil
	}
	if w.report == nil {
		w.report = &FrameReport{}
	}
	w.report.copyFrom(r)
	return w.report
}

// Time returns the fixed-step clock's account, a copy.
func (w *World) Time() Time { return Time(w.e().Time()) }

// Order returns the names of phase p's systems in running order, nil for
// an invalid phase. It allocates.
func (w *World) Order(p Phase) []string { return w.e().Order(systems.Phase(p)) }

// Workers is the number of kernel workers, the frame loop's goroutine
// included (WithWorkers). Safe for concurrent use.
func (w *World) Workers() int { return w.e().Workers() }

// RunChunks calls fn(worker, chunk) for every chunk in 0..chunks-1 on the
// world's kernel workers and returns once, when all have returned: a
// host's scan between frames, from the goroutine that calls Frame (the
// declared queries' parallel lane, docs/schema.md, Queries). The rule and
// its inline fallback during a frame or on a closed world, where it
// returns false (true when the pool had the run): runtime.World.RunChunks.
// Allocates nothing.
func (w *World) RunChunks(chunks int, fn func(worker, chunk int)) bool {
	return w.e().RunChunks(chunks, fn)
}

// Tables returns the tables declared with the builder, in order. The
// slice is the world's own: do not modify it. Safe for concurrent use.
func (w *World) Tables() []*Table {
	_ = w.e().Tables() // a World not made by Build panics with ErrZeroWorld's message
	return w.tables
}

// Budget is the world's memory budget (WithMemoryBudget).
func (w *World) Budget() *Budget { return (*Budget)(w.e().Budget()) }

// Resolve maps a provisional handle (a recorder's Create) to the handle of
// the row its playback created; other nonzero handles come back as they
// are. False for a create not played back yet, failed or released
// (docs/architecture.md, Provisional handles). Allocates nothing.
func (w *World) Resolve(h Handle) (Handle, bool) {
	r, ok := w.e().Resolve(ephemeral.Handle(h))
	return Handle(r), ok
}

// Snapshot appends the world's state to dst and returns it (docs/state.md:
// what it holds, the format and its version rule). It allocates nothing
// once dst has room. It returns dst as it was and ErrZeroWorld, ErrClosed,
// ErrRunning during a frame, or a *SnapshotError (ErrUnsupported) for a
// world a snapshot cannot hold. Call it between frames.
func (w *World) Snapshot(dst []byte) ([]byte, error) { return w.e().Snapshot(dst) }

// SnapshotSize is the length Snapshot would append now, in bytes,
// computed without taking one, or ErrZeroWorld, ErrClosed, ErrRunning or
// the *SnapshotError of a world a snapshot cannot hold.
func (w *World) SnapshotSize() (int, error) { return w.e().SnapshotSize() }

// MaxSnapshotSize is the largest snapshot Restore accepts, in bytes, from
// the declarations and the state allowance (docs/state.md, "Sizes").
// Safe for concurrent use.
func (w *World) MaxSnapshotSize() int { return w.e().MaxSnapshotSize() }

// HostConfig is the world's host configuration (WithHostConfig), its own
// bytes: do not modify them. Safe for concurrent use.
func (w *World) HostConfig() []byte { return w.e().HostConfig() }

// Restore makes the world hold the state of src, a snapshot of a world
// declared alike (the same Fingerprint), as it was when src was taken.
// Everything is checked first: a refused src leaves the world as it was
// and returns a *SnapshotError (ErrTruncated, ErrVersion, ErrCorrupt,
// ErrOtherWorld, ErrHostConfig or ErrUnsupported), or ErrZeroWorld,
// ErrClosed, ErrRunning. Call it between frames.
func (w *World) Restore(src []byte) error { return w.e().Restore(src) }

// Fingerprint is the hash of the world's declarations that opens its
// snapshots (docs/state.md); worlds built alike share it. Safe for
// concurrent use.
func (w *World) Fingerprint() uint64 { return w.e().Fingerprint() }

// Declarations is the text Fingerprint hashes, a line per declaration.
// Safe for concurrent use.
func (w *World) Declarations() string { return w.e().Declarations() }

// Close stops the world's kernel pool; no goroutine outlives it. Again, it
// is a no-op returning nil; Frame then returns ErrClosed, and so do the
// structural changes of the world's tables and domains, while their rows
// stay readable (docs/architecture.md, Storage, "After Close"). From a system it
// returns ErrRunning and closes nothing. On a World not made by Build it
// returns ErrZeroWorld.
func (w *World) Close() error { return w.e().Close() }

// IsFatal reports whether an error returned by World.Frame means the world
// can run no more frames; every other Frame error is recoverable. It
// classifies Frame's errors only (Build's are all set-up errors).
func IsFatal(err error) bool { return runtime.IsFatal(err) }

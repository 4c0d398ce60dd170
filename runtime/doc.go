// Package runtime builds and runs Tickwork worlds: tables, event tables and
// systems sealed into a frame-scheduled simulation that a Go game loop
// steps once per frame.
//
// # Building a world
//
// [NewBuilder] takes options: [WithWorkers] (kernel workers, default 1:
// kernels inline, no goroutine started), [WithPacing] ([Accumulate], the
// default, or [OneTickPerFrame]), [WithFixedStep] (seconds, default 1/60),
// [WithMaxTicksPerFrame] (default 8), [WithReportWindow] (runs, default
// 128), [WithCommandRecords] and [WithNoPersistence] (the default, named
// for the future). The builder declares domains ([Builder.Domain]), tables
// ([Builder.Table]), columns ([AddColumn]), event tables ([AddEvents]) and
// systems ([Builder.Add]); [Builder.Hook] registers host code that runs
// before sealing (look systems up, order against them, substitute
// implementations: see [scheduler.Hook]). [Builder.Build] seals the graph
// and returns a [*World], or the first error of the builder, or the seal's
// typed errors (conflicts, cycles, unknown or duplicate names).
//
// # Running frames
//
// [World.Frame] runs one frame with the host's delta in seconds: FrameStart,
// the fixed ticks (FixedUpdate), Update, LateUpdate and FrameEnd, with
// command playback after each phase and tick and event boundaries at the
// end (see package scheduler for the frame path). [World.Report] gives the
// last frame's [scheduler.FrameReport], [World.Time] the fixed-step
// clock's account, and [World.Resolve] the real handle of a provisional
// handle whose create has played back (until the next frame's FrameStart
// has played back). A frame allocates nothing in steady state.
//
// # Closing
//
// [World.Close] stops the kernel pool; no goroutine outlives it, and it is
// idempotent. [World.Frame] after Close returns [ErrClosed]. Worlds share
// no state: two in one process are independent.
//
// # Errors
//
// Bad options give an [*OptionError] (errors.Is [ErrOption]); a Builder
// used after Build gives [ErrBuilt]; [World.Frame] after Close gives
// [ErrClosed]. Definition and seal errors of packages ephemeral, events,
// systems and scheduler pass through unchanged, so errors.Is works with
// their sentinels. Messages of this package start with "runtime: ".
//
// # Concurrency
//
// A Builder and a World are used from one goroutine (the host's loop).
// Kernels run on the world's pool during Frame; no method of the World is
// safe while Frame runs on another goroutine.
package runtime

// Package runtime builds and runs Tickwork worlds: tables, event tables and
// systems sealed into a frame-scheduled simulation that a Go game loop
// steps once per frame.
//
// # Building a world
//
// [NewBuilder] takes options: [WithWorkers] (kernel workers), [WithPacing]
// ([Accumulate] or [OneTickPerFrame]), [WithFixedStep] (seconds),
// [WithMaxTicksPerFrame], [WithReportWindow], [WithCommandRecords] and
// [WithNoPersistence] (the default, named for the future). The builder
// declares domains ([Builder.Domain]), tables ([Builder.Table]), columns
// ([AddColumn]), event tables ([AddEvents]) and systems ([Builder.Add]);
// [Builder.Hook] registers host code that runs before sealing (look systems
// up, order against them, substitute implementations: see
// scheduler.Hook). [Builder.Build] seals the graph and returns a [*World],
// or the seal's typed error (conflicts, cycles, unknown or duplicate
// names).
//
// # Running frames
//
// [World.Frame] runs one frame with the host's delta in seconds: FrameStart,
// the fixed ticks (FixedUpdate), Update, LateUpdate and FrameEnd, with
// command playback after each phase and tick and event boundaries at the
// end (see package scheduler for the frame path). [World.Report] gives the
// last frame's [scheduler.FrameReport]. A frame allocates nothing in steady
// state.
//
// # Closing
//
// [World.Close] stops the kernel pool; no goroutine outlives it, and it is
// idempotent. [World.Frame] after Close returns [ErrClosed]. Worlds share
// no state: two in one process are independent.
//
// # Errors
//
// Bad options give an [*OptionError] (errors.Is [ErrOption]); definition
// and seal errors of packages ephemeral, events, systems and scheduler pass
// through unchanged, so errors.Is works with their sentinels. Messages of
// this package start with "runtime: ".
//
// # Concurrency
//
// A Builder and a World are used from one goroutine (the host's loop).
// Kernels run on the world's pool during Frame.
package runtime

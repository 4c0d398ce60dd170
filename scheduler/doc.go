// Package scheduler turns systems into frames: it orders the systems of
// each phase into a graph that refuses hidden data races, steps a fixed
// timestep, plays deferred commands back at phase boundaries, ends event
// frames and keeps a frame report. It knows systems only through their
// manifests (internal/engine/frame).
//
// Who calls it: package runtime, which builds a Scheduler for every
// world; a host that drives a Scheduler directly (its own storage and
// event tables, no runtime.Builder); a host's hooks ([Hook]), through
// runtime.Builder.Hook; and a host that reads a [FrameReport]. The
// scheduler's snapshot state is the runtime's (internal/plumb).
//
// # Life cycle
//
// [New] takes a [Config] (fixed step in seconds, tick cap, [Pacing], report
// window in runs, command buffer records, kernel pool, memory budget). Then
// [Scheduler.Add] (which runs the system's declaration),
// [Scheduler.AddEvents] and [Scheduler.Hook]; then [Scheduler.Seal] once;
// then [Scheduler.Frame] once per frame of the host's loop.
// [Scheduler.Report], [Scheduler.Time] and [Scheduler.Resolve] read the
// results between frames.
//
// # Sealing
//
// Hooks ([Hook]) run first: host code looks systems up ([Hook.Lookup],
// [Hook.Names]), orders its systems against them ([Hook.Order]), adds
// systems ([Hook.Add]) and substitutes an implementation declaring the
// same manifest ([Hook.Substitute]). Seal then refuses, with typed errors:
// duplicate names ([*DuplicateError]); constraints naming unknown systems
// ([*UnknownSystemError]) or contradicting the phase order
// ([*PhaseOrderError]); cycles ([*CycleError]); pairs of systems of a
// phase that no chain of constraints orders and that conflict
// (docs/architecture.md, Access rules; [*ConflictError], naming every
// pair and datum); and a
// consumer of a ThisFrame event table that some emitter does not precede
// in every frame, so that it would miss events ([*EventOrderError]), or
// a ThisFrame table that systems emit into and none consumes, unless its
// spec says its events may go unread ([*UnreadEventsError]). The order of a phase is Kahn's topological sort
// taking the ready system registered first. Systems of a phase run one
// after another; parallelism lives inside kernels (systems.Parallel).
//
// # Fixed timestep
//
// With [Accumulate] pacing (the default), each frame's delta feeds an
// accumulator in integer nanoseconds (the step truncated, each delta
// rounded); every whole step runs a fixed tick, at most
// [Config.MaxTicksPerFrame] a frame (8 when 0).
// Whole steps beyond the cap are dropped and reported ([Time.Dropped],
// [FrameReport.Dropped]): no spiral of death. The remainder below one step
// carries over, and the account balances exactly: Fed = Simulated +
// Dropped + Remaining. The first frame uses its delta as given (dt = 0: no
// tick). [OneTickPerFrame] runs exactly one tick per frame. A negative,
// NaN, infinite or above-[MaxDelta] delta is refused ([*DeltaError]), as
// is one that would take the account past math.MaxInt64 ns
// ([ErrClockOverflow]; the bound: docs/architecture.md, fixed timestep). In
// FixedUpdate a system's delta is the fixed step (see Time in package
// systems).
//
// # Frame path and boundaries
//
// [Scheduler.Frame] runs FrameStart, then zero or more fixed ticks
// (FixedUpdate), then Update, LateUpdate and FrameEnd. Commands play back
// after every phase and every fixed tick, in sealed order (see Deferred
// changes in package systems); a system with run conditions has them
// asked at its slot before each run, and a false one skips the run
// (docs/architecture.md, Run conditions); when a system returns, its parallel event
// segments merge and its readers pass what they returned; resolutions of
// provisional handles are released once, right after FrameStart's
// playback; event tables begin the frame (BeginFrame) before FrameStart,
// begin every tick (BeginTick) and end the frame (EndFrame) after
// FrameEnd's playback: what that makes readable to which
// consumer is the delivery rule of docs/architecture.md (Events), which
// also has the boundaries in one table.
//
// # Frame report
//
// [Scheduler.Report] returns the [FrameReport] of the last frame: frame
// time, fixed ticks, dropped and remaining time, command stats, events
// dropped, heap bytes and objects allocated during the frame, and per
// system its last run and rolling p50/p99/mean over the last
// [Config.ReportWindow] runs (runs, not frames: a FixedUpdate system runs
// once per tick), and its named counters' values in the frame
// ([SystemReport].Counters of [CounterReport]; the rule: Counters in
// package systems), and the runs its run conditions skipped
// ([SystemReport].Skips). Everything is preallocated at Seal.
//
// # State
//
// A world's snapshot carries the clock's account ([Time]), the counters'
// totals and the playback's state (the runtime drives it; a state the
// scheduler refuses is a [*StateError], [ErrState]; docs/state.md).
//
// # Errors
//
// Set-up and sealing errors are typed ([*ConfigError], [*DuplicateError],
// [*UnknownSystemError], [*PhaseOrderError], [*EventOrderError],
// [*UnreadEventsError], [*CycleError], [*ConflictError], [*SubstituteError], [*HookError], for
// a panicking hook wrapping a [*HookPanicError]); Seal
// joins the errors of one stage (errors.Join). The errors of a frame name
// the system, its phase and the frame, and unwrap to the original error
// (see [ErrSystem]'s block of sentinels). They fall in two classes, told
// apart by [IsFatal]:
//
//   - fatal: a system's or kernel's panic goes up to the host as a
//     [*PanicError] (errors.Is [ErrSystemPanic]) and poisons the
//     scheduler: every later Frame returns [ErrPoisoned]; close the world
//     and build a new one;
//   - recoverable, the next frame runs: [*DeltaError] (the frame did not
//     run), [*SystemError] (a system failed via systems.Context.Fail, or,
//     in the debug build, wrote what it declared only to read: an
//     [*UndeclaredWriteError] inside, or changed an index key unmarked
//     that it maintains by marks: an [*UnmarkedIndexWriteError] inside,
//     docs/architecture.md, Debug build; its
//     phase still played back, the remaining ticks count as dropped, the
//     events and the report completed), the first [*PlaybackError] (a
//     create did not fit a full table, errors.Is ephemeral.ErrCapacity:
//     that row is missing, everything else played), the first
//     *events.OverflowError (events were dropped and counted),
//     [ErrReentrant] (Frame called from a system; the running frame goes
//     on), [ErrConcurrentFrame] (Frame called from another goroutine while
//     a frame runs; the running frame goes on).
//
// [ErrNilHook] and [ErrHookDone] are returned as they are; so are the errors of calls out of
// order (Add, AddEvents, Hook or Seal after Seal, Frame before it) and of
// a nil event table given to AddEvents, which are not exported: a host's
// slip their message says how to fix. Messages start with "scheduler: ".
//
// # Concurrency
//
// A Scheduler is driven by one goroutine and is not safe for concurrent
// use; no method is safe while Frame runs on another goroutine, except
// Frame itself, which refuses such a call with [ErrConcurrentFrame]. Systems
// run on it; their kernels run on the pool and return before the system
// does. Frames do not nest ([ErrReentrant]; [Scheduler.Running] tells
// whether a frame runs).
package scheduler

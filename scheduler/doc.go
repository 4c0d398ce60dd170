// Package scheduler turns systems into frames: it orders the systems of
// each phase into a graph that refuses hidden data races, steps a fixed
// timestep, plays deferred commands back at phase boundaries, ends event
// frames and keeps a frame report. It knows systems only through their
// manifests (package systems).
//
// # Phases
//
// A frame runs the phases FrameStart, FixedUpdate (once per fixed tick: 0..n
// times), Update, LateUpdate and FrameEnd, in that order. Within a phase,
// systems run one after another on the calling goroutine; parallelism lives
// inside kernels ([systems.Context.RunKernel] over a kernels.Pool).
//
// # Life cycle
//
// [New] takes a [Config] (fixed step in seconds, tick cap, [Pacing], report
// window in runs, command buffer records, kernel pool, memory budget). Then
// [Scheduler.Add], [Scheduler.AddEvents] and [Scheduler.Hook]; then
// [Scheduler.Seal] once; then [Scheduler.Frame] once per frame of the
// host's loop. [Scheduler.Report], [Scheduler.Time] and [Scheduler.Resolve]
// read the results between frames.
//
// # Sealing
//
// [Scheduler.Add] registers systems; [Scheduler.Hook] registers functions
// that run at [Scheduler.Seal] before the graph is built, where host code
// looks systems up by name, orders its systems against them
// ([Hook.Order]), may add systems ([Hook.Add]) and may substitute a system's
// implementation with one that declares the same manifest
// ([Hook.Substitute]). Seal then refuses, with typed errors: duplicate
// names ([*DuplicateError]); constraints naming
// unknown systems ([*UnknownSystemError]) or contradicting the phase order
// ([*PhaseOrderError]); cycles ([*CycleError], naming the cycle); pairs
// of systems of a phase that no chain of Before/After constraints orders and
// that touch the same data ([*ConflictError], naming every pair and datum:
// see package systems for the access rules); and a consumer of a ThisFrame
// event table that some emitting system does not precede in every frame,
// so that it would miss events ([*EventOrderError]). Independent systems keep
// registration order: the order is Kahn's topological sort taking the ready
// system registered first.
//
// # Fixed timestep
//
// With [Accumulate] pacing (the default), each frame's delta feeds an
// accumulator kept in integer nanoseconds (the step truncated to the
// nanosecond, each delta rounded to the nearest); every whole step runs a fixed
// tick, at most [Config.MaxTicksPerFrame] ticks a frame
// ([DefaultMaxTicksPerFrame] = 8). Whole steps beyond the cap are dropped
// and counted ([Time.Dropped], [FrameReport.Dropped]), so a slow frame does
// not make the next one slower (no spiral of death); the remainder below one
// step carries over. The account balances exactly: Fed = Simulated +
// Dropped + Remaining. The first frame uses its delta as given: with dt = 0
// no tick runs. [OneTickPerFrame] pacing runs exactly one tick per frame
// whatever the delta, for benchmarks and frame-stepped viewers. A negative,
// NaN, infinite or above-[MaxDelta] delta is refused with a [*DeltaError]
// and the frame does not run, as is one that would overflow the account
// ([ErrClockOverflow]; the bound: docs/architecture.md, fixed timestep).
//
// # Frame path and boundaries
//
// [Scheduler.Frame] runs, in order:
//
//  1. BeginFrame of every event table, FrameStart's systems, then the
//     playback of their commands;
//  2. the release of provisional-handle resolutions
//     (commands.Playback.Release): creates played back before this point
//     (in the previous frame, up to its FrameEnd, and in this FrameStart)
//     stop resolving, so a FrameEnd create is resolvable throughout the next
//     FrameStart, its systems and its playback;
//  3. for each fixed tick: BeginTick of every event table, FixedUpdate's
//     systems, then their playback;
//  4. Update, LateUpdate and FrameEnd, each followed by its playback;
//  5. EndFrame and TakeDropped of every event table (after FrameEnd's
//     playback) and the frame report.
//
// So commands play back after FrameStart, after every fixed tick and after
// Update, LateUpdate and FrameEnd. When a system returns, its parallel event
// segments are merged into their tables and its readers pass what they
// returned ([systems.Context.EndRun]). What BeginFrame, BeginTick and
// EndFrame make readable to which consumer is the delivery rule of
// docs/architecture.md (Events).
//
// A playback replays the commands of the phase's systems in sealed order:
// each system's serial buffer, then its per-worker buffers merged in chunk
// order. Because resolutions are released right after FrameStart, a create
// recorded in FrameStart resolves for records of that same playback only;
// create rows that later phases must find in FixedUpdate or later.
//
// When a system's Run returns an error, the systems after it do not run:
// its phase's commands still play back, the fixed ticks left count as
// dropped time, the event tables still end the frame, and Frame returns a
// [*SystemError].
//
// # Frame report
//
// [Scheduler.Report] returns the [FrameReport] of the last frame: frame
// time, fixed ticks, dropped and remaining time, command stats (played,
// dropped), events dropped, heap bytes and objects allocated during the
// frame (runtime/metrics, read into a preallocated sample slice), and per
// system the wall time of its last run and rolling p50/p99/mean over the
// last [Config.ReportWindow] runs (a preallocated ring; selection in
// preallocated scratch, computed when Report is called). The window counts
// runs, not frames: a FixedUpdate system runs once per tick.
//
// # Allocation
//
// Seal allocates everything but per-worker state; a frame allocates
// nothing in steady state (after each system's first run has registered
// its tables and columns with its command buffers and made its
// WorkerRecorders buffers and parallel emitters).
//
// # Errors
//
// Set-up, sealing and frame errors are typed ([*ConfigError],
// [*DuplicateError], [*UnknownSystemError], [*PhaseOrderError],
// [*EventOrderError], [*CycleError], [*ConflictError], [*SubstituteError], [*HookError],
// [*DeltaError], [*SystemError], [*PlaybackError], and [*PanicError] as a
// panic value) and match the package's sentinels with
// errors.Is; [ErrSealed], [ErrNotSealed], [ErrReentrant] (Frame from
// inside a frame), [ErrPoisoned] (Frame after a panic escaped a frame),
// [ErrNilEvents] and [ErrNilHook] are returned as they are. Seal joins the
// errors of one stage with errors.Join, so errors.Is and errors.As see each
// of them. A bad system definition passes through as the
// *systems.DefinitionError of [systems.System.Validate]. The errors of a
// frame name the system, its phase and the frame, and unwrap to the
// original error (see [ErrSystem]'s block of sentinels for the rule).
// Messages of the scheduler's own errors start with "scheduler: ".
//
// # Concurrency
//
// A Scheduler is driven by one goroutine and is not safe for concurrent
// use. Systems run on it; their kernels run on the pool and return before
// the system does. No method is safe while Frame runs on another goroutine.
// Frames do not nest: Frame called from a system returns [ErrReentrant]
// and runs nothing; [Scheduler.Running] tells whether a frame runs.
//
// The scheduler checks manifests against what systems acquire through
// their [systems.Context] only: a system that touches tables, columns or
// event tables directly (a column's Span, a table's Insert) is not checked
// (see package systems, What is enforced).
package scheduler

// Package runtime builds and runs Tickwork worlds: tables, event tables,
// resources and systems sealed into a frame-scheduled simulation that a Go
// game loop steps once per frame. Hosts use it through the module root,
// package tickwork; who calls this package directly is a host that needs
// what the face does not show (a Builder's hooks, a world's scheduler-level
// options).
//
// # Building a world
//
// [NewBuilder] takes options (each an [Option]): [WithWorkers] (kernel workers, default
// GOMAXPROCS; 1 runs kernels inline and starts no goroutine),
// [WithKernelPolicy] (how many workers a kernel run uses: package kernels,
// "Worker policy"), [WithPacing] (a scheduler.Pacing: Accumulate, the
// default, or OneTickPerFrame), [WithFixedStep] (seconds, default 1/60),
// [WithMaxTicksPerFrame] (default 8), [WithReportWindow] (runs, default
// 128), [WithCommandRecords] (records per command buffer, at most
// scheduler.MaxCommandRecords), [WithMemoryBudget] (bytes, default
// [DefaultMemoryBudget], 8 GiB: every declaration and per-worker event
// staging is charged to it before it allocates, see docs/architecture.md,
// memory budget; [Builder.Budget], [World.Budget]). The builder declares domains ([Builder.Domain]),
// tables ([Builder.Table]), columns ([AddColumn]), event tables
// ([AddEvents]; a table's lifecycle events: [Lifecycle], [LifecycleSpec]), resources ([AddResource]), systems ([Builder.System],
// [Builder.Add]) and hooks ([Builder.Hook], see scheduler.Hook).
// [Builder.Build] runs the systems' declarations, seals the graph and
// returns a [*World].
//
// Declarations return what they declare and no error: the Builder keeps
// the first error ([Builder.Err]), which Build returns; a failed
// declaration returns nil, as does every declaration after it (nothing
// more is allocated), and passing that nil on is refused without a panic. Worlds share no data: systems may name only what their Builder
// declared ([*ForeignError]); names are unique per kind.
//
// # Set-up and running frames
//
// Between Build and the first frame, and between frames, the host owns
// the tables and resources: the initial entities go in with a query's
// InsertN (ephemeral.Query2.InsertN: bulk, values set in place, nothing
// allocated per row), resources are read and written through
// systems.Resource.Get. [World.Frame] runs one frame with the host's delta
// in seconds (see package scheduler); [World.Report] gives the last
// frame's report, [World.Time] the clock's account, [World.Resolve] the
// real handle of a provisional one. A frame allocates nothing in steady
// state.
//
// # Snapshots
//
// [World.Snapshot] appends the world's state to a caller's buffer,
// [World.Restore] checks a snapshot whole before it changes anything and
// then takes it, [World.Fingerprint] and [World.Declarations] identify a
// world's declarations; [NewRollback] makes a ring of preallocated
// snapshots ([Rollback]). [WithHostConfig] puts the host's own
// configuration in every snapshot ([World.HostConfig]); sizes come from
// the declarations ([World.SnapshotSize], [World.MaxSnapshotSize],
// [AddSliceResource], [WithStateAllowance]), and [CheckResource] adds the
// host's check of a restored resource. Refusals are a [*SnapshotError]
// (errors.Is [ErrSnapshot] and [ErrTruncated], [ErrCorrupt], [ErrVersion],
// [ErrOtherWorld], [ErrHostConfig] (a [*HostConfigError]) or
// [ErrUnsupported]) or a [*RollbackError] ([ErrNoSnapshot]). What a snapshot holds and what it does not, the
// format ([SnapshotVersion], [SnapshotHeader]) and its version rule:
// docs/state.md. A restore marks every tracked row changed
// (docs/architecture.md, Change detection).
//
// # Errors
//
// Bad options give an [*OptionError] (errors.Is [ErrOption]); bad
// declarations a [*DefinitionError] (errors.Is [ErrDefinition] and
// [ErrNilTable], [ErrDuplicateName] or [ErrEmptyName]), a
// *memory.BudgetError ([ErrMemoryBudget]) or a [*ForeignError]
// ([ErrForeign]); a Builder not made by [NewBuilder]
// [ErrZeroBuilder], one used after Build [ErrBuilt] (and Build seals the
// world's domains, so ephemeral.AddColumn on a world's table then gives
// ephemeral.ErrSealed: docs/architecture.md, Storage). Errors of packages
// ephemeral, events, systems and scheduler pass through unchanged. Frame's
// errors are scheduler's (fatal or recoverable: see Errors in package
// scheduler) plus [ErrClosed] after Close and [ErrZeroWorld] on a World
// not made by Build; [IsFatal] tells the fatal ones. A hook that panics in
// Build gives a *scheduler.HookError wrapping a *scheduler.HookPanicError.
// Close, Snapshot, Restore, NewRollback and a Rollback's Save, Load and
// Rewind during a frame give [ErrRunning] (the others' message names the
// call). Messages start with "runtime: ".
//
// # Concurrency
//
// A Builder and a World are used from one goroutine (the host's loop).
// Kernels run on the world's pool during Frame. Frames do not nest. Close
// stops the pool; no goroutine outlives it. Worlds share no state.
package runtime

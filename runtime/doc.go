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
// 128), [WithCommandRecords] (records per command buffer, at most
// [MaxCommandRecords]), [WithMemoryBudget] (bytes, default
// [DefaultMemoryBudget], 8 GiB) and [WithNoPersistence] (the default, named
// for the future). The builder declares domains ([Builder.Domain]), tables
// ([Builder.Table]), columns ([AddColumn]), event tables ([AddEvents]) and
// systems ([Builder.Add]); [Builder.Hook] registers host code that runs
// before sealing (look systems up, order against them, substitute
// implementations: see [scheduler.Hook]). [Builder.Build] seals the graph
// and returns a [*World], or the first error of the builder, or the seal's
// typed errors (conflicts, cycles, unknown or duplicate names).
//
// A host may ignore the errors of the declarations and check only Build's:
// a failed declaration returns nil, and the nil passed on to [AddColumn],
// systems.Col or a manifest is refused with an error of its own, never a
// panic, while Build returns the first error, the one of the call that
// failed.
//
// A Builder's world shares nothing with another: manifests may name only
// tables declared with [Builder.Table] (in domains of [Builder.Domain]) and
// event tables declared with [AddEvents]; Add and Build refuse anything
// else with a [*ForeignError]. Table names, and event table names, are
// unique per Builder.
//
// Every declaration, and every per-worker event staging a system makes, is
// charged to the world's one memory budget ([WithMemoryBudget],
// [Builder.Budget], [World.Budget]) before it allocates; see
// docs/architecture.md, memory budget.
//
// # What the scheduler checks
//
// The scheduler checks a system's manifest against what the system
// acquires through its systems.Context (systems.Read, systems.Write,
// Context.Recorder, systems.NewEmitter, systems.Reader, ...): undeclared
// acquisitions fail at run time, declared ones are conflict-checked at
// Build. A system that touches a column or table directly (Column.Span,
// Column.All, Table.Insert, events.Table.Emit) escapes both checks: for that
// access the manifest is an honour system. Take columns through
// systems.Write, as the package Example does, and structural changes through
// recorders of the tables in Creates and Deletes.
//
// # Running frames
//
// [World.Frame] runs one frame with the host's delta in seconds: FrameStart,
// the fixed ticks (FixedUpdate), Update, LateUpdate and FrameEnd, with
// command playback after each phase and tick, and event boundaries before
// each tick and at the end (see package scheduler for the frame path). [World.Report] gives the
// last frame's [scheduler.FrameReport], [World.Time] the fixed-step
// clock's account, and [World.Resolve] the real handle of a provisional
// handle whose create has played back (until the next frame's FrameStart
// has played back). A frame allocates nothing in steady state.
//
// # Closing
//
// [World.Close] stops the kernel pool; no goroutine outlives it, and it is
// idempotent. [World.Frame] after Close returns [ErrClosed]. Called from a
// system during a frame, Close returns [ErrRunning] and closes nothing.
// Worlds share no state: two in one process are independent.
//
// # Errors
//
// Bad options, and nil ones, give an [*OptionError] (errors.Is
// [ErrOption]). [AddColumn] with a nil table, and a duplicate table, event
// table or domain name, give a [*DefinitionError] (errors.Is [ErrDefinition]
// and [ErrNilTable] or [ErrDuplicateName]); a table, event table or domain
// declared elsewhere gives a [*ForeignError] (errors.Is [ErrForeign]); a
// declaration past the world's memory budget gives a *memory.BudgetError
// (errors.Is [ErrMemoryBudget]), and a spec naming a budget of its own
// [ErrSpecBudget]; a nil hook gives scheduler.ErrNilHook. A Builder used after Build gives
// [ErrBuilt] (and Build seals the world's domains, so ephemeral.AddColumn
// on a world's table then gives ephemeral.ErrSealed: docs/architecture.md,
// Storage), and one not made by [NewBuilder] [ErrZeroBuilder]; [World.Frame] after Close gives [ErrClosed], and Close during
// a frame [ErrRunning]. Definition and seal errors of packages ephemeral,
// events, systems and scheduler pass through unchanged, so errors.Is works
// with their sentinels. Messages of this package start with "runtime: ".
//
// # Concurrency
//
// A Builder and a World are not safe for concurrent use: they are used from
// one goroutine (the host's loop). Kernels run on the world's pool during
// Frame; no method of the World is safe while Frame runs on another
// goroutine. Frames do not nest: [World.Frame] called from a system returns
// scheduler.ErrReentrant and runs nothing.
package runtime

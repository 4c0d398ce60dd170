// Package systems is the contract between game code and the scheduler: a
// [System] is a named function that runs in one [Phase] of every frame and
// declares, in its [Manifest], everything it touches.
//
// # Systems and manifests
//
// A [System] has a Name (unique in a world), a [Phase], a [Manifest] and
// ordering constraints ([System.Before], [System.After]: names of systems;
// across phases they must agree with the phase order). [System.Validate]
// checks a definition. The manifest lists per table the columns the system
// reads and writes
// ([Col] builds a [ColumnRef] from a typed column), the tables it creates
// rows in or deletes rows from, the event tables it emits or consumes, and
// named resources ([Resource]) such as a clock or a random stream. The scheduler
// (package scheduler) reads nothing else: it orders systems and refuses
// hidden data races from manifests alone, which holds for the data systems
// acquire through their [Context] (see What is enforced).
//
// # Access rules
//
// Two systems conflict when both touch one datum and one of them writes it:
//
//   - a column: write/write, or read/write (a written column counts as read);
//   - a table's structure: a create or delete in table T conflicts with any
//     access (read, write, create, delete) to a table of T's domain, because
//     a delete removes the entity's rows from every member table;
//   - an event table: emitting is a write; consuming a ThisFrame table is a
//     read; consuming a NextFrame table reads only events published at an
//     earlier boundary, never what emitters write, and so conflicts with
//     nothing (two emitters still conflict; delivery rule:
//     docs/architecture.md, Events);
//   - a resource: by name, a Write against any use.
//
// The structural rule holds although creates and deletes are deferred to
// the phase's playback, where no system runs: it is stricter than a data
// race requires, and it makes every order between structural changes of
// one domain, and between them and the domain's readers, explicit.
//
// [Conflicts] lists the conflicts of two manifests, one [Overlap] each; the
// scheduler calls it at seal for every pair of systems of a phase that no
// chain of constraints orders, and refuses the pair.
//
// # Contexts
//
// A system runs with a [Context], built once at set-up by [NewContext] and
// reused by every run (running allocates nothing in steady state). The context hands out, once
// per run, what the manifest allows:
//
//   - [Context.Lease]: row leases of any table the manifest names;
//   - [Read] and [Write]: whole column slices (indexed by row), Read for a
//     declared read or write, Write for a declared write;
//   - [Context.Recorder]: a deferred-command recorder for a table the system
//     creates in or deletes from (Creates, Deletes: declared writes of its
//     columns do not suffice, since a recorder makes structural changes);
//     [Context.WorkerRecorders] gives per-worker recorders for parallel
//     kernels, keyed by chunk. The scheduler plays the commands back after
//     the system's phase (after each fixed tick in FixedUpdate);
//   - [NewEmitter], [Reader] and [ParallelEmitter]: event emitters and readers;
//   - [Context.Resource]: an assertion that a named resource is declared;
//   - [Context.RunKernel], [Context.Pool], [Context.Workers]: parallel
//     kernels over chunks; [Context.DT], [Context.FixedDT] (seconds),
//     [Context.Frame] (frames), [Context.Tick] (fixed ticks): the clock;
//   - [Context.Resolve]: the real handles of provisional handles whose
//     creates have been played back (until the scheduler releases them after
//     the next frame's FrameStart; see package scheduler).
//
// Asking for anything the manifest does not declare fails with an
// [*AccessError] that matches [ErrNotDeclared] under errors.Is; so does
// passing nil (a column, table or event table whose declaration failed).
// The check is a scan of a few-element slice per acquisition; nothing is
// checked per row or per record, so hold on to what a call returns for the
// rest of the run (but not across runs: deferred structure may have
// changed).
//
// # What is enforced
//
// The scheduler enforces, and conflict-checks, only what systems acquire
// through their Context. Tables, columns and event tables are plain Go
// values that any code holding them can touch directly: a system that
// writes through [ephemeral.Column.Span] or All, inserts with
// [ephemeral.Table.Insert] or emits with [events.Table.Emit] is not checked
// against its manifest, and an undeclared access made that way is an
// unchecked data race with whatever the scheduler ran it beside. For such
// access the manifest is an honour system. Acquire through the Context
// ([Write] rather than Span, [Context.Recorder] rather than Insert,
// [NewEmitter] rather than Emit) and the manifest holds: what is not
// declared is refused at run time with an [*AccessError], and what is
// declared is conflict-checked at seal.
//
// # Scheduler face
//
// [Env] holds what the scheduler shares with every context of a world (the
// pool, the playback, the clock); [NewEnv], [Env.SetFrame], [Env.SetTick],
// [NewContext], [Context.EndRun], [Context.CommandBuffer] and
// [Context.WorkerBuffers] are for the scheduler, and for tests that run a
// system outside a world (see the Context example).
//
// # Errors
//
// Definitions fail with a [*DefinitionError] (errors.Is [ErrDefinition] and
// the precise sentinel: [ErrEmptyName], [ErrNoRun], [ErrBadPhase],
// [ErrBadManifest], the last one also for nil and typed-nil tables and event
// tables and for the zero [ColumnRef] that [Col] gives for a nil column;
// [NilBuffer] is the typed-nil check, which the scheduler shares);
// undeclared access fails with an [*AccessError] (errors.Is
// [ErrNotDeclared]). Messages start with "systems: ".
//
// # Concurrency
//
// A Context belongs to one system and is used by one goroutine at a time:
// the scheduler's, while the system runs. Kernels started through
// [Context.RunKernel] may read and write the slices obtained in the run, each
// worker using only its own [Context.WorkerRecorders] and
// [ParallelEmitter] worker segment; every other Context method must be called
// from the system's goroutine, outside kernels.
package systems

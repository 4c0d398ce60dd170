// Package commands defers structural changes: systems record creates,
// attaches, deletes and column writes in command buffers while kernels walk
// the tables, and a Playback replays them at the next boundary, where no
// kernel runs.
//
// Who calls it: a system's author records through systems.Record and the
// spawners, which wrap the recorders here, and a world's scheduler plays
// the buffers back; this package is for a host or a test that records
// into buffers and plays them back itself, without a scheduler. A
// playback's snapshot state is the scheduler's (internal/plumb).
//
// # Buffers and recorders
//
// A [Buffer] is one record stream, owned by one system (or one worker of a
// parallel kernel) and made once by the [Playback] that will play it
// ([Playback.NewBuffer]). A [Recorder]
// ([Buffer.Recorder]) records for one table; in a world a system's
// declaration (package systems: Record) binds one to its buffer at seal,
// so the scheduler knows what it records. Recording is unchecked and
// allocation-free in steady state:
//
//   - [Recorder.Create] ([Recorder.TryCreate] to see a refusal at the
//     call): a new entity with a row in the table; returns a provisional
//     handle.
//   - [Recorder.Attach]: a row for an existing entity of the table's domain.
//   - [Recorder.Delete]: the entity, with its rows in every table of the domain.
//   - [Recorder.Remove]: only the entity's row in this table.
//   - [Move]: the entity's row from one table to another of its domain,
//     carrying the columns they share, in one record.
//   - [Set] and [SetN]: deferred writes of column values
//     (the initial values of a created row, or any later write).
//
// All Recorders of a Buffer append to its one stream, so a system's records
// keep their order across tables. [Buffer.Reset] drops the records not yet
// played.
//
// # Provisional handles
//
// [Recorder.Create] returns a provisional [ephemeral.Handle] that later
// records may name; [Playback.Resolve] turns it into the real handle until
// [Playback.Release] ([MaxCreates], [ErrTooManyCreates]). The rule, its
// window and layout: docs/architecture.md, Provisional handles.
//
// # Playback and order
//
// [Playback.PlayAll] plays buffers in the order given,
// each in record order; the scheduler passes a boundary's buffers in sealed
// system order. [Playback.PlayMerged] plays the per-worker buffers of one
// parallel kernel as one stream: segments started by [Buffer.Begin] with the
// chunk index, in ascending key order. Either way the result equals playing
// every record on its own in that order, so the same records give the same
// handles and table state whatever the number of workers.
//
// Playback order (the one rule both [Playback.PlayAll] and
// [Playback.PlayMerged] obey, as Bevy's and flecs's command queues do):
// every record applies in play order to the tables as the records before
// it left them, and a playback's result equals playing the records one by
// one in that order. So a Delete deletes its entity wherever its rows are
// at that point (none, after a Remove of its last row; in another table,
// after a Move or a Remove and an Attach), through the recorder of any
// table of its domain, and a record after it finds no live row. The
// batching below never changes a result: within one playback a run of
// creates into one table, with only writes of entities the buffer created
// before them in between, is one bulk [ephemeral.Table.InsertN] per window
// of 1024 records, and any other record (a write of a real handle, which a
// create of the run could make live; a SetN; any structural record) ends
// the run. New entities take the lowest free slots of their domain, as
// single inserts would. Buffers are reset for recording after playback;
// [Stats] says what happened. A table's lifecycle events (the structural
// changes a watcher of the table is told, ephemeral.Watcher) come out in
// this order too: docs/architecture.md, Lifecycle events.
//
// # Policies
//
// This section is the home of the playback rules (docs/architecture.md,
// Command buffers, links here). Playback never stops at a bad record and
// never returns an error as a whole; [Stats] counts every outcome. Two
// kinds of outcome:
//
// No-ops, counted only (nothing was lost that the records asked to keep):
//
//   - Deleting a handle with no live entity, or removing one with no live
//     row in the table (stale, already deleted, deleted twice in one
//     playback, a failed create), is a no-op counted in StaleDeletes. A handle deleted twice is deleted, counted
//     and its slot freed once.
//   - Create then delete of one provisional handle leaves no row and no live
//     handle.
//   - A write to a handle with no live entity (recorded after its delete,
//     or naming a failed or refused create) is dropped and counted in
//     DroppedSets.
//
// Failures, counted and reported: the first of a playback is Stats.Err, a
// [*PlaybackError] (errors.Is [ErrPlayback]) naming the system that made
// the buffer (its name at [Playback.NewBuffer]), the record's position in
// it, its op and table, and unwrapping to the cause (a world's Frame
// returns it as is; it allocates nothing: PlaybackError, Memory).
// The failed record changes nothing and the rest of the buffer plays:
//
//   - A create that does not fit in its domain at playback: CapacityErrors,
//     [*ephemeral.CapacityError] (errors.Is [ephemeral.ErrCapacity]); its
//     handle never resolves. So does a create refused at recording (see
//     Bounded recording below): [*ephemeral.CapacityError] or
//     [ErrTooManyCreates].
//   - An attach of a dead entity ([ephemeral.ErrStaleHandle]) or of one that
//     already has a row in the table ([ephemeral.ErrRowExists]):
//     FailedAttaches.
//   - A write ([Set], [SetN]) of a live entity that has no row in the
//     column's table when it plays (removed, moved away, or not attached
//     yet in record order): FailedSets, [ErrNoRow]; the entity keeps its
//     other rows.
//   - A move ([Move]) of a dead or zero handle ([ephemeral.ErrStaleHandle]),
//     of a live entity with no row in the source table when it plays
//     (moved away or removed by an earlier record: [ErrMoveNoRow]) or with
//     a row in the destination already ([ephemeral.ErrRowExists]):
//     FailedMoves.
//   - A delete, remove, attach, move or write whose handle, once resolved,
//     is another domain's ([ephemeral.Domain.Owns] false), or another
//     playback's provisional handle, touches no row: ForeignHandles,
//     [ephemeral.ErrForeignHandle].
//
// An entity may pass through having no row within its buffer's playback:
// a Remove of its last row leaves it alive with no row (counted in
// Removed), and it is deleted only if it still has no row when the
// playback of that buffer ends (counted in Emptied; its slot freed, its
// generation advanced: no rowless entity outlives a playback). So a Remove
// of its only row then an Attach to another table of its domain keeps the
// entity and its handle, recorded in either order, as a [Move] does in one
// record. Until then its slot stays taken: a create later in the same
// buffer does not reuse it. The end of a buffer's playback is the end of
// that buffer in [Playback.PlayAll] (an Attach in a later buffer comes too
// late) and the end of the merged stream in [Playback.PlayMerged] (a
// kernel's worker buffers are one playback). The entities left rowless
// are deleted in the order of the Removes that emptied them (record order,
// merged order), each once however often it was emptied.
//
// Bounded recording: a recorder refuses a create past what its table's
// domain could hold after playback: its free slots (capacity minus live
// entities) when the buffer records its first create into the domain
// since its last playback, plus the deletes and minus the creates the
// buffer records into the domain since that playback (a Remove frees no
// slot before the end of the playback, so it does not count; a world's
// tables do not change while its systems record). It also refuses a
// create past its buffer's [MaxCreates] since the last Release. The first refused create
// of a buffer records one record that stands for all of them, later ones
// record nothing, and writes naming the refused handle are not recorded:
// a buffer's creates, their resolutions and the writes to them are
// bounded by the table's capacity however many creates a system asks
// for. [Recorder.TryCreate] returns the refusal at the call.
//
// # Memory
//
// [Playback.NewBuffer] and [Playback.NewBuffers] charge each buffer's
// initial reservation, [BufferBytes] of its records, to the playback's
// memory budget ([NewPlayback]; a world's playback has the world's) before
// allocating, and return a *memory.BudgetError when it does not fit.
// Growth past it ([Buffer.Reserve], [Reserve], or recording more) is
// charged when it happens; a record or write the budget has no room for is
// refused at the call, counted in [Stats].BudgetRefusals and reported in
// Stats.Err ([Recorder.TryCreate] returns the *memory.BudgetError). What
// counts: docs/architecture.md, memory budget.
//
// # Concurrency
//
// A Buffer and its Recorders belong to one goroutine at a time: give each
// worker of a parallel kernel its own Buffer. Playback needs exclusive
// access to the buffers played and their tables: it runs at boundaries,
// where no kernel runs. [Playback.Resolve] is safe from many goroutines
// between playbacks.
//
// # State
//
// A world's snapshot carries the playback's tag, each buffer's create
// sequence and the resolutions of its provisional handles (the scheduler
// drives it; a state the playback refuses is a [*StateError],
// [ErrState]; docs/state.md).
//
// # Errors
//
// A failed record is reported in Stats.Err as a [*PlaybackError] (which
// records fail: Policies, above). [Recorder.TryCreate] returns an
// [*ephemeral.CapacityError], [ErrTooManyCreates] or a *memory.BudgetError
// (Memory, above) at the call.
// [Playback.NewBuffer] returns [ErrTooManyBuffers]
// past 65536 buffers. Misuse panics
// with a message that says how to fix it: a buffer played by a Playback
// that did not make it, a buffer given twice to one playback, a Set of a
// column through another table's Recorder, a SetN with unequal lengths, a
// Move through recorders of two buffers or between tables of two domains.
package commands

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
//   - [Recorder.Create]: a new entity with a row in the table; returns a
//     provisional handle.
//   - [Recorder.Attach]: a row for an existing entity of the table's domain.
//   - [Recorder.Delete]: the entity, with its rows in every table of the domain.
//   - [Recorder.Remove]: only the entity's row in this table.
//   - [Set], [Setter.Set] and [SetN]: deferred writes of column values
//     (the initial values of a created row, or any later write).
//
// All Recorders of a Buffer append to its one stream, so a system's records
// keep their order across tables.
//
// # Provisional handles
//
// [Recorder.Create] returns a provisional [ephemeral.Handle]
// ([IsProvisional]) that later records may name; [Playback.Resolve] turns
// it into the real handle until [Playback.Release] ([MaxCreates], [MaxPlaybackTag], [ErrTooManyCreates]). The rule, its
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
// Within one playback a run of creates into one table, with only deferred writes between them, is one
// bulk [ephemeral.Table.InsertN] per window of 1024 records. New entities
// take the lowest free slots of their domain, as single inserts would.
// Buffers are reset for recording after playback; [Stats] says what
// happened.
//
// # Policies
//
// Playback never stops at a bad record and never returns an error as a
// whole; [Stats] counts every outcome and holds the first failure in
// Stats.Err:
//
//   - Deleting or removing a handle with no live row (stale, already
//     deleted, deleted twice in one playback, a failed create) is a no-op
//     counted in StaleDeletes. A handle deleted twice is deleted, counted
//     and its slot freed once.
//   - Removing an entity's last row deletes the entity, as
//     [ephemeral.Table.Detach] does (counted in Removed and Emptied): a
//     Remove then a Delete of a standalone table's row frees its slot.
//   - A delete, remove, attach or write whose handle, once resolved, is
//     another domain's ([ephemeral.Domain.Owns] false), or another
//     playback's provisional handle, touches no row and is counted in
//     ForeignHandles only; the first is reported in Stats.Err (errors.Is
//     [ephemeral.ErrForeignHandle]).
//   - Create then delete of one provisional handle leaves no row and no live
//     handle.
//   - A write to a handle with no live row (recorded after its delete, or
//     naming a failed create) is dropped and counted in DroppedSets.
//   - A create that does not fit fails with an [*ephemeral.CapacityError]
//     (errors.Is [ephemeral.ErrCapacity]) wrapped in a [*PlaybackError] in
//     Stats.Err, counted in CapacityErrors; its handle never resolves, and
//     the rest of the buffer plays. So does a create refused at recording
//     because its buffer had [MaxCreates] creates since the last Release
//     ([ErrTooManyCreates]).
//   - Attach of a dead entity is counted in FailedAttaches; attach of an
//     entity that already has a row is counted too and reported in Err.
//
// # Memory
//
// [Playback.NewBuffer] and [Playback.NewBuffers] charge each buffer's
// initial reservation, [BufferBytes] of its records, to the playback's
// memory budget ([NewPlayback]; a world's playback has the world's) before
// allocating, and return a *memory.BudgetError when it does not fit.
// Growth past it ([Buffer.Reserve], or recording more) is not charged. What counts: docs/architecture.md,
// memory budget.
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
// A failed create or attach, or a record naming another domain's handle, is
// reported in Stats.Err as a [*PlaybackError] (errors.Is [ErrPlayback]) that
// unwraps to the storage error ([*ephemeral.CapacityError],
// [ephemeral.ErrRowExists] or [ephemeral.ErrForeignHandle]) or to
// [ErrTooManyCreates]. [Playback.NewBuffer] returns [ErrTooManyBuffers]
// past [MaxBufferID]+1 buffers. Misuse panics
// with a message that says how to fix it: a buffer played by a Playback
// that did not make it, a buffer given twice to one playback, a Set of a
// column through another table's Recorder, a SetN with unequal lengths.
package commands

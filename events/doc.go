// Package events carries messages from systems to later systems: typed,
// fixed-capacity event tables with a frame lifetime.
//
// # Tables and lifetimes
//
// [New] declares a [Table] with an element type, a [Spec.Capacity] in events
// per frame and a [Lifetime]:
//
//   - [NextFrame]: double-buffered. [Table.Emit] appends to the back buffer,
//     [Table.Read] returns the front buffer. [Table.EndFrame], called by the
//     scheduler once per frame after FrameEnd's command playback, swaps
//     them, so events emitted in any phase of frame t are readable
//     throughout frame t+1 and gone in frame t+2. Readers and emitters touch
//     different buffers, so a consumer does not conflict with an emitter
//     (see package systems) and may even read while it emits.
//   - [ThisFrame]: single buffer. [Table.Read] returns what was emitted so far
//     in this frame, so systems that run after the emitter see the events;
//     [Table.EndFrame] clears it.
//
// The event buffers are allocated by [New] and the per-worker staging by
// [Table.Parallel] (Capacity events each): emitting, reading and swapping
// allocate nothing, and merging allocates nothing in steady state (its
// segment lists grow while warming up).
//
// # Memory budget
//
// Both are charged to the table's memory budget ([Spec.Budget], a private
// one of memory.DefaultBudget bytes by default) before they are allocated:
// [Bytes] and [StagingBytes] give the byte counts. What counts and who
// shares a budget: docs/architecture.md, memory budget.
//
// # Parallel emission
//
// A parallel kernel emits through [Table.Parallel]: each worker takes its
// [Segment] with [Parallel.Worker], calls [Segment.Begin] with the chunk index
// before emitting for that chunk, and emits with [Segment.Emit]. After the
// workers have finished, [Parallel.Merge] appends every keyed segment to the
// table in ascending key order (equal keys in worker order, then emission
// order). Readers therefore see the same sequence whatever the number of
// workers and however chunks were shared among them.
//
// # Overflow
//
// A table holds at most Capacity events per frame. An emit beyond that
// returns an [*OverflowError] (errors.Is [ErrOverflow]), drops the new event,
// and counts it in [Table.Dropped]; events already emitted are kept. A
// merge drops what does not fit and counts it the same way. The scheduler
// collects the counts for its frame report with [Table.TakeDropped]
// (scheduler.FrameReport.EventsDropped).
//
// # The runtime's face
//
// [Buffer] is the untyped interface every *Table[T] implements, so the
// scheduler can hold all event tables in one list, swap or clear them at the
// frame boundary, and report drops; manifests (package systems) name event
// tables by it.
//
// # Errors
//
// [New] fails with a [*DefinitionError] (errors.Is [ErrDefinition]); [New]
// and [Table.Parallel] past the memory budget fail with a
// *memory.BudgetError (errors.Is [ErrMemoryBudget]); emits past capacity
// fail with an [*OverflowError] (errors.Is [ErrOverflow]).
//
// # Concurrency
//
// A Table is not safe for concurrent emission: one goroutine emits with
// [Table.Emit], and parallel kernels use one [Segment] per worker. For a
// NextFrame table, [Table.Read] may run concurrently with emits and merges,
// because they use different buffers; for a ThisFrame table it may not.
// [Table.EndFrame] needs exclusive access.
package events

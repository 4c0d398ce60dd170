// Package events carries messages from systems to later systems: typed,
// fixed-capacity event tables read through per-consumer readers.
//
// When a consumer reads an event, how long a table holds it and what its
// capacity bounds are stated once, in docs/architecture.md (Events); this
// is the index of the API.
//
// Who calls it: a system's author reaches a table through the accessors of
// package systems (Emit, EmitParallel, Consume); this package is for a
// host or a test that emits into, reads or counts a world's table
// directly between frames, or that runs its own parallel kernel over one.
// The frame's boundaries, the report's drop count and the snapshot state
// are the scheduler's and the runtime's (package internal/plumb), not
// callable from here.
//
// # Tables and lifetimes
//
// [New] declares a [Table] with an element type, a [Spec.Capacity] (the
// most events held at once) and a [Lifetime], [NextFrame] or [ThisFrame]
// (docs/architecture.md, Delivery rule). [Table.Emit] appends;
// [Table.Read] shows the table to a host or a test without consuming; [Table.Held], [Table.Len] and [Table.Pending]
// count.
//
// # Readers and boundaries
//
// [Table.NewReader] registers a consumer's [Reader] with a [Cadence]:
// [PerFrame] for a consumer that runs once a frame, [PerTick] for a
// FixedUpdate consumer. [Reader.Read] returns the events it has not passed
// and may read, [Reader.Done] passes them (the scheduler calls it when the
// consumer's run ends). The boundaries that make NextFrame events readable
// (frame start, each fixed tick, frame end) are the scheduler's
// (docs/architecture.md, Frame path).
//
// The storage is allocated by [New], the per-worker staging by
// [Table.Parallel] and a reader by [Table.NewReader]: emitting, reading,
// passing and the boundaries allocate nothing, and merging allocates
// nothing in steady state (its segment lists grow while warming up).
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
// An emit into a table that holds Capacity events returns an
// [*OverflowError] (errors.Is [ErrOverflow]), drops the new event, and
// counts it in [Table.Dropped]; the events held are kept. A merge drops
// what does not fit and counts it the same way, and so does the frame's
// end for each ThisFrame event a reader did not read. The scheduler takes
// the counts into its frame report (scheduler.FrameReport.EventsDropped),
// which resets Dropped. A ThisFrame table with no reader at all counts the
// events that end their frame in [Table.Unread] instead (the report's
// EventsUnread), and a scheduler refuses systems that emit into one that
// no system consumes unless [Spec.MayGoUnread] (docs/architecture.md,
// Retention and capacity).
//
// # The untyped face
//
// [Buffer] is the interface every *Table[T] implements (and only it), so
// that manifests (package systems) and a scheduler (AddEvents) can name
// tables of any element type.
//
// # State
//
// A snapshot holds a table's held events, its marks and every reader's
// position, for pointer-free event types; a table it cannot hold, or a
// state the table refuses, is a [*StateError] ([ErrState];
// docs/state.md).
//
// # Errors
//
// [New] fails with a [*DefinitionError] (errors.Is [ErrDefinition]); [New]
// and [Table.Parallel] past the memory budget fail with a
// *memory.BudgetError (errors.Is memory.ErrBudget); emits past capacity
// fail with an [*OverflowError] (errors.Is [ErrOverflow]).
// [Table.NewReader] panics for a cadence other than PerFrame and PerTick.
//
// # Concurrency
//
// A Table is not safe for concurrent emission: one goroutine emits with
// [Table.Emit], and parallel kernels use one [Segment] per worker. For a
// NextFrame table, [Table.Read] and [Reader.Read] may run concurrently with
// emits and merges, because a reader's events lie below the boundary marks
// and emits append past them; for a ThisFrame table they may not. Each
// Reader is used from one goroutine. [Reader.Done] and the scheduler's
// boundaries need exclusive access to the table.
package events

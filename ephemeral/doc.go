// Package ephemeral is Tickwork's storage: chunked struct-of-arrays tables of
// fixed capacity, addressed by generational handles.
//
// # Tables and columns
//
// [NewTable] declares a table with a capacity in rows; [AddColumn] adds a
// typed, pointer-free column. Rows are grouped in chunks of [Table.ChunkRows]
// rows (a power of two, [DefaultChunkRows] by default). Each column is one
// allocation, made at definition time and never moved, so the slices given by
// [Column.Span] (one chunk) and [Column.All] (the whole column) are
// pin-stable: kernels and other goroutines may keep them.
//
// # Enabled bitmaps
//
// Every chunk has an enabled bitmap ([Table.Enabled], a
// github.com/kelindar/bitmap Bitmap of ChunkRows bits) that marks its live
// rows. Deleting a row clears its bit and leaves a hole; rows never move.
// Iterate a chunk's live rows with [EachRun].
//
// # Handles and generations
//
// A [Handle] is a 64-bit value: a slot index (the row), the slot's
// generation and the tag of the domain that issued it; the bit layout and
// its bounds are in docs/architecture.md ("Handle layout"). A delete bumps
// the slot's generation, so a stale handle never reaches the row that
// reuses its slot: [Table.IsAlive] is false, [Column.Get] fails and
// [Column.Set] writes nothing. The zero Handle is never valid.
//
// # Entity domains
//
// A [Domain] is a handle space shared by several tables: a unit's Unit row and
// Body row have the same handle and the same row index. [Domain.Delete] (or
// [Table.Delete] on any member) deletes the entity's rows from every member
// table; [Table.Detach] removes one row, and the entity with it when that was
// its last. A table declared without a domain gets a private one.
//
// [Domain.Seal] (or [Table.Seal]) ends a domain's definition: later
// [AddColumn] calls on its tables and [NewTable] calls into it fail with
// [ErrSealed]; a runtime world seals its domains at Build
// (docs/architecture.md, Storage, "Sealing").
//
// A handle carries its domain's tag, so a handle of one domain given to a
// table of another names no row there ([Domain.Owns] is false): reads and
// writes fail, deletes return false and [Table.Attach] returns
// [ErrForeignHandle]. Tables whose rows belong to one entity share a domain.
//
// # Memory
//
// Capacity is allocated eagerly: [NewDomain] allocates about 4.13 bytes per
// slot (generations and the free-slot set), [NewTable] about 4.13 bytes per
// slot more (row generations and enabled bitmaps, plus a private domain for
// a standalone table), and [AddColumn] sizeof(T) bytes per slot, at most
// [MaxColumnBytes] a column. Slots are the capacity rounded up to whole
// chunks. [DomainBytes], [TableBytes] and [ColumnBytes] give the exact
// counts, without allocating.
//
// Each definition is charged to its domain's memory budget
// ([DomainSpec.Budget], [TableSpec.Budget]; a private one of
// memory.DefaultBudget bytes by default) before it allocates, and refused
// when it does not fit. What counts and who shares a budget:
// docs/architecture.md, memory budget.
//
// # Slot policy
//
// New entities take the lowest free slot. The same history of inserts and
// deletes therefore gives the same slot indexes, generations and layout
// (handles of two domains differ by the tag only), and live rows stay
// packed into the first chunks. Finding that slot takes a few steps whatever
// the capacity and history: free slots are kept in a bitmap with a summary
// level per factor of 64.
//
// # Leases
//
// [Table.Lease] returns a [Lease]: the scheduler authorizes a system for a
// table once per run, after which [Lease.Row] probes a handle at the cost of a
// compare and an array index.
//
// # Errors
//
// Definitions fail with a [*DefinitionError] (errors.Is [ErrDefinition] and
// a precise sentinel such as [ErrNilTable] or [ErrTooLarge]), or past their
// memory budget with a *memory.BudgetError (errors.Is [ErrMemoryBudget]);
// inserts past capacity fail with a [*CapacityError] (errors.Is
// [ErrCapacity]) and insert nothing; stale handles give false or
// [ErrStaleHandle], handles of another domain false or [ErrForeignHandle],
// never a panic.
//
// # Concurrency
//
// Structural changes (inserts, deletes, new columns) need exclusive access.
// Everything else is safe from many goroutines while no structural change
// runs; that is the contract kernels rely on.
package ephemeral

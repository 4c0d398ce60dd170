// Package index holds Tickwork's secondary indexes over the rows of one
// table: data structures keyed by row (a table's slot, 0 <= row <
// capacity), sized at construction and allocating nothing afterwards.
// The world keeps them (the face's AddHashIndex .. AddGridIndex, package
// tickwork); the schema's generated queries walk them.
//
// # Kinds
//
// n is the number of filed rows, m the rows of one key, c the capacity.
//
//   - [Hash]: equality on a key (one column, a ref, or a struct of
//     several): [Hash.First] and [Hash.Next] walk the rows of one key;
//     [Hash.Groups] and [Hash.Group] walk the distinct keys (grouped
//     aggregates). Keys in an open-addressing table, each key's rows an
//     intrusive list. First, Count, Remove: O(1) expected; Next: O(1);
//     Insert and Update: O(1) expected for rows arriving in ascending
//     order within a key, else bounded as [Hash.Insert] says.
//   - [Unique]: a [Hash] whose keys hold one row; [Unique.Insert] and
//     [Unique.Update] refuse a second row with a [*DuplicateError]
//     (errors.Is [ErrDuplicateKey]). Find: O(1) expected.
//   - [Sorted]: rows in (key, row) order, keys by [Compare], the query
//     order rule (docs/schema.md, Query results: -0 and +0 tie, NaN is
//     the greatest): range walks, order by, top-N and keyset pages. A
//     skiplist over the rows. Insert, Remove, Update, Seek, SeekAfter:
//     O(log n) expected; First, Last, Next, Prev: O(1); LastRun and
//     PrevRun: O(1) on short runs of one key, O(log n) on long ones;
//     Insert after the last (key, row) is an append, O(1); [Sorted.Rebuild]
//     (a restore's rebuild): a sort and appends, O(n log n);
//     [Sorted.MarkTo] sets a range's rows in a row bitmap (a range walk in
//     row order without a sort), its segments between level-2 rows walked
//     as 8 chains at once.
//   - [Grid]: a uniform grid of square cells over two float32 columns:
//     [Grid.AppendBox] and [Grid.AppendRadius] give the rows of the cells
//     a box or disc touches, a superset the caller filters exactly.
//     Occupied cells in an open-addressing table (no bounds on
//     coordinates), each cell's rows a contiguous run of one shared row
//     array (the layout: [Grid]). Insert, Remove, Update: O(1)
//     amortised, a few ns when the row stays in its cell;
//     AppendBox and AppendRadius: O(min(touched cells, occupied cells) +
//     candidates), plus sorting the candidates. [Grid.Filing] and
//     [Grid.CellBounds] give a kernel the filed cells' float bounds.
//
// # Rows and order
//
// This section is the one home of the walk order. Every walk and every
// appended candidate list is in a fixed order derived from rows and keys
// only, never from hashing, the hash seed or insertion history, so an
// index-served query returns the scan's rows in the scan's order
// (docs/schema.md, Query results):
//
//   - Hash: First/Next in ascending row within a key. A key that is not
//     == to itself (a NaN, or a struct holding one) matches no First,
//     and each row filed under one is a group of its own.
//   - Hash groups: Group(0..Groups()-1) in an order that is a function
//     of the calls since NewHash or Clear alone (a new key is appended, a
//     key whose last row leaves is replaced by the last): deterministic,
//     but not sorted; grouped queries sort the groups they return.
//   - Sorted: First/Next in (key, row) order under [Compare]; Last/Prev
//     the reverse; LastRun/PrevRun visit the keys in descending order,
//     each at its lowest row, so a descending walk (PrevRun, then Next
//     within the run) keeps ties in ascending row.
//   - Grid: AppendBox and AppendRadius append their candidates (the
//     rows of the touched cells and every row with a non-finite
//     coordinate, cell [Outside]) in ascending row order.
//
// # Contract
//
// Each kind files a row at most once: Insert of a filed row, and any
// method given a row out of 0..capacity-1, panic (programmer misuse; the
// message says which and how to fix it), as do Next, Prev and PrevRun of
// an unfiled row. Update of an unfiled row files it. Errors are for
// construction (ErrCapacity, ErrCellSize) and for a unique key held by
// another row (*DuplicateError).
//
// Concurrency: the read methods (First, Next, Count, Groups, Group,
// GroupLen, Find, Key, Len, Seek, SeekAfter, Last, Prev, LastRun,
// PrevRun, CellOf, CellBounds, Filing, Cells, Size, AppendBox,
// AppendRadius) never write, so any number of goroutines
// may read an index at once while none writes it (TestConcurrentReads,
// under -race). Insert, Remove, Update, Rebuild and Clear need the index
// to themselves. A world
// syncs an index only where no system reads it (docs/architecture.md,
// Indexes).
package index

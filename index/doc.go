// Package index holds Tickwork's secondary indexes over the rows of one
// table: data structures keyed by row (a table's slot, 0 <= row <
// capacity), sized at construction and allocating nothing afterwards.
// The world keeps them (the face's AddHashIndex .. AddGridIndex, package
// tickwork); the schema's generated queries walk them.
//
// # Kinds
//
//   - [Hash]: equality on a key (one column, a ref, or a struct of
//     several): [Hash.First] and [Hash.Next] walk the rows of one key in
//     ascending row order.
//   - [Unique]: a key held by at most one row; [Unique.Insert] and
//     [Unique.Update] refuse a second row with a [*DuplicateError]
//     (errors.Is [ErrDuplicateKey]).
//   - [Sorted]: rows in (key, row) order, keys by the query order rule
//     (docs/schema.md, Query results: -0 and +0 tie, NaN is the
//     greatest): range walks, order by, top-N and keyset pages.
//   - [Grid]: a uniform grid of square cells over two float32 columns:
//     [Grid.AppendBox] and [Grid.AppendRadius] give the rows of the cells
//     a box or disc touches, a superset the caller filters exactly.
//
// # Rows and order
//
// Every walk and every appended candidate list is in a fixed order
// derived from rows and keys only (ascending row, or (key, row)), never
// from hashing or insertion history, so an index-served query returns
// the scan's rows in the scan's order (docs/schema.md, Query results).
//
// # Contract
//
// Each kind files a row at most once: Insert of a filed row, and Remove,
// Update or Key of a row out of range, panic (programmer misuse; the
// message says which). Update of an unfiled row files it. Methods are
// not safe for concurrent use; a world syncs an index only where no
// system reads it (docs/architecture.md, Indexes).
package index

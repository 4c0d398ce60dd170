package frame

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// KeyRefs returns ix's key columns as references.
func KeyRefs(ix Index) []ColumnRef {
	cols := ix.KeyColumns()
	refs := make([]ColumnRef, len(cols))
	for i, c := range cols {
		refs[i] = ColumnRef{Table: ix.IndexTable(), Column: c}
	}
	return refs
}

// Index is the engine's face of one declared secondary index (package
// tickwork's HashIndex .. EventIndex implement it), the method set of
// systems.Index (the exported name engine packages' signatures use; an
// interface of the same methods, so each converts to the other): what the
// scheduler needs to keep it consistent by the rule of docs/architecture.md,
// Indexes. Its methods run on the scheduler's goroutine, between systems,
// where no kernel runs; they allocate nothing unless they return an error.
type Index interface {
	// IndexName is the index's name, unique among a world's indexes.
	IndexName() string
	// IndexTable is the indexed table, nil for an event index.
	IndexTable() *ephemeral.Table
	// IndexEvents is the indexed event table, nil for a table's index.
	IndexEvents() events.Buffer
	// KeyColumns names the columns of IndexTable the key reads (none for
	// an event index).
	KeyColumns() []string
	// Marks is the MaintainIndex bitmap (bit r%64 of word r/64 for row r),
	// nil for an event index.
	Marks() []uint64
	// SyncAll diffs the key of every live row against the stored one and
	// refiles the rows that changed; who names the system (or "host").
	SyncAll(who string) error
	// SyncRows syncs the rows whose bits are set in words (a row that is
	// not live is unfiled), visiting only the words summary names when it
	// is not nil; it clears nothing. who as SyncAll.
	SyncRows(who string, words, summary []uint64) error
	// SyncMarked syncs the rows of Marks and clears them.
	SyncMarked(who string) error
	// SyncEvents refiles an event index from its table's Read view:
	// appended events only, unless force or the view moved. Table
	// indexes do nothing.
	SyncEvents(who string, force bool) error
	// Rebuild clears the index and files every live row (every event of
	// the view) again.
	Rebuild(who string) error
}

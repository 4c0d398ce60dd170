package frame

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// Index is the engine's face of one declared secondary index (package
// tickwork's HashIndex .. EventIndex implement it): what the scheduler
// needs to keep it consistent by the rule of docs/architecture.md,
// Indexes. Its methods run on the scheduler's goroutine, between systems,
// where no kernel runs; they allocate nothing unless they return an error.
type Index interface {
	// IndexName is the index's name, unique among a world's indexes.
	IndexName() string
	// IndexTable is the indexed table, nil for an event index.
	IndexTable() *ephemeral.Table
	// IndexEvents is the indexed event table, nil for a table's index.
	IndexEvents() events.Buffer
	// KeyColumns are the columns the key reads (none for an event index).
	KeyColumns() []ColumnRef
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

// IndexUpkeep is a world's side of all its indexes (package runtime
// implements it): the syncs of what changed outside systems.
type IndexUpkeep interface {
	// Indexes lists the world's indexes in declaration order.
	Indexes() []Index
	// Changed syncs every index whose table has dirty rows
	// (ephemeral.Marks) and every event index whose view moved; boundary
	// forces the event indexes' refiling (an event boundary passed). who
	// names the cause ("playback", "host"). It returns the first error.
	Changed(who string, boundary bool) error
}

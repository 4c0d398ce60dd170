package systems

import (
	"errors"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Index is the engine's face of one declared secondary index, what
// ReadIndex and MaintainIndex take and a world keeps consistent (package
// tickwork's HashIndex .. EventIndex implement it; the rule:
// docs/architecture.md, Indexes). Its methods run on the frame's
// goroutine between systems, where no kernel runs, and allocate nothing
// unless they return an error.
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
	// is not nil; it clears nothing.
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

// ErrStaleIndex: a system reads an index (ReadIndex) and writes one of its
// key columns, so its reads could see the index stale (the consistency
// rule: docs/architecture.md, Indexes).
var ErrStaleIndex = errors.New("systems: a system reads an index and writes one of its key columns")

// StaleIndexError is the error of a declaration that reads an index and
// writes one of its key columns. errors.Is(err, ErrStaleIndex) is true.
type StaleIndexError struct {
	System string // the system
	Index  string // the index it reads
	Column string // the key column it writes, "table.column"
}

func (e *StaleIndexError) Error() string {
	return "systems: system " + strconv.Quote(e.System) + " reads index " + strconv.Quote(e.Index) +
		" and writes its key column " + e.Column + ": the index would be stale inside the system; " +
		"split it into a writer and a reader ordered after it (docs/architecture.md, Indexes)"
}

// Is reports ErrStaleIndex.
func (e *StaleIndexError) Is(target error) bool { return target == ErrStaleIndex }

// ReadIndex declares that the system reads ix (its walks and probes): a
// read of every key column and of the presence of the indexed table, so
// the conflict check orders the system against the writers of those
// columns as for any read (docs/architecture.md, Access rules). An event
// index declares nothing more: readers of an event table never conflict
// with its emitters. A system that also writes a key column of ix fails
// Build with a *StaleIndexError. A nil ix fails the declaration.
func ReadIndex(s *Decl, ix Index) {
	d := s.use("ReadIndex")
	if ix == nil {
		d.fail("ReadIndex", "nil index (the declaration that made it failed: its error comes first)")
		return
	}
	for _, c := range frame.KeyRefs(ix) {
		d.man.Read(c)
	}
	if t := ix.IndexTable(); t != nil {
		d.man.Presence = frame.AddNew(d.man.Presence, t)
	}
	d.man.Indexes = frame.AddNew(d.man.Indexes, frame.Index(ix))
}

// MaintainIndex declares that the system marks, in ix's marks, the rows
// whose key columns it changed, so the sync after it visits only those
// rows instead of diffing the table (docs/architecture.md, Indexes). It
// declares no write: the system writes the key columns through Write. It
// returns the marks bitmap (bit r%64 of word r/64 for row r), nil for a
// nil ix (which fails the declaration) or an event index.
func MaintainIndex(s *Decl, ix Index) []uint64 {
	d := s.use("MaintainIndex")
	if ix == nil {
		d.fail("MaintainIndex", "nil index (the declaration that made it failed: its error comes first)")
		return nil
	}
	if !slices.Contains(d.run.Maintains, frame.Index(ix)) {
		d.run.Maintains = append(d.run.Maintains, ix)
	}
	return ix.Marks()
}

// staleIndex returns the *StaleIndexError of a manifest that reads an
// index and writes one of its key columns, nil when there is none.
func staleIndex(name string, m *frame.Manifest) error {
	for _, ix := range m.Indexes {
		for _, c := range frame.KeyRefs(ix) {
			if slices.Contains(m.Writes, c) {
				return &StaleIndexError{System: name, Index: ix.IndexName(), Column: c.String()}
			}
		}
	}
	return nil
}

// IndexUpkeep is a world's side of all its indexes (package runtime
// implements it, scheduler.Scheduler.SetIndexUpkeep takes it): the syncs
// of what changed outside systems.
type IndexUpkeep interface {
	// Indexes lists the world's indexes in declaration order.
	Indexes() []Index
	// Changed syncs every index whose table has dirty rows
	// (ephemeral.Marks) and every event index whose view moved; boundary
	// forces the event indexes' refiling (an event boundary passed). who
	// names the cause ("playback", "host"). It returns the first error.
	Changed(who string, boundary bool) error
}

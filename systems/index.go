package systems

import (
	"errors"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/internal/engine/frame"
)

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
func ReadIndex(s *Decl, ix frame.Index) {
	d := s.use("ReadIndex")
	if ix == nil {
		d.fail("ReadIndex", "nil index (the declaration that made it failed: its error comes first)")
		return
	}
	for _, c := range ix.KeyColumns() {
		d.man.Read(c)
	}
	if t := ix.IndexTable(); t != nil {
		d.man.Presence = frame.AddNew(d.man.Presence, t)
	}
	d.man.Indexes = frame.AddNew(d.man.Indexes, ix)
}

// MaintainIndex declares that the system marks, in ix's marks, the rows
// whose key columns it changed, so the sync after it visits only those
// rows instead of diffing the table (docs/architecture.md, Indexes). It
// declares no write: the system writes the key columns through Write. It
// returns the marks bitmap (bit r%64 of word r/64 for row r), nil for a
// nil ix (which fails the declaration) or an event index.
func MaintainIndex(s *Decl, ix frame.Index) []uint64 {
	d := s.use("MaintainIndex")
	if ix == nil {
		d.fail("MaintainIndex", "nil index (the declaration that made it failed: its error comes first)")
		return nil
	}
	if !slices.Contains(d.run.Maintains, ix) {
		d.run.Maintains = append(d.run.Maintains, ix)
	}
	return ix.Marks()
}

// staleIndex returns the *StaleIndexError of a manifest that reads an
// index and writes one of its key columns, nil when there is none.
func staleIndex(name string, m *frame.Manifest) error {
	for _, ix := range m.Indexes {
		for _, c := range ix.KeyColumns() {
			if slices.Contains(m.Writes, c) {
				return &StaleIndexError{System: name, Index: ix.IndexName(), Column: c.String()}
			}
		}
	}
	return nil
}

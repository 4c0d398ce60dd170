package systems

import (
	"iter"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// ChangeReader yields what changed in one column (Changed) or which rows
// were added to one table (Added) since the last run of its system: each
// system has its own, so two systems reading the changes of one column
// each see every change exactly once, whatever the fixed ticks of the
// frames (the rule: docs/architecture.md, Change detection). Use it in
// the system's body; its iterators allocate nothing. The last run moves
// on when the run ends, so every call of a run yields the same changes.
type ChangeReader struct {
	v     *ephemeral.Versions
	run   *frame.Run
	table *ephemeral.Table
	last  uint64 // the version of the system's last run, 0 before it ran
}

// Changed declares that the system reads column c and its changes (a read
// of c, ordered against c's writers as any read: docs/architecture.md,
// Access rules) and returns its reader. It turns on change detection of c
// (ephemeral.Column.Track), chunk by chunk unless a writer asks for rows
// (WriteTracked). A nil c fails the declaration.
func Changed[T any](s *Decl, c *ephemeral.Column[T]) *ChangeReader {
	d := s.use("Changed")
	if c == nil {
		d.fail("Changed", "nil column (the AddColumn that made it failed: its error comes first)")
		return &ChangeReader{v: &ephemeral.Versions{}, run: d.run}
	}
	v, err := c.Track(false)
	if err != nil {
		d.failErr("Changed", err)
		return &ChangeReader{v: &ephemeral.Versions{}, run: d.run}
	}
	d.man.Read(frame.ColumnRef{Table: c.Table(), Column: c.Name()})
	return newChangeReader(d, v, c.Table())
}

// Added declares that the system reads which rows were added to table t
// (a presence read, which conflicts with nothing: rows appear only at
// playback) and returns its reader. A row counts as added when it is made
// live: a create, an Attach, a Move into t, a host's Insert. A nil t fails
// the declaration. Removed rows are the lifecycle delete events'.
func Added(s *Decl, t *ephemeral.Table) *ChangeReader {
	d := s.use("Added")
	if t == nil {
		d.fail("Added", "nil table (the Table call that made it failed: its error comes first)")
		return &ChangeReader{v: &ephemeral.Versions{}, run: d.run}
	}
	v, err := t.TrackAdded()
	if err != nil {
		d.failErr("Added", err)
		return &ChangeReader{v: &ephemeral.Versions{}, run: d.run}
	}
	d.man.Presence = frame.AddNew(d.man.Presence, t)
	return newChangeReader(d, v, t)
}

func newChangeReader(d *Decl, v *ephemeral.Versions, t *ephemeral.Table) *ChangeReader {
	r := &ChangeReader{v: v, run: d.run, table: t}
	d.run.Readers = append(d.run.Readers, r)
	return r
}

// Done ends the system's run for the reader: what it could yield in the
// run counts as seen (frame.Run.Exec calls it after the body).
func (r *ChangeReader) Done() { r.last = r.run.Version }

// Unread is a skipped run's (a run condition failed: docs/architecture.md,
// Run conditions): the reader's last run stays as it was, so what changed
// waits for the system's next run.
func (r *ChangeReader) Unread() {}

// Since is the change version of the system's last run (0 before its first
// run): the reader yields what changed after it.
func (r *ChangeReader) Since() uint64 { return r.last }

// Table is the table of the reader's column (or of its added rows).
func (r *ChangeReader) Table() *ephemeral.Table { return r.table }

// Any reports whether anything changed since the system's last run.
func (r *ChangeReader) Any() bool { return r.v.Changed(r.last) }

// Chunks yields, ascending, the chunks of the table holding a change since
// the system's last run.
func (r *ChangeReader) Chunks() iter.Seq[int] { return r.v.Chunks(r.last) }

// ChunkChanged reports whether chunk c (in 0..Table().Chunks()-1) holds a
// change since the system's last run: a kernel's test to skip a chunk.
func (r *ChangeReader) ChunkChanged(c int) bool { return r.v.ChunkChanged(c, r.last) }

// Rows yields, ascending, the live rows (whole-column indexes) changed
// since the system's last run: exactly the rows stamped when every writer
// of the column stamps rows (WriteTracked), else every live row of each
// changed chunk (ephemeral.Versions.Rows).
func (r *ChangeReader) Rows() iter.Seq[int] { return r.v.Rows(r.last) }

// TrackedColumn writes one column row by row and records each row it
// writes (WriteTracked), so that change readers see exactly those rows.
// A small value; its methods allocate nothing and follow WriteColumn's
// concurrency contract (from kernels, each worker writes only rows of
// the chunks it was given).
type TrackedColumn[T any] struct {
	all   []T
	lease ephemeral.Lease
	v     *ephemeral.Versions
}

// WriteTracked declares that the system writes column c row by row and
// returns its accessor: each Set or Ptr stamps the row's change version,
// and the system does not bump every chunk of c after its runs, as a
// Write does (docs/architecture.md, Change detection). It turns on row
// tracking of c: 8 bytes per row, charged to the world's memory budget
// (past it the declaration fails with the *memory.BudgetError). A system that also declares Write of c
// bumps it whole. A nil c fails the declaration.
func WriteTracked[T any](s *Decl, c *ephemeral.Column[T]) TrackedColumn[T] {
	d := s.use("WriteTracked")
	if c == nil {
		d.fail("WriteTracked", "nil column (the AddColumn that made it failed: its error comes first)")
		return TrackedColumn[T]{}
	}
	v, err := c.Track(true)
	if err != nil {
		d.failErr("WriteTracked", err)
		return TrackedColumn[T]{v: &ephemeral.Versions{}}
	}
	ref := frame.ColumnRef{Table: c.Table(), Column: c.Name()}
	d.man.Write(ref)
	d.run.Stamps = frame.AddNew(d.run.Stamps, ref)
	return TrackedColumn[T]{all: c.All(), lease: c.Table().Lease(), v: v}
}

// Row returns the row of h and true when h names a live row of the
// column's table, else 0 and false.
func (w TrackedColumn[T]) Row(h ephemeral.Handle) (int, bool) { return w.lease.Row(h) }

// Get returns h's value and true, or the zero value and false when h has
// no live row.
func (w TrackedColumn[T]) Get(h ephemeral.Handle) (T, bool) {
	if i, ok := w.lease.Row(h); ok {
		return w.all[i], true
	}
	var z T
	return z, false
}

// Set writes v to h's row, stamps the row and returns true, or writes
// nothing and returns false when h has no live row.
func (w TrackedColumn[T]) Set(h ephemeral.Handle, v T) bool {
	if i, ok := w.lease.Row(h); ok {
		w.all[i] = v
		w.v.Stamp(uint32(i))
		return true
	}
	return false
}

// Ptr stamps h's row and returns a pointer to its value, or nil when h
// has no live row: write through it in this run only.
func (w TrackedColumn[T]) Ptr(h ephemeral.Handle) *T {
	if i, ok := w.lease.Row(h); ok {
		w.v.Stamp(uint32(i))
		return &w.all[i]
	}
	return nil
}

// SetRow writes v to row row (a live row from Row or a query), stamps it.
// It panics when row is outside the column, as a slice index does.
func (w TrackedColumn[T]) SetRow(row int, v T) {
	w.all[row] = v
	w.v.Stamp(uint32(row))
}

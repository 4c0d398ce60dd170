package tickwork

import (
	"iter"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// Changes yields what changed in a column (Changed) or which rows were
// added to a table (Added) since the last run of its system, each change
// once per system (the rule: docs/architecture.md, Change detection).
// Use it in the system's body; nothing allocates.
type Changes systems.ChangeReader

func (c *Changes) e() *systems.ChangeReader { return (*systems.ChangeReader)(c) }

// Changed declares that the system reads column c and its changes since
// its last run, and returns the reader: chunks changed (a system that
// writes c bumps every chunk of c's table holding a live row after its
// run, a few stores per chunk), or rows when every writer of c stamps
// rows (WriteTracked). A row made live counts as changed. A nil c fails
// the declaration.
func Changed[T any](s *Decl, c *Column[T]) *Changes {
	return (*Changes)(systems.Changed(s.e(), c.e()))
}

// Added declares that the system reads which rows were added to table t
// since its last run (creates, attaches, moves into t, a host's inserts)
// and returns the reader; it conflicts with no system. Removed rows are
// served by the lifecycle delete events. A nil t fails the declaration.
func Added(s *Decl, t *Table) *Changes { return (*Changes)(systems.Added(s.e(), t.e())) }

// Any reports whether anything changed since the system's last run.
func (c *Changes) Any() bool { return c.e().Any() }

// Chunks yields, ascending, the chunks of the table holding a change since
// the system's last run.
func (c *Changes) Chunks() iter.Seq[int] { return c.e().Chunks() }

// ChunkChanged reports whether chunk ch (in 0..Table().Chunks()-1) holds
// a change since the system's last run: a kernel's test to skip a chunk.
func (c *Changes) ChunkChanged(ch int) bool { return c.e().ChunkChanged(ch) }

// Rows yields, ascending, the live rows changed (or added) since the
// system's last run, as whole-column indexes (ReadColumn.At takes them):
// exactly the stamped rows when every writer stamps rows (WriteTracked),
// else every live row of each changed chunk.
func (c *Changes) Rows() iter.Seq[int] { return c.e().Rows() }

// Table is the table of the reader's column or added rows.
func (c *Changes) Table() *Table { return (*Table)(c.e().Table()) }

// TrackedColumn writes one column row by row and stamps each row it
// writes, made by WriteTracked, so that change readers see exactly those
// rows. A small value; copy it into kernel state freely (a kernel's
// worker writes only rows of the chunks it was given).
type TrackedColumn[T any] struct{ w systems.TrackedColumn[T] }

// WriteTracked declares that the system writes column c row by row and
// returns its accessor: each Set, SetRow or Ptr stamps the row, and the
// system does not bump every chunk of c after its runs as a Write does.
// It keeps 8 bytes per row of c. A nil c fails the declaration.
func WriteTracked[T any](s *Decl, c *Column[T]) TrackedColumn[T] {
	return TrackedColumn[T]{systems.WriteTracked(s.e(), c.e())}
}

// Row returns the row of h, or false when h names no live row.
func (w TrackedColumn[T]) Row(h Handle) (int, bool) { return w.w.Row(ephemeral.Handle(h)) }

// Get returns h's value, or false when h has no live row.
func (w TrackedColumn[T]) Get(h Handle) (T, bool) { return w.w.Get(ephemeral.Handle(h)) }

// Set writes v to h's row and stamps it, or returns false when h has no
// live row.
func (w TrackedColumn[T]) Set(h Handle, v T) bool { return w.w.Set(ephemeral.Handle(h), v) }

// Ptr stamps h's row and returns a pointer to its value (nil when h has
// no live row): write through it in this run only.
func (w TrackedColumn[T]) Ptr(h Handle) *T { return w.w.Ptr(ephemeral.Handle(h)) }

// SetRow writes v to row row (a live row) and stamps it; it panics when
// row is outside the column.
func (w TrackedColumn[T]) SetRow(row int, v T) { w.w.SetRow(row, v) }

package tickwork

// STAND-IN of the declared indexes' face (issue 23, layer 2), for the
// schema generator's branch to compile and test against before the real
// face lands: exactly the contract's signatures, sync-free. Every use
// (Hash, Unique, Sorted, Grid) rebuilds the index from its columns' live
// rows: slow, but correct whatever wrote the columns. The lead drops this
// file when merging the real implementation.

import "github.com/tickwork/tickwork/index"

// Index is what every declared index kind meets (stand-in).
type Index interface {
	Name() string
	Kind() string
}

// IndexColumn is what AddHashIndexOf needs of a column (stand-in).
type IndexColumn interface {
	Name() string
	Table() *Table
}

// IndexMarks marks rows whose key may have changed (stand-in: no-op).
type IndexMarks struct{}

// Mark marks row (stand-in: nothing to do, every use rebuilds).
func (IndexMarks) Mark(row int) {}

// ReadIndex declares reads of the index's key columns and its table's
// presence (stand-in: the presence only; the generated query declares its
// column reads itself).
func ReadIndex(d *Decl, ix Index) {
	if t, ok := ix.(interface{ table() *Table }); ok && t.table() != nil {
		Presence(d, t.table())
	}
}

// MaintainIndex returns the marks of a system that writes key columns
// (stand-in: no-op marks).
func MaintainIndex(d *Decl, ix Index) IndexMarks { return IndexMarks{} }

// Reindex (stand-in: nothing to do, every use rebuilds).
func (w *World) Reindex() {}

// standinRows calls fn for each live row of t in ascending row order.
func standinRows(t *Table, fn func(row int)) {
	cr := t.ChunkRows()
	for c, nc := 0, t.UsedChunks(); c < nc; c++ {
		mask, base := t.Enabled(c), c*cr
		for lo, hi := NextRun(mask, 0); lo < hi; lo, hi = NextRun(mask, hi) {
			for r := base + lo; r < base+hi; r++ {
				fn(r)
			}
		}
	}
}

// HashIndex is a declared hash index (stand-in).
type HashIndex[K comparable] struct {
	name string
	t    *Table
	key  func(row int) K
	ix   *index.Hash[K]
}

// AddHashIndex declares a hash index on column c (stand-in).
func AddHashIndex[K comparable](b *Builder, name string, c *Column[K]) *HashIndex[K] {
	return &HashIndex[K]{name: name, t: c.Table(), key: func(row int) K { return c.All()[row] }}
}

// AddHashIndexOf declares a hash index on a composite key (stand-in).
func AddHashIndexOf[K comparable](b *Builder, name string, t *Table, key func(row int) K, cols ...IndexColumn) *HashIndex[K] {
	return &HashIndex[K]{name: name, t: t, key: key}
}

func (ix *HashIndex[K]) Name() string  { return ix.name }
func (ix *HashIndex[K]) Kind() string  { return "hash" }
func (ix *HashIndex[K]) table() *Table { return ix.t }

// Hash returns the index, rebuilt (stand-in).
func (ix *HashIndex[K]) Hash() *index.Hash[K] {
	if ix.ix == nil {
		ix.ix, _ = index.NewHash[K](max(ix.t.Cap(), 1))
	}
	ix.ix.Clear()
	standinRows(ix.t, func(r int) { ix.ix.Insert(int32(r), ix.key(r)) })
	return ix.ix
}

// UniqueIndex is a declared unique index (stand-in).
type UniqueIndex[K comparable] struct {
	name string
	t    *Table
	key  func(row int) K
	ix   *index.Unique[K]
}

// AddUniqueIndex declares a unique index on column c (stand-in).
func AddUniqueIndex[K comparable](b *Builder, name string, c *Column[K]) *UniqueIndex[K] {
	return &UniqueIndex[K]{name: name, t: c.Table(), key: func(row int) K { return c.All()[row] }}
}

// AddUniqueIndexOf declares a unique index on a composite key (stand-in).
func AddUniqueIndexOf[K comparable](b *Builder, name string, t *Table, key func(row int) K, cols ...IndexColumn) *UniqueIndex[K] {
	return &UniqueIndex[K]{name: name, t: t, key: key}
}

func (ix *UniqueIndex[K]) Name() string  { return ix.name }
func (ix *UniqueIndex[K]) Kind() string  { return "unique" }
func (ix *UniqueIndex[K]) table() *Table { return ix.t }

// Unique returns the index, rebuilt (stand-in: of duplicates, the lowest
// row is kept).
func (ix *UniqueIndex[K]) Unique() *index.Unique[K] {
	if ix.ix == nil {
		ix.ix, _ = index.NewUnique[K](max(ix.t.Cap(), 1))
	}
	ix.ix.Clear()
	standinRows(ix.t, func(r int) { _ = ix.ix.Insert(int32(r), ix.key(r)) })
	return ix.ix
}

// SortedIndex is a declared sorted index (stand-in).
type SortedIndex[K index.Ordered] struct {
	name string
	c    *Column[K]
	ix   *index.Sorted[K]
}

// AddSortedIndex declares a sorted index on column c (stand-in).
func AddSortedIndex[K index.Ordered](b *Builder, name string, c *Column[K]) *SortedIndex[K] {
	return &SortedIndex[K]{name: name, c: c}
}

func (ix *SortedIndex[K]) Name() string  { return ix.name }
func (ix *SortedIndex[K]) Kind() string  { return "sorted" }
func (ix *SortedIndex[K]) table() *Table { return ix.c.Table() }

// Sorted returns the index, rebuilt (stand-in).
func (ix *SortedIndex[K]) Sorted() *index.Sorted[K] {
	t := ix.c.Table()
	if ix.ix == nil {
		ix.ix, _ = index.NewSorted[K](max(t.Cap(), 1))
	}
	ix.ix.Clear()
	all := ix.c.All()
	standinRows(t, func(r int) { ix.ix.Insert(int32(r), all[r]) })
	return ix.ix
}

// GridIndex is a declared grid index (stand-in).
type GridIndex struct {
	name string
	x, y *Column[float32]
	cell float32
	ix   *index.Grid
}

// AddGridIndex declares a grid index on columns x, y (stand-in).
func AddGridIndex(b *Builder, name string, x, y *Column[float32], cell float32) *GridIndex {
	return &GridIndex{name: name, x: x, y: y, cell: cell}
}

func (ix *GridIndex) Name() string  { return ix.name }
func (ix *GridIndex) Kind() string  { return "grid" }
func (ix *GridIndex) table() *Table { return ix.x.Table() }

// Grid returns the index, rebuilt (stand-in).
func (ix *GridIndex) Grid() *index.Grid {
	t := ix.x.Table()
	if ix.ix == nil {
		ix.ix, _ = index.NewGrid(max(t.Cap(), 1), ix.cell)
	}
	ix.ix.Clear()
	xs, ys := ix.x.All(), ix.y.All()
	standinRows(t, func(r int) { ix.ix.Insert(int32(r), xs[r], ys[r]) })
	return ix.ix
}

// EventIndex is a declared index of an event table (stand-in).
type EventIndex[E any, K comparable] struct {
	name string
	ev   *Events[E]
	key  func(*E) K
	ix   *index.Hash[K]
}

// AddEventIndex declares a hash index of an event table (stand-in).
func AddEventIndex[E any, K comparable](b *Builder, name string, ev *Events[E], key func(*E) K) *EventIndex[E, K] {
	return &EventIndex[E, K]{name: name, ev: ev, key: key}
}

func (ix *EventIndex[E, K]) Name() string { return ix.name }
func (ix *EventIndex[E, K]) Kind() string { return "hash" }

// Hash returns the index of the delivered events by position in
// Events.Read order, rebuilt (stand-in).
func (ix *EventIndex[E, K]) Hash() *index.Hash[K] {
	if ix.ix == nil {
		ix.ix, _ = index.NewHash[K](max(ix.ev.Cap(), 1))
	}
	ix.ix.Clear()
	evs := ix.ev.Read()
	for i := range evs {
		ix.ix.Insert(int32(i), ix.key(&evs[i]))
	}
	return ix.ix
}

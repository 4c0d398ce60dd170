package tickwork

import (
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/index"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// Secondary indexes: declared on the Builder (AddHashIndex ..
// AddEventIndex), kept consistent by the world by the rule of
// docs/architecture.md, Indexes (the one home of when an index may be
// read), walked through the structures of package index.

// Errors of indexes.
var (
	// ErrIndex: a bad index declaration, or an index's refusal during a
	// frame or a host's call: an *IndexError.
	ErrIndex = errors.New("tickwork: index")
	// ErrIndexName: an index name that is empty or used twice on one
	// Builder.
	ErrIndexName = errors.New("index name must be non-empty and unique among the builder's indexes")
	// ErrIndexColumn: a nil key column (a failed AddColumn), a column or
	// table of another Builder, key columns of two tables, or a nil key
	// function or event table.
	ErrIndexColumn = errors.New("bad index key")
	// ErrStaleIndex: a system reads an index (ReadIndex) and writes one of
	// its key columns: a *StaleIndexError, at Build.
	ErrStaleIndex = systems.ErrStaleIndex
)

// StaleIndexError names the system, the index and the key column of an
// ErrStaleIndex refusal.
type StaleIndexError = systems.StaleIndexError

// IndexError is a bad index declaration (recorded on the Builder, returned
// by Build) or an index's refusal at upkeep: Err is ErrIndexName,
// ErrIndexColumn, index.ErrCellSize, ErrBuilt, a *BudgetError, or a
// *index.DuplicateError (errors.Is index.ErrDuplicateKey) for a row whose
// key a unique index already holds on another row. errors.Is(err,
// ErrIndex) is true, and errors.Is / errors.As reach Err.
type IndexError struct {
	Index  string // the index's name
	Table  string // its table or event table, "" when unknown
	Column string // the key column concerned, "" when none
	System string // for an upkeep refusal: the system whose writes it followed, or "playback", "host", "Reindex", "Restore", "frame end"
	Err    error
}

func (e *IndexError) Error() string {
	s := "tickwork: index " + strconv.Quote(e.Index)
	if e.Table != "" {
		s += " on " + strconv.Quote(e.Table)
	}
	if e.Column != "" {
		s += " (column " + strconv.Quote(e.Column) + ")"
	}
	if e.System != "" {
		s += " after " + e.System
	}
	return s + ": " + e.Err.Error()
}

// Is reports ErrIndex.
func (e *IndexError) Is(target error) bool { return target == ErrIndex }

// Unwrap returns Err.
func (e *IndexError) Unwrap() error { return e.Err }

// Index is what every kind of index meets (*HashIndex, *UniqueIndex,
// *SortedIndex, *GridIndex, *EventIndex): what ReadIndex and
// MaintainIndex take.
type Index interface {
	// Name is the index's declared name.
	Name() string
	// Kind is "hash", "unique", "sorted" or "grid" (an event index is
	// "hash"): the word a query plan prints.
	Kind() string
	engine() systems.Index
}

// IndexColumn is a key column as AddHashIndexOf and AddUniqueIndexOf take
// it: every *Column[T] meets it.
type IndexColumn interface {
	indexColumn() (t *ephemeral.Table, name string, ok bool)
}

func (c *Column[T]) indexColumn() (*ephemeral.Table, string, bool) {
	if c == nil {
		return nil, "", false
	}
	return c.e().Table(), c.e().Name(), true
}

// ReadIndex declares that the system reads ix (walks or probes it in its
// body or kernels): a read of every key column and of the presence of
// ix's table, so Build orders the system after the writers of those
// columns as for any read, and refuses it unordered against one
// (ErrConflict). A system that also writes a key column of ix fails Build
// with a *StaleIndexError (ErrStaleIndex). A nil ix (a failed
// declaration) fails the declaration. Call it in the DeclareFunc; take
// the structure (ix.Hash() ..) in the body and hand it to kernels, which
// must not call the accessors (they may sync).
func ReadIndex(d *Decl, ix Index) {
	var e systems.Index
	if ix != nil {
		e = ix.engine()
		if isOff(e) {
			return
		}
	}
	systems.ReadIndex(d.e(), e)
}

// IndexMarks is the rows a system marks for an index it maintains
// (MaintainIndex): a bitmap over the table's rows, and for a grid the
// cells its rows are filed in (Filing). A small value; copy it into kernel
// state freely.
type IndexMarks struct {
	w    []uint64
	grid *gridIndex // a grid's, for Cells; nil for any other kind
}

// Mark marks row (a row of the index's table, 0..Cap-1) as one whose key
// columns the system changed, for the sync after the system. From a
// kernel, mark only rows of the chunks the worker was given: chunks hold
// whole 64-row words (MinChunkRows is 64), so marks need no atomics.
// Allocates nothing; a row out of range panics as a slice index does;
// the zero IndexMarks (On false) marks nothing.
func (m IndexMarks) Mark(row int) {
	if m.w != nil {
		m.w[uint(row)>>6] |= 1 << (uint(row) & 63)
	}
}

// On reports whether m marks anything: false for the marks of an index
// the world does not keep (WithoutIndexes), whose Mark and MarkBits do
// nothing, so that a kernel can skip its key tests.
func (m IndexMarks) On() bool { return m.w != nil }

// MarkBits marks row+i for each set bit i of bits: a SIMD variant's mask
// of the rows of one vector (up to 64 rows from row, all in the chunks
// the worker was given; Mark's rule). Allocates nothing.
func (m IndexMarks) MarkBits(row int, bits uint64) {
	if m.w == nil {
		return
	}
	w, sh := uint(row)>>6, uint(row)&63
	m.w[w] |= bits << sh
	if sh != 0 && bits>>(64-sh) != 0 {
		m.w[w+1] |= bits >> (64 - sh)
	}
}

// Filing is, for the marks of a *GridIndex, its grid's filing as of the
// last sync (index.Grid.Filing: rec[row] the record of the cell row is
// filed in, box[rec[row]] that cell's bounds): a kernel that writes the
// grid's coordinates marks a row whose new point box[rec[row]] does not
// hold, four comparisons a row (the generator's fused upkeep,
// docs/schema.md, Indexes). Unfiled rows' box holds every point (they
// need no mark: the sync that files a row reads its point). nil, nil for
// any other kind. Read them only; the sync after the system writes them.
func (m IndexMarks) Filing() (rec []int32, box []index.Bounds) {
	if m.grid == nil {
		return nil, nil
	}
	return m.grid.g.Filing()
}

// MaintainIndex declares that the system marks, through the returned
// IndexMarks, every row whose key columns of ix it changes: the sync after
// it then visits only the marked rows instead of diffing ix's table
// (docs/architecture.md, Indexes). A row it changes and does not mark
// leaves ix stale: the system's author (or the generator, for a declared
// kernel) owns that, and the checking debug build fails the frame with an
// *UnmarkedIndexWriteError naming the system, ix and the row
// (docs/architecture.md, Debug build). It declares no write; Write does. A nil ix fails the
// declaration and returns a zero IndexMarks.
func MaintainIndex(d *Decl, ix Index) IndexMarks {
	var e systems.Index
	if ix != nil {
		e = ix.engine()
		if isOff(e) {
			return IndexMarks{}
		}
	}
	m := IndexMarks{w: systems.MaintainIndex(d.e(), e)}
	if g, ok := ix.(*GridIndex); ok && g != nil && m.w != nil {
		m.grid = &g.x
	}
	return m
}

// Reindex brings every index up to date after the host wrote key columns
// through raw slices (Column.All, Span, Ptr), which the world cannot see;
// writes through typed accessors (Column.Set, Insert, Delete, ...) need
// no call (docs/architecture.md, Indexes). It returns the first refusal
// of a unique index (an *IndexError wrapping *index.DuplicateError), also
// returned by the next Frame; ErrRunning during a frame. Allocates
// nothing.
func (w *World) Reindex() error { return w.e().Reindex() }

// indexBase is what every table index shares.
type indexBase struct {
	name, kind string
	table      *ephemeral.Table
	cols       []frame.ColumnRef
	names      []string // cols' names
	gens       []uint32 // the table's lease words: nonzero for a live row
	marks      []uint64 // MaintainIndex's bitmap
	world      *runtime.World
	off        bool // the Builder was made WithoutIndexes
}

func (b *indexBase) IndexName() string             { return b.name }
func (b *indexBase) IndexTable() *ephemeral.Table  { return b.table }
func (b *indexBase) IndexEvents() events.Buffer    { return nil }
func (b *indexBase) KeyColumns() []string          { return b.names }
func (b *indexBase) Marks() []uint64               { return b.marks }
func (b *indexBase) SyncEvents(string, bool) error { return nil }
func (b *indexBase) bind(w *runtime.World)         { b.world = w }
func (b *indexBase) indexOff() bool                { return b.off }
func (b *indexBase) setOff()                       { b.off = true }

// unbuiltPanic is the panic of a read of an index whose world is not
// built (before Build, or after a Build that failed): it files nothing
// until then.
func unbuiltPanic(name string) {
	panic("tickwork: index " + name + " read before its world was built: Build the world first (a failed Build leaves it unbuilt: check its error)")
}

// offPanic is the panic of a read of an index the world does not keep.
func offPanic(name string) {
	panic("tickwork: index " + name + " is not kept: the world was built WithoutIndexes; build it without that option to read the index or run a query it serves")
}

// isOff: ix is an index of a world built WithoutIndexes.
func isOff(ix systems.Index) bool {
	o, ok := ix.(interface{ indexOff() bool })
	return ok && o.indexOff()
}

// fresh syncs the world's indexes when the host changed a table through
// typed accessors since the last sync (an accessor's first use); during
// a frame the world keeps them and nothing is done here.
func (b *indexBase) fresh() {
	if b.off {
		offPanic(b.name)
	}
	if b.world == nil {
		unbuiltPanic(b.name)
	}
	if m := b.table.Marks(); m != nil && m.Any() && !b.table.Domain().Guarded() {
		_ = b.world.SyncIndexes() // its error is pending for the next Frame
	}
}

func (b *indexBase) refusal(who string, err error) error {
	col := ""
	if len(b.cols) == 1 {
		col = b.cols[0].Column
	}
	return &IndexError{Index: b.name, Table: b.table.Name(), Column: col, System: who, Err: err}
}

// walkLive calls f for every live row of t (chunk by chunk, word by word
// of the enabled bitmaps).
func walkLive(t *ephemeral.Table, f func(row int)) {
	cr := t.ChunkRows()
	for c := range t.UsedChunks() {
		for w, word := range t.Enabled(c) {
			base := c*cr + w*64
			for word != 0 {
				f(base + bits.TrailingZeros64(word))
				word &= word - 1
			}
		}
	}
}

// walkMarked calls f for every row whose bit is set in words, visiting
// only the words summary names when summary is not nil; clearing them
// when clear is set.
func walkMarked(words, summary []uint64, clear bool, f func(row int)) {
	visit := func(w int) {
		word := words[w]
		if clear {
			words[w] = 0
		}
		for word != 0 {
			f(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	if summary == nil {
		for w, word := range words {
			if word != 0 {
				visit(w)
			}
		}
		return
	}
	for s, sw := range summary {
		for sw != 0 {
			visit(s*64 + bits.TrailingZeros64(sw))
			sw &= sw - 1
		}
	}
}

// same reports whether two keys are the same for an index: equal, or
// both NaN (a NaN compares unequal to itself).
func same[K comparable](a, b K) bool { return a == b || a != a && b != b }

// filer is what a key index does with a row's key: the kind's methods.
type filer[K comparable] interface {
	update(row int32, k K) error
	remove(row int32)
	clear()
	key(row int32) (K, bool)
}

// keyIndex keeps a hash, unique or sorted index: the key of a row is
// col[row] (one column) or key(row) (AddHashIndexOf), and shadow holds
// each row's key as last filed, so the diff after a writer is a tight
// loop over the column (docs/architecture.md, Indexes).
type keyIndex[K comparable] struct {
	indexBase
	col    []K
	key    func(row int) K
	shadow []K
	f      filer[K]
	// retry (a unique index's): the rows a sync refused, filed again once
	// the whole batch is applied, so that keys swapped or rotated within
	// one writer are no duplicate (docs/architecture.md, Indexes)
	retry  []uint64
	nretry int
}

func (x *keyIndex[K]) value(row int) K {
	if x.col != nil {
		return x.col[row]
	}
	return x.key(row)
}

func (x *keyIndex[K]) file(who string, row int, k K, first *error) {
	x.shadow[row] = k
	err := x.f.update(int32(row), k)
	switch {
	case err == nil:
	case x.retry != nil:
		x.retry[row>>6] |= 1 << (row & 63)
		x.nretry++
	case *first == nil:
		*first = x.refusal(who, err)
	}
}

// settle files the rows the batch refused again, in ascending row order,
// now that every row of the batch holds its new key; a row still
// refused is a duplicate, the first one's error returned in *first.
func (x *keyIndex[K]) settle(who string, first *error) {
	if x.nretry == 0 {
		return
	}
	x.nretry = 0
	walkMarked(x.retry, nil, true, func(row int) {
		if x.gens[row] == 0 {
			return // deleted since
		}
		if err := x.f.update(int32(row), x.shadow[row]); err != nil && *first == nil {
			*first = x.refusal(who, err)
		}
	})
}

// SyncAll diffs every live row's key against the stored one.
func (x *keyIndex[K]) SyncAll(who string) error {
	var first error
	t := x.table
	cr := t.ChunkRows()
	if x.col == nil {
		walkLive(t, func(row int) {
			if k := x.key(row); !same(k, x.shadow[row]) {
				x.file(who, row, k, &first)
			}
		})
		x.settle(who, &first)
		return first
	}
	for c := range t.UsedChunks() {
		base := c * cr
		col, sh := x.col[base:base+cr:base+cr], x.shadow[base:base+cr:base+cr]
		for w, word := range t.Enabled(c) {
			lo := w * 64
			if word == ^uint64(0) {
				for i := lo; i < lo+64; i++ {
					if v := col[i]; v != sh[i] && (v == v || sh[i] == sh[i]) {
						x.file(who, base+i, v, &first)
					}
				}
				continue
			}
			for word != 0 {
				i := lo + bits.TrailingZeros64(word)
				word &= word - 1
				if v := col[i]; v != sh[i] && (v == v || sh[i] == sh[i]) {
					x.file(who, base+i, v, &first)
				}
			}
		}
	}
	x.settle(who, &first)
	return first
}

func (x *keyIndex[K]) syncRow(who string, row int, first *error) {
	if x.gens[row] == 0 {
		x.f.remove(int32(row))
		return
	}
	x.file(who, row, x.value(row), first)
}

// SyncRows syncs the rows marked in words.
func (x *keyIndex[K]) SyncRows(who string, words, summary []uint64) error {
	var first error
	walkMarked(words, summary, false, func(row int) { x.syncRow(who, row, &first) })
	x.settle(who, &first)
	return first
}

// SyncMarked syncs the MaintainIndex rows and clears them.
func (x *keyIndex[K]) SyncMarked(who string) error {
	var first error
	walkMarked(x.marks, nil, true, func(row int) { x.syncRow(who, row, &first) })
	x.settle(who, &first)
	return first
}

// UnmarkedRow returns the lowest live row whose key is not the one filed
// (SyncAll's test), -1 when the index is consistent: the debug build's
// check of a system that declared MaintainIndex (docs/architecture.md,
// Debug build). A pass over the live rows; allocates nothing.
func (x *keyIndex[K]) UnmarkedRow() int {
	t := x.table
	if x.col == nil {
		found := -1
		walkLive(t, func(row int) {
			if found < 0 && !same(x.key(row), x.shadow[row]) {
				found = row
			}
		})
		return found
	}
	cr := t.ChunkRows()
	for c := range t.UsedChunks() { // SyncAll's loop, without the filing
		base := c * cr
		col, sh := x.col[base:base+cr:base+cr], x.shadow[base:base+cr:base+cr]
		for w, word := range t.Enabled(c) {
			if word == ^uint64(0) {
				for i := w * 64; i < w*64+64; i++ {
					if v := col[i]; v != sh[i] && (v == v || sh[i] == sh[i]) {
						return base + i
					}
				}
				continue
			}
			for word != 0 {
				i := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if v := col[i]; v != sh[i] && (v == v || sh[i] == sh[i]) {
					return base + i
				}
			}
		}
	}
	return -1
}

// Rebuild files every live row again, in ascending row order.
func (x *keyIndex[K]) Rebuild(who string) error {
	var first error
	x.f.clear()
	clear(x.marks)
	walkLive(x.table, func(row int) { x.file(who, row, x.value(row), &first) })
	x.settle(who, &first)
	return first
}

type hashFiler[K comparable] struct{ h *index.Hash[K] }

func (f hashFiler[K]) update(row int32, k K) error { f.h.Update(row, k); return nil }
func (f hashFiler[K]) remove(row int32)            { f.h.Remove(row) }
func (f hashFiler[K]) clear()                      { f.h.Clear() }
func (f hashFiler[K]) key(row int32) (K, bool)     { return f.h.Key(row) }

type uniqueFiler[K comparable] struct{ u *index.Unique[K] }

// update files row under k; on a refusal the row is unfiled, so it is in
// no key (docs/architecture.md, Indexes: a refused row stays out).
func (f uniqueFiler[K]) update(row int32, k K) error {
	err := f.u.Update(row, k)
	if err != nil {
		f.u.Remove(row)
	}
	return err
}
func (f uniqueFiler[K]) remove(row int32)        { f.u.Remove(row) }
func (f uniqueFiler[K]) clear()                  { f.u.Clear() }
func (f uniqueFiler[K]) key(row int32) (K, bool) { return f.u.Key(row) }

type sortedFiler[K index.Ordered] struct{ s *index.Sorted[K] }

func (f sortedFiler[K]) update(row int32, k K) error { f.s.Update(row, k); return nil }
func (f sortedFiler[K]) remove(row int32)            { f.s.Remove(row) }
func (f sortedFiler[K]) clear()                      { f.s.Clear() }
func (f sortedFiler[K]) key(row int32) (K, bool)     { return f.s.Key(row) }

// HashIndex is an equality index over one table (AddHashIndex,
// AddHashIndexOf): Hash gives the structure, consistent by the rule of
// docs/architecture.md, Indexes.
type HashIndex[K comparable] struct {
	x keyIndex[K]
	h *index.Hash[K]
}

// Hash returns the index's structure (rows by key, ascending row within
// a key). Between frames it first syncs the world's indexes when the host
// changed a table through typed accessors (a duplicate a unique index
// refuses then is returned by the next Frame). Call it from the host or a
// system's body (one that declared ReadIndex), not from kernels; the
// structure itself is read-only for them. Allocates nothing.
func (ix *HashIndex[K]) Hash() *index.Hash[K] { ix.x.fresh(); return ix.h }

// Name is the index's name.
func (ix *HashIndex[K]) Name() string { return ix.x.name }

// Kind is "hash".
func (ix *HashIndex[K]) Kind() string { return "hash" }

func (ix *HashIndex[K]) engine() systems.Index {
	if ix == nil {
		return nil
	}
	return &ix.x
}

// UniqueIndex is a unique key index over one table (AddUniqueIndex,
// AddUniqueIndexOf): at most one row per key. A row whose new key another
// row holds once the writer's whole batch is applied is refused (keys
// swapped by one writer are no duplicate): it stays out of the index
// (unfiled) until its key changes again, and the frame (or the host
// call) returns, once, an *IndexError wrapping the *index.DuplicateError
// naming both rows (docs/architecture.md, Indexes).
type UniqueIndex[K comparable] struct {
	x keyIndex[K]
	u *index.Unique[K]
}

// Unique returns the index's structure, as HashIndex.Hash does.
func (ix *UniqueIndex[K]) Unique() *index.Unique[K] { ix.x.fresh(); return ix.u }

// Name is the index's name.
func (ix *UniqueIndex[K]) Name() string { return ix.x.name }

// Kind is "unique".
func (ix *UniqueIndex[K]) Kind() string { return "unique" }

func (ix *UniqueIndex[K]) engine() systems.Index {
	if ix == nil {
		return nil
	}
	return &ix.x
}

// SortedIndex is an ordered index over one numeric column (AddSortedIndex):
// rows in (key, row) order by index.Compare.
type SortedIndex[K index.Ordered] struct {
	x keyIndex[K]
	s *index.Sorted[K]
}

// Sorted returns the index's structure, as HashIndex.Hash does.
func (ix *SortedIndex[K]) Sorted() *index.Sorted[K] { ix.x.fresh(); return ix.s }

// Name is the index's name.
func (ix *SortedIndex[K]) Name() string { return ix.x.name }

// Kind is "sorted".
func (ix *SortedIndex[K]) Kind() string { return "sorted" }

func (ix *SortedIndex[K]) engine() systems.Index {
	if ix == nil {
		return nil
	}
	return &ix.x
}

// declare checks what every table index declaration shares and returns
// the builder's tables; false (the error recorded) when it cannot go on.
func declare(b *Builder, name, kind string, t *ephemeral.Table, cols []IndexColumn) (refs []frame.ColumnRef, ok bool) {
	rb := b.e()
	fail := func(table, col string, err error) ([]frame.ColumnRef, bool) {
		rb.Fail(&IndexError{Index: name, Table: table, Column: col, Err: err})
		return nil, false
	}
	if rb.Built() {
		return fail("", "", ErrBuilt)
	}
	if rb.Err() != nil {
		return nil, false
	}
	if name == "" {
		return fail("", "", ErrIndexName)
	}
	if slices.Contains(rb.IndexNames(), name) {
		return fail("", "", ErrIndexName)
	}
	if len(cols) == 0 {
		return fail("", "", detail(ErrIndexColumn, "no key column: pass the columns the key reads"))
	}
	for _, c := range cols {
		ct, cn, cok := (*ephemeral.Table)(nil), "", false
		if c != nil {
			ct, cn, cok = c.indexColumn()
		}
		if !cok {
			return fail(tableName(t), "", detail(ErrIndexColumn, "nil column (the AddColumn that made it failed: its error comes first)"))
		}
		if !ownTable(rb, ct) {
			return fail(ct.Name(), cn, detail(ErrIndexColumn, "a column of another Builder's table: declare the index on the Builder whose AddColumn made it"))
		}
		if t == nil {
			t = ct
		}
		if ct != t {
			return fail(t.Name(), cn, detail(ErrIndexColumn, "key columns of two tables ("+strconv.Quote(t.Name()+" and "+strconv.Quote(ct.Name())+")")))
		}
		refs = append(refs, frame.ColumnRef{Table: ct, Column: cn})
	}
	return refs, true
}

func refNames(refs []frame.ColumnRef) []string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Column
	}
	return names
}

func tableName(t *ephemeral.Table) string {
	if t == nil {
		return ""
	}
	return t.Name()
}

func ownTable(rb *runtime.Builder, t *ephemeral.Table) bool {
	for _, o := range rb.Tables() {
		if o == t {
			return true
		}
	}
	return false
}

// detail is err with what went wrong after it, on one line (errors.Is
// still finds err).
func detail(err error, what string) error { return fmt.Errorf("%w: %s", err, what) }

// floatKey reports whether K is a float type (or a struct holding one):
// equality on it is not an index key (NaN is unequal to itself, -0 equals
// +0), as the schema refuses (docs/schema.md, Indexes).
func floatKey[K comparable]() bool {
	var hasFloat func(t reflect.Type) bool
	hasFloat = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			return true
		case reflect.Struct:
			for i := range t.NumField() {
				if hasFloat(t.Field(i).Type) {
					return true
				}
			}
		case reflect.Array:
			return hasFloat(t.Elem())
		}
		return false
	}
	return hasFloat(reflect.TypeFor[K]())
}

// charge charges bytes of the index's structures to the world's budget.
func charge(b *Builder, name, table string, bytes int64) bool {
	if err := b.e().Budget().Charge(memory.Definition{Kind: "index", Name: name}, bytes); err != nil {
		b.e().Fail(&IndexError{Index: name, Table: table, Err: err})
		return false
	}
	return true
}

// rowsOf is the number of rows an index of t covers: Chunks*ChunkRows.
func rowsOf(t *ephemeral.Table) int { return t.Chunks() * t.ChunkRows() }

func newKeyIndex[K comparable](b *Builder, name, kind string, refs []frame.ColumnRef, col []K, key func(int) K, structure func(rows int) int64) (keyIndex[K], bool) {
	t := refs[0].Table
	if kind != "sorted" && floatKey[K]() {
		b.e().Fail(&IndexError{Index: name, Table: t.Name(), Column: refs[0].Column, Err: detail(ErrIndexColumn,
			"a float key for a "+kind+" index: float equality is not a key (NaN is unequal to itself, -0 equals +0); use AddSortedIndex, or AddGridIndex for positions")})
		return keyIndex[K]{}, false
	}
	n := rowsOf(t)
	var k K
	// The structure (index.HashBytes ..), the shadow keys and the marks.
	if !charge(b, name, t.Name(), structure(n)+int64(n)*int64(unsafe.Sizeof(k))+8*int64((n+63)/64)) {
		return keyIndex[K]{}, false
	}
	return keyIndex[K]{indexBase: indexBase{name: name, kind: kind, table: t, cols: refs, names: refNames(refs), gens: t.Lease().Words(),
		marks: make([]uint64, (n+63)/64)}, col: col, key: key, shadow: make([]K, n)}, true
}

// register hands the index to the runtime; false when it refused it.
func register(b *Builder, ix systems.Index) bool {
	if b.e().IndexesOff() {
		if o, ok := ix.(interface{ setOff() }); ok {
			o.setOff()
		}
	}
	return runtime.AddIndex(b.e(), ix)
}

// AddHashIndex declares an equality index named name on column c: rows by
// c's value (a ref column's Handle included). A bad declaration (an empty
// or used name, a nil or foreign column, a float key (ErrIndexColumn: float
// equality is no key; the schema refuses it too), after Build, the memory
// budget) records an *IndexError on the Builder and returns nil. Set-up
// only.
func AddHashIndex[K comparable](b *Builder, name string, c *Column[K]) *HashIndex[K] {
	refs, ok := declare(b, name, "hash", nil, []IndexColumn{c})
	if !ok {
		return nil
	}
	return newHash(b, name, refs, c.All(), nil)
}

// AddHashIndexOf declares an equality index named name on table t whose
// key of row is key(row) (composite keys: a struct of several columns'
// values); cols are the columns key reads, which the world watches (a
// write of one syncs the index) and ReadIndex declares. key must be a
// pure function of those columns' values at row. Errors as AddHashIndex,
// and ErrIndexColumn for a nil t or key or no cols.
func AddHashIndexOf[K comparable](b *Builder, name string, t *Table, key func(row int) K, cols ...IndexColumn) *HashIndex[K] {
	refs, ok := declareOf(b, name, "hash", t, key == nil, cols)
	if !ok {
		return nil
	}
	return newHash(b, name, refs, nil, key)
}

func declareOf(b *Builder, name, kind string, t *Table, nilKey bool, cols []IndexColumn) ([]frame.ColumnRef, bool) {
	if (t == nil || nilKey) && !b.e().Built() && b.e().Err() == nil {
		b.e().Fail(&IndexError{Index: name, Err: detail(ErrIndexColumn, "nil table or key function")})
		return nil, false
	}
	var et *ephemeral.Table
	if t != nil {
		et = t.e()
		if !ownTable(b.e(), et) && !b.e().Built() && b.e().Err() == nil {
			b.e().Fail(&IndexError{Index: name, Table: et.Name(), Err: detail(ErrIndexColumn, "a table of another Builder: declare the index on the Builder that made the table")})
			return nil, false
		}
	}
	return declare(b, name, kind, et, cols)
}

func newHash[K comparable](b *Builder, name string, refs []frame.ColumnRef, col []K, key func(int) K) *HashIndex[K] {
	x, ok := newKeyIndex(b, name, "hash", refs, col, key, index.HashBytes[K])
	if !ok {
		return nil
	}
	h, err := index.NewHash[K](rowsOf(x.table))
	if err != nil {
		b.e().Fail(x.refusal("", err))
		return nil
	}
	ix := &HashIndex[K]{x: x, h: h}
	ix.x.f = hashFiler[K]{h}
	if !register(b, &ix.x) {
		return nil
	}
	return ix
}

// AddUniqueIndex declares a unique key index named name on column c.
// Errors as AddHashIndex.
func AddUniqueIndex[K comparable](b *Builder, name string, c *Column[K]) *UniqueIndex[K] {
	refs, ok := declare(b, name, "unique", nil, []IndexColumn{c})
	if !ok {
		return nil
	}
	return newUnique(b, name, refs, c.All(), nil)
}

// AddUniqueIndexOf declares a unique key index named name on table t
// whose key of row is key(row), reading cols, as AddHashIndexOf.
func AddUniqueIndexOf[K comparable](b *Builder, name string, t *Table, key func(row int) K, cols ...IndexColumn) *UniqueIndex[K] {
	refs, ok := declareOf(b, name, "unique", t, key == nil, cols)
	if !ok {
		return nil
	}
	return newUnique(b, name, refs, nil, key)
}

func newUnique[K comparable](b *Builder, name string, refs []frame.ColumnRef, col []K, key func(int) K) *UniqueIndex[K] {
	x, ok := newKeyIndex(b, name, "unique", refs, col, key, index.UniqueBytes[K])
	if !ok {
		return nil
	}
	u, err := index.NewUnique[K](rowsOf(x.table))
	if err != nil {
		b.e().Fail(x.refusal("", err))
		return nil
	}
	ix := &UniqueIndex[K]{x: x, u: u}
	ix.x.f = uniqueFiler[K]{u}
	ix.x.retry = make([]uint64, (rowsOf(x.table)+63)/64)
	if !register(b, &ix.x) {
		return nil
	}
	return ix
}

// AddSortedIndex declares an ordered index named name on the numeric
// column c (the type system refuses other keys: index.Ordered). Errors as
// AddHashIndex.
func AddSortedIndex[K index.Ordered](b *Builder, name string, c *Column[K]) *SortedIndex[K] {
	refs, ok := declare(b, name, "sorted", nil, []IndexColumn{c})
	if !ok {
		return nil
	}
	x, ok := newKeyIndex(b, name, "sorted", refs, c.All(), nil, index.SortedBytes[K])
	if !ok {
		return nil
	}
	s, err := index.NewSorted[K](rowsOf(x.table))
	if err != nil {
		b.e().Fail(x.refusal("", err))
		return nil
	}
	ix := &SortedIndex[K]{x: x, s: s}
	ix.x.f = sortedFiler[K]{s}
	if !register(b, &ix.x) {
		return nil
	}
	return ix
}

// GridIndex is a spatial index over two float32 columns of one table
// (AddGridIndex): rows by the square cell their point (x, y) falls in.
type GridIndex struct {
	x gridIndex
}

// Grid returns the index's structure, as HashIndex.Hash does.
func (ix *GridIndex) Grid() *index.Grid { ix.x.fresh(); return ix.x.g }

// Name is the index's name.
func (ix *GridIndex) Name() string { return ix.x.name }

// Kind is "grid".
func (ix *GridIndex) Kind() string { return "grid" }

func (ix *GridIndex) engine() systems.Index {
	if ix == nil {
		return nil
	}
	return &ix.x
}

// gridIndex keeps a GridIndex: the diff tests each live row's point
// against the bounds of the cell it is filed in (index.Grid.Filing: four
// comparisons, no arithmetic) and refiles only the rows that left it.
type gridIndex struct {
	indexBase
	xs, ys []float32
	g      *index.Grid
	diff   func(worker, chunk int) // diffChunk, bound once (a frame allocates nothing)
}

func (x *gridIndex) file(row int) { x.g.Update(int32(row), x.xs[row], x.ys[row]) }

// SyncAll refiles every live row that crossed a cell: the kernel workers
// test the rows chunk by chunk and mark the rows that left their cell in
// the index's marks (a chunk holds whole words: no atomics), then the
// crossings are refiled in ascending row order on this goroutine.
func (x *gridIndex) SyncAll(string) error {
	if x.world != nil {
		x.world.RunSync(x.table.UsedChunks(), x.diff)
	} else {
		for c := range x.table.UsedChunks() {
			x.diffChunk(0, c)
		}
	}
	walkMarked(x.marks, nil, true, x.syncRow)
	return nil
}

// diffChunk marks the live rows of chunk c whose point is not in their
// filed cell's bounds, or that are not filed.
func (x *gridIndex) diffChunk(_, c int) {
	t := x.table
	cr := t.ChunkRows()
	rec, box := x.g.Filing()
	unfiled := int32(len(rec) + 1)
	base := c * cr
	xs, ys, rc := x.xs[base:base+cr:base+cr], x.ys[base:base+cr:base+cr], rec[base:base+cr:base+cr]
	marks := x.marks[base/64 : (base+cr)/64]
	for w, word := range t.Enabled(c) {
		lo := w * 64
		var crossed uint64
		if word == ^uint64(0) {
			for i := lo; i < lo+64; i++ {
				if id := rc[i]; id == unfiled || !box[id].Holds(xs[i], ys[i]) {
					crossed |= 1 << uint(i-lo)
				}
			}
		} else {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &= word - 1
				if id := rc[lo+b]; id == unfiled || !box[id].Holds(xs[lo+b], ys[lo+b]) {
					crossed |= 1 << uint(b)
				}
			}
		}
		marks[w] |= crossed
	}
}

func (x *gridIndex) syncRow(row int) {
	if x.gens[row] == 0 {
		x.g.Remove(int32(row))
		return
	}
	x.file(row)
}

// SyncRows syncs the rows marked in words.
func (x *gridIndex) SyncRows(_ string, words, summary []uint64) error {
	walkMarked(words, summary, false, x.syncRow)
	return nil
}

// SyncMarked syncs the MaintainIndex rows and clears them.
func (x *gridIndex) SyncMarked(string) error {
	walkMarked(x.marks, nil, true, x.syncRow)
	return nil
}

// UnmarkedRow returns the lowest live row whose point is not in the cell
// it is filed in, -1 when none: keyIndex.UnmarkedRow's check for a grid.
func (x *gridIndex) UnmarkedRow() int {
	found := -1
	walkLive(x.table, func(row int) {
		if found >= 0 {
			return
		}
		if c, ok := x.g.Key(int32(row)); !ok || x.g.CellOf(x.xs[row], x.ys[row]) != c {
			found = row
		}
	})
	return found
}

// Rebuild files every live row again.
func (x *gridIndex) Rebuild(string) error {
	x.g.Clear()
	clear(x.marks)
	walkLive(x.table, x.file)
	return nil
}

// AddGridIndex declares a spatial index named name over the float32
// columns x and y of one table, cells of side cell (world units): a
// uniform grid whose AppendBox and AppendRadius give candidate rows. A
// cell that is not positive and finite records an *IndexError wrapping
// index.ErrCellSize; other errors as AddHashIndex, and ErrIndexColumn for
// x and y of two tables.
func AddGridIndex(b *Builder, name string, x, y *Column[float32], cell float32) *GridIndex {
	refs, ok := declare(b, name, "grid", nil, []IndexColumn{x, y})
	if !ok {
		return nil
	}
	t := refs[0].Table
	if refs[0].Column == refs[1].Column {
		b.e().Fail(&IndexError{Index: name, Table: t.Name(), Column: refs[0].Column, Err: detail(ErrIndexColumn, "x and y are one column: pass the two coordinate columns")})
		return nil
	}
	if !index.CellSizeOK(cell) {
		b.e().Fail(&IndexError{Index: name, Table: t.Name(), Err: detail(index.ErrCellSize, "cell "+strconv.FormatFloat(float64(cell), 'g', -1, 32)+
			": pass the cell's side in world units, a finite number of at least 2^-31 (index.MinCell: a smaller cell's grid of int32 cells would not reach one world unit)")})
		return nil
	}
	n := rowsOf(t)
	// The grid (index.GridBytes) and the marks.
	if !charge(b, name, t.Name(), index.GridBytes(n)+8*int64((n+63)/64)) {
		return nil
	}
	g, err := index.NewGrid(n, cell)
	if err != nil {
		b.e().Fail(&IndexError{Index: name, Table: t.Name(), Err: err})
		return nil
	}
	ix := &GridIndex{x: gridIndex{indexBase: indexBase{name: name, kind: "grid", table: t, cols: refs, names: refNames(refs), gens: t.Lease().Words(),
		marks: make([]uint64, (n+63)/64)}, xs: x.All(), ys: y.All(), g: g}}
	ix.x.diff = ix.x.diffChunk
	if !register(b, &ix.x) {
		return nil
	}
	return ix
}

// EventIndex is a hash index over the events of an event table
// (AddEventIndex): rows are the positions of the delivered events in
// Events.Read order, keyed by key(&event).
type EventIndex[E any, K comparable] struct {
	x eventIndex[E, K]
}

// Hash returns the index's structure: row i is Events.Read()[i]. It first
// refiles the index when the table's Read view moved since its last sync
// (the world refiles it at the boundaries that deliver events and after
// every system that emits into or consumes the table: docs/architecture.md,
// Indexes). Call it from the host or a system's body, not from kernels.
// Allocates nothing.
func (ix *EventIndex[E, K]) Hash() *index.Hash[K] {
	if ix.x.off {
		offPanic(ix.x.name)
	}
	if ix.x.world == nil {
		unbuiltPanic(ix.x.name)
	}
	if ix.x.world == nil || !ix.x.world.Running() {
		_ = ix.x.SyncEvents("host", false)
	}
	return ix.x.h
}

// Name is the index's name.
func (ix *EventIndex[E, K]) Name() string { return ix.x.name }

// Kind is "hash".
func (ix *EventIndex[E, K]) Kind() string { return "hash" }

func (ix *EventIndex[E, K]) engine() systems.Index {
	if ix == nil {
		return nil
	}
	return &ix.x
}

// eventIndex keeps an EventIndex: the view it filed (its first event and
// length), so a view that only grew files only the new events.
type eventIndex[E any, K comparable] struct {
	name  string
	ev    *events.Table[E]
	key   func(*E) K
	h     *index.Hash[K]
	cap   int // the structure's rows: the table's capacity
	first *E
	n     int
	world *runtime.World
	off   bool // the Builder was made WithoutIndexes
}

func (x *eventIndex[E, K]) indexOff() bool               { return x.off }
func (x *eventIndex[E, K]) setOff()                      { x.off = true }
func (x *eventIndex[E, K]) IndexName() string            { return x.name }
func (x *eventIndex[E, K]) IndexTable() *ephemeral.Table { return nil }
func (x *eventIndex[E, K]) IndexEvents() events.Buffer   { return x.ev }
func (x *eventIndex[E, K]) KeyColumns() []string         { return nil }
func (x *eventIndex[E, K]) Marks() []uint64              { return nil }
func (x *eventIndex[E, K]) SyncAll(string) error         { return nil }
func (x *eventIndex[E, K]) SyncRows(string, []uint64, []uint64) error {
	return nil
}
func (x *eventIndex[E, K]) SyncMarked(string) error { return nil }
func (x *eventIndex[E, K]) bind(w *runtime.World)   { x.world = w }

// SyncEvents refiles the index from the table's view: the new events of
// a view that grew in place, or every event of one that moved (or when
// force).
func (x *eventIndex[E, K]) SyncEvents(_ string, force bool) error {
	v := x.ev.Read()
	v = v[:min(len(v), x.cap)]
	var p *E
	if len(v) > 0 {
		p = &v[0]
	}
	from := 0
	switch {
	case !force && p == x.first && len(v) == x.n:
		return nil
	case !force && p == x.first && len(v) > x.n && x.n > 0:
		from = x.n
	default:
		for i := range x.n { // unfile what was filed: by the size of the change, not the capacity
			x.h.Remove(int32(i))
		}
	}
	for i := from; i < len(v); i++ {
		x.h.Insert(int32(i), x.key(&v[i]))
	}
	x.first, x.n = p, len(v)
	return nil
}

// Rebuild files every event of the view again.
func (x *eventIndex[E, K]) Rebuild(who string) error { return x.SyncEvents(who, true) }

// AddEventIndex declares a hash index named name over the events of ev,
// keyed by key (a pure function of the event): hits by target. Errors as
// AddHashIndex, and ErrIndexColumn for a nil ev (a failed AddEvents) or
// key.
func AddEventIndex[E any, K comparable](b *Builder, name string, ev *Events[E], key func(*E) K) *EventIndex[E, K] {
	rb := b.e()
	fail := func(table string, err error) *EventIndex[E, K] {
		rb.Fail(&IndexError{Index: name, Table: table, Err: err})
		return nil
	}
	switch {
	case rb.Built():
		return fail("", ErrBuilt)
	case rb.Err() != nil:
		return nil
	case ev == nil || key == nil:
		return fail("", detail(ErrIndexColumn, "nil event table or key function"))
	case name == "":
		return fail(ev.e().Name(), ErrIndexName)
	}
	if slices.Contains(rb.IndexNames(), name) {
		return fail(ev.e().Name(), ErrIndexName)
	}
	et := ev.e()
	if !charge(b, name, et.Name(), index.HashBytes[K](et.Cap())) {
		return nil
	}
	h, err := index.NewHash[K](et.Cap())
	if err != nil {
		return fail(et.Name(), err)
	}
	ix := &EventIndex[E, K]{x: eventIndex[E, K]{name: name, ev: et, key: key, h: h, cap: et.Cap()}}
	if !register(b, &ix.x) {
		return nil
	}
	return ix
}

// bindIndexes gives the world to its indexes (their accessors' syncs at
// first use). Build calls it.
func bindIndexes(rb *runtime.Builder, w *runtime.World) {
	for _, ix := range rb.Indexes() {
		if x, ok := ix.(interface{ bind(*runtime.World) }); ok {
			x.bind(w)
		}
	}
}

package ephemeral

import (
	"errors"
	"iter"
	"math/bits"
	"strconv"
	"unsafe"
)

// Sentinels of a join's definition (NewJoin .. NewJoin15), each returned
// inside a *DefinitionError (errors.Is ErrDefinition) naming the table.
var (
	// ErrJoinDomains: a join over tables of different domains. A join
	// matches rows by slot index, which names one entity only within one
	// domain.
	ErrJoinDomains = errors.New("a join's tables must belong to one domain")
	// ErrJoinEmpty: a join with neither a column nor a With table: it has
	// no table to iterate.
	ErrJoinEmpty = errors.New("a join needs a column or a With table")
	// ErrJoinExcluded: a table a join both requires (a column's table or
	// With) and excludes (Without): the join could match nothing.
	ErrJoinExcluded = errors.New("a join's table is both required and excluded (Without)")
)

// Filter is a presence filter of a join: With (the entity must have a row
// in each table) or Without (it must have a row in none). Make it with
// With or Without; a small value. The rule: package doc, Joins.
type Filter struct {
	tables  []*Table
	exclude bool
}

// With is the filter of the entities that have a row in every table of
// tables (tag tables, with no column, included). Allocates the filter's
// list; call it at set-up.
func With(tables ...*Table) Filter { return Filter{tables: append([]*Table(nil), tables...)} }

// Without is the filter of the entities that have a row in none of
// tables. Allocates the filter's list; call it at set-up.
func Without(tables ...*Table) Filter {
	return Filter{tables: append([]*Table(nil), tables...), exclude: true}
}

// Join is the untyped part of an entity query over the tables of one
// domain (see Joins in the package doc): the required tables (the
// columns' tables and With), the excluded ones (Without), and iteration
// of the matching entities' rows. NewJoin makes one with no column, for
// tag tables; Join1 .. Join15 (generated, join_gen.go) add typed columns
// and embed it. A Join is a
// small value (a pointer to its immutable definition): copy it into
// kernel state freely. Every method is safe from many goroutines while no
// structural change runs on the domain, and allocates nothing.
type Join struct {
	j *joinDef
}

// joinDef is a join's definition, immutable once made.
type joinDef struct {
	with    []*Table   // required tables, each once, in declaration order (columns first); with[0] gives handles
	without []*Table   // excluded tables, each once
	first   []uint64   // with[0]'s enabled words, every chunk's in one slice (chunk c at c*words)
	and     [][]uint64 // with[1:]'s, as first
	andNot  [][]uint64 // without's, as first
	shift   uint       // log2 of the chunk rows
	words   int        // mask words per chunk
	chunks  int
	full    int32 // chunk rows: a chunkLive of a full chunk
}

// NewJoin returns the join of the entities that pass filters, with no
// column: iterate a tag table (one without columns) with
// NewJoin(With(tag)). It returns a *DefinitionError (errors.Is
// ErrDefinition) with ErrJoinEmpty when no filter is a With of a table,
// a nil table, ErrJoinDomains for tables of different
// domains, ErrJoinExcluded for a table both in With and Without. It
// allocates the definition: call it at set-up.
func NewJoin(filters ...Filter) (Join, error) { return newJoin(nil, filters) }

// newJoin makes the join of the columns' tables cols (nil entries are
// nil columns) and filters.
func newJoin(cols []*Table, filters []Filter) (Join, error) {
	d := &joinDef{}
	add := func(list []*Table, t *Table) []*Table {
		for _, u := range list {
			if u == t {
				return list
			}
		}
		return append(list, t)
	}
	for _, t := range cols {
		d.with = add(d.with, t)
	}
	for _, f := range filters {
		for _, t := range f.tables {
			if t == nil {
				return Join{}, &DefinitionError{Err: errNilTable}
			}
			if f.exclude {
				d.without = add(d.without, t)
			} else {
				d.with = add(d.with, t)
			}
		}
	}
	if len(d.with) == 0 {
		return Join{}, &DefinitionError{Err: ErrJoinEmpty, Detail: "add With(table) or a column"}
	}
	first := d.with[0]
	for _, t := range append(d.with[1:len(d.with):len(d.with)], d.without...) {
		if t.dom != first.dom {
			return Join{}, &DefinitionError{Table: t.name, Err: ErrJoinDomains,
				Detail: "table " + strconv.Quote(t.name) + " is of domain " + strconv.Quote(t.dom.name) +
					", table " + strconv.Quote(first.name) + " of domain " + strconv.Quote(first.dom.name)}
		}
	}
	for _, t := range d.without {
		for _, u := range d.with {
			if t == u {
				return Join{}, &DefinitionError{Table: t.name, Err: ErrJoinExcluded}
			}
		}
	}
	d.first = enabledWords(first)
	for _, t := range d.with[1:] {
		d.and = append(d.and, enabledWords(t))
	}
	for _, t := range d.without {
		d.andNot = append(d.andNot, enabledWords(t))
	}
	d.shift = first.dom.shift
	d.words = first.dom.chunkRows >> 6
	d.chunks = len(first.enabled)
	d.full = int32(first.dom.chunkRows)
	return Join{d}, nil
}

// Table is the join's first required table (the first column's, else the
// first With table): the handles it yields are its rows'. Nil for the
// zero Join.
func (q Join) Table() *Table {
	if q.j == nil {
		return nil
	}
	return q.j.with[0]
}

// Required lists the tables an entity must have a row in: the columns'
// tables, then the With tables, each once. The slice is the join's own:
// do not modify it.
func (q Join) Required() []*Table { return q.j.with }

// Excluded lists the Without tables, each once. The slice is the join's
// own: do not modify it.
func (q Join) Excluded() []*Table { return q.j.without }

// Chunks is the number of chunks of the domain's tables: a kernel's chunk
// index runs over 0..Chunks()-1.
func (q Join) Chunks() int { return q.j.chunks }

// UsedChunks is one past the last chunk that may hold a matching entity
// (the least UsedChunks of the required tables), the chunk count to give
// Parallel.
func (q Join) UsedChunks() int {
	n := q.j.chunks
	for _, t := range q.j.with {
		n = min(n, t.UsedChunks())
	}
	return n
}

// Has reports whether h is a live entity that the join matches: a row in
// every required table, none in an excluded one. False for a zero, stale
// or foreign handle.
func (q Join) Has(h Handle) bool {
	i, w := h.Index(), h.word()
	if w == 0 || uint64(i) >= uint64(len(q.j.with[0].gens)) {
		return false
	}
	for _, t := range q.j.with {
		if t.gens[i] != w {
			return false
		}
	}
	for _, t := range q.j.without {
		if t.gens[i] == w {
			return false
		}
	}
	return true
}

// Count is the number of entities the join matches now. It reads every
// mask word of the used chunks (Cap/64 words at most per table).
func (q Join) Count() int {
	n := 0
	for c := q.j.liveChunk(0); c >= 0; c = q.j.liveChunk(c + 1) {
		for w := 0; w < q.j.words; w++ {
			n += bits.OnesCount64(q.j.word(c, w))
		}
	}
	return n
}

// All yields the handle of every entity the join matches, in ascending
// row order. The loop body must not change the structure of the domain's
// tables (see Queries in the package doc).
func (q Join) All() iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		j := q.j
		g := j.with[0].gens
		for c := j.liveChunk(0); c >= 0; c = j.liveChunk(c + 1) {
			base := c << j.shift
			for w, m := j.nextWord(c, 0); m != 0; w, m = j.nextWord(c, w+1) {
				at := base + w<<6
				for ; m != 0; m &= m - 1 {
					i := at + bits.TrailingZeros64(m)
					if !yield(handleOf(uint32(i), g[i])) {
						return
					}
				}
			}
		}
	}
}

// Chunk yields the handles of the matching entities of chunk c, in row
// order: the row form for a kernel at chunk c. It panics when c is
// outside 0..Chunks()-1.
func (q Join) Chunk(c int) iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		j := q.j.chunk(c, "Chunk")
		g := j.with[0].gens
		base := c << j.shift
		for w, m := j.nextWord(c, 0); m != 0; w, m = j.nextWord(c, w+1) {
			at := base + w<<6
			for ; m != 0; m &= m - 1 {
				i := at + bits.TrailingZeros64(m)
				if !yield(handleOf(uint32(i), g[i])) {
					return
				}
			}
		}
	}
}

// NextRun returns the first maximal run [lo, hi) of rows of chunk c, at
// or after chunk-relative row from, whose entities the join matches, or
// lo == hi == ChunkRows when there is none: the span form's loop, without
// a closure,
//
//	for lo, hi := q.NextRun(c, 0); lo < hi; lo, hi = q.NextRun(c, hi) { ... }
//
// with the chunk's column slices (Spans of a Join1 .. Join15). It panics
// when c is outside 0..Chunks()-1.
func (q Join) NextRun(c, from int) (lo, hi int) { return q.j.nextRun(c, from) }

// Runs yields the runs of NextRun of chunk c in ascending order, reading
// each mask word once (NextRun reads the word it starts in again at every
// call): the span form's loop for a kernel,
//
//	xs, vs := q.Spans(c)
//	for lo, hi := range q.Runs(c) {
//		for r := lo; r < hi; r++ { xs[r] += vs[r] }
//	}
//
// It panics when c is outside 0..Chunks()-1. Allocates nothing.
func (q Join) Runs(c int) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		j := q.j.chunk(c, "Runs")
		lo, hi := -1, -1 // the run being extended, chunk-relative
		for w, m := j.nextWord(c, 0); m != 0; w, m = j.nextWord(c, w+1) {
			at := w << 6
			for m != 0 {
				b := bits.TrailingZeros64(m)
				n := bits.TrailingZeros64(^(m >> uint(b))) // ones from bit b
				if at+b != hi {
					if lo >= 0 && !yield(lo, hi) {
						return
					}
					lo = at + b
				}
				hi = at + b + n
				m &= ^uint64(0) << uint(b+n) // 0 when b+n == 64
			}
		}
		if lo >= 0 {
			yield(lo, hi)
		}
	}
}

// Mask returns mask word w of chunk c, rows c*ChunkRows+64*w .. +63: bit r
// set when the join matches the entity of row 64*w+r of the chunk, the
// AND of the required tables' enabled bitmaps and the AND NOT of the
// excluded ones'. A kernel that visits single rows iterates its bits. It
// panics when c is outside 0..Chunks()-1 or w outside 0..ChunkRows/64-1.
func (q Join) Mask(c, w int) uint64 {
	j := q.j.chunk(c, "Mask")
	if uint(w) >= uint(j.words) {
		panic("ephemeral: Join.Mask(" + itoa(c) + ", " + itoa(w) + "): word index out of range 0.." + itoa(j.words-1))
	}
	return j.word(c, w)
}

// chunk returns j after checking chunk c, panicking with method's name
// when c is out of range.
func (j *joinDef) chunk(c int, method string) *joinDef {
	if uint(c) >= uint(j.chunks) {
		chunkPanic("Join."+method, c, j.with[0], "")
	}
	return j
}

// liveChunk returns the first chunk at or after c that may hold a matching
// entity (every required table has a live row there, no excluded table is
// full there), or -1.
func (j *joinDef) liveChunk(c int) int {
next:
	for ; c < j.chunks; c++ {
		for _, t := range j.with {
			if t.chunkLive[c] == 0 {
				continue next
			}
		}
		for _, t := range j.without {
			if t.chunkLive[c] == j.full {
				continue next
			}
		}
		return c
	}
	return -1
}

// word is mask word w of chunk c: the AND of the required tables' enabled
// words, AND NOT the excluded ones'.
func (j *joinDef) word(c, w int) uint64 {
	i := c*j.words + w
	m := j.first[i]
	for _, e := range j.and {
		m &= e[i]
	}
	for _, e := range j.andNot {
		m &^= e[i]
	}
	return m
}

// enabledWords is t's enabled bitmaps as one slice, chunk c's words at
// c*ChunkRows/64: NewTable carves them from one allocation, in chunk
// order, and they never move (pin-stable), so the slice stays valid for
// the table's life.
func enabledWords(t *Table) []uint64 {
	return unsafe.Slice(unsafe.SliceData(t.enabled[0]), len(t.enabled)*len(t.enabled[0]))
}

// nextWord returns the first mask word at or after w of chunk c that is
// not zero, with its index, or (words, 0). Kept out of line so that the
// row iterators stay small enough to inline into the caller's loop; it
// runs once per non-empty word of 64 rows.
//
//go:noinline
func (j *joinDef) nextWord(c, w int) (int, uint64) {
	for ; w < j.words; w++ {
		if m := j.word(c, w); m != 0 {
			return w, m
		}
	}
	return j.words, 0
}

// nextRun is NextRun. Out of line, as the package's nextRun.
//
//go:noinline
func (j *joinDef) nextRun(c, from int) (lo, hi int) {
	j.chunk(c, "NextRun")
	n := j.words << 6
	w := from >> 6
	if from < 0 || w >= j.words {
		return n, n
	}
	word := j.word(c, w) >> uint(from&63) << uint(from&63)
	for word == 0 {
		w++
		if w == j.words {
			return n, n
		}
		word = j.word(c, w)
	}
	lo = w<<6 | bits.TrailingZeros64(word)
	rest := ^word >> uint(lo&63) // bit 0 is lo
	if rest != 0 {
		return lo, lo + bits.TrailingZeros64(rest)
	}
	for {
		w++
		if w == j.words {
			return lo, n
		}
		if rest = ^j.word(c, w); rest != 0 {
			return lo, w<<6 + bits.TrailingZeros64(rest)
		}
	}
}

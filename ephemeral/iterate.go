package ephemeral

import (
	"iter"
	"math/bits"
	"strconv"

	"github.com/kelindar/bitmap"
)

// EachRun calls fn(lo, hi) for every maximal run of set bits [lo, hi) in
// mask, in ascending order. With a chunk's enabled bitmap and the chunk's
// column spans it visits the chunk's live rows in contiguous slices:
//
//	xs, vs := x.Span(c), v.Span(c)
//	ephemeral.EachRun(t.Enabled(c), func(lo, hi int) {
//		for r := lo; r < hi; r++ { xs[r] += vs[r] }
//	})
//
// A full chunk is one run. EachRun allocates nothing when fn does not escape.
// Exported for a host's or a hand-written kernel's chunk loop (the closure
// form of NextRun; ExampleEachRun).
func EachRun(mask bitmap.Bitmap, fn func(lo, hi int)) {
	for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
		fn(lo, hi)
	}
}

// NextRun returns the first maximal run [lo, hi) of set bits of mask (a
// chunk's enabled bitmap, Table.Enabled) at or after bit from, or
// lo == hi == len(mask)*64 when there is none: a kernel walks a chunk's
// live runs without a closure with
//
//	for lo, hi := NextRun(mask, 0); lo < hi; lo, hi = NextRun(mask, hi) { ... }
//
// Pure; allocates nothing.
func NextRun(mask []uint64, from int) (lo, hi int) { return nextRun(mask, from) }

// nextRun returns the first maximal run [lo, hi) of set bits of mask at or
// after bit from, or lo == hi == len(mask)*64 when there is none. The
// typed queries (Query1..Query15), Table.Runs and EachRun step through a
// chunk with it;
// it is kept out of line so that their iterators stay small enough to
// inline into the caller's loop.
//
//go:noinline
func nextRun(mask bitmap.Bitmap, from int) (lo, hi int) {
	n := len(mask) << 6
	w := from >> 6
	if w >= len(mask) {
		return n, n
	}
	word := mask[w] >> uint(from&63) << uint(from&63) // bits below from cleared
	for word == 0 {
		w++
		if w == len(mask) {
			return n, n
		}
		word = mask[w]
	}
	lo = w<<6 | bits.TrailingZeros64(word)
	// The run ends at the first clear bit at or after lo.
	rest := ^word >> uint(lo&63) // bit 0 is lo
	for rest == 0 {
		w++
		if w == len(mask) {
			return lo, n
		}
		rest = ^mask[w]
		lo2 := w << 6
		if rest != 0 {
			return lo, lo2 + bits.TrailingZeros64(rest)
		}
	}
	return lo, lo + bits.TrailingZeros64(rest)
}

// LiveEnd is one past the last live row of chunk c, chunk-relative (0 for
// an empty chunk): a kernel whose holes are harmless runs rows
// 0..LiveEnd(c)-1 densely. It panics (index out of range) when c is
// outside 0..Chunks()-1: small enough to inline into a kernel's chunk
// loop, it skips Enabled's message. Allocates nothing; safe while no
// structural change runs.
func (t *Table) LiveEnd(c int) int {
	mask := t.enabled[c]
	for w := len(mask) - 1; w >= 0; w-- {
		if mask[w] != 0 {
			return w<<6 + 64 - bits.LeadingZeros64(mask[w])
		}
	}
	return 0
}

// UsedChunks is one past the last chunk that holds a live row (0 for an
// empty table). A table fills its lowest slots first, so its top chunks
// are often empty: a kernel runs chunks 0..UsedChunks()-1, and a parallel
// one splits only those between its workers. Allocates nothing; safe
// while no structural change runs.
func (t *Table) UsedChunks() int {
	n := len(t.chunkLive)
	for n > 0 && t.chunkLive[n-1] == 0 {
		n--
	}
	return n
}

// liveChunk returns the first chunk at or after c that has a live row, or
// -1 when there is none. Query.All steps through the table with it.
func (t *Table) liveChunk(c int) int {
	if t == nil { // a zero query's: no rows
		return -1
	}
	for ; c < len(t.chunkLive); c++ {
		if t.chunkLive[c] != 0 {
			return c
		}
	}
	return -1
}

// Runs yields the maximal runs [lo, hi) of live rows of chunk c, in
// ascending order, as chunk-relative row indexes (row c*ChunkRows()+lo is
// the first of a run): with a chunk's column spans it visits the chunk's
// live rows in contiguous slices,
//
//	xs, vs := x.Span(c), v.Span(c)
//	for lo, hi := range t.Runs(c) {
//		for r := lo; r < hi; r++ { xs[r] += vs[r] }
//	}
//
// A full chunk is one run. It panics when c is outside 0..Chunks()-1.
// Allocates nothing; safe while no structural change runs.
func (t *Table) Runs(c int) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		mask := t.Enabled(c)
		for lo, hi := nextRun(mask, 0); lo < hi; lo, hi = nextRun(mask, hi) {
			if !yield(lo, hi) {
				return
			}
		}
	}
}

// insertWindow is how many handles InsertN of a query inserts at a time,
// in a buffer on the stack.
const insertWindow = 256

// insertEach inserts n entities with a row in t, as InsertN does (all or
// none), and calls fn, unless it is nil (the rows keep zero values), with each new handle in slot order; it allocates
// nothing. It returns ErrZeroQuery for a nil t (a zero query's), a
// *CountError for n < 0 and the *CapacityError of rows that do not fit,
// inserting nothing. When fn panics, the rows fn returned from stay and
// the one it panicked on and the rest are not inserted (the window's rows
// past it are deleted on the way out), as if inserted one by one: see
// Queries in the package doc.
func (t *Table) insertEach(n int, fn func(h Handle)) error {
	if t == nil {
		return ErrZeroQuery
	}
	if n < 0 {
		return &CountError{Table: t.name, Call: "InsertN", Count: n}
	}
	if err := t.dom.fits(KindTable, t.name, n); err != nil {
		return err
	}
	var buf [insertWindow]Handle
	k, i := 0, 0 // the window's rows, and how many of them fn returned from
	defer func() {
		if i < k { // fn panicked on buf[i]
			t.DeleteN(buf[i:k])
		}
	}()
	for n > 0 {
		k = min(n, insertWindow)
		_ = t.InsertN(buf[:k]) // fits: checked above
		i = 0
		if fn == nil {
			i = k // nothing to fill: every row stays
		}
		for ; i < k; i++ {
			fn(buf[i])
		}
		n -= k
	}
	return nil
}

// sameTable returns nil when table u is t, else the *DefinitionError
// (ErrQueryTables) of a query over column name of u.
func sameTable(t, u *Table, name string) error {
	if t == u {
		return nil
	}
	return &DefinitionError{Table: u.name, Column: name, Err: ErrQueryTables,
		Detail: "the query's first column is of table " + strconv.Quote(t.name)}
}

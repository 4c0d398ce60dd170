package index

import (
	"cmp"
	"fmt"
	"slices"
)

// Ordered is a key a Sorted index takes: integers and floats.
type Ordered interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// Compare orders keys by the query order rule (docs/schema.md, Query
// results): -0 and +0 tie, every NaN is one value, the greatest.
func Compare[K Ordered](a, b K) int {
	an, bn := a != a, b != b
	switch {
	case an || bn:
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		}
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Sorted is an ordered index: rows in (key, row) order, keys by
// [Compare] (package doc, Kinds; walk order: Rows and order).
//
// Layout: a skiplist whose nodes are the rows. A row's height (1 +
// the number of upper levels it links at, each with probability 1/4) is
// fixed by a hash of the row number at NewSorted, so the structure is a
// function of the filed (key, row) pairs alone, never of history or
// chance; the level-0 list is doubly linked (Next and the Prev steps are
// O(1)). A skiplist over rows needs no node pool, splits or merges: a
// row's links are allocated once with it, and Insert, Remove and Update
// touch O(log n) links expected.
type Sorted[K Ordered] struct {
	keys  []K
	next  []int32 // level 0, ascending; unfiled for an unfiled row
	prev  []int32 // level 0, descending
	up    []int32 // upper links: up[off[r]+l-1] is r's successor at level l >= 1
	off   []uint32
	level []uint8 // the row's height, 1..maxLevel
	head  [maxLevel]int32
	last  [maxLevel]int32 // the last row at each level, NoRow when empty
	tail  int32
	n     int
	order []keyedRow[K] // Rebuild's rows in (key, row) order
}

type keyedRow[K Ordered] struct {
	key K
	row int32
}

const maxLevel = 16

// NewSorted returns an empty sorted index for rows 0..capacity-1, or
// ErrCapacity. It allocates everything the index will use: about
// (17 + 2·sizeof(K)) bytes a row plus 4/3 bytes a row of upper links.
func NewSorted[K Ordered](capacity int) (*Sorted[K], error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	s := &Sorted[K]{
		keys:  make([]K, capacity),
		next:  make([]int32, capacity),
		prev:  make([]int32, capacity),
		off:   make([]uint32, capacity),
		level: make([]uint8, capacity),
		order: make([]keyedRow[K], 0, capacity),
	}
	total := uint64(0)
	for r := range s.level {
		lv := rowLevel(uint32(r))
		s.level[r] = lv
		s.off[r] = uint32(total)
		total += uint64(lv - 1)
		if total > 1<<32-1 {
			return nil, fmt.Errorf("%w: %d (upper links overflow)", ErrCapacity, capacity)
		}
	}
	s.up = make([]int32, total)
	s.Clear()
	return s, nil
}

// rowLevel is a row's height: 1 + the number of trailing pairs of zero
// bits of a mix of r (p = 1/4 a level), at most maxLevel.
func rowLevel(r uint32) uint8 {
	x := uint64(r) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	lv := uint8(1)
	for x&3 == 0 && lv < maxLevel {
		lv++
		x >>= 2
	}
	return lv
}

func (s *Sorted[K]) check(method string, row int32) { checkRow(method, row, len(s.keys)) }

func (s *Sorted[K]) isFiled(row int32) bool { return s.next[row] != unfiled }

// succ is a's successor at level l; a == NoRow is the head.
func (s *Sorted[K]) succ(a int32, l int) int32 {
	switch {
	case a == NoRow:
		return s.head[l]
	case l == 0:
		return s.next[a]
	}
	return s.up[s.off[a]+uint32(l-1)]
}

func (s *Sorted[K]) setSucc(a int32, l int, b int32) {
	switch {
	case a == NoRow:
		s.head[l] = b
	case l == 0:
		s.next[a] = b
	default:
		s.up[s.off[a]+uint32(l-1)] = b
	}
}

// before reports (keys[a], a) < (k, row).
func (s *Sorted[K]) before(a int32, k K, row int32) bool {
	c := Compare(s.keys[a], k)
	return c < 0 || c == 0 && a < row
}

// path fills at[l] with the last node at level l before (k, row) (NoRow:
// the head).
func (s *Sorted[K]) path(at *[maxLevel]int32, k K, row int32) {
	a := NoRow
	for l := maxLevel - 1; l >= 0; l-- {
		for b := s.succ(a, l); b != NoRow && s.before(b, k, row); b = s.succ(a, l) {
			a = b
		}
		at[l] = a
	}
}

// Insert files row under k. It panics when row is out of range or filed
// already. O(log n) expected; O(1) when (k, row) comes after every filed
// (key, row).
func (s *Sorted[K]) Insert(row int32, k K) {
	s.check("Insert", row)
	if s.isFiled(row) {
		panic(fmt.Sprintf("index: Insert of row %d, which is filed already: use Update to change its key", row))
	}
	s.link(row, k)
}

func (s *Sorted[K]) link(row int32, k K) {
	var at [maxLevel]int32
	if s.tail == NoRow || s.before(s.tail, k, row) {
		at = s.last // after every row: an append, O(levels)
	} else {
		s.path(&at, k, row)
	}
	s.keys[row] = k
	s.n++
	for l := 0; l < int(s.level[row]); l++ {
		nx := s.succ(at[l], l)
		s.setSucc(row, l, nx)
		s.setSucc(at[l], l, row)
		if nx == NoRow {
			s.last[l] = row
		}
	}
	s.prev[row] = at[0]
	if nx := s.next[row]; nx == NoRow {
		s.tail = row
	} else {
		s.prev[nx] = row
	}
}

// Remove unfiles row; false when it was not filed. It panics when row is
// out of range. O(log n) expected.
func (s *Sorted[K]) Remove(row int32) bool {
	s.check("Remove", row)
	if !s.isFiled(row) {
		return false
	}
	s.unlink(row)
	var zero K
	s.keys[row] = zero
	return true
}

func (s *Sorted[K]) unlink(row int32) {
	var at [maxLevel]int32
	s.path(&at, s.keys[row], row)
	for l := 0; l < int(s.level[row]); l++ {
		nx := s.succ(row, l)
		s.setSucc(at[l], l, nx)
		if nx == NoRow {
			s.last[l] = at[l]
		}
	}
	p, nx := s.prev[row], s.next[row]
	if nx == NoRow {
		s.tail = p
	} else {
		s.prev[nx] = p
	}
	s.next[row] = unfiled
	s.n--
}

// Update files row under k; it reports whether row's key changed order
// (a key that compares equal, -0 for +0, does not move the row, but is
// stored). An unfiled row is filed. It panics when row is out of range.
// O(1) when the row keeps its place between its neighbours, else
// O(log n) expected.
func (s *Sorted[K]) Update(row int32, k K) bool {
	s.check("Update", row)
	if !s.isFiled(row) {
		s.link(row, k)
		return true
	}
	if Compare(s.keys[row], k) == 0 {
		s.keys[row] = k
		return false
	}
	// The row keeps its place when (k, row) still lies between its
	// neighbours: every level's list is a sublist of level 0, so no link
	// changes.
	p, nx := s.prev[row], s.next[row]
	if (p == NoRow || s.before(p, k, row)) && (nx == NoRow || !s.before(nx, k, row)) {
		s.keys[row] = k
		return true
	}
	s.unlink(row)
	s.link(row, k)
	return true
}

// Rebuild unfiles every row, then files each row r of 0..capacity-1 for
// which key(r) reports true, under the key it returns: the index a
// sequence of Insert calls would make, by a sort of the (key, row) pairs
// and appends (O(n log n), about half the time of the Inserts of every
// row in row order, whose searches miss the cache). For a restore or a
// rollback. key must not call the index. It allocates nothing.
func (s *Sorted[K]) Rebuild(key func(row int32) (K, bool)) {
	s.Clear()
	order := s.order[:0]
	for r := range s.keys {
		if k, ok := key(int32(r)); ok {
			order = append(order, keyedRow[K]{k, int32(r)})
		}
	}
	slices.SortFunc(order, func(a, b keyedRow[K]) int {
		if c := Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.row, b.row)
	})
	for _, e := range order {
		s.link(e.row, e.key)
	}
}

// Key returns row's key and whether row is filed. It panics when row is
// out of range.
func (s *Sorted[K]) Key(row int32) (K, bool) {
	s.check("Key", row)
	if !s.isFiled(row) {
		var zero K
		return zero, false
	}
	return s.keys[row], true
}

// Len returns the number of filed rows.
func (s *Sorted[K]) Len() int { return s.n }

// Clear unfiles every row. O(capacity).
func (s *Sorted[K]) Clear() {
	clear(s.keys)
	for i := range s.next {
		s.next[i] = unfiled
	}
	for l := range s.head {
		s.head[l], s.last[l] = NoRow, NoRow
	}
	s.tail = NoRow
	s.n = 0
}

// First returns the first row in (key, row) order, or NoRow. O(1).
func (s *Sorted[K]) First() int32 { return s.head[0] }

// Next returns the row after row in (key, row) order, or NoRow. O(1). It
// panics when row is out of range or not filed.
func (s *Sorted[K]) Next(row int32) int32 {
	s.check("Next", row)
	nx := s.next[row]
	if nx == unfiled {
		panic("index: Sorted.Next of an unfiled row: walk from First or Seek")
	}
	return nx
}

// MarkTo walks from row from (a row of First, Seek or Next, or NoRow)
// in (key, row) order while the key is <= hi by [Compare], and sets the
// bit of each row it passes in mark (bit r&63 of word r>>6): a range's
// rows in row order, read back word by word, without a sort. It returns
// the least and greatest word it set, (len(mark), -1) when none. It
// panics when from is out of range or not filed, or mark holds fewer
// than capacity bits (size it (capacity+63)/64). O(rows walked).
func (s *Sorted[K]) MarkTo(mark []uint64, from int32, hi K) (wlo, whi int32) {
	return s.mark("MarkTo", mark, from, hi, true)
}

// MarkToEnd is [Sorted.MarkTo] with no upper bound: from row from to
// the last row.
func (s *Sorted[K]) MarkToEnd(mark []uint64, from int32) (wlo, whi int32) {
	var zero K
	return s.mark("MarkToEnd", mark, from, zero, false)
}

func (s *Sorted[K]) mark(method string, mark []uint64, from int32, hi K, bounded bool) (wlo, whi int32) {
	if len(mark) < (len(s.keys)+63)/64 {
		panic(fmt.Sprintf("index: Sorted.%s with %d words of marks for %d rows: size mark (capacity+63)/64", method, len(mark), len(s.keys)))
	}
	m := marker{mark: mark, lo: int32(len(mark)), hi: -1}
	if from == NoRow {
		return m.lo, m.hi
	}
	s.check(method, from)
	if !s.isFiled(from) {
		panic(fmt.Sprintf("index: Sorted.%s from an unfiled row: start at First or Seek", method))
	}
	keys, next := s.keys, s.next
	in := func(r int32) bool { return r != NoRow && (!bounded || Compare(keys[r], hi) <= 0) }
	// to the first fence (a row linked at level fenceLevel), a step at a time
	r := from
	for ; in(r) && s.level[r] <= fenceLevel; r = next[r] {
		m.set(r)
	}
	// Batches of fences along level fenceLevel: every row between two
	// fences in the range is in the range too, so those segments are
	// walked without a key test, markSegs at a time (independent chains:
	// their loads overlap); the segment after the last fence in the range
	// is walked with the test.
	var fb [fenceBatch + 1]int32
	for in(r) {
		k := 0
		for ; k < fenceBatch && in(r); k++ {
			fb[k] = r
			r = s.up[s.off[r]+fenceLevel-1]
		}
		fb[k] = r
		free := k - 1 // segments fb[j] -> fb[j+1] of no key test
		if in(r) {
			free = k
		}
		m.segments(next, fb[:free+1])
		if free < k {
			for t := fb[k-1]; in(t); t = next[t] {
				m.set(t)
			}
		}
	}
	return m.lo, m.hi
}

// fenceLevel is the level whose rows split a range walk into segments
// (1 row in 4^fenceLevel); fenceBatch, the fences a batch holds.
const (
	fenceLevel = 2
	fenceBatch = 256
	markChains = 8
)

// marker sets rows' bits in mark and keeps the least and greatest word
// set.
type marker struct {
	mark   []uint64
	lo, hi int32
}

func (m *marker) set(r int32) {
	w := r >> 6
	m.mark[w] |= 1 << (uint32(r) & 63)
	m.lo, m.hi = min(m.lo, w), max(m.hi, w)
}

// segments marks the level-0 rows from fb[j] up to (not including)
// fb[j+1] for each j, markChains chains at a time (a chain that ends
// takes the next segment).
func (m *marker) segments(next []int32, fb []int32) {
	var c, e [markChains]int32
	seg := 0
	for u := range markChains {
		c[u], e[u] = NoRow, NoRow
		if seg+1 < len(fb) {
			c[u], e[u] = fb[seg], fb[seg+1]
			seg++
		}
	}
	mark, lo, hi := m.mark, m.lo, m.hi // in registers through the loop
	for live := true; live; {
		live = false
		for u := range markChains {
			r := c[u]
			if r == e[u] {
				if seg+1 >= len(fb) {
					continue
				}
				r, e[u] = fb[seg], fb[seg+1]
				seg++
			}
			live = true
			w := r >> 6
			mark[w] |= 1 << (uint32(r) & 63)
			lo, hi = min(lo, w), max(hi, w)
			c[u] = next[r]
		}
	}
	m.lo, m.hi = lo, hi
}

// Prev returns the row before row in (key, row) order, or NoRow. O(1). It
// panics when row is out of range or not filed.
func (s *Sorted[K]) Prev(row int32) int32 {
	s.check("Prev", row)
	if !s.isFiled(row) {
		panic("index: Sorted.Prev of an unfiled row: walk from Last or Seek")
	}
	return s.prev[row]
}

// Last returns the last row in (key, row) order, or NoRow. O(1).
func (s *Sorted[K]) Last() int32 { return s.tail }

// Seek returns the first row whose key is >= k, or NoRow. O(log n)
// expected.
func (s *Sorted[K]) Seek(k K) int32 {
	return s.succ(s.lastLess(k), 0)
}

// lastLess returns the last row whose key is < k, or NoRow.
func (s *Sorted[K]) lastLess(k K) int32 {
	a := NoRow
	for l := maxLevel - 1; l >= 0; l-- {
		for b := s.succ(a, l); b != NoRow && Compare(s.keys[b], k) < 0; b = s.succ(a, l) {
			a = b
		}
	}
	return a
}

// SeekAfter returns the first row strictly after (k, row) in (key, row)
// order, or NoRow: the start of a keyset page. row need not be filed.
// O(log n) expected.
func (s *Sorted[K]) SeekAfter(k K, row int32) int32 {
	a := NoRow
	for l := maxLevel - 1; l >= 0; l-- {
		for b := s.succ(a, l); b != NoRow && !s.after(b, k, row); b = s.succ(a, l) {
			a = b
		}
	}
	return s.succ(a, 0)
}

// after reports (keys[a], a) > (k, row).
func (s *Sorted[K]) after(a int32, k K, row int32) bool {
	c := Compare(s.keys[a], k)
	return c > 0 || c == 0 && a > row
}

// runSteps is how far the run walks step back along level 0 before a
// search: runs of a few rows cost O(1), long ones O(log n).
const runSteps = 8

// LastRun returns the lowest row of the greatest key, or NoRow: with
// PrevRun and Next, a descending walk whose ties stay in ascending row
// (the query order rule). O(1) when the run is short, else O(log n).
func (s *Sorted[K]) LastRun() int32 {
	if s.tail == NoRow {
		return NoRow
	}
	return s.runStart(s.tail)
}

// PrevRun returns the lowest row of the key before row's key, or NoRow.
// It panics when row is out of range or not filed. O(1) when the runs
// are short, else O(log n) expected.
func (s *Sorted[K]) PrevRun(row int32) int32 {
	s.check("PrevRun", row)
	if !s.isFiled(row) {
		panic("index: Sorted.PrevRun of an unfiled row: walk from LastRun")
	}
	k := s.keys[row]
	p := s.prev[row]
	for i := 0; i < runSteps && p != NoRow && Compare(s.keys[p], k) == 0; i++ {
		p = s.prev[p]
	}
	if p != NoRow && Compare(s.keys[p], k) == 0 {
		p = s.lastLess(k)
	}
	if p == NoRow {
		return NoRow
	}
	return s.runStart(p)
}

// runStart returns the lowest row of a's key.
func (s *Sorted[K]) runStart(a int32) int32 {
	k := s.keys[a]
	for i := 0; i < runSteps; i++ {
		p := s.prev[a]
		if p == NoRow || Compare(s.keys[p], k) != 0 {
			return a
		}
		a = p
	}
	return s.Seek(k)
}

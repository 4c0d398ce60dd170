package index

import (
	"fmt"
	"hash/maphash"
)

// Hash is an equality index: rows by key, many rows per key (package
// doc, Kinds; walk order: Rows and order).
//
// Layout: each distinct key filed is a group (a record of the key, its
// hash, its first and last row and its count), found through an
// open-addressing table of group ids (linear probing, backward-shift
// deletion: no tombstones); the rows of a group form an intrusive doubly
// linked list kept in ascending row. Everything is allocated by NewHash.
type Hash[K comparable] struct {
	seed maphash.Seed

	// Per row.
	keys  []K     // the key as filed (bit for bit: Key returns it)
	group []int32 // the row's group, or noGroup when unfiled
	next  []int32 // the next higher row of the group, NoRow, or unfiled
	prev  []int32 // the next lower row of the group, or NoRow
	n     int

	// Per group (ids 0..capacity-1). order[:ng] are the live groups (the
	// Groups order), order[ng:] the free ids; pos[g] is g's place in order.
	gkey  []K
	ghash []uint64
	ghead []int32
	gtail []int32
	gn    []int32
	order []int32
	pos   []int32
	ng    int

	table []int32 // group id + 1; 0 is an empty slot
	mask  uint64
}

const noGroup int32 = -1

// unfiled marks the link of an unfiled row: a walk's step reads one word.
const unfiled int32 = -2

// NewHash returns an empty hash index for rows 0..capacity-1, or
// ErrCapacity. It allocates everything the index will use: about
// (40 + 2·sizeof(K)) bytes a row plus a table of 4 bytes by the power of
// two at least twice the capacity.
func NewHash[K comparable](capacity int) (*Hash[K], error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	size := tableSize(capacity)
	h := &Hash[K]{
		seed:  maphash.MakeSeed(),
		keys:  make([]K, capacity),
		group: make([]int32, capacity),
		next:  make([]int32, capacity),
		prev:  make([]int32, capacity),
		gkey:  make([]K, capacity),
		ghash: make([]uint64, capacity),
		ghead: make([]int32, capacity),
		gtail: make([]int32, capacity),
		gn:    make([]int32, capacity),
		order: make([]int32, capacity),
		pos:   make([]int32, capacity),
		table: make([]int32, size),
		mask:  size - 1,
	}
	h.Clear()
	return h, nil
}

func (h *Hash[K]) check(method string, row int32) { checkRow(method, row, len(h.group)) }

// Insert files row under k. It panics when row is out of range or filed
// already. Cost: O(1) expected when row is above the key's last row or
// below its first (rows arriving in ascending order); otherwise
// O(min(rank, gap)), rank being row's place counted from the nearer end
// of the key's list and gap the distance in rows to the nearest row of
// the same key (both small in the two common shapes: few rows a key, or
// a key on a large share of the rows).
func (h *Hash[K]) Insert(row int32, k K) {
	h.check("Insert", row)
	if h.group[row] != noGroup {
		panic(fmt.Sprintf("index: Insert of row %d, which is filed already: use Update to change its key", row))
	}
	h.file(row, k)
}

// Remove unfiles row; false when it was not filed. It panics when row is
// out of range. O(1) expected.
func (h *Hash[K]) Remove(row int32) bool {
	h.check("Remove", row)
	if h.group[row] == noGroup {
		return false
	}
	h.unfile(row)
	return true
}

// Update files row under k, moving it from its old key; it reports
// whether anything changed (an unfiled row is filed; a key == the filed
// one changes nothing). It panics when row is out of range. Cost: a
// Remove and an Insert.
func (h *Hash[K]) Update(row int32, k K) bool {
	h.check("Update", row)
	if h.group[row] != noGroup {
		if h.keys[row] == k {
			return false
		}
		h.unfile(row)
	}
	h.file(row, k)
	return true
}

// Key returns row's key and whether row is filed. It panics when row is
// out of range.
func (h *Hash[K]) Key(row int32) (K, bool) {
	h.check("Key", row)
	if h.group[row] == noGroup {
		var zero K
		return zero, false
	}
	return h.keys[row], true
}

// Len returns the number of filed rows.
func (h *Hash[K]) Len() int { return h.n }

// Clear unfiles every row. O(capacity).
func (h *Hash[K]) Clear() {
	clear(h.keys)
	clear(h.gkey)
	clear(h.table)
	for i := range h.group {
		h.group[i] = noGroup
		h.next[i] = unfiled
		h.order[i] = int32(i)
		h.pos[i] = int32(i)
	}
	h.n, h.ng = 0, 0
}

// First returns the lowest row filed under k, or NoRow. O(1) expected.
func (h *Hash[K]) First(k K) int32 {
	g := h.find(k, maphash.Comparable(h.seed, k))
	if g == noGroup {
		return NoRow
	}
	return h.ghead[g]
}

// Next returns the next higher row filed under row's key, or NoRow. O(1).
// It panics when row is out of range or not filed.
func (h *Hash[K]) Next(row int32) int32 {
	h.check("Next", row)
	nx := h.next[row]
	if nx == unfiled {
		panic("index: Hash.Next of an unfiled row: walk from First")
	}
	return nx
}

// Count returns the number of rows filed under k. O(1) expected.
func (h *Hash[K]) Count(k K) int {
	g := h.find(k, maphash.Comparable(h.seed, k))
	if g == noGroup {
		return 0
	}
	return int(h.gn[g])
}

// Groups returns the number of distinct keys filed (a key that is not ==
// to itself, a NaN, is a group of its own per row). With [Hash.Group] it
// walks the groups for a grouped aggregate: i in 0..Groups()-1.
//
// Order: a function of the sequence of Insert, Update, Remove and Clear
// calls since NewHash alone (never of the hash seed): a new key takes the
// place Groups()-1; when a key's last row leaves, the key in the last
// place takes its place. Callers that need a key order sort.
func (h *Hash[K]) Groups() int { return h.ng }

// Group returns the key of group i (as filed by one of its rows; == every
// row's key) and its lowest row, the start of a walk by [Hash.Next]. It
// panics when i is not in 0..Groups()-1.
func (h *Hash[K]) Group(i int) (k K, first int32) {
	if i < 0 || i >= h.ng {
		panic(fmt.Sprintf("index: Hash.Group(%d) out of range 0..%d: iterate i < Groups()", i, h.ng-1))
	}
	g := h.order[i]
	return h.gkey[g], h.ghead[g]
}

// GroupLen returns the number of rows of group i; it panics as Group.
func (h *Hash[K]) GroupLen(i int) int {
	if i < 0 || i >= h.ng {
		panic(fmt.Sprintf("index: Hash.GroupLen(%d) out of range 0..%d: iterate i < Groups()", i, h.ng-1))
	}
	return int(h.gn[h.order[i]])
}

// find returns the group of k (hash hv), or noGroup.
func (h *Hash[K]) find(k K, hv uint64) int32 {
	for i := hv & h.mask; ; i = (i + 1) & h.mask {
		e := h.table[i]
		if e == 0 {
			return noGroup
		}
		g := e - 1
		if h.ghash[g] == hv && h.gkey[g] == k {
			return g
		}
	}
}

// file links an unfiled row under k.
func (h *Hash[K]) file(row int32, k K) {
	hv := maphash.Comparable(h.seed, k)
	g := h.find(k, hv)
	if g == noGroup {
		g = h.newGroup(k, hv)
	}
	h.keys[row] = k
	h.group[row] = g
	h.n++
	h.gn[g]++
	t := h.gtail[g]
	switch {
	case t == NoRow:
		h.ghead[g], h.gtail[g] = row, row
		h.prev[row], h.next[row] = NoRow, NoRow
	case row > t:
		h.next[t], h.prev[row], h.next[row] = row, t, NoRow
		h.gtail[g] = row
	case row < h.ghead[g]:
		f := h.ghead[g]
		h.prev[f], h.next[row], h.prev[row] = row, f, NoRow
		h.ghead[g] = row
	default:
		p := h.pred(g, row)
		s := h.next[p]
		h.next[p], h.prev[row], h.next[row], h.prev[s] = row, p, s, row
	}
}

// pred returns the highest row of group g below row, for head < row <
// tail. Four cursors step in turn, and the first to settle answers: from
// the tail down the list, from the head up the list, and through the rows
// below and above row.
func (h *Hash[K]) pred(g, row int32) int32 {
	down, up := h.gtail[g], h.ghead[g]
	lo, hi := row-1, row+1
	for {
		if down = h.prev[down]; down < row {
			return down
		}
		if up = h.next[up]; up > row {
			return h.prev[up]
		}
		if h.group[lo] == g {
			return lo
		}
		lo--
		if h.group[hi] == g {
			return h.prev[hi]
		}
		hi++
	}
}

// unfile unlinks a filed row.
func (h *Hash[K]) unfile(row int32) {
	g := h.group[row]
	p, s := h.prev[row], h.next[row]
	if p == NoRow {
		h.ghead[g] = s
	} else {
		h.next[p] = s
	}
	if s == NoRow {
		h.gtail[g] = p
	} else {
		h.prev[s] = p
	}
	var zero K
	h.keys[row] = zero
	h.group[row] = noGroup
	h.next[row] = unfiled
	h.n--
	if h.gn[g]--; h.gn[g] == 0 {
		h.dropGroup(g)
	}
}

func (h *Hash[K]) newGroup(k K, hv uint64) int32 {
	g := h.order[h.ng]
	h.ng++
	h.gkey[g], h.ghash[g] = k, hv
	h.ghead[g], h.gtail[g], h.gn[g] = NoRow, NoRow, 0
	i := hv & h.mask
	for h.table[i] != 0 {
		i = (i + 1) & h.mask
	}
	h.table[i] = g + 1
	return g
}

func (h *Hash[K]) dropGroup(g int32) {
	// The table slot holding g (found by id: a NaN key is not == itself).
	i := h.ghash[g] & h.mask
	for h.table[i] != g+1 {
		i = (i + 1) & h.mask
	}
	// Backward-shift deletion: pull later entries of the probe run into
	// the hole unless their home lies cyclically in (hole, j].
	for j := (i + 1) & h.mask; ; j = (j + 1) & h.mask {
		e := h.table[j]
		if e == 0 {
			break
		}
		home := h.ghash[e-1] & h.mask
		if (j-home)&h.mask >= (j-i)&h.mask {
			h.table[i] = e
			i = j
		}
	}
	h.table[i] = 0
	var zero K
	h.gkey[g] = zero
	// Swap g with the last live group in order.
	last := int32(h.ng - 1)
	p := h.pos[g]
	o := h.order[last]
	h.order[p], h.pos[o] = o, p
	h.order[last], h.pos[g] = g, last
	h.ng--
}

package runq

import "slices"

// collectTop gathers the best limit rows of an ordered, ungrouped query
// (a top-N: docs/schema.md, Query results) in a bounded max-heap of row
// slots whose root is the worst kept row, then sorts them into q.perm: a
// row no better than the root once the heap is full is dropped before its
// select items are built. Ties go to the earlier row (its scan position),
// the stable sort's order, so the result is collect-and-sort's.
func (q *Query) collectTop(limit int64) error {
	q.rows, q.keys, q.perm, q.seq, q.slotRow = q.rows[:0], q.keys[:0], q.perm[:0], q.seq[:0], q.slotRow[:0]
	if q.def.Distinct {
		if q.seen == nil {
			q.seen = map[[maxDistinct]uint64]struct{}{}
		}
		clear(q.seen)
	}
	if limit == 0 {
		return nil
	}
	nk, w := len(q.order), len(q.items)
	if cap(q.tmp) < nk+w {
		q.tmp = make([]uint64, nk+w)
	}
	key := q.tmp[:nk]
	var err error
	if q.span.on {
		err = q.collectTopSpans(limit, key)
	} else {
		var n int64 // rows passed, the scan position
		err = q.scan(func(r int) bool {
			if q.after != nil && !q.isAfter(r) {
				return true
			}
			for i, o := range q.order {
				key[i] = o.key(r)
			}
			if q.def.Distinct && q.seenBefore(r) {
				return true
			}
			n++
			full := int64(len(q.perm)) >= limit
			if full && slices.Compare(key, q.slotKey(q.perm[0])) >= 0 {
				return true // no better than the worst kept (a tie: the kept row is earlier)
			}
			q.offerTop(key, n, full, r)
			return true
		})
	}
	slices.SortFunc(q.perm, q.topFn)
	q.buildTop(w)
	return err
}

// buildTop builds the select items of the kept rows, in their order, into
// q.rows (q.perm becomes 0, 1, ...): the rows are the world's at this Run,
// so building them once at the end gives what building them at each entry
// to the heap gives.
func (q *Query) buildTop(w int) {
	k := len(q.perm)
	q.topRows = q.topRows[:0]
	for _, p := range q.perm {
		q.topRows = append(q.topRows, q.slotRow[p])
	}
	q.rows = slices.Grow(q.rows[:0], k*w)[:k*w]
	if emits := q.span.emits; q.span.on && len(emits) == w {
		for a := 0; a < k; a += spanRows {
			b := min(k, a+spanRows)
			for i, e := range emits {
				e(q.topRows[a:b], q.rows[a*w:b*w], i, w)
			}
		}
	} else {
		for j, r := range q.topRows {
			for i, v := range q.vals {
				q.rows[j*w+i] = v(int(r))
			}
		}
	}
	for j := range q.perm {
		q.perm[j] = int32(j)
	}
}

// seenBefore reports whether row r's items are in the distinct set,
// adding them if not.
func (q *Query) seenBefore(r int) bool {
	var k [maxDistinct]uint64
	for i, x := range q.items {
		k[i] = orderKey(x.value(r))
	}
	if _, dup := q.seen[k]; dup {
		return true
	}
	q.seen[k] = struct{}{}
	return false
}

// offerTop puts row r, key key and scan position n, in the heap: a new
// slot while it is not full, else in the root's place (the worst kept).
func (q *Query) offerTop(key []uint64, n int64, full bool, r int) {
	var s int32
	if full {
		s = q.perm[0]
	} else {
		s = int32(len(q.seq))
		q.seq = append(q.seq, 0)
		q.slotRow = append(q.slotRow, 0)
		q.keys = append(q.keys, key...)
		q.perm = append(q.perm, s)
	}
	q.seq[s], q.slotRow[s] = n, int32(r)
	copy(q.slotKey(s), key)
	if full {
		q.siftDown(0)
	} else {
		q.siftUp(len(q.perm) - 1)
	}
}

func (q *Query) slotKey(s int32) []uint64 {
	n := len(q.order)
	return q.keys[int(s)*n : int(s)*n+n]
}

// cmpSlots orders two kept rows: keys, then scan position.
func (q *Query) cmpSlots(a, b int32) int {
	ka, kb := q.slotKey(a), q.slotKey(b)
	kb = kb[:len(ka)]
	for i, x := range ka {
		if y := kb[i]; x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case q.seq[a] < q.seq[b]:
		return -1
	case q.seq[a] > q.seq[b]:
		return 1
	}
	return 0
}

func (q *Query) siftUp(i int) {
	h := q.perm
	for i > 0 {
		p := (i - 1) / 2
		if q.cmpSlots(h[i], h[p]) <= 0 {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *Query) siftDown(i int) {
	h := q.perm
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && q.cmpSlots(h[r], h[l]) > 0 {
			m = r
		}
		if q.cmpSlots(h[m], h[i]) <= 0 {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

package runq

import (
	"fmt"

	"github.com/tickwork/tickwork/schema"
)

// setSpec is a set operation's two sides, each a prepared filter and
// projection over its table run into its own rows with their from rows'
// indexes, then merged (docs/schema.md, Query results: a union by index,
// the left first on a tie; an intersect or except in the left's order; of
// equal rows, as distinct's, the first kept).
type setSpec struct {
	kind        schema.SetKind
	left, right *Query
	lrows       []Value
	rrows       []Value
	rightSet    rowSet
	seen        rowSet
}

// rowSet is a set of row keys (rowKey): open addressing with linear
// probing, emptied in O(1) by moving its stamp on, doubled at half full.
// Its arrays are kept across runs, so a run allocates only while it
// outgrows every run before it (a Go map, cleared, reseeds its hash and
// may split its tables again: it allocated on every few runs).
type rowSet struct {
	keys  [][maxDistinct]uint64
	stamp []uint32 // slot i is full when stamp[i] == cur
	cur   uint32
	n     int
}

// reset empties the set.
func (s *rowSet) reset() {
	s.n = 0
	if s.cur++; s.cur == 0 {
		clear(s.stamp)
		s.cur = 1
	}
}

func hashKey(k *[maxDistinct]uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range k {
		h ^= w
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// add inserts k and reports whether it was not in the set.
func (s *rowSet) add(k [maxDistinct]uint64) bool {
	if 2*(s.n+1) > len(s.keys) {
		s.grow()
	}
	mask := len(s.keys) - 1
	for i := int(hashKey(&k)) & mask; ; i = (i + 1) & mask {
		if s.stamp[i] != s.cur {
			s.keys[i], s.stamp[i] = k, s.cur
			s.n++
			return true
		}
		if s.keys[i] == k {
			return false
		}
	}
}

// has reports whether k is in the set.
func (s *rowSet) has(k [maxDistinct]uint64) bool {
	if s.n == 0 {
		return false
	}
	mask := len(s.keys) - 1
	for i := int(hashKey(&k)) & mask; ; i = (i + 1) & mask {
		if s.stamp[i] != s.cur {
			return false
		}
		if s.keys[i] == k {
			return true
		}
	}
}

// grow doubles the arrays (64 slots at first) and re-inserts the keys.
func (s *rowSet) grow() {
	keys, stamp, cur := s.keys, s.stamp, s.cur
	n := max(64, 2*len(keys))
	s.keys, s.stamp, s.cur, s.n = make([][maxDistinct]uint64, n), make([]uint32, n), 1, 0
	for i := range keys {
		if stamp[i] == cur {
			s.add(keys[i])
		}
	}
}

func compileSet(cat *Catalog, def *schema.Query, skip int) (*Query, error) {
	if len(def.SetOp.Left.Select) > maxDistinct {
		return nil, &Error{Pos: textPos(def.Pos, skip), Kind: ErrUnsupported,
			Msg: fmt.Sprintf("a set operation of more than %d items is not run by the interpreter yet; declare the query in the .tw file", maxDistinct)}
	}
	l, err := compileSide(cat, def.SetOp.Left, skip, len(def.Params))
	if err != nil {
		return nil, err
	}
	r, err := compileSide(cat, def.SetOp.Right, skip, len(def.Params))
	if err != nil {
		return nil, err
	}
	l.keepIndex, r.keepIndex = true, true
	q := &Query{def: def, probe: -1, args: make([]Value, len(def.Params)), cols: l.cols,
		set: &setSpec{kind: def.SetOp.Kind, left: l, right: r}}
	q.plan = fmt.Sprintf("%s of two sides merged by their from rows' index (the left first on a tie), duplicate rows removed; left: %s; right: %s",
		def.SetOp.Kind, l.plan, r.plan)
	return q, nil
}

// rowKey is row's values as distinct keys.
func rowKey(row []Value) (k [maxDistinct]uint64) {
	for i, v := range row {
		k[i] = orderKey(v)
	}
	return k
}

// runSet runs both sides and merges them into dst.
func (q *Query) runSet(dst []Value) ([]Value, error) {
	s := q.set
	w := len(q.cols)
	for _, side := range []*Query{s.left, s.right} {
		copy(side.args, q.args)
		side.budget = 0
		if q.budget > 0 {
			side.budget = max(q.budget-q.visited, 1)
		}
	}
	var err error
	if s.lrows, err = s.left.Run(s.lrows, s.left.args); err != nil {
		q.visited += s.left.visited
		return dst, err
	}
	q.visited += s.left.visited
	if q.budget > 0 {
		s.right.budget = max(q.budget-q.visited, 1)
	}
	if s.rrows, err = s.right.Run(s.rrows, s.right.args); err != nil {
		q.visited += s.right.visited
		return dst, err
	}
	q.visited += s.right.visited
	s.seen.reset()
	emit := func(row []Value) {
		if s.seen.add(rowKey(row)) {
			dst = append(dst, row...)
		}
	}
	li, ri := s.left.fromIdx, s.right.fromIdx
	if s.kind == schema.Union {
		i, j := 0, 0
		for i < len(li) || j < len(ri) {
			if j >= len(ri) || i < len(li) && li[i] <= ri[j] {
				emit(s.lrows[i*w : i*w+w])
				i++
			} else {
				emit(s.rrows[j*w : j*w+w])
				j++
			}
		}
		return dst, nil
	}
	s.rightSet.reset()
	for j := range ri {
		s.rightSet.add(rowKey(s.rrows[j*w : j*w+w]))
	}
	for i := range li {
		row := s.lrows[i*w : i*w+w]
		if s.rightSet.has(rowKey(row)) == (s.kind == schema.Intersect) {
			emit(row)
		}
	}
	return dst, nil
}

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
	rightSet    map[[maxDistinct]uint64]struct{}
	seen        map[[maxDistinct]uint64]struct{}
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
		set: &setSpec{kind: def.SetOp.Kind, left: l, right: r,
			rightSet: map[[maxDistinct]uint64]struct{}{}, seen: map[[maxDistinct]uint64]struct{}{}}}
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
	clear(s.seen)
	emit := func(row []Value) {
		k := rowKey(row)
		if _, dup := s.seen[k]; !dup {
			s.seen[k] = struct{}{}
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
	clear(s.rightSet)
	for j := range ri {
		s.rightSet[rowKey(s.rrows[j*w:j*w+w])] = struct{}{}
	}
	for i := range li {
		row := s.lrows[i*w : i*w+w]
		_, in := s.rightSet[rowKey(row)]
		if in == (s.kind == schema.Intersect) {
			emit(row)
		}
	}
	return dst, nil
}

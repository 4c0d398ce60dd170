package runq

import (
	"github.com/tickwork/tickwork"
)

// vec is a subscribed row: slot 0 says whether the row passes the where
// (1) or not (0), the next slots hold the kind's values as bits (a
// filter's select items; a top-N's rank key, then its items; a grouped
// sum's key, then per aggregate its integer value). Three sizes, so that
// a narrow query keeps narrow rows.
type vec interface {
	[2]uint64 | [4]uint64 | [2 + MaxSubscribed]uint64
}

// declare declares s's kind on the root over rows of type V.
func declare[V vec](s *Subscription, b *tickwork.Builder) error {
	q := s.q
	var fill []func(int) uint64
	switch s.kind {
	case SubTopN:
		key := q.order[0].key // the query's ascending key (desc flipped); the root ranks the greatest first
		fill = append(fill, func(r int) uint64 { return ^key(r) })
		fallthrough
	case SubFilter:
		for _, f := range q.vals {
			fill = append(fill, func(r int) uint64 { return f(r).bits })
		}
	case SubGroupSum:
		g := &groupKept[V]{q: q, keyKind: q.groups[0].k}
		fill = append(fill, g.keyFill())
		for _, a := range q.aggs {
			fill = append(fill, sumFill(&a))
		}
		s.k = g
	}
	src := &tickwork.RowSource[V]{Columns: q.trackedColumns(), Copy: func(dst *V, r int) {
		if !q.passes(r) {
			(*dst)[0] = 0
			return
		}
		(*dst)[0] = 1
		for i, f := range fill {
			(*dst)[1+i] = f(r)
		}
	}}
	where := func(v *V) bool { return (*v)[0] != 0 }
	tb, name := q.bt.tb, "runq "+q.def.Name
	switch s.kind {
	case SubFilter:
		f := tickwork.SubscribeFilter(b, tb, tickwork.FilterSpec[V]{Name: name, Where: where, Source: src})
		if f == nil {
			return subFail(b)
		}
		s.k = &filterKept[V]{f: f, cols: q.cols}
	case SubCount:
		c := tickwork.SubscribeCount(b, tb, tickwork.FilterSpec[V]{Name: name, Where: where, Source: src})
		if c == nil {
			return subFail(b)
		}
		s.k = &countKept[V]{c: c, items: len(q.cols)}
	case SubTopN:
		n := q.topN() // at least 1 (Subscribe checked)
		spec := tickwork.TopSpec[V, uint64]{Name: name, N: tickwork.QueryBound(n, tb.Chunks()*tb.ChunkRows()), Where: where, Source: src,
			Key: func(v *V) uint64 { return (*v)[1] }}
		t := tickwork.SubscribeTopN(b, tb, spec)
		if t == nil {
			return subFail(b)
		}
		s.k = &topKept[V]{t: t, cols: q.cols}
	case SubGroupSum:
		return s.k.(*groupKept[V]).declare(b, name, src, where)
	}
	return nil
}

// appendVec appends the values of v's slots from on, one per column, to
// rows.
func appendVec[V vec](dst []Value, v *V, from int, cols []Column) []Value {
	for i, c := range cols {
		dst = append(dst, Value{bits: (*v)[from+i], kind: c.Kind})
	}
	return dst
}

// filterKept is a filter's upkeep: the root's SubFilter; items from slot 1.
type filterKept[V vec] struct {
	f    *tickwork.SubFilter[V]
	cols []Column
}

func (k *filterKept[V]) read(d *Delta) {
	d.Before = int64(k.f.Len())
	fd := k.f.Read()
	d.After = int64(k.f.Len())
	k.list(&d.Entered, fd.Entered)
	k.list(&d.Left, fd.Left)
	k.list(&d.Changed, fd.Changed)
}

func (k *filterKept[V]) list(dst *Rows, rows []tickwork.SubRow[V]) {
	for i := range rows {
		r := &rows[i]
		dst.Values = appendVec(dst.Values, &r.Value, 1, k.cols)
		dst.Row, dst.Handle = append(dst.Row, r.Row), append(dst.Handle, r.Handle)
	}
	dst.n += len(rows)
}

func (k *filterKept[V]) result(dst []Value) []Value {
	for r := range k.f.Rows() {
		dst = appendVec(dst, &r.Value, 1, k.cols)
	}
	return dst
}

// countKept is a count's upkeep: the root's SubCount, handed out once per
// select item (each a count()).
type countKept[V vec] struct {
	c     *tickwork.SubCount[V]
	items int
}

func (k *countKept[V]) read(d *Delta) {
	cd := k.c.Read()
	d.Before, d.After = int64(cd.Before), int64(cd.After)
}

func (k *countKept[V]) result(dst []Value) []Value {
	n := I64(int64(k.c.Count()))
	for range k.items {
		dst = append(dst, n)
	}
	return dst
}

// topKept is a top-N's upkeep: the root's SubTopN ranking slot 1 (the
// query's key, flipped so that the root's greatest is the query's
// first); items from slot 2.
type topKept[V vec] struct {
	t    *tickwork.SubTopN[V, uint64]
	cols []Column
}

func (k *topKept[V]) read(d *Delta) {
	d.Before = int64(len(k.t.Top()))
	td := k.t.Read()
	d.After = int64(len(k.t.Top()))
	k.list(&d.Entered, td.Entered)
	k.list(&d.Left, td.Left)
}

func (k *topKept[V]) list(dst *Rows, rows []tickwork.Ranked[V, uint64]) {
	for i := range rows {
		r := &rows[i]
		dst.Values = appendVec(dst.Values, &r.Value, 2, k.cols)
		dst.Row, dst.Handle, dst.Rank = append(dst.Row, r.Row), append(dst.Handle, r.Handle), append(dst.Rank, r.Rank)
	}
	dst.n += len(rows)
}

func (k *topKept[V]) result(dst []Value) []Value {
	top := k.t.Top()
	for i := range top {
		dst = appendVec(dst, &top[i].Value, 2, k.cols)
	}
	return dst
}

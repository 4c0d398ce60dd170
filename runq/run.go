package runq

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// acc is one aggregate's accumulator in one group.
type acc struct {
	n  int64
	i  int64
	f  float64
	m  Value // min, max
	ok bool
}

// group is one group of a grouped (or aggregate-only) query.
type group struct {
	key   [schema.MaxGroupKeys]uint64 // ordering keys
	value [schema.MaxGroupKeys]Value  // reported values (+0 for a zero, the first NaN)
}

// Run appends the query's result to dst[:0], len(Columns()) values per
// row, rows in the order of docs/schema.md's Query results, and returns
// it. args are the parameters' values in order, of their kinds. It only
// reads the world: call it between frames (or inside a system that
// declared reads of the query's columns). Allocates nothing once cap(dst)
// and the query's scratch suffice. Errors: ErrArgs (wrong count or kind),
// ErrBudget (more rows visited than SetBudget's bound: dst[:0] is
// returned, the world is untouched).
func (q *Query) Run(dst []Value, args []Value) ([]Value, error) {
	dst = dst[:0]
	if err := q.checkArgs(args); err != nil {
		return dst, err
	}
	qa := q.args[:len(args)]
	//lint:ignore S1001 copy calls memmove, a cost for the one or two arguments of a point lookup
	for i := range args {
		qa[i] = args[i]
	}
	q.visited = 0
	if q.point {
		return q.runPoint(dst), nil
	}
	if q.set != nil {
		return q.runSet(dst)
	}
	limit := int64(-1)
	if q.limit != nil {
		if q.limit.k == schema.Int32 {
			limit = int64(q.limit.i32(0))
		} else {
			limit = q.limit.i64(0)
		}
		limit = max(limit, 0)
	}
	if q.countLen {
		n := I64(int64(q.bt.tb.Len()))
		for range q.cols {
			dst = append(dst, n)
		}
		return dst, nil
	}
	if len(q.groups) > 0 || len(q.aggs) > 0 {
		if err := q.runGroups(); err != nil {
			return dst, err
		}
		return q.emitGroups(dst, limit), nil
	}
	w := len(q.cols)
	if len(q.order) == 0 {
		// rows in scan order: collect straight into dst
		scratch := q.rows
		q.rows = dst[:0]
		err := q.collect(limit)
		dst, q.rows = q.rows, scratch
		if err != nil {
			return dst[:0], err
		}
		if len(q.wins) > 0 {
			q.fillWindows(dst, len(dst)/w, w)
			if limit >= 0 && int64(len(dst)/w) > limit {
				dst = dst[:int(limit)*w]
			}
		}
		return dst, nil
	}
	if limit >= 0 && len(q.wins) == 0 {
		if err := q.collectTop(limit); err != nil {
			return dst, err
		}
	} else {
		if err := q.collect(limit); err != nil {
			return dst, err
		}
		q.fillWindows(q.rows, len(q.perm), w)
		slices.SortStableFunc(q.perm, q.cmpFn)
	}
	n := len(q.perm)
	if limit >= 0 && int64(n) > limit {
		n = int(limit)
	}
	for _, p := range q.perm[:n] {
		dst = append(dst, q.rows[int(p)*w:int(p)*w+w]...)
	}
	return dst, nil
}

// runPoint is Run of a plain point lookup by handle (q.point): one Find,
// the where's other conjuncts, the items.
func (q *Query) runPoint(dst []Value) []Value {
	q.visited = 1
	r := q.bt.tb.Lease().Find(q.args[q.probe].Handle())
	if r < 0 || q.where != nil && !q.where(r) {
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, len(q.pointItems))[:n+len(q.pointItems)]
	out := dst[n:]
	for i := range q.pointItems {
		p := &q.pointItems[i]
		switch p.k {
		case schema.Int32:
			out[i] = I32(p.bc.i32[r])
		case schema.Int64:
			out[i] = I64(p.bc.i64[r])
		case schema.Float32:
			out[i] = F32(p.bc.f32[r])
		case schema.Float64:
			out[i] = F64(p.bc.f64[r])
		case schema.Bool:
			out[i] = Bool(p.bc.b[r])
		case schema.Ref:
			out[i] = Ref(p.bc.h[r])
		default:
			out[i] = p.val(r)
		}
	}
	return dst
}

// pointItem is a point lookup's select item: a column of the from row
// read in place (k its kind), or its closure (k 0).
type pointItem struct {
	k   schema.TypeKind
	bc  *boundColumn
	val func(int) Value
}

// checkArgs returns the ErrArgs *Error of args that are not q's
// parameters in number and kind, nil when they are (allocating nothing).
func (q *Query) checkArgs(args []Value) error {
	if len(args) != len(q.args) {
		return &Error{Kind: ErrArgs, Msg: fmt.Sprintf("runq: %s for %s", counted(len(args), "argument"), counted(len(q.args), "parameter"))}
	}
	for i := range args {
		if args[i].kind != q.args[i].kind {
			return &Error{Kind: ErrArgs, Msg: fmt.Sprintf("runq: argument %d (%s) is %s, want %v", i, q.def.Params[i].Name, kindName(args[i].kind), q.def.Params[i].Type)}
		}
	}
	return nil
}

// counted is n and noun, plural unless n is 1: "1 argument", "0 parameters".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// kindName is a Value's kind with its article: "an int64", "a float32",
// "an invalid Value" (the zero Value).
func kindName(k schema.TypeKind) string {
	if k == 0 {
		return "an invalid Value"
	}
	name := schema.Type{Kind: k}.String()
	if name[0] == 'i' {
		return "an " + name
	}
	return "a " + name
}

// scan calls fn for each live row of the from table passing the where (or
// the probe's row), in ascending index, until fn returns false; it counts
// the rows visited against the budget.
func (q *Query) scan(fn func(r int) bool) error {
	if len(q.exists) > 0 {
		if err := q.markExists(); err != nil {
			return err
		}
	}
	tb := q.bt.tb
	if q.probe >= 0 {
		q.visited = 1
		if r := tb.Lease().Find(q.args[q.probe].Handle()); r >= 0 && q.probeJoins(r) && (q.where == nil || q.where(r)) {
			fn(r)
		}
		return nil
	}
	cr := tb.ChunkRows()
	for c, nc := 0, tb.UsedChunks(); c < nc; c++ {
		mask, base := tb.Enabled(c), c*cr
		for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {
			q.visited += int64(hi - lo)
			if q.budget > 0 && q.visited > q.budget {
				return q.overBudget()
			}
			if q.uniq == nil && q.sel != nil {
				q.selBuf = q.sel.span(base+lo, base+hi, q.selBuf[:0])
				for _, r := range q.selBuf {
					if !fn(int(r)) {
						return nil
					}
				}
				continue
			}
			for r := base + lo; r < base+hi; r++ {
				if q.uniq != nil {
					if q.uniq(r) {
						if q.probeJoins(r) && (q.rest == nil || q.rest(r)) {
							fn(r)
						}
						return nil
					}
					continue
				}
				if len(q.joins) > 0 && !q.probeJoins(r) {
					continue
				}
				if (q.where == nil || q.where(r)) && !fn(r) {
					return nil
				}
			}
		}
	}
	return nil
}

// collect gathers the rows of an ungrouped query into q.rows (their
// order keys into q.keys, their positions into q.perm), distinct ones
// only for a distinct query, stopping at limit rows when there is no order
// by (limit < 0: none).
func (q *Query) collect(limit int64) error {
	q.rows, q.keys, q.perm, q.fromIdx = q.rows[:0], q.keys[:0], q.perm[:0], q.fromIdx[:0]
	if q.def.Distinct {
		if q.seen == nil {
			q.seen = map[[maxDistinct]uint64]struct{}{}
		}
		clear(q.seen)
	}
	if q.span.on && q.wins == nil {
		return q.collectSpans(limit)
	}
	early := limit >= 0 && len(q.order) == 0 && len(q.wins) == 0
	if early && limit == 0 {
		return nil
	}
	return q.scan(func(r int) bool {
		if q.after != nil && !q.isAfter(r) {
			return true
		}
		start := len(q.rows)
		for _, v := range q.vals {
			q.rows = append(q.rows, v(r))
		}
		if q.def.Distinct {
			var k [maxDistinct]uint64
			for i, v := range q.rows[start:] {
				k[i] = orderKey(v)
			}
			if _, dup := q.seen[k]; dup {
				q.rows = q.rows[:start]
				return true
			}
			q.seen[k] = struct{}{}
		}
		for _, o := range q.order {
			q.keys = append(q.keys, o.key(r))
		}
		if q.wins != nil {
			q.recordWindows(r)
		}
		if q.keepIndex {
			q.fromIdx = append(q.fromIdx, int32(r))
		}
		q.perm = append(q.perm, int32(len(q.perm)))
		return !early || int64(len(q.perm)) < limit
	})
}

// cmpRows orders two collected rows by their keys (the stable sort keeps
// ties in ascending index: the tie-break of Query results).
func (q *Query) cmpRows(a, b int32) int {
	n := len(q.order)
	return slices.Compare(q.keys[int(a)*n:int(a)*n+n], q.keys[int(b)*n:int(b)*n+n])
}

// orderKey is v's ordering key: integers by value, floats by the total
// order of Query results (-0 == +0, NaN last), bools false first, refs by
// index then generation. Equal keys are equal group keys and distinct
// values.
func orderKey(v Value) uint64 {
	switch v.kind {
	case schema.Int32:
		return uint64(uint32(v.Int32()) ^ 1<<31)
	case schema.Int64:
		return v.bits ^ 1<<63
	case schema.Float32:
		return uint64(tickwork.QueryFloatKey32(v.Float32()))
	case schema.Float64:
		return tickwork.QueryFloatKey64(v.Float64())
	case schema.Ref:
		return tickwork.QueryHandleKey(v.Handle())
	}
	return v.bits
}

// runGroups accumulates the rows into groups (one group, always present,
// for an aggregate-only query).
func (q *Query) runGroups() error {
	na := len(q.aggs)
	q.gstate, q.accs, q.perm = q.gstate[:0], q.accs[:0], q.perm[:0]
	q.gindex.reset(len(q.groups) == 1)
	if len(q.groups) == 0 {
		q.newGroup(group{})
	}
	if q.span.on {
		return q.runGroupsSpans()
	}
	return q.scan(func(r int) bool {
		g := int32(0)
		if len(q.groups) > 0 {
			var key [schema.MaxGroupKeys]uint64
			for i, x := range q.groups {
				key[i] = orderKey(x.value(r))
			}
			var slot int
			if g, slot = q.gindex.find(key); g < 0 {
				g = q.addGroup(key, slot, r)
			}
		}
		accs := q.accs[int(g)*na : int(g)*na+na]
		for i := range q.aggs {
			q.aggs[i].add(&accs[i], r)
		}
		return true
	})
}

// addGroup adds the group of key at slot (gindex.find's), its values
// those of row r (a float key's zero reported as +0).
func (q *Query) addGroup(key groupKey, slot, r int) int32 {
	gr := group{key: key}
	for i, x := range q.groups {
		v := x.value(r)
		if (v.kind == schema.Float32 || v.kind == schema.Float64) && key[i] == orderKey(Value{kind: v.kind}) {
			v = Value{kind: v.kind} // -0 and +0: one group, reported as +0
		}
		gr.value[i] = v
	}
	g := q.newGroup(gr)
	q.gindex.insert(key, g, slot)
	return g
}

func (q *Query) newGroup(g group) int32 {
	q.gstate = append(q.gstate, g)
	for range q.aggs {
		q.accs = append(q.accs, acc{})
	}
	q.perm = append(q.perm, int32(len(q.gstate)-1))
	return int32(len(q.gstate) - 1)
}

// better: v replaces the min (max false) or max m.
func better(isMax bool, v, m Value) bool {
	switch v.kind {
	case schema.Int32:
		return isMax && v.Int32() > m.Int32() || !isMax && v.Int32() < m.Int32()
	case schema.Int64:
		return isMax && v.Int64() > m.Int64() || !isMax && v.Int64() < m.Int64()
	case schema.Float32:
		x, y := v.Float32(), m.Float32()
		if isMax {
			return x > y || x != x && y == y
		}
		return x < y || y != y && x == x
	case schema.Float64:
		x, y := v.Float64(), m.Float64()
		if isMax {
			return x > y || x != x && y == y
		}
		return x < y || y != y && x == x
	}
	return false
}

// aggValue is aggregate i's result in group g.
func (q *Query) aggValue(g int32, i int) Value {
	a, s := &q.aggs[i], &q.accs[int(g)*len(q.aggs)+i]
	switch a.kind {
	case schema.Count:
		return I64(s.n)
	case schema.Sum:
		if a.t == schema.Int64 {
			return I64(s.i)
		}
		return F64(s.f)
	case schema.Avg:
		if s.n == 0 {
			return F64(0)
		}
		return F64(s.f / float64(s.n))
	}
	if !s.ok {
		return Value{kind: a.t}
	}
	return s.m
}

// groupKey is order key k's key for group g.
func (q *Query) groupKey(g int32, k *keySpec) uint64 {
	var v uint64
	switch {
	case k.group >= 0:
		v = q.gstate[g].key[k.group]
	case k.agg >= 0:
		v = orderKey(q.aggValue(g, k.agg))
	case q.itemAgg[k.item] >= 0:
		v = orderKey(q.aggValue(g, q.itemAgg[k.item]))
	default:
		v = q.gstate[g].key[q.itemGroup[k.item]]
	}
	if k.desc {
		v = ^v
	}
	return v
}

func (q *Query) cmpGroups(a, b int32) int {
	for i := range q.order {
		if c := cmp.Compare(q.groupKey(a, &q.order[i]), q.groupKey(b, &q.order[i])); c != 0 {
			return c
		}
	}
	return 0
}

// emitGroups sorts the groups (key order, then the order by, stable) and
// appends their rows.
func (q *Query) emitGroups(dst []Value, limit int64) []Value {
	if len(q.groups) > 0 {
		slices.SortFunc(q.perm, func(a, b int32) int {
			return slices.Compare(q.gstate[a].key[:], q.gstate[b].key[:])
		})
		if len(q.order) > 0 {
			slices.SortStableFunc(q.perm, q.gcmpFn)
		}
	}
	n := len(q.perm)
	if limit >= 0 && int64(n) > limit {
		n = int(limit)
	}
	for _, g := range q.perm[:n] {
		for i := range q.cols {
			switch {
			case q.itemAgg[i] >= 0:
				dst = append(dst, q.aggValue(g, q.itemAgg[i]))
			default:
				dst = append(dst, q.gstate[g].value[q.itemGroup[i]])
			}
		}
	}
	return dst
}

// isAfter reports whether row r's order key tuple comes strictly after
// the keyset page's values (docs/schema.md, Queries: after), each key in
// its direction.
func (q *Query) isAfter(r int) bool {
	for i, o := range q.order {
		k, a := o.key(r), q.after[i](r)
		if k != a {
			return k > a
		}
	}
	return false
}

func (q *Query) overBudget() error {
	return &Error{Kind: ErrBudget, Msg: fmt.Sprintf("runq: query visited %d rows, more than its budget of %d; raise it (SetBudget) or narrow the where", q.visited, q.budget)}
}

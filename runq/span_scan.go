package runq

import (
	"slices"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// spanState is what the span lane of a query keeps (compiled at Prepare,
// its scratch reused by every Run): docs/architecture.md, Run-time
// queries, how it runs.
type spanState struct {
	on    bool         // the query runs over spans: no join, probe or unique key lookup
	emits []emitter    // an ungrouped query's select items
	keys  []keyEmitter // an ungrouped query's order keys, desc applied
	gkeys []keyEmitter // the group keys' ordering keys
	adds  []spanAdder  // per aggregate
	rows  []int32      // a span's rows passing the where
	kv    []uint64     // order or group key vectors, spanRows per key
	gids  []int32      // a span's rows' groups
}

// compileSpans compiles the span lane of q (after its per-row closures):
// a query with a join, a point lookup or a unique key lookup keeps the
// per-row lane.
func (c *compiler) compileSpans(def *schema.Query) {
	q := c.q
	s := &q.span
	s.on = len(def.Joins) == 0 && q.probe < 0 && q.uniq == nil && (q.where == nil || q.sel != nil)
	if !s.on {
		return
	}
	s.rows = make([]int32, 0, spanRows)
	grouped := len(def.GroupBy) > 0 || len(def.Aggregates) > 0
	if !grouped {
		for i, x := range q.items {
			if def.Select[i].Win != nil {
				s.emits = append(s.emits, func(rows []int32, dst []Value, off, w int) {
					for j, r := range rows {
						dst[j*w+off] = x.value(int(r))
					}
				})
				continue
			}
			s.emits = append(s.emits, c.emitOf(def.Select[i].Expr, x))
		}
		for i, k := range def.OrderBy {
			e := k.Expr
			if k.Item >= 0 {
				e = def.Select[k.Item].Expr
			}
			s.keys = append(s.keys, c.keyOfSpan(e, q.order[i].x, q.order[i].desc))
		}
	}
	for i, g := range def.GroupBy {
		s.gkeys = append(s.gkeys, c.keyOfSpan(g, q.groups[i], false))
	}
	for i := range q.aggs {
		a := &q.aggs[i]
		var v *vex
		if a.x != nil {
			v = c.vexpr(def.Aggregates[i].X)
		}
		s.adds = append(s.adds, makeSpanAdder(a, v))
	}
	s.kv = make([]uint64, spanRows*max(len(s.keys), len(s.gkeys)))
	if len(s.gkeys) > 0 {
		s.gids = make([]int32, spanRows)
	}
}

// scanSpans calls fn with the rows of the from table passing the where,
// in ascending index, a span of at most spanRows rows at a time (the live
// rows of several runs and chunks gathered into one span), until fn
// returns false; it counts the rows visited against the budget per run of
// live rows, as scan does, and hands fn the rows gathered before a run
// that would pass the budget, so a Run ends (at its limit) or fails at
// the row lane's run.
func (q *Query) scanSpans(fn func(rows []int32) bool) error {
	if len(q.exists) > 0 {
		if err := q.markExists(); err != nil {
			return err
		}
	}
	tb := q.bt.tb
	cr := tb.ChunkRows()
	rows := q.span.rows[:0]
	for c, nc := 0, tb.UsedChunks(); c < nc; c++ {
		mask, base := tb.Enabled(c), c*cr
		for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {
			if q.budget > 0 && q.visited+int64(hi-lo) > q.budget {
				// the rows gathered so far first: a query the row lane ends
				// (a limit) before this run ends here too
				if len(rows) > 0 && !fn(rows) {
					return nil
				}
				q.visited += int64(hi - lo)
				return q.overBudget()
			}
			q.visited += int64(hi - lo)
			for a := base + lo; a < base+hi; {
				b := min(base+hi, a+spanRows-len(rows))
				if q.sel != nil {
					rows = q.sel.span(a, b, rows)
				} else {
					for r := a; r < b; r++ {
						rows = append(rows, int32(r))
					}
				}
				a = b
				if len(rows) == spanRows {
					if !fn(rows) {
						return nil
					}
					rows = rows[:0]
				}
			}
		}
	}
	if len(rows) > 0 {
		fn(rows)
	}
	return nil
}

// collectSpans is collect over spans (no window): a keyset page's test
// and the distinct set per row, as collect does, the items and keys over
// the span.
func (q *Query) collectSpans(limit int64) error {
	s := &q.span
	w, nk := len(q.items), len(s.keys)
	early := limit >= 0 && nk == 0
	if early && limit == 0 {
		return nil
	}
	return q.scanSpans(func(rows []int32) bool {
		if q.after != nil {
			rows = q.keepAfter(rows)
		}
		if early && !q.def.Distinct {
			rows = rows[:min(int64(len(rows)), limit-int64(len(q.perm)))]
		}
		n := len(rows)
		start := len(q.rows)
		q.rows = slices.Grow(q.rows, n*w)[:start+n*w]
		blk := q.rows[start:]
		for i, e := range s.emits {
			e(rows, blk, i, w)
		}
		if q.def.Distinct {
			rows = q.keepDistinct(rows, blk, w)
			if early {
				rows = rows[:min(int64(len(rows)), limit-int64(len(q.perm)))]
			}
			n = len(rows)
			q.rows = q.rows[:start+n*w]
		}
		if nk > 0 {
			ks := len(q.keys)
			q.keys = slices.Grow(q.keys, n*nk)[:ks+n*nk]
			kb := q.keys[ks:]
			for i, k := range s.keys {
				k(rows, kb, i, nk)
			}
		}
		if q.keepIndex {
			q.fromIdx = append(q.fromIdx, rows...)
		}
		for range rows {
			q.perm = append(q.perm, int32(len(q.perm)))
		}
		return !early || int64(len(q.perm)) < limit
	})
}

// keepTopCandidates keeps the rows (in place, in order) that a top-N
// offers to its heap: after the keyset page's values, and not in the
// distinct set yet (then added), as collectTop tests them.
func (q *Query) keepTopCandidates(rows []int32) []int32 {
	k := 0
	for _, r := range rows {
		if q.after != nil && !q.isAfter(int(r)) || q.def.Distinct && q.seenBefore(int(r)) {
			continue
		}
		rows[k] = r
		k++
	}
	return rows[:k]
}

// keepAfter keeps the rows (in place) whose order keys come after the
// keyset page's values (isAfter).
func (q *Query) keepAfter(rows []int32) []int32 {
	k := 0
	for _, r := range rows {
		rows[k] = r
		k += b2i(q.isAfter(int(r)))
	}
	return rows[:k]
}

// keepDistinct keeps the rows whose items (blk, w per row) are not in the
// distinct set yet, adding them, in order and in place (collect's test):
// the kept rows' items move to the front of blk.
func (q *Query) keepDistinct(rows []int32, blk []Value, w int) []int32 {
	m := 0
	for j, r := range rows {
		var k [maxDistinct]uint64
		for i, v := range blk[j*w : j*w+w] {
			k[i] = orderKey(v)
		}
		if _, dup := q.seen[k]; dup {
			continue
		}
		q.seen[k] = struct{}{}
		copy(blk[m*w:m*w+w], blk[j*w:j*w+w])
		rows[m] = r
		m++
	}
	return rows[:m]
}

// collectTopSpans is collectTop's scan over spans (a keyset page's test
// and the distinct set per row, first, as collectTop does):
// the first order key of a span's rows is computed as a vector, the
// others only for a row not worse than the worst kept on the first; a
// row's select items are built only when it enters the heap.
func (q *Query) collectTopSpans(limit int64, key []uint64) error {
	s := &q.span
	nk := len(s.keys)
	var n int64
	filter := q.after != nil || q.def.Distinct
	return q.scanSpans(func(rows []int32) bool {
		if filter {
			rows = q.keepTopCandidates(rows)
		}
		s.keys[0](rows, s.kv, 0, 1) // the first key as a vector; the others per candidate row
		full := int64(len(q.perm)) >= limit
		var worst uint64 // the root's first key, once full
		if full {
			worst = q.slotKey(q.perm[0])[0]
		}
		for j, r := range rows {
			n++
			if full && s.kv[j] > worst {
				continue // worse than the worst kept on the first key
			}
			key[0] = s.kv[j]
			for i := 1; i < nk; i++ {
				key[i] = q.order[i].key(int(r))
			}
			if full && slices.Compare(key, q.slotKey(q.perm[0])) >= 0 {
				continue // no better than the worst kept (a tie: the kept row is earlier)
			}
			q.offerTop(key, n, full, int(r))
			if full = int64(len(q.perm)) >= limit; full {
				worst = q.slotKey(q.perm[0])[0]
			}
		}
		return true
	})
}

// runGroupsSpans is runGroups' scan over spans: the group keys of a
// span's rows as vectors, then each row's group, then each aggregate over
// the span.
func (q *Query) runGroupsSpans() error {
	s := &q.span
	na, ng := len(q.aggs), len(q.groups)
	return q.scanSpans(func(rows []int32) bool {
		var gids []int32
		if ng > 0 {
			for i, k := range s.gkeys {
				k(rows, s.kv[i*spanRows:], 0, 1)
			}
			gids = s.gids[:len(rows)]
			t := &q.gindex
			for j, r := range rows {
				if t.based { // the direct window first (find's)
					if i := s.kv[j] - t.base; i < denseGroups {
						if g := t.dense[i] - 1; g >= 0 {
							gids[j] = g
							continue
						}
					}
				}
				var key groupKey
				for i := range ng {
					key[i] = s.kv[i*spanRows+j]
				}
				g, slot := q.gindex.find(key)
				if g < 0 {
					g = q.addGroup(key, slot, int(r))
				}
				gids[j] = g
			}
		}
		for i, add := range s.adds {
			add(q.accs[i:], na, gids, rows)
		}
		return true
	})
}

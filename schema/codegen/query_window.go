package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The window functions, keyset pagination and unique key lookups of the
// declared queries (docs/schema.md, Queries and Query results).
//
// A query with window functions collects its rows (into dst, into the
// query's rows buffer when it has a limit, or into its sort entries when it
// has an order by), each window's entries (its partition and order keys in
// ordering form and the row's position) beside them; after the loop each
// window sorts its entries (by partition, order keys, then position: the
// entity index, since rows come in ascending index) and walks them,
// numbering rows or adding its sum in that order, into the rows. A window
// whose keys are the query's order by (its trailing index(v), which is the
// tie-break, dropped from both) sorts nothing: it walks the query's sorted
// entries.

// winGen is the window state of a qGen.
type winGen struct {
	rows string   // the local of the rows buffer (a limit without order by)
	pos  string   // the local of the row's position
	ents []string // the locals of each window's entries ("" for a shared window)
}

// windowed: the query has window functions.
func (qg *qGen) windowed() bool { return len(qg.q.Windows) > 0 }

// winRowsBuf: the rows go into the query's rows buffer (a limit without an
// order by: dst never grows past its bound; or a packed sort).
func (qg *qGen) winRowsBuf() bool {
	return qg.windowed() && (len(qg.q.OrderBy) == 0 && qg.q.Limit != nil || qg.packed())
}

// packed: a windowed query whose order by is one key of at most 32 bits
// (int32, float32 or bool; a trailing index(v) is the tie-break) sorts
// packed keys, the key's ordering form above the row's position, as
// plain uint64s (no comparison function), and gathers its rows in that
// order; its shared windows have at most that key as their partition.
func (qg *qGen) packed() bool {
	q := qg.q
	if !qg.windowed() || len(q.OrderBy) == 0 || qg.topKeys() != 1 {
		return false
	}
	switch q.OrderBy[0].T.Kind {
	case schema.Int32, schema.Float32, schema.Bool:
	default:
		return false
	}
	for _, w := range q.Windows {
		if qg.shared(w) && len(w.Partition) > 1 {
			return false
		}
	}
	return true
}

// packedKey is the packed sort key of the current row at position pos.
func (qg *qGen) packedKey(pos string) string {
	k := qg.q.OrderBy[0]
	x := k.Expr
	if k.Item >= 0 {
		x = qg.q.Select[k.Item].Expr
	}
	c := qg.sg.code(x)
	var u string
	switch k.T.Kind {
	case schema.Int32:
		u = "uint32(" + c + ")^(1<<31)"
	case schema.Float32:
		u = "tickwork.QueryFloatKey32(" + c + ")"
	default:
		u = "uint32(tickwork.QueryBoolKey(" + c + "))"
	}
	if k.Desc {
		u = "^(" + u + ")"
	}
	return "uint64(" + u + ")<<32 | uint64(" + pos + ")"
}

// dense: window w sorts its entries by a bucket pass over the capacity
// of its one ref partition key's table (a counting sort by entity index,
// stable, then each bucket of several entries by the window's order), as
// a group by one ref key uses a dense array.
func (qg *qGen) dense(w *schema.Window) bool {
	return !qg.shared(w) && len(w.Partition) == 1 && w.Partition[0].Type().Kind == schema.Ref
}

// seqKey is one key of a sequence of ordering keys, as Go code.
type seqKey struct {
	code string
	desc bool
}

// trimIndex drops a trailing ascending index(v) of the from variable: the
// tie-break of every sequence.
func (qg *qGen) trimIndex(ks []seqKey, exprs []schema.Expr) []seqKey {
	if n := len(ks); n > 0 && !ks[n-1].desc {
		if ix, ok := exprs[n-1].(*schema.IndexOf); ok {
			if v, ok := ix.X.(*schema.VarRef); ok && v.Var == qg.q.From {
				return ks[:n-1]
			}
		}
	}
	return ks
}

// winOrder is window w's order keys without a trailing index(v).
func (qg *qGen) winOrder(w *schema.Window) []*schema.OrderKey {
	var ks []seqKey
	var xs []schema.Expr
	for _, k := range w.Order {
		ks = append(ks, seqKey{qg.sg.code(k.Expr), k.Desc})
		xs = append(xs, k.Expr)
	}
	return w.Order[:len(qg.trimIndex(ks, xs))]
}

// shared: window w's sequence (partition keys ascending, then its order
// keys) is the query's order by, so it walks the query's sorted entries.
func (qg *qGen) shared(w *schema.Window) bool {
	q := qg.q
	if len(q.OrderBy) == 0 {
		return false
	}
	var ws []seqKey
	for _, p := range w.Partition {
		ws = append(ws, seqKey{qg.sg.code(p), false})
	}
	for _, k := range qg.winOrder(w) {
		ws = append(ws, seqKey{qg.sg.code(k.Expr), k.Desc})
	}
	var qs []seqKey
	var xs []schema.Expr
	for _, k := range q.OrderBy {
		x := k.Expr
		if k.Item >= 0 {
			x = q.Select[k.Item].Expr
		}
		qs = append(qs, seqKey{qg.sg.code(x), k.Desc})
		xs = append(xs, x)
	}
	qs = qg.trimIndex(qs, xs)
	if len(qs) != len(ws) {
		return false
	}
	for i := range qs {
		if qs[i] != ws[i] {
			return false
		}
	}
	return true
}

// windowFields adds the window scratch to the query type's fields.
func (qg *qGen) windowFields() {
	for _, w := range qg.q.Windows {
		if !qg.shared(w) {
			qg.fields = append(qg.fields, field{fmt.Sprintf("w%d", w.Index), fmt.Sprintf("[]%sW%d", qg.lower, w.Index), "the entries of window " + fmt.Sprint(w.Index)})
		}
		if qg.dense(w) {
			qg.fields = append(qg.fields, field{fmt.Sprintf("w%dTmp", w.Index), fmt.Sprintf("[]%sW%d", qg.lower, w.Index), "the bucket pass's output"},
				field{fmt.Sprintf("w%dCount", w.Index), "[]int32", "entries per entity index of the partition key (the last: any index past the capacity), zero between runs"})
		}
	}
	if qg.winRowsBuf() {
		qg.fields = append(qg.fields, field{"rows", "[]" + qg.rowType(), "the rows, in scan order"})
	}
	if qg.packed() {
		qg.fields = append(qg.fields, field{"keys", "[]uint64", "the packed sort keys: order key, position"})
	}
}

// windowTypes writes each window's entry type.
func (qg *qGen) windowTypes() {
	g := qg.g
	for _, w := range qg.q.Windows {
		if qg.shared(w) {
			continue
		}
		g.p("// %sW%d is a row's entry in window %d of query %s: its partition and", qg.lower, w.Index, w.Index, qg.q.Name)
		g.p("// order keys in ordering form, and its position in the rows.")
		g.p("type %sW%d struct {", qg.lower, w.Index)
		for i, p := range w.Partition {
			_, t := keyForm("", p.Type())
			g.p("p%d %s", i, t)
		}
		for i, k := range qg.winOrder(w) {
			_, t := keyForm("", k.T)
			g.p("o%d %s", i, t)
		}
		g.p("pos int32")
		g.p("}")
		g.p("")
	}
}

// windowReset declares the window locals before the loop.
func (qg *qGen) windowReset() {
	g, q := qg.g, qg.q
	qg.win = &winGen{pos: qg.loc.name("pos")}
	switch {
	case qg.packed():
		g.p("keys := q.keys[:0]")
	case len(q.OrderBy) > 0:
		g.p("ents := q.ents[:0]")
	}
	if qg.winRowsBuf() {
		qg.win.rows = qg.loc.name("rows")
		g.p("%s := q.rows[:0]", qg.win.rows)
	}
	for _, w := range q.Windows {
		n := ""
		if !qg.shared(w) {
			n = qg.loc.name(fmt.Sprintf("w%d", w.Index))
			g.p("%s := q.w%d[:0]", n, w.Index)
		}
		qg.win.ents = append(qg.win.ents, n)
	}
}

// winInit is a window item's value in the row before the walk: a running
// sum's term (the walk adds them up in place), nothing for a row number.
func (qg *qGen) winInit(w *schema.Window) string {
	if w.Kind == schema.RowNumber {
		return ""
	}
	return goType(w.T) + "(" + qg.sg.code(w.X) + ")"
}

// sinkWindow appends the row and its window entries.
func (qg *qGen) sinkWindow() {
	g, q := qg.g, qg.q
	own := false
	for _, n := range qg.win.ents {
		own = own || n != ""
	}
	buf := "dst"
	switch {
	case qg.winRowsBuf():
		buf = qg.win.rows
	case len(q.OrderBy) > 0:
		buf = "ents"
	}
	if own || qg.packed() {
		g.p("%s := int32(len(%s))", qg.win.pos, buf)
	}
	if qg.packed() {
		g.p("keys = append(keys, %s)", qg.packedKey(qg.win.pos))
	}
	if len(q.OrderBy) > 0 && !qg.packed() {
		g.p("ents = append(ents, %s)", qg.entLit(true))
	} else {
		g.p("%s = append(%s, %s)", buf, buf, qg.rowLit())
	}
	for wi, w := range q.Windows {
		n := qg.win.ents[wi]
		if n == "" {
			continue
		}
		var parts []string
		for i, p := range w.Partition {
			x, _ := keyForm(qg.sg.code(p), p.Type())
			parts = append(parts, fmt.Sprintf("p%d: %s", i, x))
		}
		for i, k := range qg.winOrder(w) {
			x, _ := keyForm(qg.sg.code(k.Expr), k.T)
			parts = append(parts, fmt.Sprintf("o%d: %s", i, x))
		}
		parts = append(parts, "pos: "+qg.win.pos)
		g.p("%s = append(%s, %sW%d{%s})", n, n, qg.lower, w.Index, strings.Join(parts, ", "))
	}
}

// finishWindow sorts and walks each window, then returns the rows in the
// query's order.
func (qg *qGen) finishWindow() {
	g, q := qg.g, qg.q
	at := func(pos string) string {
		switch {
		case qg.winRowsBuf():
			return qg.win.rows + "[" + pos + "]"
		case len(q.OrderBy) > 0:
			return "ents[" + pos + "].row"
		}
		return "dst[" + pos + "]"
	}
	for wi, w := range q.Windows {
		n := qg.win.ents[wi]
		if n == "" {
			continue
		}
		if qg.dense(w) {
			qg.denseSort(w, n)
		} else {
			g.p("slices.SortFunc(%s, %sW%dOrder)", n, qg.lower, w.Index)
		}
		var same []string
		for i := range w.Partition {
			same = append(same, fmt.Sprintf("e.p%d != %s[i-1].p%d", i, n, i))
		}
		qg.winWalk(w, n, same, at("e.pos"))
		g.p("q.w%d = %s", w.Index, n)
	}
	switch {
	case qg.packed():
		qg.packedFinish()
	case len(q.OrderBy) > 0:
		g.p("q.ents = ents")
		g.p("slices.SortFunc(ents, %sOrder)", qg.lower)
		for _, w := range q.Windows {
			if !qg.shared(w) {
				continue
			}
			var same []string
			for i := range w.Partition {
				same = append(same, fmt.Sprintf("e.k%d != ents[i-1].k%d", i, i))
			}
			qg.winWalk(w, "ents", same, "e.row")
		}
		src := "ents"
		if q.Limit != nil {
			src = "ents[:min(len(ents), bound)]"
		}
		g.p("for i := range %s {", src)
		g.p("dst = append(dst, ents[i].row)")
		g.p("}")
	case qg.winRowsBuf():
		g.p("q.rows = %s", qg.win.rows)
		g.p("dst = append(dst, %s[:min(len(%s), bound)]...)", qg.win.rows, qg.win.rows)
	}
	g.p("return dst")
}

// winWalk writes the walk of window w over the sorted entries xs (e is
// the entry; same lists the tests that the partition changed; row is the
// result row of e).
func (qg *qGen) winWalk(w *schema.Window, xs string, same []string, row string) {
	g := qg.g
	it := qg.q.Select[w.Item]
	acc := qg.loc.name(fmt.Sprintf("acc%d", w.Index))
	g.p("var %s %s", acc, goType(w.T))
	g.p("for i := range %s {", xs)
	g.p("e := &%s[i]", xs)
	if len(same) > 0 {
		g.p("if i > 0 && (%s) {", strings.Join(same, " || "))
		g.p("%s = 0 // a new partition", acc)
		g.p("}")
	}
	if w.Kind == schema.RowNumber {
		g.p("%s++", acc)
	} else {
		// Added in the window's order, one rounding a row (ROWS UNBOUNDED
		// PRECEDING): the row holds its term.
		g.p("%s += %s.%s", acc, row, it.Name)
	}
	g.p("%s.%s = %s", row, it.Name, acc)
	g.p("}")
}

// windowHelpers writes each window's entry order (and a keyset page's
// heap move).
func (qg *qGen) windowHelpers() {
	g, q := qg.g, qg.q
	qg.keysetHelpers()
	for _, w := range q.Windows {
		if qg.shared(w) {
			continue
		}
		g.p("// %sW%dOrder orders the entries of window %d of query %s: its", qg.lower, w.Index, w.Index, q.Name)
		g.p("// partition keys, its order keys, then the position (the entity index).")
		g.p("func %sW%dOrder(a, b %sW%d) int {", qg.lower, w.Index, qg.lower, w.Index)
		cmp := func(f string, desc bool) {
			lt, gt := "-1", "1"
			if desc {
				lt, gt = "1", "-1"
			}
			g.p("if a.%s != b.%s {", f, f)
			g.p("if a.%s < b.%s {", f, f)
			g.p("return %s", lt)
			g.p("}")
			g.p("return %s", gt)
			g.p("}")
		}
		for i := range w.Partition {
			cmp(fmt.Sprintf("p%d", i), false)
		}
		for i, k := range qg.winOrder(w) {
			cmp(fmt.Sprintf("o%d", i), k.Desc)
		}
		g.p("return int(a.pos - b.pos)")
		g.p("}")
		g.p("")
	}
}

// windowPlan is the plan's part for the windows.
func (qg *qGen) windowPlan() []string {
	var parts []string
	for _, w := range qg.q.Windows {
		it := qg.q.Select[w.Item]
		var ks []string
		if len(w.Partition) > 0 {
			var ps []string
			for _, p := range w.Partition {
				ps = append(ps, keyName(p))
			}
			ks = append(ks, "partition by "+strings.Join(ps, ", "))
		}
		if len(w.Order) > 0 {
			var os []string
			for _, k := range w.Order {
				dir := "asc"
				if k.Desc {
					dir = "desc"
				}
				os = append(os, keyName(k.Expr)+" "+dir)
			}
			ks = append(ks, "order by "+strings.Join(os, ", "))
		}
		how := "sort its entries by (partition, order, index), then walk"
		if qg.dense(w) {
			t := w.Partition[0].Type().Table
			owner := "table " + t.Name
			if t.Domain != nil {
				owner = "domain " + t.Domain.Name
			}
			how = "a bucket pass over the capacity of " + owner + ", then each bucket sorted by (partition, order, index); walk"
		}
		if qg.shared(w) {
			how = "walk the sorted result (its keys are the order by's)"
		}
		parts = append(parts, fmt.Sprintf("window %s %s() over (%s): %s", it.Name, w.Kind, strings.Join(ks, " "), how))
	}
	return parts
}

// keyName names a key expression in a plan.
func keyName(x schema.Expr) string {
	switch x := x.(type) {
	case *schema.ColRef:
		return goCol(x.Column)
	case *schema.IndexOf:
		return "index"
	}
	return "key"
}

// afterCond is the test that the row's order keys come after the values
// of q.After, in the order by's order (each key in its direction).
func (qg *qGen) afterCond() string {
	q := qg.q
	cond := ""
	for i := len(q.OrderBy) - 1; i >= 0; i-- {
		k := q.OrderBy[i]
		x := k.Expr
		if k.Item >= 0 {
			x = q.Select[k.Item].Expr
		}
		row, _ := keyForm(qg.sg.code(x), k.T)
		cur := qg.after[i]
		op := ">"
		if k.Desc {
			op = "<"
		}
		if cond == "" {
			cond = fmt.Sprintf("%s %s %s", row, op, cur)
			continue
		}
		cond = fmt.Sprintf("%s %s %s || %s == %s && (%s)", row, op, cur, row, cur, cond)
	}
	return cond
}

// afterLocals declares the after values in ordering form (a packed
// keyset page reads them in its cursor).
func (qg *qGen) afterLocals() {
	if qg.packedKeyset() {
		return
	}
	for i, x := range qg.q.After {
		v, _ := keyForm(qg.sg.code(x), qg.q.OrderBy[i].T)
		n := qg.loc.name(fmt.Sprintf("after%d", i))
		qg.after = append(qg.after, n)
		qg.g.p("%s := %s", n, v)
	}
}

// uniqueOpen opens the block of the row whose unique key matches.
func (qg *qGen) uniqueOpen() int {
	qg.g.p("if %s {", qg.sg.code(qg.q.Unique.Cond))
	qg.closers++
	return qg.closers
}

// uniqueClose closes the blocks opened inside the unique key's block,
// then returns: no other row holds the key.
func (qg *qGen) uniqueClose(at int) {
	for ; qg.closers > at; qg.closers-- {
		qg.g.p("}")
	}
	qg.g.p("return dst")
}

// topKeys is the number of order keys a top-N compares before the
// position: a trailing index(v) ascending is the position's order.
func (qg *qGen) topKeys() int {
	var ks []seqKey
	var xs []schema.Expr
	for _, k := range qg.q.OrderBy {
		x := k.Expr
		if k.Item >= 0 {
			x = qg.q.Select[k.Item].Expr
		}
		ks = append(ks, seqKey{"", k.Desc})
		xs = append(xs, x)
	}
	return len(qg.trimIndex(ks, xs))
}

// afterText names the after values in a plan.
func (qg *qGen) afterText() string {
	var vs []string
	for _, x := range qg.q.After {
		switch x := x.(type) {
		case *schema.ParamRef:
			vs = append(vs, x.Param.Name)
		case *schema.Lit:
			vs = append(vs, x.Value.String())
		default:
			vs = append(vs, "value")
		}
	}
	return strings.Join(vs, ", ")
}

// keysetTopN: a keyset page with a limit, whose heap moves are out of
// line (keysetSink, keysetOffer).
func (qg *qGen) keysetTopN() bool { return qg.q.After != nil && qg.q.Limit != nil && !qg.walked() }

// keysetSink offers the row to the page's bounded heap: a row whose first
// key is no better than the worst kept is rejected in line (as
// sinkTopN), the heap's moves are one call (the row loop then keeps the
// after values and its spans in registers).
func (qg *qGen) keysetSink() {
	g, q := qg.g, qg.q
	if qg.packedKeyset() {
		qg.packedKeysetSink()
		return
	}
	k0 := qg.loc.name("k0")
	first := q.OrderBy[0]
	x := first.Expr
	if first.Item >= 0 {
		x = q.Select[first.Item].Expr
	}
	kx, _ := keyForm(qg.sg.code(x), first.T)
	op := "<"
	if first.Desc {
		op = ">"
	}
	if qg.topKeys() > 1 {
		op += "="
	}
	g.p("if %s := %s; len(ents) < bound || %s %s worst {", k0, kx, k0, op)
	g.p("ents, worst = %sOffer(ents, bound, %s)", qg.lower, qg.entLit(true))
	g.p("}")
}

// keysetHelpers writes the page's heap move.
func (qg *qGen) keysetHelpers() {
	if !qg.keysetTopN() {
		return
	}
	g := qg.g
	if qg.packedKeyset() {
		_, t := keyForm("", qg.q.OrderBy[0].T)
		u := "uint32(k0)"
		if qg.q.OrderBy[0].T.Kind == schema.Int32 {
			u = "uint32(k0) ^ (1 << 31)"
		}
		if qg.q.OrderBy[0].Desc {
			u = "^(" + u + ")"
		}
		g.p("// %sPack is a row's packed page key: its order key's ordering form", qg.lower)
		g.p("// (reversed when desc) above its position plus one.")
		g.p("func %sPack(k0 %s, ord int32) uint64 { return uint64(%s)<<32 | (uint64(ord) + 1) }", qg.lower, t, u)
		g.p("")
	}
	ent, cmp := qg.lower+"Ent", qg.lower+"Cmp"
	_, t := keyForm("", qg.q.OrderBy[0].T)
	g.p("// %sOffer adds e to the bounded max-heap ents (its root the worst row", qg.lower)
	g.p("// kept), replacing the root when the heap is full and e is better; it")
	g.p("// returns the heap and its root's first key.")
	g.p("func %sOffer(ents []%s, bound int, e %s) ([]%s, %s) {", qg.lower, ent, ent, ent, t)
	g.p("if len(ents) < bound {")
	g.p("ents = append(ents, e)")
	g.p("for j := len(ents) - 1; j > 0; {")
	g.p("p := (j - 1) / 2")
	g.p("if %s(&ents[j], &ents[p]) <= 0 {", cmp)
	g.p("break")
	g.p("}")
	g.p("ents[j], ents[p] = ents[p], ents[j]")
	g.p("j = p")
	g.p("}")
	g.p("return ents, ents[0].k0")
	g.p("}")
	g.p("if %s(&e, &ents[0]) >= 0 {", cmp)
	g.p("return ents, ents[0].k0")
	g.p("}")
	g.p("ents[0] = e")
	siftDown(g, cmp)
	g.p("return ents, ents[0].k0")
	g.p("}")
	g.p("")
}

// packedFinish sorts the packed keys and gathers the rows in their order,
// walking the shared windows on the way (with a limit, up to the bound:
// the walk is in the result's order).
func (qg *qGen) packedFinish() {
	g, q := qg.g, qg.q
	rows := qg.win.rows
	g.p("q.rows, q.keys = %s, keys", rows)
	g.p("slices.Sort(keys)")
	src := "keys"
	if q.Limit != nil {
		src = "keys[:min(len(keys), bound)]"
	}
	var shared []*schema.Window
	var accs []string
	for _, w := range q.Windows {
		if qg.shared(w) {
			shared = append(shared, w)
			acc := qg.loc.name(fmt.Sprintf("acc%d", w.Index))
			accs = append(accs, acc)
			g.p("var %s %s", acc, goType(w.T))
		}
	}
	iv := "_"
	if slices.ContainsFunc(shared, func(w *schema.Window) bool { return len(w.Partition) > 0 }) {
		iv = "i"
	}
	g.p("for %s, k := range %s {", iv, src)
	g.p("r := &%s[uint32(k)]", rows)
	for i, w := range shared {
		it := q.Select[w.Item]
		if len(w.Partition) > 0 {
			g.p("if i > 0 && k>>32 != keys[i-1]>>32 {")
			g.p("%s = 0 // a new partition", accs[i])
			g.p("}")
		}
		if w.Kind == schema.RowNumber {
			g.p("%s++", accs[i])
		} else {
			g.p("%s += r.%s // added in the window's order, one rounding a row", accs[i], it.Name)
		}
		g.p("r.%s = %s", it.Name, accs[i])
	}
	g.p("dst = append(dst, *r)")
	g.p("}")
}

// windowInit makes the dense windows' counts in the constructors.
func (qg *qGen) windowInit() {
	for _, w := range qg.q.Windows {
		if qg.dense(w) {
			qg.g.p("q.w%dCount = make([]int32, %s.Cap()+1)", w.Index, tableRef(w.Partition[0].Type().Table))
		}
	}
}

// denseSort writes the bucket pass of dense window w over its entries n:
// count per entity index, prefix sums (O(capacity)), a stable scatter,
// then a sort of each bucket holding several entries (two generations of
// one index, or one partition's rows), by the window's order.
func (qg *qGen) denseSort(w *schema.Window, n string) {
	g := qg.g
	i := w.Index
	cnt, tmp := qg.loc.name(fmt.Sprintf("cnt%d", i)), qg.loc.name(fmt.Sprintf("tmp%d", i))
	bucket := func(e string) string { return fmt.Sprintf("min(int(%s.p0>>32), len(%s)-1)", e, cnt) }
	g.p("if len(%s) > 1 {", n)
	g.p("%s := q.w%dCount", cnt, i)
	g.p("for i := range %s {", n)
	g.p("%s[%s]++", cnt, bucket(n+"[i]"))
	g.p("}")
	g.p("var start int32")
	g.p("for b, c := range %s {", cnt)
	g.p("%s[b] = start", cnt)
	g.p("start += c")
	g.p("}")
	g.p("%s := q.w%dTmp[:0]", tmp, i)
	g.p("if cap(%s) < len(%s) {", tmp, n)
	g.p("%s = make([]%sW%d, 0, cap(%s))", tmp, qg.lower, i, n)
	g.p("}")
	g.p("%s = %s[:len(%s)]", tmp, tmp, n)
	g.p("for i := range %s {", n)
	g.p("b := %s", bucket(n+"[i]"))
	g.p("%s[%s[b]] = %s[i]", tmp, cnt, n)
	g.p("%s[b]++", cnt)
	g.p("}")
	g.p("clear(%s)", cnt)
	g.p("for lo := 0; lo < len(%s); {", tmp)
	g.p("hi, b := lo+1, %s", bucket(tmp+"[lo]"))
	g.p("for hi < len(%s) && %s == b {", tmp, bucket(tmp+"[hi]"))
	g.p("hi++")
	g.p("}")
	g.p("if hi-lo > 1 {")
	g.p("slices.SortFunc(%s[lo:hi], %sW%dOrder)", tmp, qg.lower, i)
	g.p("}")
	g.p("lo = hi")
	g.p("}")
	g.p("%s, q.w%dTmp = %s, %s", n, i, tmp, n)
	g.p("}")
}

// packedKeyset: a keyset page with a limit ordered by one key of at most
// 32 bits (int32, float32, bool), alone or then index(v) ascending: a row's
// key and position pack into one uint64 in the page's order, so the test
// "after the cursor and better than the heap's worst" is one unsigned
// range check, a branch that is almost never taken (a key test and a heap
// test were two, the first as unpredictable as the data).
func (qg *qGen) packedKeyset() bool {
	q := qg.q
	if !qg.keysetTopN() || qg.topKeys() != 1 {
		return false
	}
	switch q.OrderBy[0].T.Kind {
	case schema.Int32, schema.Float32, schema.Bool:
		return true
	}
	return false
}

// packedKeysetReset declares the page's heap and its bounds: cur, the
// cursor's packed key; lim, the heap root's once the heap is full (all
// ones until then).
func (qg *qGen) packedKeysetReset() {
	g, q := qg.g, qg.q
	g.p("ents := q.ents[:0]")
	g.p("if cap(ents) < bound {")
	g.p("ents = make([]%sEnt, 0, bound)", qg.lower)
	g.p("}")
	k0, _ := keyForm(qg.sg.code(q.After[0]), q.OrderBy[0].T)
	if len(q.OrderBy) == 2 {
		// after (k, ix): the rows of key k past index ix (a negative ix:
		// all of them).
		g.p("cur := %sPack(%s, 0) - 1 + uint64(max(int64(%s)+1, 0))", qg.lower, k0, qg.sg.code(q.After[1]))
	} else {
		g.p("cur := %sPack(%s, 0) | 0xFFFFFFFF // every row of the cursor's key is not after it", qg.lower, k0)
		g.p("if cur == ^uint64(0) {")
		g.p("return dst // no key comes after the greatest")
		g.p("}")
	}
	g.p("lim := ^uint64(0)")
}

// packedKeysetSink offers a row whose packed key lies strictly between
// the cursor and the heap's worst.
func (qg *qGen) packedKeysetSink() {
	g, q := qg.g, qg.q
	first := q.OrderBy[0]
	x := first.Expr
	if first.Item >= 0 {
		x = q.Select[first.Item].Expr
	}
	kx, _ := keyForm(qg.sg.code(x), first.T)
	u := qg.loc.name("u")
	g.p("if %s := %sPack(%s, %s); %s-cur-1 < lim-cur-1 {", u, qg.lower, kx, qg.ord, u)
	g.p("ents, _ = %sOffer(ents, bound, %s)", qg.lower, qg.entLit(true))
	g.p("if len(ents) == bound {")
	g.p("lim = %sPack(ents[0].k0, ents[0].ord)", qg.lower)
	g.p("}")
	g.p("}")
}

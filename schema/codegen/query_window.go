package codegen

import (
	"fmt"
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
// order by: dst never grows past its bound).
func (qg *qGen) winRowsBuf() bool {
	return qg.windowed() && len(qg.q.OrderBy) == 0 && qg.q.Limit != nil
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
	}
	if qg.winRowsBuf() {
		qg.fields = append(qg.fields, field{"rows", "[]" + qg.rowType(), "the rows, numbered before the limit"})
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
	if len(q.OrderBy) > 0 {
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
	case len(q.OrderBy) > 0:
		buf = "ents"
	case qg.winRowsBuf():
		buf = qg.win.rows
	}
	if own {
		g.p("%s := int32(len(%s))", qg.win.pos, buf)
	}
	if len(q.OrderBy) > 0 {
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
		case len(q.OrderBy) > 0:
			return "ents[" + pos + "].row"
		case qg.winRowsBuf():
			return qg.win.rows + "[" + pos + "]"
		}
		return "dst[" + pos + "]"
	}
	for wi, w := range q.Windows {
		n := qg.win.ents[wi]
		if n == "" {
			continue
		}
		g.p("slices.SortFunc(%s, %sW%dOrder)", n, qg.lower, w.Index)
		var same []string
		for i := range w.Partition {
			same = append(same, fmt.Sprintf("e.p%d != %s[i-1].p%d", i, n, i))
		}
		qg.winWalk(w, n, same, at("e.pos"))
		g.p("q.w%d = %s", w.Index, n)
	}
	switch {
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

// afterLocals declares the after values in ordering form.
func (qg *qGen) afterLocals() {
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
func (qg *qGen) keysetTopN() bool { return qg.q.After != nil && qg.q.Limit != nil }

// keysetSink offers the row to the page's bounded heap: a row whose first
// key is no better than the worst kept is rejected in line (as
// sinkTopN), the heap's moves are one call (the row loop then keeps the
// after values and its spans in registers).
func (qg *qGen) keysetSink() {
	g, q := qg.g, qg.q
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
	g.p("for j := 0; ; {")
	g.p("l := 2*j + 1")
	g.p("if l >= len(ents) {")
	g.p("break")
	g.p("}")
	g.p("if r := l + 1; r < len(ents) && %s(&ents[r], &ents[l]) > 0 {", cmp)
	g.p("l = r")
	g.p("}")
	g.p("if %s(&ents[l], &ents[j]) <= 0 {", cmp)
	g.p("break")
	g.p("}")
	g.p("ents[j], ents[l] = ents[l], ents[j]")
	g.p("j = l")
	g.p("}")
	g.p("return ents, ents[0].k0")
	g.p("}")
	g.p("")
}

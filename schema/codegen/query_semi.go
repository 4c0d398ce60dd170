package codegen

import (
	"fmt"
	"go/constant"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// Semi-/anti-joins and set operations of declared queries (docs/schema.md,
// Queries: "exists" and "Set operations"; the order: Query results).
//
// An exists subquery is one marking pass before the outer scan: the
// subquery's table is scanned, and each row that passes its conditions
// sets the bit of the outer row its ref finds (a generation-checked
// Lease.Find) in a bitmap over the outer table's capacity, made at NewQ
// and cleared per Run; the outer where tests the bit.
//
// A set operation is either one scan (SetOp.Fused: both sides are one
// table's rows, so the filters combine: a || b, a && b, a && !b) or two
// side types, each a filter-and-projection run into a scratch slice of
// (from-row index, row), merged by that index with a set of the rows.

// semName is the prefix of exists subquery i's fields.
func semName(i int) string { return fmt.Sprintf("sem%d", i) }

// semiFields lists the fields of the query's exists subqueries.
func (qg *qGen) semiFields() {
	for _, ex := range qg.q.Exists {
		n := semName(ex.Index)
		qg.fields = append(qg.fields, field{n, "[]uint64", "the " + ex.Outer.Table.Name + " rows exists #" + fmt.Sprint(ex.Index+1) + " marks, a bit per row"},
			field{n + "tb", "*tickwork.Table", ex.Table.Name + ", the subquery's table"})
		for _, k := range ex.Uses {
			qg.fields = append(qg.fields, field{n + goCol(k), "[]" + goType(k.Type), k.Table.Name + "." + k.Name})
		}
	}
}

// semiInit writes the constructor's part for the exists subqueries.
func (qg *qGen) semiInit(declared bool) {
	for _, ex := range qg.q.Exists {
		n := semName(ex.Index)
		qg.g.p("q.%s = make([]uint64, (%s.Cap()+63)/64)", n, tableRef(ex.Outer.Table))
		qg.g.p("q.%stb = %s", n, tableRef(ex.Table))
		for _, k := range ex.Uses {
			if declared {
				qg.g.p("q.%s%s = tickwork.Read(d, %s).All()", n, goCol(k), columnRef(k))
			} else {
				qg.g.p("q.%s%s = %s.All()", n, goCol(k), columnRef(k))
			}
		}
	}
}

// semiMarks writes the marking pass of each exists subquery, and sets the
// environment of the outer where's tests.
func (qg *qGen) semiMarks() {
	g, sg := qg.g, qg.sg
	for _, ex := range qg.q.Exists {
		n := semName(ex.Index)
		mk := qg.loc.name("marks")
		g.p("%s := q.%s // a local: the loops keep it in registers", mk, n)
		g.p("clear(%s)", mk)
		g.p("{ // exists #%d: mark the %s rows some %s row refers to", ex.Index+1, ex.Outer.Table.Name, ex.Table.Name)
		into := qg.loc.name("into")
		g.p("%s := q.tb.Lease()", into)
		var made []string
		if ex.Where != nil {
			walk(ex.Where, func(e schema.Expr) {
				h, ok := e.(*schema.Has)
				if !ok || sg.env["lease:"+h.Table.Name] != "" {
					return
				}
				l := qg.loc.name(unexported(h.Table.Name) + "Lease")
				g.p("%s := q.t.%s.Table.Lease()", l, exported(h.Table.Name))
				sg.env["lease:"+h.Table.Name] = l
				made = append(made, "lease:"+h.Table.Name)
			})
		}
		v := ex.Var
		cr, c, nc, mask, base, lo, hi, i, r := qg.loc.name("cr"), qg.loc.name("c"), qg.loc.name("nc"), qg.loc.name("mask"),
			qg.loc.name("base"), qg.loc.name("lo"), qg.loc.name("hi"), qg.loc.name("i"), qg.loc.name("r")
		tb := "q." + n + "tb"
		g.p("%s := %s.ChunkRows()", cr, tb)
		g.p("for %s, %s := 0, %s.UsedChunks(); %s < %s; %s++ {", c, nc, tb, c, nc, c)
		g.p("%s, %s := %s.Enabled(%s), %s*%s", mask, base, tb, c, c, cr)
		g.p("for %s, %s := tickwork.NextRun(%s, 0); %s < %s; %s, %s = tickwork.NextRun(%s, %s) {", lo, hi, mask, lo, hi, lo, hi, mask, hi)
		var first string
		var lhs, rhs []string
		for _, k := range ex.Uses {
			s := qg.loc.name(unexported(v.Name) + goCol(k) + "s")
			key := "col:" + v.Name + "." + k.Name
			sg.env[key] = s + "[" + i + "]"
			made = append(made, key)
			if first == "" {
				first = s
				g.p("%s := q.%s%s[%s+%s : %s+%s]", s, n, goCol(k), base, lo, base, hi)
				continue
			}
			lhs = append(lhs, s)
			rhs = append(rhs, fmt.Sprintf("q.%s%s[%s+%s : %s+%s][:len(%s)]", n, goCol(k), base, lo, base, hi, first))
		}
		if len(lhs) > 0 {
			g.defs(lhs, rhs)
		}
		sg.env["handle:"+v.Name] = fmt.Sprintf("tickwork.QueryHandle(%s, %s+%s+%s)", tb, base, lo, i)
		made = append(made, "handle:"+v.Name)
		g.p("for %s := range %s {", i, first)
		if ex.Where != nil {
			g.p("if %s {", sg.code(ex.Where))
		}
		g.p("if %s := %s.Find(%s); %s >= 0 {", r, into, sg.env["col:"+v.Name+"."+ex.Via.Name], r)
		g.p("%s[%s>>6] |= 1 << (%s & 63)", mk, r, r)
		g.p("}")
		if ex.Where != nil {
			g.p("}")
		}
		g.p("}")
		g.p("}")
		g.p("}")
		g.p("}")
		for _, k := range made {
			delete(sg.env, k)
		}
		sg.env[fmt.Sprintf("exists:%d", ex.Index)] = fmt.Sprintf("%s[row>>6]>>(row&63)&1 != 0", mk)
	}
}

// semiPlan is the plan's part for the exists subqueries.
func (qg *qGen) semiPlan() []string {
	var out []string
	for _, ex := range qg.q.Exists {
		kind := "semi-join"
		if negated(qg.q.Where, ex) {
			kind = "anti-join"
		}
		out = append(out, fmt.Sprintf("%s: mark %s rows from a scan of %s %s by %s.%s (generation-checked) in a bitmap over %s's capacity",
			kind, ex.Outer.Table.Name, ex.Table.Name, ex.Var.Name, ex.Var.Name, ex.Via.Name, ex.Outer.Table.Name))
	}
	return out
}

// negated: e stands under a not in the where w.
func negated(w schema.Expr, ex *schema.Exists) bool {
	found := false
	var visit func(e schema.Expr, neg bool)
	visit = func(e schema.Expr, neg bool) {
		switch e := e.(type) {
		case *schema.Exists:
			if e == ex {
				found = neg
			}
		case *schema.Unary:
			visit(e.X, neg != (e.Op == schema.Not))
		case *schema.Binary:
			visit(e.X, neg)
			visit(e.Y, neg)
		}
	}
	visit(w, false)
	return found
}

// setQuery writes a query whose body is a set operation.
func (qg *qGen) setQuery() {
	op := qg.q.SetOp
	if op.Fused {
		qg.fusedSetQuery()
		return
	}
	qg.mergedSetQuery()
}

// fusedSetQuery writes a set operation of one table's rows as the query
// of one scan whose where combines the sides' wheres.
func (qg *qGen) fusedSetQuery() {
	q, op := qg.q, qg.q.SetOp
	l, r := op.Left, op.Right
	bool_ := schema.Type{Kind: schema.Bool}
	lit := func(b bool) schema.Expr {
		return &schema.Lit{Pos: q.Pos, T: bool_, Value: constant.MakeBool(b)}
	}
	wl, wr := l.Where, r.Where
	if wl == nil {
		wl = lit(true)
	}
	if wr == nil {
		wr = lit(true)
	}
	var where schema.Expr
	switch op.Kind {
	case schema.Union:
		if l.Where != nil && r.Where != nil {
			where = &schema.Binary{Pos: q.Pos, Op: schema.Or, X: wl, Y: wr, T: bool_}
		}
	case schema.Intersect:
		switch {
		case l.Where == nil:
			where = r.Where
		case r.Where == nil:
			where = l.Where
		default:
			where = &schema.Binary{Pos: q.Pos, Op: schema.And, X: wl, Y: wr, T: bool_}
		}
	case schema.Except:
		where = &schema.Binary{Pos: q.Pos, Op: schema.And, X: wl, Y: &schema.Unary{Pos: q.Pos, Op: schema.Not, X: wr, T: bool_}, T: bool_}
	}
	acc := l.Access
	acc.Uses = slices.Clone(l.Access.Uses)
	for _, u := range r.Access.Uses {
		if !slices.ContainsFunc(acc.Uses, func(x schema.Use) bool { return x.Column == u.Column }) {
			u.Var = l.From
			acc.Uses = append(acc.Uses, u)
		}
	}
	acc.Presence = q.Access.Presence
	acc.Reads = q.Access.Reads
	acc.Handle = l.Access.Handle || r.Access.Handle
	d := &schema.Query{Pos: q.Pos, Name: q.Name, Params: l.Params, From: l.From, Where: where, Select: l.Select, Access: acc}
	nq := newQGen(qg.g, d)
	nq.notes = []string{fmt.Sprintf("%s in one scan: %s (both sides are %s's rows)", op.Kind, fusedText[op.Kind], l.From.Table.Name)}
	nq.query()
}

var fusedText = [...]string{"left filter or right filter", "left filter and right filter", "left filter and not right filter"}

// mergedSetQuery writes a set operation as two side types run into
// scratch and merged.
func (qg *qGen) mergedSetQuery() {
	g, q, op := qg.g, qg.q, qg.q.SetOp
	ent, key := qg.lower+"Ent", qg.lower+"Key"
	sides := []*qGen{newQGen(g, op.Left), newQGen(g, op.Right)}
	for i, s := range sides {
		s.name = qg.lower + []string{"Left", "Right"}[i]
		s.lower = s.name
		s.forceRow = true
	}
	plan := fmt.Sprintf("%s of two sides run into scratch, merged by their from rows' index (the left first on a tie), duplicate rows removed by a set of the rows; left: %s; right: %s",
		op.Kind, sides[0].plan(), sides[1].plan())
	qg.typesHead(plan)
	g.fields([]field{{"t", "*Tables", ""}, {"a", sides[0].name, "the left side"}, {"b", sides[1].name, "the right side"},
		{"ea", "[]" + ent, "the left side's rows"}, {"eb", "[]" + ent, "the right side's rows"},
		{"in", "map[" + key + "]struct{}", "the right side's rows"}, {"seen", "map[" + key + "]struct{}", "the rows emitted"}})
	g.p("}")
	g.p("")
	g.p("// %s is a row of a side of query %s with its from row's index.", ent, q.Name)
	g.p("type %s struct {", ent)
	g.p("ord int32")
	g.p("row %s", qg.rowType())
	g.p("}")
	g.p("")
	g.p("// %s is a row of query %s, its floats in ordering form.", key, q.Name)
	g.p("type %s struct {", key)
	var parts []string
	for i, it := range q.Select {
		_, t := keyForm("", it.T)
		x := "r." + it.Name
		if it.T.Kind == schema.Ref || it.T.Kind == schema.Bool {
			t = goType(it.T)
		} else if it.T.IsFloat() {
			x, _ = keyForm(x, it.T)
		}
		g.p("k%d %s", i, t)
		parts = append(parts, fmt.Sprintf("k%d: %s", i, x))
	}
	g.p("}")
	g.p("")
	g.p("func %sOf(r *%s) %s { return %s{%s} }", key, qg.rowType(), key, key, strings.Join(parts, ", "))
	g.p("")
	for i, s := range sides {
		s.side(ent, []string{"left", "right"}[i])
	}
	for _, declared := range []bool{false, true} {
		arg := "nil"
		if declared {
			g.doc("Declare%s makes query %s for a hand-written system: it declares a read of every column the query reads and the presence of every table it scans or probes without a column (tickwork.Read, tickwork.Presence), so the manifest and the conflict check cover it. Call it in the system's DeclareFunc; Run it inside the system's RunFunc only.", qg.name, q.Name)
			g.p("func Declare%s(d *tickwork.Decl, t *Tables) *%s {", qg.name, qg.name)
			arg = "d"
		} else {
			g.doc("New%s makes query %s over the tables of t, for the host between frames (never during World.Frame).", qg.name, q.Name)
			g.p("func New%s(t *Tables) *%s {", qg.name, qg.name)
		}
		g.p("q := &%s{t: t, in: map[%s]struct{}{}, seen: map[%s]struct{}{}}", qg.name, key, key)
		g.p("q.a.init(t, %s)", arg)
		g.p("q.b.init(t, %s)", arg)
		if declared {
			read := map[*schema.Table]bool{}
			for _, k := range q.Access.Reads {
				read[k.Table] = true
			}
			for _, t := range q.Access.Presence {
				if !read[t] {
					g.p("tickwork.Presence(d, %s)", tableRef(t))
				}
			}
		}
		g.p("return q")
		g.p("}")
		g.p("")
	}
	sig := sides[0].signature()
	var args []string
	for _, p := range op.Left.Params {
		args = append(args, sides[0].param[p])
	}
	call := strings.Join(append([]string{""}, args...), ", ")
	g.doc("Run appends the query's result to dst[:0] and returns it, in the order of docs/schema.md's Query results. It allocates nothing once cap(dst) and the query's scratch suffice.")
	if sig != "" {
		sig = ", " + sig
	}
	g.p("func (q *%s) Run(dst []%s%s) []%s {", qg.name, qg.rowType(), sig, qg.rowType())
	g.p("dst = dst[:0]")
	g.p("ea := q.a.run(q.ea[:0]%s)", call)
	g.p("eb := q.b.run(q.eb[:0]%s)", call)
	g.p("q.ea, q.eb = ea, eb")
	g.p("clear(q.seen)")
	if op.Kind == schema.Union {
		g.p("for i, j := 0, 0; i < len(ea) || j < len(eb); {")
		g.p("var e *%s", ent)
		g.p("if j == len(eb) || i < len(ea) && ea[i].ord <= eb[j].ord {")
		g.p("e = &ea[i]")
		g.p("i++")
		g.p("} else {")
		g.p("e = &eb[j]")
		g.p("j++")
		g.p("}")
		g.p("k := %sOf(&e.row)", key)
		g.p("if _, dup := q.seen[k]; !dup {")
		g.p("q.seen[k] = struct{}{}")
		g.p("dst = append(dst, e.row)")
		g.p("}")
		g.p("}")
	} else {
		g.p("clear(q.in)")
		g.p("for j := range eb {")
		g.p("q.in[%sOf(&eb[j].row)] = struct{}{}", key)
		g.p("}")
		g.p("for i := range ea {")
		g.p("k := %sOf(&ea[i].row)", key)
		want := "ok"
		if op.Kind == schema.Except {
			want = "!ok"
		}
		g.p("if _, ok := q.in[k]; %s {", want)
		g.p("if _, dup := q.seen[k]; !dup {")
		g.p("q.seen[k] = struct{}{}")
		g.p("dst = append(dst, ea[i].row)")
		g.p("}")
		g.p("}")
		g.p("}")
	}
	g.p("return dst")
	g.p("}")
	g.p("")
	g.p("// Plan is the query's plan: how it reads each variable and what it does")
	g.p("// with the rows.")
	g.p("func (q *%s) Plan() string {", qg.name)
	g.p("return %q", plan)
	g.p("}")
	g.p("")
}

// side writes a side of a merged set operation: its type (the column
// slices and subquery marks of a query), init and run, which appends the
// side's rows with their from rows' index to ents.
func (qg *qGen) side(ent, which string) {
	g, q := qg.g, qg.q
	g.p("// %s is the %s side of query %s.", qg.name, which, q.Name)
	g.p("type %s struct {", qg.name)
	qg.stateFields()
	g.fields(qg.fields)
	g.p("}")
	g.p("")
	g.p("type %s = %sRow", qg.rowType(), exported(q.Name))
	g.p("")
	g.p("// init sets the side over t; with d non-nil, declaring its reads.")
	g.p("func (q *%s) init(t *Tables, d *tickwork.Decl) {", qg.name)
	g.p("q.t, q.tb = t, %s", tableRef(q.From.Table))
	if len(q.Access.Uses) == 0 && len(q.Exists) == 0 {
		g.p("_ = d // the side reads no column")
		g.p("}")
		g.p("")
	} else {
		qg.sideInit()
	}
	qg.sideRun(ent)
}

// sideInit writes the body of a side's init that sets its columns.
func (qg *qGen) sideInit() {
	g, q := qg.g, qg.q
	g.p("if d != nil {")
	for _, u := range q.Access.Uses {
		g.p("q.%s = tickwork.Read(d, %s).All()", qg.colName(u.Var, u.Column), columnRef(u.Column))
	}
	qg.semiInit(true)
	g.p("} else {")
	for _, u := range q.Access.Uses {
		g.p("q.%s = %s.All()", qg.colName(u.Var, u.Column), columnRef(u.Column))
	}
	qg.semiInit(false)
	g.p("}")
	g.p("}")
	g.p("")
}

// sideRun writes a side's run.
func (qg *qGen) sideRun(ent string) {
	g, q := qg.g, qg.q
	sig := qg.signature()
	if sig != "" {
		sig = ", " + sig
	}
	g.p("// run appends the side's rows to ents, in ascending from-row index.")
	g.p("func (q *%s) run(ents []%s%s) []%s {", qg.name, ent, sig, ent)
	qg.leaseLocals()
	qg.semiMarks()
	qg.source()
	qg.joins()
	if q.Where != nil {
		g.p("if %s {", qg.sg.code(q.Where))
		qg.closers++
	}
	g.p("ents = append(ents, %s{ord: %s, row: %s})", ent, qg.ord, qg.rowLit())
	for ; qg.closers > 0; qg.closers-- {
		g.p("}")
	}
	g.p("return ents")
	g.p("}")
	g.p("")
}

package schema

import (
	"slices"
	"strings"
)

// The checks of exists subqueries and set operations (docs/schema.md,
// Queries: "exists" and "Set operations").

// existsCall refuses exists(...) whose argument is not a subquery.
func (c *checker) existsCall(p Pos, args []*synExpr) Expr {
	what := "an empty argument list"
	if len(args) > 0 {
		what = "the expression " + exprText(args[0])
	}
	c.errorf(p, KindType, "exists takes a subquery, exists(from TABLE v where v.REF == ROW and ...), not %s; write the subquery after exists(", what)
	return bad(p)
}

// subquery checks NAME(from TABLE v where ...): exists(...) in a query's
// where, correlated with the from row by a conjunct v.REF == ROW.
func (c *checker) subquery(sc *scope, p Pos, fn *synIdent, sub *synSubquery) Expr {
	head := "from " + sub.Table.Name + " " + sub.Var.Name
	switch {
	case fn.Name != "exists":
		c.errorf(p, KindSyntax, "%s(%s ...): a subquery is the argument of exists only (exists(%s where ...) in a query's where); %s takes expressions", fn.Name, head, head, fn.Name)
		return bad(p)
	case sc.b == nil:
		c.errorf(p, KindValue, "exists(...) is not constant; a constant expression uses literals and constants only")
		return bad(p)
	case sc.b.query == nil:
		c.errorf(p, KindType, "exists(...) in system %s: a subquery is a query's (in its where); a system reads other rows through a join (join TABLE v on u.REF)", sc.b.sys.Name)
		return bad(p)
	}
	q := sc.b.query
	for _, v := range sc.b.vars {
		if v.Kind == SubVar {
			c.errorf(p, KindValue, "nested exists in query %s: a subquery's conditions read its own row and the parameters; test the inner table in a second exists of the outer where", q.Name)
			return bad(p)
		}
	}
	if sc.aggAt != "where" {
		at := sc.aggAt
		if at == "" {
			at = "a select item, order key or limit"
		}
		c.errorf(p, KindType, "exists(...) in %s of query %s: a subquery filters the rows, so it stands in the where only", at, q.Name)
		return bad(p)
	}
	outer := q.From
	if outer.Kind != RowVar {
		c.errorf(p, KindType, "exists(...) in query %s over event table %s: a subquery marks rows of a table, and events are not rows; run the query over a table", q.Name, outer.Event.Name)
		return bad(p)
	}
	tp := c.pos(sub.Table.Pos)
	d, ok := c.names[sub.Table.Name]
	switch {
	case !ok:
		c.errorf(tp, KindUnknown, "unknown table %q in exists of query %s%s", sub.Table.Name, q.Name, c.hint(sub.Table.Name, "table"))
		return bad(p)
	case d.table == nil:
		c.errorf(tp, KindType, "exists(from %s ...) in query %s: %s is %s; a subquery scans a table", sub.Table.Name, q.Name, sub.Table.Name, article(d.what))
		return bad(p)
	}
	v := &Var{Kind: SubVar, Table: d.table}
	if !c.newVar(sc.b, sub.Var, v) {
		return bad(p)
	}
	defer delete(sc.b.vars, v.Name)
	refs := refColumns(d.table, outer.Table)
	fix := "correlate it with the from row: exists(" + head + " where " + v.Name + ".REF == " + outer.Name + " and ...)"
	if len(refs) > 0 {
		fix += " (" + d.table.Name + "'s refs to " + outer.Table.Name + ": " + strings.Join(refs, ", ") + ")"
	} else if sameDomain(d.table, outer.Table) {
		fix = d.table.Name + " has no ref to " + outer.Table.Name + "; the same entity's row in another table of the domain is has(" + outer.Name + ", " + d.table.Name + ")"
	}
	if sub.Where == nil {
		c.errorf(p, KindMissing, "exists(%s) in query %s has no where; %s", head, q.Name, fix)
		return bad(p)
	}
	ws := *sc
	x := c.expr(&ws, sub.Where)
	if invalid(x) {
		return bad(p)
	}
	if x.Type().Kind != Bool {
		c.errorf(x.Position(), KindType, "the where of exists(%s ...) must be a bool, not %s", head, describeExpr(x))
		return bad(p)
	}
	conj := Conjuncts(x)
	ex := &Exists{Pos: p, Var: v, Table: d.table, Outer: outer}
	at := -1
	for i, e := range conj {
		b, ok := e.(*Binary)
		if !ok || b.Op != Eq {
			continue
		}
		l, r := b.X, b.Y
		if _, ok := l.(*VarRef); ok {
			l, r = r, l
		}
		cr, ok1 := l.(*ColRef)
		vr, ok2 := r.(*VarRef)
		if ok1 && ok2 && cr.Var == v && vr.Var == outer && cr.Column.Type.Kind == Ref {
			ex.Via, at = cr.Column, i
			break
		}
	}
	if at < 0 {
		c.errorf(c.pos(sub.Where.Pos), KindType, "exists(%s where %s) in query %s is not correlated; %s", head, exprText(sub.Where), q.Name, fix)
		return bad(p)
	}
	rest := slices.Delete(conj, at, at+1)
	for _, e := range rest {
		var other *Var
		var op Pos
		walkExpr(e, func(e Expr) {
			var w *Var
			switch e := e.(type) {
			case *ColRef:
				w = e.Var
			case *VarRef:
				w = e.Var
			case *Has:
				w = e.Var
			case *Probe:
				w = e.Var
			}
			if w != nil && w != v && other == nil {
				other, op = w, e.Position()
			}
		})
		if other != nil {
			c.errorf(op, KindType, "exists(%s ...) in query %s reads %s: a subquery's conditions read %s and the parameters only, besides its correlation %s.%s == %s; test %s in the outer where",
				head, q.Name, other.Name, v.Name, v.Name, ex.Via.Name, outer.Name, other.Name)
			return bad(p)
		}
		if ex.Where == nil {
			ex.Where = e
		} else {
			ex.Where = &Binary{Pos: ex.Where.Position(), Op: And, X: ex.Where, Y: e, T: Type{Kind: Bool}}
		}
	}
	ex.Uses = []*Column{ex.Via}
	if ex.Where != nil {
		walkExpr(ex.Where, func(e Expr) {
			if cr, ok := e.(*ColRef); ok && !slices.Contains(ex.Uses, cr.Column) {
				ex.Uses = append(ex.Uses, cr.Column)
			}
		})
	}
	slices.SortStableFunc(ex.Uses[1:], func(a, b *Column) int { return a.Index - b.Index })
	ex.Index = len(q.Exists)
	q.Exists = append(q.Exists, ex)
	return ex
}

// refColumns names the ref columns of t that may hold a handle of to.
func refColumns(t, to *Table) []string {
	var out []string
	for _, k := range t.Columns {
		if k.Type.Kind == Ref && k.Type.Identical(Type{Kind: Ref, Table: to}) {
			out = append(out, k.Name)
		}
	}
	return out
}

// semiAccess adds what a query's subqueries read to its access: their
// columns (read) and the tables their has() tests (presence).
func semiAccess(q *Query, read map[*Column]bool, presence []*Table) []*Table {
	for _, ex := range q.Exists {
		for _, k := range ex.Uses {
			read[k] = true
		}
		if ex.Where != nil {
			walkExpr(ex.Where, func(e Expr) {
				if h, ok := e.(*Has); ok {
					presence = addTable(presence, h.Table)
				}
			})
		}
	}
	return presence
}

// setQuery checks a query whose body is a set operation of two bodies.
func (c *checker) setQuery(d *synQueryDecl) *Query {
	s := d.Set
	q := &Query{Pos: c.pos(d.Name.Pos), Name: d.Name.Name}
	op := &SetOp{Pos: c.pos(s.Pos)}
	switch s.Op {
	case "intersect":
		op.Kind = Intersect
	case "except":
		op.Kind = Except
	}
	of := "query " + q.Name
	c.setSide = true
	left := c.query(&synQueryDecl{Pos: d.Pos, Name: d.Name, Params: d.Params, Body: s.Left})
	n := len(c.errs)
	right := c.query(&synQueryDecl{Pos: d.Pos, Name: d.Name, Params: d.Params, Body: s.Right})
	c.setSide = false
	// The parameters were checked with the left side: drop their errors
	// the right side repeats (they stand before the set operation).
	start := c.pos(s.Pos)
	kept := c.errs[:n]
	for _, e := range c.errs[n:] {
		if e.Pos.Line > start.Line || (e.Pos.Line == start.Line && e.Pos.Col >= start.Col) {
			kept = append(kept, e)
		}
	}
	c.errs = kept
	if left == nil || right == nil {
		return nil
	}
	ok := true
	for i, side := range []*synQueryBody{s.Left, s.Right} {
		sq := []*Query{left, right}[i]
		what := ""
		switch {
		case len(side.Group) > 0:
			what = "group by"
		case len(sq.Aggregates) > 0:
			what = "aggregates"
		case side.Distinct:
			what = "distinct (the result has no duplicates already)"
		case len(side.Order) > 0:
			what = "order by"
		case side.Limit != nil:
			what = "limit"
		}
		if what != "" {
			c.errorf(c.pos(side.Pos), KindValue, "a side of the %s of %s has %s; each side of a set operation is a filter and projection (from, joins, where, select): drop it", s.Op, of, what)
			ok = false
		} else if sq.From.Kind == EventVar {
			c.errorf(c.pos(side.Pos), KindType, "a side of the %s of %s runs over event table %s; each side of a set operation runs over a table (its rows have an index to merge by)", s.Op, of, sq.From.Event.Name)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	if len(left.Select) != len(right.Select) {
		c.errorf(c.pos(s.Right.Pos), KindType, "the sides of the %s of %s select %d and %d items; select the same number of items, of the same types", s.Op, of, len(left.Select), len(right.Select))
		return nil
	}
	for i, it := range right.Select {
		l := left.Select[i]
		if !it.T.Identical(l.T) || (it.T.Kind == Ref && l.T.Kind == Ref && it.T.Table != l.T.Table && !sameDomain(it.T.Table, l.T.Table)) {
			c.errorf(it.Pos, KindType, "item %d of the %s of %s is %s on the right and %s on the left; the sides select the same types, in the same order", i+1, s.Op, of, it.T, l.T)
			ok = false
		}
		it.Name = l.Name
	}
	if !ok {
		return nil
	}
	op.Left, op.Right = left, right
	op.Fused = fusable(left, right, s.Left, s.Right)
	q.Params, q.Select, q.SetOp = left.Params, left.Select, op
	q.Access = mergeAccess(c.s.Tables, left.Access, right.Access)
	return q
}

// sameDomain: two tables of one domain.
func sameDomain(a, b *Table) bool { return a.Domain != nil && a.Domain == b.Domain }

// fusable says whether a set operation's sides are one table's rows
// (SetOp.Fused).
func fusable(l, r *Query, ls, rs *synQueryBody) bool {
	if l.From.Kind != RowVar || r.From.Kind != RowVar || l.From.Table != r.From.Table || l.From.Name != r.From.Name ||
		len(l.Joins)+len(r.Joins)+len(l.Exists)+len(r.Exists) > 0 || l.Probe != nil || r.Probe != nil {
		return false
	}
	handle := false
	for i, it := range l.Select {
		if exprText(ls.Select[i].Expr) != exprText(rs.Select[i].Expr) {
			return false
		}
		if v, ok := it.Expr.(*VarRef); ok && v.Var == l.From {
			handle = true
		}
	}
	return handle
}

// mergeAccess is what a set operation reads: both sides' reads and
// presence, in the schema's order.
func mergeAccess(tables []*Table, a, b QueryAccess) QueryAccess {
	read := map[*Column]bool{}
	for _, k := range append(slices.Clone(a.Reads), b.Reads...) {
		read[k] = true
	}
	var out QueryAccess
	for _, t := range tables {
		for _, k := range t.Columns {
			if read[k] {
				out.Reads = append(out.Reads, k)
			}
		}
	}
	out.Presence = inTableOrder(tables, append(slices.Clone(a.Presence), b.Presence...))
	out.Events = append(slices.Clone(a.Events), b.Events...)
	out.Events = slices.Compact(out.Events)
	return out
}

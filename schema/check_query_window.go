package schema

import "slices"

// The checks of a query's window functions, keyset pagination (after) and
// declared unique keys (docs/schema.md, Queries; the order they give:
// Query results).

// windowCall returns the call of a select item that is one window
// function, `NAME(ARGS) over (...)`, or row_number() without a window.
func windowCall(e *synExpr) (*synNameExpr, bool) {
	if e == nil || len(e.Right) > 0 || len(e.Left.Right) > 0 {
		return nil, false
	}
	n := e.Left.Left
	if n.Cmp == nil || n.Cmp.Op != "" || len(n.Cmp.Left.Right) > 0 || len(n.Cmp.Left.Left.Right) > 0 {
		return nil, false
	}
	u := n.Cmp.Left.Left.Left
	if u.Primary == nil || u.Primary.Name == nil || !u.Primary.Name.Call {
		return nil, false
	}
	if nm := u.Primary.Name; nm.Over != nil || nm.Name.Name == "row_number" {
		return nm, true
	}
	return nil, false
}

// misplacedWindow refuses a window function inside an expression, a where,
// a group key, an order key or a system.
func (c *checker) misplacedWindow(sc *scope, p Pos, fn string) {
	if sc.b == nil || sc.b.query == nil {
		c.errorf(p, KindUnknown, "%s() over (...) is a window function of a query's select; a system reads its own row only", fn)
		return
	}
	where := "inside an expression"
	if sc.aggAt != "" {
		where = "in " + sc.aggAt
	}
	call := fn + "()"
	if fn != "row_number" {
		call = fn + "(EXPR)"
	}
	c.errorf(p, KindType, "window function %s() %s of query %s: a window function is a whole select item (select ..., %s over (partition by KEY order by KEY) as NAME); filter rows in where, order them in order by", fn, where, sc.b.query.Name, call)
}

// window checks the window function of a select item.
func (c *checker) window(q *Query, sc *scope, p Pos, n *synNameExpr) *Window {
	of := "query " + q.Name
	fn := n.Name.Name
	w := &Window{Pos: p, Item: len(q.Select)}
	switch fn {
	case "row_number":
		w.Kind, w.T = RowNumber, Type{Kind: Int64}
		if len(n.Args) != 0 {
			c.errorf(p, KindType, "row_number takes no arguments, not %d: row_number() over (...)", len(n.Args))
			return nil
		}
		if n.Over == nil {
			c.errorf(p, KindMissing, "row_number() in %s needs its window: row_number() over (partition by KEY order by KEY) as NAME", of)
			return nil
		}
	case "sum":
		w.Kind = RunningSum
		if len(n.Args) != 1 {
			c.errorf(p, KindType, "sum takes one argument, not %d", len(n.Args))
			return nil
		}
		as := *sc
		as.aggAt = "an aggregate's argument"
		x := c.expr(&as, n.Args[0])
		if invalid(x) {
			return nil
		}
		if _, lit := x.(*Lit); lit {
			c.errorf(x.Position(), KindType, "sum(%s) over (...) in %s sums a constant; sum a column or an expression of one (row_number() counts rows)", exprText(n.Args[0]), of)
			return nil
		}
		if !x.Type().IsNumeric() {
			c.errorf(x.Position(), KindType, "sum needs a number, not %s (%s)", describeExpr(x), x.Type())
			return nil
		}
		w.X, w.T = x, Type{Kind: Int64}
		if x.Type().IsFloat() {
			w.T = Type{Kind: Float64}
		}
	default:
		c.errorf(p, KindUnknown, "%s() over (...) in %s: the window functions are row_number() and sum(EXPR); aggregate whole groups with group by", fn, of)
		return nil
	}
	ok := true
	ks := *sc
	ks.aggAt = "a window's key"
	for _, e := range n.Over.Partition {
		x := c.expr(&ks, e)
		if !c.windowKey(x, e, "partition by", of) {
			ok = false
			continue
		}
		w.Partition = append(w.Partition, x)
	}
	for _, o := range n.Over.Order {
		x := c.expr(&ks, o.Expr)
		if !c.windowKey(x, o.Expr, "order by", of) {
			ok = false
			continue
		}
		w.Order = append(w.Order, &OrderKey{Pos: x.Position(), Expr: x, Item: -1, Group: -1, Desc: o.Dir == "desc", T: x.Type()})
	}
	if !ok {
		return nil
	}
	w.Index = len(q.Windows)
	q.Windows = append(q.Windows, w)
	return w
}

// windowKey checks a partition or order key of a window.
func (c *checker) windowKey(x Expr, e *synExpr, clause, of string) bool {
	if invalid(x) {
		return false
	}
	if _, lit := x.(*Lit); lit {
		c.errorf(x.Position(), KindType, "%s %s in the window of %s is a constant; %s a column or an expression of one", clause, exprText(e), of, clause[:len(clause)-3])
		return false
	}
	if !keyType(x.Type()) {
		c.errorf(x.Position(), KindType, "%s %s in the window of %s: %s does not order; window keys are numbers, bool or ref (by entity index)", clause, exprText(e), of, x.Type())
		return false
	}
	return true
}

// windowRules refuses what a query with window functions cannot also do.
func (c *checker) windowRules(q *Query, body *synQueryBody) {
	if len(q.Windows) == 0 {
		return
	}
	of := "query " + q.Name
	w := q.Windows[0]
	switch {
	case len(body.Group) > 0 || len(q.Aggregates) > 0:
		c.errorf(w.Pos, KindType, "%s mixes a window function with group by or aggregates; a window numbers or sums rows: drop the group by, or split the query", of)
	case q.Distinct:
		c.errorf(w.Pos, KindType, "%s has a window function in a select distinct; drop distinct (a window's values differ row by row)", of)
	}
	for _, k := range q.OrderBy {
		if k.Item >= 0 && q.Select[k.Item].Win != nil {
			c.errorf(k.Pos, KindType, "order by %s in %s names a window function's result; order by the window's own keys (a running sum or a row number follows them)", q.Select[k.Item].Name, of)
		}
	}
}

// after checks `after (x, ...)`: one parameter or constant per order key,
// of the key's type.
func (c *checker) after(q *Query, sc *scope, a *synAfter, body *synQueryBody) {
	of := "query " + q.Name
	p := c.pos(a.Pos)
	switch {
	case len(body.Order) == 0:
		c.errorf(p, KindMissing, "after in %s needs an order by: keyset pagination keeps the rows after a key of the order (order by o.Day, index(o) after (day, ix) limit n)", of)
		return
	case len(body.Group) > 0 || len(q.Aggregates) > 0 || len(q.Windows) > 0:
		c.errorf(p, KindType, "after in %s pages rows; a query with group by, aggregates or window functions cannot take it: filter in where", of)
		return
	case len(a.Values) != len(body.Order):
		vals := "values"
		if len(a.Values) == 1 {
			vals = "value"
		}
		c.errorf(p, KindValue, "after in %s gives %d %s for %d order keys; give one value per key, in their order", of, len(a.Values), vals, len(body.Order))
		return
	case len(q.OrderBy) != len(body.Order):
		return // an order key was refused
	}
	var vals []Expr
	for i, e := range a.Values {
		x := c.expr(sc, e)
		if invalid(x) {
			return
		}
		switch x.(type) {
		case *ParamRef, *Lit:
		default:
			c.errorf(x.Position(), KindType, "after value %s of %s must be a parameter or a constant (the last page's key), not %s", exprText(e), of, describeExpr(x))
			return
		}
		k := q.OrderBy[i]
		if !x.Type().IsUntyped() && !x.Type().Identical(k.T) {
			c.errorf(x.Position(), KindType, "after value %s of %s is %s, and order key %d is %s; give a value of the key's type", exprText(e), of, x.Type(), i+1, k.T)
			return
		}
		x = c.convertTo(x, k.T, "after")
		if invalid(x) {
			return
		}
		vals = append(vals, x)
	}
	q.After = vals
}

// uniqueColumn checks the unique attribute of a column of type typ; false
// when it is refused.
func (c *checker) uniqueColumn(f *synField, typ Type, of string, t *Table) bool {
	p := c.pos(f.Name.Pos)
	switch {
	case t == nil:
		c.errorf(p, KindType, "field %s of %s is unique; unique is an attribute of a table column (an event table has no keys): drop it", f.Name.Name, of)
	case typ.Kind == Invalid:
	case typ.Kind == StructKind:
		c.errorf(p, KindType, "column %s of %s is struct %s and cannot be unique; mark an int32, int64 or ref column unique (a struct's fields are several columns)", f.Name.Name, of, typ.Struct.Name)
	case typ.IsFloat() || typ.Kind == Bool:
		c.errorf(p, KindType, "column %s of %s is %s and cannot be unique; unique keys are int32, int64 or ref (float equality is not a key: NaN, -0)", f.Name.Name, of, typ)
	default:
		return true
	}
	return false
}

// planUnique finds a top-level conjunct `v.K == x` of the where (v the
// from row, K a unique column, x a parameter or constant) and makes the
// query a unique key lookup.
func (c *checker) planUnique(q *Query) {
	if q.Where == nil || q.From.Kind != RowVar || q.Probe != nil || len(q.GroupBy) > 0 || len(q.Aggregates) > 0 || len(q.Windows) > 0 {
		return
	}
	conj := Conjuncts(q.Where)
	for i, e := range conj {
		b, ok := e.(*Binary)
		if !ok || b.Op != Eq {
			continue
		}
		k, x := b.X, b.Y
		if _, ok := k.(*ColRef); !ok {
			k, x = x, k
		}
		cr, ok := k.(*ColRef)
		if !ok || cr.Var != q.From || !cr.Column.Unique {
			continue
		}
		switch x.(type) {
		case *ParamRef, *Lit:
		default:
			continue
		}
		u := &UniqueKey{Column: cr.Column, Cond: e}
		for _, r := range slices.Delete(slices.Clone(conj), i, i+1) {
			if u.Rest == nil {
				u.Rest = r
				continue
			}
			u.Rest = &Binary{Pos: u.Rest.Position(), Op: And, X: u.Rest, Y: r, T: Type{Kind: Bool}}
		}
		q.Unique = u
		return
	}
}

// windowExprs lists the expressions of q's windows.
func windowExprs(q *Query) []Expr {
	var out []Expr
	for _, w := range q.Windows {
		if w.X != nil {
			out = append(out, w.X)
		}
		out = append(out, w.Partition...)
		for _, k := range w.Order {
			out = append(out, k.Expr)
		}
	}
	return out
}

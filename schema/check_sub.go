package schema

import (
	"fmt"
	"go/constant"
	"slices"
)

// subShapes is what every refusal of a subscription's query ends with.
const subShapes = " (a subscription keeps a filter or box: where and select of the row; a count: select count(); " +
	"a grouped sum: group by one key, count() and one integer sum; a top-N: order by one key, limit N; each over one table)"

// subscription checks `subscription NAME of QUERY`: the query is declared
// and its shape is one a subscription keeps (docs/schema.md,
// Subscriptions). It reports the first refusal at the subscription's
// name and returns nil then.
func (c *checker) subscription(d *synSubDecl) *Subscription {
	s := &Subscription{Pos: c.pos(d.Name.Pos), Name: d.Name.Name}
	of := "subscription " + s.Name
	dd, found := c.names[d.Query.Name]
	switch {
	case !found:
		c.errorf(c.pos(d.Query.Pos), KindUnknown, "unknown query %q of %s%s", d.Query.Name, of, c.hint(d.Query.Name, "query"))
		return nil
	case dd.what != "query":
		c.errorf(c.pos(d.Query.Pos), KindType, "%s of %s is %s, not a query: a subscription keeps the result of a declared query", d.Query.Name, of, article(dd.what))
		return nil
	}
	i := slices.IndexFunc(c.s.Queries, func(q *Query) bool { return q.Name == d.Query.Name })
	if i < 0 || c.badQuery[c.s.Queries[i]] {
		return nil // the query's own errors come first
	}
	q := c.s.Queries[i]
	s.Query = q
	of += " of query " + q.Name
	refuse := func(k Kind, format string, args ...any) *Subscription {
		c.errorf(s.Pos, k, "%s: %s"+subShapes, of, fmt.Sprintf(format, args...))
		return nil
	}
	if msg := subRefusal(q); msg != "" {
		return refuse(KindValue, "%s", msg)
	}
	var exprs []Expr
	if q.Where != nil {
		exprs = append(exprs, q.Where)
	}
	switch {
	case len(q.GroupBy) == 1:
		s.Kind, s.Key = SubGroup, q.GroupBy[0]
		if t := s.Key.Type(); t.IsFloat() {
			return refuse(KindType, "group key %s is %s: a float key is not kept (NaN equals no key, -0 equals +0); group by an integer, e.g. floor(x)", describeExpr(s.Key), t)
		}
		if len(q.OrderBy) > 0 || q.Limit != nil {
			return refuse(KindValue, "order by and limit of groups are not kept; drop them: the subscription hands out the changed groups in ascending key order")
		}
		for _, a := range q.Aggregates {
			switch {
			case a.Kind == Count:
			case a.Kind != Sum:
				return refuse(KindValue, "%s(%s) of a group is not kept by deltas; keep count() and one integer sum(...), or run the query", a.Kind, describeExpr(a.X))
			case a.X.Type().IsFloat():
				return refuse(KindType, "sum(%s) is a float: a float sum kept by deltas depends on the order rows change in, not the query's order; sum an integer (e.g. a fixed-point column), or run the query", describeExpr(a.X))
			case s.Sum != nil && !sameExpr(s.Sum.X, a.X):
				return refuse(KindValue, "a second sum, sum(%s), is not kept: a subscription keeps one sum per group; declare another query and subscription for it", describeExpr(a.X))
			default:
				s.Sum = a
			}
		}
		exprs = append(exprs, s.Key)
		if s.Sum != nil {
			exprs = append(exprs, s.Sum.X)
		}
	case len(q.Aggregates) > 0:
		s.Kind = SubCount
		for _, a := range q.Aggregates {
			if a.Kind != Count {
				return refuse(KindValue, "%s(%s) without group by is not kept; select count() only, or group by a key", a.Kind, describeExpr(a.X))
			}
		}
	case len(q.OrderBy) == 1:
		if q.Limit == nil {
			return refuse(KindValue, "order by without limit is not kept; add limit N for a top-N, or drop order by and sort the filter's rows")
		}
		if l, ok := q.Limit.(*Lit); ok {
			if n, exact := constant.Int64Val(l.Value); exact && n < 1 {
				return refuse(KindValue, "limit %s keeps no rank; limit a top-N to at least 1, or drop the subscription", l.Value)
			}
		}
		k := q.OrderBy[0]
		s.Kind, s.Key, s.Desc = SubTop, k.Expr, k.Desc
		if k.Item >= 0 {
			s.Key = q.Select[k.Item].Expr
		}
		exprs = append(exprs, s.Key)
	case q.Limit != nil:
		return refuse(KindValue, "limit without order by (the first rows in index order) is not kept; order by a key for a top-N, or drop limit")
	default:
		s.Kind = SubFilter
	}
	for _, e := range exprs {
		if h := handleUse(e, q.From); h != nil {
			return refuse(KindValue, "%s reads the row's handle; test or rank a column instead: the subscription re-examines a row by its columns", describeExpr(h))
		}
	}
	for _, it := range q.Select {
		if it.Expr != nil {
			exprs = append(exprs, it.Expr)
		}
	}
	s.Columns = subColumns(q, exprs)
	return s
}

// subRefusal names what a subscription cannot keep in q whatever its
// kind, "" when nothing.
func subRefusal(q *Query) string {
	switch {
	case q.SetOp != nil:
		return "a set operation (" + q.SetOp.Kind.String() + ") is not kept; subscribe each side as its own query"
	case q.From.Kind == EventVar:
		return "a query of event table " + q.From.Event.Name + " is not kept: events are not rows that stay; consume them in a system, or subscribe a query of a table"
	case len(q.Joins) > 0:
		return "a join (" + q.Joins[0].Var.Name + ") is not kept; subscribe a query of one table, with the joined value copied into a column of it"
	case len(q.Windows) > 0:
		return "a window function is not kept; drop it, or run the query"
	case len(q.Exists) > 0:
		return "exists(...) is not kept; keep the test's result in a column of the table, or run the query"
	case q.After != nil:
		return "keyset pagination (after) is not kept; drop it: a top-N keeps the first ranks"
	case q.Distinct:
		return "select distinct is not kept; drop distinct, or group by the selected key with count()"
	case len(q.OrderBy) > 1:
		return fmt.Sprintf("order by %d keys is not kept; order by one key (combine the keys in one integer expression)", len(q.OrderBy))
	case len(q.GroupBy) > 1:
		return fmt.Sprintf("group by %d keys is not kept; group by one key (combine the keys in one integer expression, e.g. a * 4 + b)", len(q.GroupBy))
	case q.Probe != nil:
		return "a lookup by handle (" + q.From.Name + " == " + q.Probe.Name + ") is not kept; test a column instead: the subscription re-examines a row by its columns"
	case q.Unique != nil:
		return "a lookup by unique column " + q.Unique.Column.Name + " (the first match only) is not kept; test the column with a column that is not unique, or run the query"
	}
	for _, e := range q.exprs() {
		if h := hasUse(e); h != nil {
			return "has(" + h.Var.Name + ", " + h.Table.Name + ") reads another table, which is not kept; keep the fact in a column of " + q.From.Table.Name
		}
	}
	return ""
}

// exprs lists q's where, select expressions and group keys.
func (q *Query) exprs() []Expr {
	var out []Expr
	if q.Where != nil {
		out = append(out, q.Where)
	}
	for _, it := range q.Select {
		if it.Expr != nil {
			out = append(out, it.Expr)
		}
	}
	return append(out, q.GroupBy...)
}

// handleUse is the first subexpression of e that reads from's handle (a
// bare row variable, also inside index(v)), nil when none.
func handleUse(e Expr, from *Var) Expr {
	var h Expr
	walkExpr(e, func(x Expr) {
		if h != nil {
			return
		}
		switch y := x.(type) {
		case *IndexOf:
			if v, ok := y.X.(*VarRef); ok && v.Var == from {
				h = x
			}
		case *VarRef:
			if y.Var == from {
				h = x
			}
		}
	})
	return h
}

// hasUse is the first has(v, T) of e, nil when none.
func hasUse(e Expr) *Has {
	var h *Has
	walkExpr(e, func(x Expr) {
		if x, ok := x.(*Has); ok && h == nil {
			h = x
		}
	})
	return h
}

// sameExpr reports whether two checked expressions are the same text.
func sameExpr(x, y Expr) bool { return describeExpr(x) == describeExpr(y) }

// subColumns lists the from table's columns that exprs read, in table
// order.
func subColumns(q *Query, exprs []Expr) []*Column {
	var cols []*Column
	for _, e := range exprs {
		walkExpr(e, func(x Expr) {
			if r, ok := x.(*ColRef); ok && r.Var == q.From && !slices.Contains(cols, r.Column) {
				cols = append(cols, r.Column)
			}
		})
	}
	slices.SortFunc(cols, func(a, b *Column) int { return a.Index - b.Index })
	return cols
}

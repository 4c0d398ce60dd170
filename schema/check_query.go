package schema

import (
	"go/constant"
	"slices"
	"strings"
	"unicode"
)

// The checks of a query declaration (docs/schema.md, Queries). A query's
// expressions are typed as a system body's (check_expr.go), in a scope
// that also names its parameters and where every join has hit (an inner
// join drops the row on a miss; a left join's columns read as zero
// values).

// query checks one query declaration.
func (c *checker) query(d *synQueryDecl) *Query {
	if d.Set != nil {
		return c.setQuery(d)
	}
	q := &Query{Pos: c.pos(d.Name.Pos), Name: d.Name.Name}
	of := "query " + q.Name
	b := &bodyState{sys: &System{Pos: q.Pos, Name: q.Name}, vars: map[string]*Var{}, writes: map[*Column]bool{},
		broken: map[string]bool{}, query: q, params: map[string]*Param{}}
	for _, pd := range d.Params {
		c.param(b, pd, of)
	}
	body := d.Body
	if !c.queryFrom(b, body.From) {
		return nil
	}
	for _, j := range body.Joins {
		if !c.queryJoin(b, j) && b.vars[j.Var.Name] == nil {
			b.broken[j.Var.Name] = true
		}
	}
	if len(body.Stmts) > 0 {
		s := body.Stmts[0]
		c.errorf(c.pos(s.Pos), KindAccess, "%s has a %s statement; a query reads only (no set, match, emit, delete or count): write it in a system, or select the values", of, stmtWord(s))
	}
	sc := &scope{c: c, b: b, guard: ^uint64(0)}
	if body.Where != nil {
		ws := *sc
		ws.aggAt = "where"
		x := c.expr(&ws, body.Where)
		if !invalid(x) && x.Type().Kind != Bool {
			c.errorf(x.Position(), KindType, "the where of %s must be a bool, not %s", of, describeExpr(x))
		} else if !invalid(x) {
			q.Where = x
		}
	}
	var groupText []string
	for i, g := range body.Group {
		if i == MaxGroupKeys {
			c.errorf(c.pos(g.Pos), KindValue, "%s groups by more than %d keys; group by at most %d (combine keys in one expression, or split the query)", of, MaxGroupKeys, MaxGroupKeys)
			break
		}
		gs := *sc
		gs.aggAt = "a group key"
		x := c.expr(&gs, g)
		groupText = append(groupText, exprText(g))
		if invalid(x) {
			q.GroupBy = append(q.GroupBy, x)
			continue
		}
		if _, ok := x.(*Lit); ok {
			c.errorf(x.Position(), KindType, "group by %s in %s is a constant, which groups nothing; group by a column or an expression of one", exprText(g), of)
		} else if !keyType(x.Type()) {
			c.errorf(x.Position(), KindType, "group by %s in %s: %s is not a key type; group keys are bool, integer, float or ref", exprText(g), of, x.Type())
		}
		q.GroupBy = append(q.GroupBy, x)
	}
	q.Distinct = body.Distinct
	c.selectItems(q, sc, body, groupText)
	c.orderKeys(q, sc, body, groupText)
	c.windowRules(q, body)
	if body.After != nil {
		c.after(q, sc, body.After, body)
	}
	if body.Limit != nil {
		q.Limit = c.limit(sc, body.Limit, of)
	}
	if len(q.GroupBy) == 0 && len(q.Aggregates) > 0 && (len(body.Order) > 0 || body.Limit != nil) {
		c.errorf(q.Pos, KindValue, "%s aggregates without group by, so it returns exactly one row: order by and limit do nothing; drop them, or group by a key", of)
	}
	c.planProbe(q)
	c.planIndex(q, body.Using)
	if q.Index == nil {
		c.planUnique(q)
	}
	c.queryAccess(b, q)
	return q
}

// stmtWord is the keyword of a statement.
func stmtWord(s *synStmt) string {
	switch {
	case s.Set != nil:
		return "set"
	case s.Match != nil:
		return "match"
	case s.Emit != nil:
		return "emit"
	case s.Delete != nil:
		return "delete"
	}
	return "count"
}

// keyType reports the types a group or order key may have.
func keyType(t Type) bool {
	switch t.Kind {
	case Bool, Int32, Int64, Float32, Float64, Ref:
		return true
	}
	return false
}

// param checks one parameter.
func (c *checker) param(b *bodyState, pd *synParam, of string) {
	p := &Param{Pos: c.pos(pd.Name.Pos), Name: pd.Name.Name, Index: len(b.params)}
	what := "parameter " + p.Name + " of " + of
	t, ok := c.typeExpr(pd.Type, what)
	if ok && (t.Kind == StructKind || t.Kind == ArrayKind) {
		c.errorf(c.pos(pd.Type.Pos), KindType, "%s is %s; parameters are int32, int64, float32, float64, bool or ref TABLE", what, describeType(t))
		ok = false
	}
	if prev := b.params[p.Name]; prev != nil {
		c.errorf(p.Pos, KindDuplicate, "parameter %q of %s is already declared at %s; use another name", p.Name, of, prev.Pos)
		return
	}
	if d, dup := c.names[p.Name]; dup {
		c.errorf(p.Pos, KindDuplicate, "parameter %q of %s has the name of the %s declared at %s; use another name", p.Name, of, d.what, d.pos)
		return
	}
	if !ok {
		t = Type{Kind: Invalid}
	}
	p.Type = t
	b.params[p.Name] = p
	b.query.Params = append(b.query.Params, p)
}

// queryFrom checks a query's from clause; false when the query cannot be
// checked further.
func (c *checker) queryFrom(b *bodyState, f *synFromClause) bool {
	q := b.query
	d, ok := c.names[f.Table.Name]
	p := c.pos(f.Table.Pos)
	v := &Var{}
	switch {
	case !ok:
		c.errorf(p, KindUnknown, "unknown table %q in from of query %s%s", f.Table.Name, q.Name, c.tableHint(f.Table.Name))
		return false
	case d.table != nil:
		v.Kind, v.Table = RowVar, d.table
	case d.event != nil:
		v.Kind, v.Event = EventVar, d.event
	default:
		c.errorf(p, KindType, "from %s in query %s: %s is %s; from names a table or an event table%s", f.Table.Name, q.Name, f.Table.Name, article(d.what), lifeHint(d))
		return false
	}
	if !c.newVar(b, f.Var, v) {
		return false
	}
	q.From = v
	b.sys.From = v
	return true
}

// queryJoin checks `[left] join TABLE VAR on VAR.COLUMN` or `... on VAR`.
func (c *checker) queryJoin(b *bodyState, j *synQueryJoin) bool {
	q := b.query
	p := c.pos(j.Table.Pos)
	d, ok := c.names[j.Table.Name]
	switch {
	case !ok:
		c.errorf(p, KindUnknown, "unknown table %q in join of query %s%s", j.Table.Name, q.Name, c.hint(j.Table.Name, "table"))
		return false
	case d.table == nil:
		c.errorf(p, KindType, "join %s in query %s: %s is %s; a join finds a row of a table", j.Table.Name, q.Name, j.Table.Name, article(d.what))
		return false
	case len(q.Joins) == maxJoins:
		c.errorf(p, KindValue, "query %s has more than %d joins; split it", q.Name, maxJoins)
		return false
	}
	vp := c.pos(j.On.Pos)
	on := b.vars[j.On.Name]
	if on == nil {
		if !b.broken[j.On.Name] {
			c.errorf(vp, KindUnknown, "unknown row variable %q in join %s %s%s", j.On.Name, j.Table.Name, j.Var.Name, suggest(j.On.Name, b.varNames(), "the row variables"))
		}
		return false
	}
	jn := &Join{Pos: p, Table: d.table, Index: len(q.Joins), Left: j.Left, On: on}
	if j.Column == nil {
		// The same entity's row in another table of the domain.
		jn.Kind = EntityJoin
		switch {
		case on.Kind == EventVar:
			c.errorf(vp, KindType, "join %s %s on %s: %s is an event, which has no entity; join through a ref field (on %s.FIELD)", j.Table.Name, j.Var.Name, on.Name, on.Name, on.Name)
			return false
		case on.Table.Domain == nil || on.Table.Domain != d.table.Domain:
			c.errorf(vp, KindType, "join %s %s on %s: %s; an entity join finds the same entity's row in another table of its domain; join through a ref column (on %s.COLUMN) instead",
				j.Table.Name, j.Var.Name, on.Name, domainsText(on, d.table), on.Name)
			return false
		}
	} else {
		ex := c.column(&scope{c: c, b: b, guard: ^uint64(0)}, j.On, j.Column, j.Field, nil, false)
		if invalid(ex) {
			return false
		}
		via := ex.(*ColRef).Column
		want := Type{Kind: Ref, Table: d.table}
		if via.Type.Kind != Ref || !via.Type.Identical(want) {
			need := "ref " + d.table.Name
			if d.table.Domain != nil {
				need = "ref of a table of domain " + d.table.Domain.Name
			}
			c.errorf(vp, KindType, "join %s %s on %s.%s: %s.%s is %s, and a join into %s needs a %s", j.Table.Name, j.Var.Name,
				on.Name, via.Name, on.Name, via.Name, via.Type, j.Table.Name, need)
			return false
		}
		jn.Via = via
	}
	v := &Var{Kind: JoinVar, Table: d.table, Join: jn}
	if !c.newVar(b, j.Var, v) {
		return false
	}
	jn.Var = v
	q.Joins = append(q.Joins, jn)
	b.sys.Joins = append(b.sys.Joins, jn)
	return true
}

// domainsText says which domains v's table and t are in.
func domainsText(v *Var, t *Table) string {
	in := func(t *Table) string {
		if t.Domain == nil {
			return t.Name + " is a standalone table"
		}
		return t.Name + " is in domain " + t.Domain.Name
	}
	return in(t) + " and " + v.Name + "'s table " + in(v.Table)
}

// has checks has(v, TABLE).
func (c *checker) has(sc *scope, p Pos, args []*synExpr) Expr {
	if len(args) != 2 {
		c.errorf(p, KindType, "has takes a row variable and a table, has(v, TABLE), not %d arguments", len(args))
		return bad(p)
	}
	vid, tid := bareName(args[0]), bareName(args[1])
	var v *Var
	if vid != nil {
		if sc.b.broken[vid.Name] {
			return bad(p)
		}
		v = sc.b.vars[vid.Name]
	}
	if v == nil || v.Kind == EventVar {
		c.errorf(c.pos(args[0].Pos), KindType, "has needs a row variable of a table first (has(v, TABLE)), not %s", exprText(args[0]))
		return bad(p)
	}
	var t *Table
	if tid != nil {
		t = c.names[tid.Name].table
	}
	if t == nil {
		c.errorf(c.pos(args[1].Pos), KindUnknown, "has(%s, %s): %s is not a table%s", v.Name, exprText(args[1]), exprText(args[1]), c.tableHint(exprText(args[1])))
		return bad(p)
	}
	if v.Table.Domain == nil || t.Domain != v.Table.Domain {
		var names []string
		if v.Table.Domain != nil {
			for _, m := range v.Table.Domain.Tables {
				names = append(names, m.Name)
			}
		}
		fix := "has tests the tables of its variable's domain"
		if len(names) > 0 {
			fix += " (" + strings.Join(names, ", ") + ")"
		}
		c.errorf(c.pos(args[1].Pos), KindType, "has(%s, %s): %s; %s", v.Name, t.Name, domainsText(v, t), fix)
		return bad(p)
	}
	if v.Kind == RowVar {
		sc.b.access.Handle = true
	}
	return &Has{Pos: p, Var: v, Table: t}
}

// misplacedAggregate refuses an aggregate where none may stand.
func (c *checker) misplacedAggregate(sc *scope, p Pos, fn string) {
	switch {
	case sc.b == nil || sc.b.query == nil:
		c.errorf(p, KindUnknown, "%s() is an aggregate of a query's select; a system counts with count NAME", fn)
	case sc.aggAt == "an aggregate's argument":
		c.errorf(p, KindType, "nested aggregate %s() in query %s: an aggregate's argument is a row's expression; aggregate once", fn, sc.b.query.Name)
	case sc.aggAt == "":
		c.errorf(p, KindType, "aggregate %s() inside an expression of query %s: an aggregate is a whole select item or order key (sum(v.X) as S), never part of one", fn, sc.b.query.Name)
	default:
		c.errorf(p, KindType, "aggregate %s() in %s of query %s: aggregates are select items or order keys; filter rows in where, groups by their keys", fn, sc.aggAt, sc.b.query.Name)
	}
}

// aggCall returns the aggregate function and arguments of an expression
// that is one call of count, sum, min, max or avg.
func aggCall(e *synExpr) (AggKind, []*synExpr, bool) {
	if e == nil || len(e.Right) > 0 || len(e.Left.Right) > 0 {
		return 0, nil, false
	}
	n := e.Left.Left
	if n.Cmp == nil || n.Cmp.Op != "" || len(n.Cmp.Left.Right) > 0 || len(n.Cmp.Left.Left.Right) > 0 {
		return 0, nil, false
	}
	u := n.Cmp.Left.Left.Left
	if u.Primary == nil {
		return 0, nil, false
	}
	if u.Primary.Count {
		return Count, nil, true
	}
	if u.Primary.Name == nil || !u.Primary.Name.Call {
		return 0, nil, false
	}
	switch u.Primary.Name.Name.Name {
	case "sum":
		return Sum, u.Primary.Name.Args, true
	case "min":
		return Min, u.Primary.Name.Args, true
	case "max":
		return Max, u.Primary.Name.Args, true
	case "avg":
		return Avg, u.Primary.Name.Args, true
	}
	return 0, nil, false
}

// aggregate checks an aggregate call and records it in q.Aggregates.
func (c *checker) aggregate(q *Query, sc *scope, p Pos, k AggKind, args []*synExpr) *Aggregate {
	a := &Aggregate{Pos: p, Kind: k}
	if k == Count {
		a.T = Type{Kind: Int64}
	} else {
		if len(args) != 1 {
			c.errorf(p, KindType, "%s takes one argument, not %d", k, len(args))
			return nil
		}
		as := *sc
		as.aggAt = "an aggregate's argument"
		x := c.expr(&as, args[0])
		if invalid(x) {
			return nil
		}
		if x.Type().IsUntyped() {
			if _, lit := x.(*Lit); lit {
				c.errorf(x.Position(), KindType, "%s(%s) in query %s aggregates a constant; aggregate a column or an expression of one", k, exprText(args[0]), q.Name)
				return nil
			}
		}
		t := x.Type()
		if !t.IsNumeric() {
			c.errorf(x.Position(), KindType, "%s needs a number, not %s (%s)", k, describeExpr(x), t)
			return nil
		}
		a.X = x
		switch {
		case k == Avg || (k == Sum && t.IsFloat()):
			a.T = Type{Kind: Float64}
		case k == Sum:
			a.T = Type{Kind: Int64}
		default:
			a.T = t
		}
	}
	a.Index = len(q.Aggregates)
	q.Aggregates = append(q.Aggregates, a)
	return a
}

// resultName is the default result name of a select item, or "".
func resultName(x Expr) string {
	switch x := x.(type) {
	case *ColRef:
		if x.Column.Group != nil {
			return upperFirst(x.Column.Group.Name) + upperFirst(x.Column.Field.Name)
		}
		return upperFirst(x.Column.Name)
	case *VarRef:
		return upperFirst(x.Var.Table.Name)
	}
	return ""
}

// upperFirst upper-cases the first letter of an ASCII name.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// selectItems checks the select list.
func (c *checker) selectItems(q *Query, sc *scope, body *synQueryBody, groupText []string) {
	of := "query " + q.Name
	names := map[string]Pos{}
	rows := -1 // the first item that is neither an aggregate nor a group key
	for _, it := range body.Select {
		p := c.pos(it.Expr.Pos)
		item := &SelectItem{Pos: p, Group: -1}
		text := exprText(it.Expr)
		if wn, ok := windowCall(it.Expr); ok {
			item.Win = c.window(q, sc, p, wn)
			if item.Win == nil {
				continue
			}
			item.T = item.Win.T
			if item.Win.X != nil && resultName(item.Win.X) != "" {
				if _, isVar := item.Win.X.(*VarRef); !isVar {
					item.Name = "Sum" + resultName(item.Win.X)
				}
			}
		} else if k, args, ok := aggCall(it.Expr); ok {
			item.Agg = c.aggregate(q, sc, p, k, args)
			if item.Agg == nil {
				continue
			}
			item.T = item.Agg.T
			switch {
			case k == Count:
				item.Name = "Count"
			case item.Agg.X != nil && resultName(item.Agg.X) != "":
				if _, isVar := item.Agg.X.(*VarRef); !isVar {
					item.Name = upperFirst(k.String()) + resultName(item.Agg.X)
				}
			}
		} else {
			ss := *sc
			x := c.expr(&ss, it.Expr)
			if invalid(x) {
				continue
			}
			if x.Type().IsUntyped() {
				x = c.convertTo(x, defaultType(x.Type()), "select")
			}
			item.Expr, item.T = x, x.Type()
			item.Name = resultName(x)
			if len(body.Group) > 0 {
				item.Group = slices.Index(groupText, text)
				if item.Group < 0 {
					c.errorf(p, KindType, "select item %s of %s is neither a group key nor an aggregate; add it to group by, or aggregate it (min(%s), max(%s), ...)", text, of, text, text)
					continue
				}
			} else if rows < 0 {
				rows = len(q.Select)
			}
		}
		if it.As != nil {
			item.Name = it.As.Name
			if r := rune(item.Name[0]); !unicode.IsLetter(r) {
				c.errorf(c.pos(it.As.Pos), KindValue, "result name %q of %s must start with a letter (it becomes an exported Go field); rename it", item.Name, of)
				continue
			}
			item.Name = upperFirst(item.Name)
		}
		switch {
		case item.Name == "":
			c.errorf(p, KindMissing, "select item %s of %s needs a result name; add as NAME", text, of)
			continue
		case names[item.Name] != (Pos{}):
			c.errorf(p, KindDuplicate, "select item %s of %s has the result name %s of the item at %s; add as NAME to one of them", text, of, item.Name, names[item.Name])
			continue
		}
		names[item.Name] = p
		q.Select = append(q.Select, item)
	}
	if rows >= 0 && len(q.Aggregates) > 0 {
		it := q.Select[rows]
		c.errorf(it.Pos, KindType, "select of %s mixes rows (%s) and aggregates; group by the row's keys, or aggregate every item", of, it.Name)
	}
	if q.Distinct && len(q.Aggregates) > 0 {
		c.errorf(c.pos(body.Select[0].Pos), KindType, "select distinct of %s with aggregates: groups are distinct already; drop distinct", of)
	}
}

// defaultType is the type an untyped constant takes on its own.
func defaultType(t Type) Type {
	if t.Kind == UntypedFloat {
		return Type{Kind: Float64}
	}
	return Type{Kind: Int64}
}

// orderKeys checks the order by list.
func (c *checker) orderKeys(q *Query, sc *scope, body *synQueryBody, groupText []string) {
	of := "query " + q.Name
	grouped := len(q.GroupBy) > 0 || len(q.Aggregates) > 0
	for _, o := range body.Order {
		p := c.pos(o.Expr.Pos)
		if wn, ok := windowCall(o.Expr); ok {
			ws := *sc
			ws.aggAt = "an order key"
			c.misplacedWindow(&ws, p, wn.Name.Name)
			continue
		}
		key := &OrderKey{Pos: p, Item: -1, Group: -1, Desc: o.Dir == "desc"}
		text := exprText(o.Expr)
		if id := bareName(o.Expr); id != nil && sc.b.vars[id.Name] == nil && sc.b.params[id.Name] == nil {
			for i, it := range q.Select {
				if it.Name == upperFirst(id.Name) {
					key.Item = i
				}
			}
		}
		if key.Item < 0 {
			for i, it := range body.Select {
				if exprText(it.Expr) == text && i < len(q.Select) {
					if idx := slices.IndexFunc(q.Select, func(s *SelectItem) bool { return s.Pos == c.pos(it.Expr.Pos) }); idx >= 0 {
						key.Item = idx
					}
				}
			}
		}
		switch k, args, isAgg := aggCall(o.Expr); {
		case key.Item >= 0:
			key.T = q.Select[key.Item].T
		case isAgg && !grouped:
			c.errorf(p, KindType, "order by %s in %s: an aggregate orders groups, and this query has none; group by a key", text, of)
			continue
		case isAgg:
			key.Agg = c.aggregate(q, sc, p, k, args)
			if key.Agg == nil {
				continue
			}
			key.T = key.Agg.T
		default:
			os := *sc
			os.aggAt = ""
			x := c.expr(&os, o.Expr)
			if invalid(x) {
				continue
			}
			if _, lit := x.(*Lit); lit {
				c.errorf(p, KindType, "order by %s in %s is a constant, which orders nothing; order by a column, an expression of one or a result name", text, of)
				continue
			}
			if grouped {
				key.Group = slices.Index(groupText, text)
				if key.Group < 0 {
					c.errorf(p, KindType, "order by %s in %s is neither a group key nor an aggregate; order groups by their keys, aggregates or result names", text, of)
					continue
				}
			}
			key.Expr, key.T = x, x.Type()
		}
		if !keyType(key.T) {
			c.errorf(p, KindType, "order by %s in %s: %s does not order; order keys are numbers, bool or ref (by entity index)", text, of, key.T)
			continue
		}
		if q.Distinct && key.Item < 0 {
			c.errorf(p, KindType, "order by %s in %s with select distinct: order a distinct result by its select items only", text, of)
			continue
		}
		q.OrderBy = append(q.OrderBy, key)
	}
}

// limit checks a limit: an integer parameter or a constant at least 0.
func (c *checker) limit(sc *scope, e *synExpr, of string) Expr {
	x := c.expr(sc, e)
	if invalid(x) {
		return nil
	}
	switch x := x.(type) {
	case *ParamRef:
		if k := x.Type().Kind; k == Int32 || k == Int64 {
			return x
		}
	case *Lit:
		if x.Type().IsInteger() {
			if n, exact := constant.Int64Val(x.Value); !exact || n < 0 || n > 1<<31-1 {
				c.errorf(x.Pos, KindValue, "limit %s of %s is outside 0..%d", x.Value, of, 1<<31-1)
				return nil
			}
			return c.convertTo(x, Type{Kind: Int64}, "limit")
		}
	}
	c.errorf(x.Position(), KindType, "limit of %s must be an int32 or int64 parameter or an integer constant, not %s", of, describeExpr(x))
	return nil
}

// Conjuncts returns the operands of e's top-level ands, left to right (e
// itself when it is no and): the planners' and the generator's view of a
// where. It allocates the slice; set-up only.
func Conjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == And {
		return append(Conjuncts(b.X), Conjuncts(b.Y)...)
	}
	return []Expr{e}
}

// planProbe finds a top-level conjunct `v == p` of the where (v the from
// row, p a ref parameter of its table) and makes the query a probe.
func (c *checker) planProbe(q *Query) {
	if q.Where == nil || q.From.Kind != RowVar {
		return
	}
	conj := Conjuncts(q.Where)
	for i, e := range conj {
		b, ok := e.(*Binary)
		if !ok || b.Op != Eq {
			continue
		}
		v, p := b.X, b.Y
		if _, ok := v.(*ParamRef); ok {
			v, p = p, v
		}
		vr, ok1 := v.(*VarRef)
		pr, ok2 := p.(*ParamRef)
		if !ok1 || !ok2 || vr.Var != q.From {
			continue
		}
		q.Probe = pr.Param
		rest := slices.Delete(conj, i, i+1)
		q.Where = nil
		for _, r := range rest {
			if q.Where == nil {
				q.Where = r
				continue
			}
			q.Where = &Binary{Pos: q.Where.Position(), Op: And, X: q.Where, Y: r, T: Type{Kind: Bool}}
		}
		return
	}
}

// queryAccess derives what a query reads.
func (c *checker) queryAccess(b *bodyState, q *Query) {
	a := &Access{}
	u := &useWalk{a: a, at: map[useKey]int{}}
	var presence []*Table
	for _, j := range q.Joins {
		if j.Via != nil {
			u.note(j.On, j.Via, false, true)
		}
		presence = addTable(presence, j.Table)
	}
	var exprs []Expr
	if q.Where != nil {
		exprs = append(exprs, q.Where)
	}
	exprs = append(exprs, q.GroupBy...)
	for _, it := range q.Select {
		if it.Expr != nil {
			exprs = append(exprs, it.Expr)
		}
	}
	for _, k := range q.OrderBy {
		if k.Expr != nil {
			exprs = append(exprs, k.Expr)
		}
	}
	for _, ag := range q.Aggregates {
		if ag.X != nil {
			exprs = append(exprs, ag.X)
		}
	}
	exprs = append(exprs, windowExprs(q)...)
	handle := q.Probe != nil
	for _, e := range exprs {
		walkExpr(e, func(e Expr) {
			switch e := e.(type) {
			case *ColRef:
				u.note(e.Var, e.Column, false, false)
			case *Has:
				presence = addTable(presence, e.Table)
				if e.Var.Kind == RowVar {
					handle = true
				}
			case *VarRef:
				if e.Var.Kind == RowVar {
					handle = true
				}
			}
		})
	}
	for _, j := range q.Joins {
		if j.Kind == EntityJoin && j.On.Kind == RowVar {
			handle = true
		}
	}
	vars := []*Var{q.From}
	for _, j := range q.Joins {
		vars = append(vars, j.Var)
	}
	slices.SortStableFunc(a.Uses, func(x, y Use) int {
		if x.Var != y.Var {
			return slices.Index(vars, x.Var) - slices.Index(vars, y.Var)
		}
		return x.Column.Index - y.Column.Index
	})
	read := map[*Column]bool{}
	for _, us := range a.Uses {
		if us.Var.Kind != EventVar {
			read[us.Column] = true
		}
	}
	presence = semiAccess(q, read, presence)
	qa := QueryAccess{Uses: a.Uses, Handle: handle}
	for _, t := range c.s.Tables {
		for _, k := range t.Columns {
			if read[k] {
				qa.Reads = append(qa.Reads, k)
			}
		}
	}
	if q.From.Kind == RowVar {
		presence = addTable(presence, q.From.Table)
	} else {
		qa.Events = []*EventTable{q.From.Event}
	}
	qa.Presence = inTableOrder(c.s.Tables, presence)
	q.Access = qa
}

// walkExpr calls fn on e and each of its subexpressions.
func walkExpr(e Expr, fn func(Expr)) {
	fn(e)
	switch e := e.(type) {
	case *ResRef:
		if e.Index != nil {
			walkExpr(e.Index, fn)
		}
	case *Unary:
		walkExpr(e.X, fn)
	case *Binary:
		walkExpr(e.X, fn)
		walkExpr(e.Y, fn)
	case *Convert:
		walkExpr(e.X, fn)
	case *Floor:
		walkExpr(e.X, fn)
	case *IndexOf:
		walkExpr(e.X, fn)
	}
}

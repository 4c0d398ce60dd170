package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The declared subscriptions (docs/schema.md, Subscriptions): each is a
// row struct SRow of the columns its query reads, a type S embedding the
// engine's kept result (tickwork.SubFilter, SubCount, SubGroupSum,
// SubTopN) with the query's parameters bound at SubscribeS, and Result,
// which turns what the kept result hands out into the query's row.

// subscriptionNames are the package-level Go names a subscription S
// defines.
func subscriptionNames(name string) []string {
	n := exported(name)
	return []string{n, n + "Row", "Subscribe" + n}
}

// subGen generates one subscription.
type subGen struct {
	g     *gen
	s     *schema.Subscription
	q     *schema.Query
	name  string // Go type name
	param []string
	// in: the closures' names of the parameters; at: Result's
	in, at *sysGen
}

func (g *gen) subscriptions() {
	for _, s := range g.s.Subscriptions {
		newSubGen(g, s).subscription()
	}
}

func newSubGen(g *gen, s *schema.Subscription) *subGen {
	sg := &subGen{g: g, s: s, q: s.Query, name: exported(s.Name)}
	loc := newLocals(append([]string{"b", "t", "sub", "r", "e", "gr", "s", "n"}, g.top...)...)
	y := &schema.System{Name: s.Name, From: s.Query.From}
	sg.in = &sysGen{g: g, y: y, env: map[string]string{}}
	sg.at = &sysGen{g: g, y: y, env: map[string]string{}}
	for _, p := range s.Query.Params {
		n := loc.name(unexported(p.Name)) // a field of S too: never its embedded field or Result
		sg.param = append(sg.param, n)
		sg.in.env["param:"+p.Name] = n
		sg.at.env["param:"+p.Name] = "s." + n
	}
	v := s.Query.From.Name
	for _, c := range s.Columns {
		sg.in.env["col:"+v+"."+c.Name] = "r." + goCol(c)
		sg.at.env["col:"+v+"."+c.Name] = "r." + goCol(c)
	}
	sg.at.env["handle:"+v] = "e.Handle"
	return sg
}

// rowType is the subscription's row struct.
func (sg *subGen) rowType() string { return sg.name + "Row" }

// keyType is the Go type of a grouped sum's or a top-N's key: the key's
// ordering form (keyForm), a ref group key rotated so that it converts
// back.
func (sg *subGen) keyType() string {
	t := sg.s.Key.Type()
	if sg.s.Kind == schema.SubGroup && t.Kind == schema.Ref {
		return "uint64"
	}
	_, k := keyForm("", t)
	return k
}

// key is the Go source of the key of row r.
func (sg *subGen) key() string {
	x := sg.in.code(sg.s.Key)
	if sg.s.Kind == schema.SubGroup {
		switch sg.s.Key.Type().Kind {
		case schema.Ref:
			return "uint64(" + x + ")<<32 | uint64(" + x + ")>>32"
		case schema.Bool:
			k, _ := keyForm(x, sg.s.Key.Type())
			return k
		}
		return x
	}
	k, _ := keyForm(x, sg.s.Key.Type())
	if !sg.s.Desc {
		return "^" + paren(k, precPrimary, precUnary) // the root ranks the greatest first
	}
	return k
}

// rootType is the engine's kept result S embeds.
func (sg *subGen) rootType() string {
	switch sg.s.Kind {
	case schema.SubCount:
		return "SubCount[" + sg.rowType() + "]"
	case schema.SubGroup:
		return "SubGroupSum[" + sg.rowType() + ", " + sg.keyType() + ", int64]"
	case schema.SubTop:
		return "SubTopN[" + sg.rowType() + ", " + sg.keyType() + "]"
	}
	return "SubFilter[" + sg.rowType() + "]"
}

// kindDoc says what S is and the order of its delta.
func (sg *subGen) kindDoc() string {
	switch sg.s.Kind {
	case schema.SubCount:
		return "a count (tickwork.SubCount): Read hands out the count before and after"
	case schema.SubGroup:
		key := "the group key itself"
		switch sg.s.Key.Type().Kind {
		case schema.Bool:
			key = "0 for false, 1 for true"
		case schema.Ref:
			key = "the handle's words swapped, so that keys order by entity index (Result converts back)"
		}
		return "a grouped sum (tickwork.SubGroupSum, Sum 0 when the query sums nothing): Read hands out the groups whose sum or row count changed, in ascending key order (the query's group order; Key is " + key + ")"
	case schema.SubTop:
		dir := "the order key itself (desc)"
		if !sg.s.Desc {
			dir = "the order key's ordering form complemented (asc), so that the greatest Key is the query's first row"
		}
		return "a top-N (tickwork.SubTopN): Read hands out, rank by rank in ascending rank, the ranks whose entry changed; rank i is row i of the query's Run, ties in ascending entity index; Key is " + dir
	}
	return "a filter (tickwork.SubFilter): Read hands out the rows that entered, left or changed (in one of " + sg.rowType() + "'s columns, a where-only one included), each list in ascending row order"
}

func (sg *subGen) subscription() {
	g, s, q := sg.g, sg.s, sg.q
	g.doc("%s is the row of subscription %s (%s): the columns of table %s that query %s reads, each paired with its column by name (docs/architecture.md, Subscriptions).",
		sg.rowType(), s.Name, g.where(s.Pos), q.From.Table.Name, q.Name)
	g.p("type %s struct {", sg.rowType())
	for _, c := range s.Columns {
		tag := ""
		if goCol(c) != c.Name {
			tag = fmt.Sprintf(" `tickwork:%q`", c.Name)
		}
		g.p("%s %s%s", goCol(c), goType(c.Type), tag)
	}
	g.p("}")
	g.p("")
	g.doc("%s is subscription %s of query %s (%s), %s. Its methods are the host's, between frames (docs/architecture.md, Subscriptions).",
		sg.name, s.Name, q.Name, g.where(s.Pos), sg.kindDoc())
	g.p("type %s struct {", sg.name)
	g.p("*tickwork.%s", sg.rootType())
	for i, p := range q.Params {
		g.p("%s %s // parameter %s of query %s, bound at Subscribe%s", sg.param[i], goType(p.Type), p.Name, q.Name, sg.name)
	}
	g.p("}")
	g.p("")
	sg.subscribe()
	sg.result()
}

// signature is SubscribeS's parameters after b and t.
func (sg *subGen) signature() string {
	var ps []string
	for i, p := range sg.q.Params {
		ps = append(ps, ", "+sg.param[i]+" "+goType(p.Type))
	}
	return strings.Join(ps, "")
}

// subscribe writes SubscribeS.
func (sg *subGen) subscribe() {
	g, s, q := sg.g, sg.s, sg.q
	root := map[schema.SubKind]string{schema.SubFilter: "SubscribeFilter", schema.SubCount: "SubscribeCount",
		schema.SubGroup: "SubscribeGroupSum", schema.SubTop: "SubscribeTopN"}[s.Kind]
	extra := ""
	if s.Kind == schema.SubTop {
		if p, ok := q.Limit.(*schema.ParamRef); ok {
			extra = fmt.Sprintf(" A limit %s below 1 records that error too (TopSpec needs N of at least 1); a limit above the table's capacity keeps the capacity's ranks.", p.Param.Name)
		} else {
			extra = " A limit above the table's capacity keeps the capacity's ranks."
		}
	}
	g.doc("Subscribe%s declares subscription %s of query %s on b, over t's table %s, with the query's parameters bound now (the kept result tests them in every later frame). Call it after Declare and before Build. Errors as tickwork.%s's: it records a *tickwork.SubscriptionError on b (Build returns it) and returns nil.%s Set-up only.",
		sg.name, s.Name, q.Name, q.From.Table.Name, root, extra)
	g.p("func Subscribe%s(b *tickwork.Builder, t *Tables%s) *%s {", sg.name, sg.signature(), sg.name)
	where := ""
	if q.Where != nil {
		where = fmt.Sprintf(", Where: func(r *%s) bool { return %s }", sg.rowType(), sg.in.code(q.Where))
	}
	tb := tableRef(q.From.Table)
	switch s.Kind {
	case schema.SubFilter, schema.SubCount:
		g.p("sub := tickwork.%s(b, %s, tickwork.FilterSpec[%s]{Name: %q%s})", root, tb, sg.rowType(), s.Name, where)
	case schema.SubGroup:
		sum := "0"
		if s.Sum != nil {
			sum = "int64(" + sg.in.code(s.Sum.X) + ")"
		}
		g.p("sub := tickwork.SubscribeGroupSum(b, %s, tickwork.GroupSumSpec[%s, %s, int64]{Name: %q%s,", tb, sg.rowType(), sg.keyType(), s.Name, where)
		g.p("Key: func(r *%s) %s { return %s },", sg.rowType(), sg.keyType(), sg.key())
		g.p("Sum: func(r *%s) int64 { return %s }})", sg.rowType(), sum)
	case schema.SubTop:
		g.p("n := 0")
		g.p("if %s != nil {", tb)
		g.p("n = tickwork.QueryBound(int64(%s), %s.Cap())", sg.in.code(q.Limit), tb)
		g.p("}")
		g.p("sub := tickwork.SubscribeTopN(b, %s, tickwork.TopSpec[%s, %s]{Name: %q, N: n%s,", tb, sg.rowType(), sg.keyType(), s.Name, where)
		g.p("Key: func(r *%s) %s { return %s }})", sg.rowType(), sg.keyType(), sg.key())
	}
	g.p("if sub == nil {")
	g.p("return nil")
	g.p("}")
	lit := []string{sg.rootField() + ": sub"}
	for _, n := range sg.param {
		lit = append(lit, n+": "+n)
	}
	g.p("return &%s{%s}", sg.name, strings.Join(lit, ", "))
	g.p("}")
	g.p("")
}

// rootField is the name of S's embedded field.
func (sg *subGen) rootField() string {
	r := sg.rootType()
	return r[:strings.IndexByte(r, '[')]
}

// result writes Result: the query's row of what the kept result hands out.
func (sg *subGen) result() {
	g, s, q := sg.g, sg.s, sg.q
	qrow := exported(q.Name) + "Row"
	var items []string
	switch s.Kind {
	case schema.SubCount:
		g.doc("Result is query %s's one row of the count handed out by the last Read.", q.Name)
		g.p("func (s *%s) Result() %s {", sg.name, qrow)
		for _, it := range q.Select {
			items = append(items, it.Name+": int64(s.Count())")
		}
	case schema.SubGroup:
		g.doc("Result is the row of query %s's result that group gr is (Group, Groups).", q.Name)
		g.p("func (s *%s) Result(gr tickwork.Group[%s, int64]) %s {", sg.name, sg.keyType(), qrow)
		for _, it := range q.Select {
			switch {
			case it.Agg != nil && it.Agg.Kind == schema.Count:
				items = append(items, it.Name+": int64(gr.Rows)")
			case it.Agg != nil:
				items = append(items, it.Name+": gr.Sum")
			default:
				items = append(items, it.Name+": "+sg.keyValue())
			}
		}
	default:
		arg := "tickwork.SubRow[" + sg.rowType() + "]"
		if s.Kind == schema.SubTop {
			arg = "tickwork.Ranked[" + sg.rowType() + ", " + sg.keyType() + "]"
		}
		g.doc("Result is the row of query %s's result that e is: its selected values, computed from e's row.", q.Name)
		g.p("func (s *%s) Result(e %s) %s {", sg.name, arg, qrow)
		if sg.selectReadsColumns() {
			g.p("r := &e.Value")
		}
		for _, it := range q.Select {
			items = append(items, it.Name+": "+sg.at.code(it.Expr))
		}
	}
	g.p("return %s{%s}", qrow, strings.Join(items, ", "))
	g.p("}")
	g.p("")
}

// keyValue is the Go source of a group's key as the query's value.
func (sg *subGen) keyValue() string {
	switch sg.s.Key.Type().Kind {
	case schema.Bool:
		return "gr.Key == 1"
	case schema.Ref:
		return "tickwork.Handle(gr.Key<<32 | gr.Key>>32)"
	}
	return "gr.Key"
}

// selectReadsColumns: a select item of the query reads a column.
func (sg *subGen) selectReadsColumns() bool {
	reads := false
	for _, it := range sg.q.Select {
		if it.Expr != nil {
			walk(it.Expr, func(x schema.Expr) {
				if _, ok := x.(*schema.ColRef); ok {
					reads = true
				}
			})
		}
	}
	return reads
}

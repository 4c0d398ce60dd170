package runq

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// Column is one field of a prepared query's result: its name (the
// generated row type's field name) and its kind.
type Column struct {
	Name string
	Kind schema.TypeKind
}

// Query is a prepared run-time query: compiled once by [Prepare], run many
// times with new arguments by [Query.Run]. A Query keeps its scratch (the
// sort entries, the group table, the distinct set) and is used from one
// goroutine at a time, between frames (as a generated query's NewQ);
// prepare one per goroutine.
type Query struct {
	def    *schema.Query
	bt     *boundTable
	cols   []Column
	args   []Value
	budget int64

	where      func(int) bool     // nil: every row
	after      []func(int) uint64 // a keyset page's values as order keys (nil: none)
	wins       []*winSpec
	exists     []*existsSpec
	set        *setSpec
	keepIndex  bool    // a set operation's side: record fromIdx
	fromIdx    []int32 // the from row of each row collected
	joins      []joinSpec
	jrow       []int             // per join: the current from row's joined row, -1 if none
	jh         []tickwork.Handle // per join: its handle, zero if none
	sel        *selector         // where over spans of rows (nil: every row)
	selBuf     []int32
	probe      int               // the handle parameter of a point lookup, -1 if none
	uniq, rest func(int) bool    // a unique key lookup: the key conjunct, the others (nil: none)
	items      []*ex             // per select item: its expression (nil for an aggregate or group key)
	vals       []func(int) Value // an ungrouped query's items as Value closures
	itemAgg    []int             // per select item: its aggregate, -1 if none
	itemGroup  []int             // per select item: its group key, -1 if none
	groups     []*ex
	aggs       []aggSpec
	order      []keySpec
	limit      *ex
	plan       string
	span       spanState
	pointItems []pointItem
	countLen   bool // count() items alone over a whole table: its Table.Len, no scan (countOnly)
	point      bool // a point lookup by handle without joins, exists, groups, order, limit, after or windows: runPoint

	// scratch, reused by every Run
	rows    []Value
	keys    []uint64
	perm    []int32
	seen    map[[maxDistinct]uint64]struct{}
	gindex  groupTable
	gstate  []group
	accs    []acc
	cmpFn   func(a, b int32) int
	topFn   func(a, b int32) int
	seq     []int64  // a top-N's slots: scan position
	slotRow []int32  // a top-N's slots: the from row
	topRows []int32  // a top-N's kept rows in result order
	tmp     []uint64 // a top-N's key of the current row
	gcmpFn  func(a, b int32) int
	visited int64
}

// maxDistinct bounds the select items of a distinct query the interpreter
// runs.
const maxDistinct = 8

type aggSpec struct {
	kind schema.AggKind
	x    *ex
	t    schema.TypeKind
	add  adder
}

// keySpec is one order key: an expression (ungrouped), or a group key, an
// aggregate or a select item (grouped); desc reverses it.
type keySpec struct {
	x     *ex
	key   func(int) uint64 // ungrouped: x's ordering key, desc applied
	group int
	agg   int
	item  int
	desc  bool
}

// Columns are the result's fields in select order; Run's rows are
// len(Columns()) values each.
func (q *Query) Columns() []Column { return q.cols }

// Params are the query's parameters in declaration order: Run's args.
func (q *Query) Params() []*schema.Param { return q.def.Params }

// Plan is how the interpreter runs the query: its access path and what it
// does with the rows, in the generated Plan's words.
func (q *Query) Plan() string { return q.plan }

// SetBudget bounds the rows one Run visits (live rows scanned or probed;
// checked per run of live rows of a chunk, so a Run may visit up to one
// chunk's rows past it before it stops); n <= 0: no bound (the default).
func (q *Query) SetBudget(n int64) { q.budget = n }

// Visited is the rows the last Run visited.
func (q *Query) Visited() int64 { return q.visited }

func compile(cat *Catalog, def *schema.Query, skip int) (*Query, error) {
	var q *Query
	var err error
	if def.SetOp != nil {
		q, err = compileSet(cat, def, skip)
	} else {
		q, err = compileSide(cat, def, skip, len(def.Params))
	}
	if err == nil {
		for i, p := range def.Params {
			q.args[i].kind = p.Type.Kind // Run checks its arguments' kinds against these
		}
	}
	return q, err
}

// compileSide compiles a query (or a set operation's side) reading
// nparams arguments.
func compileSide(cat *Catalog, def *schema.Query, skip, nparams int) (*Query, error) {
	q := &Query{def: def, probe: -1, args: make([]Value, nparams)}
	pos := def.Pos
	bad := func(p schema.Pos, what string) error {
		return &Error{Pos: textPos(p, skip), Kind: ErrUnsupported,
			Msg: fmt.Sprintf("%s is not run by the interpreter yet; declare the query in the .tw file", what)}
	}
	switch {
	case def.SetOp != nil:
		return nil, bad(pos, "a set operation (union, intersect, except)")
	case def.From == nil:
		return nil, bad(pos, "a query without a from table")
	case def.From.Kind != schema.RowVar:
		return nil, bad(def.From.Pos, "a query over an event table")
	case len(def.After) > 0 && def.Distinct:
		return nil, bad(def.After[0].Position(), "keyset pagination (after) with distinct")
	case def.Distinct && len(def.Select) > maxDistinct:
		return nil, bad(pos, fmt.Sprintf("distinct over more than %d items", maxDistinct))
	}
	bt := cat.tables[def.From.Table.Name]
	if bt == nil {
		return nil, &Error{Pos: textPos(def.From.Pos, skip), Kind: ErrCatalog,
			Msg: "table " + def.From.Table.Name + " is not bound in the catalog; bind it (BindTable, BindColumn) before Prepare"}
	}
	q.bt = bt
	c := &compiler{cat: cat, from: def.From, bt: bt, q: q, joinIndex: map[*schema.Var]int{}}
	c.compileJoins(def)
	c.compileExists(def)
	cond := func(e schema.Expr) func(int) bool {
		if e == nil {
			return nil
		}
		return c.expr(e).b
	}
	q.where = cond(def.Where)
	if q.where != nil && c.err == nil && len(def.Joins) == 0 {
		q.sel = c.selectorOf(def.Where, q.where)
	}
	if def.Probe != nil {
		q.probe = def.Probe.Index
	}
	if def.Unique != nil {
		q.uniq, q.rest = cond(def.Unique.Cond), cond(def.Unique.Rest)
	}
	for _, g := range def.GroupBy {
		q.groups = append(q.groups, c.expr(g))
	}
	for _, a := range def.Aggregates {
		s := aggSpec{kind: a.Kind, t: kindOf(a.T)}
		if a.X != nil {
			s.x = c.expr(a.X)
		}
		if c.err == nil {
			s.add = makeAdder(&s)
		}
		q.aggs = append(q.aggs, s)
	}
	for _, it := range def.Select {
		var x *ex
		agg := -1
		switch {
		case it.Agg != nil:
			agg = it.Agg.Index
		case it.Win != nil:
			k := kindOf(it.T)
			x = &ex{k: k, i64: func(int) int64 { return 0 }, f64: func(int) float64 { return 0 }} // filled by fillWindows
		case it.Group < 0:
			x = c.expr(it.Expr)
		}
		q.items, q.itemAgg, q.itemGroup = append(q.items, x), append(q.itemAgg, agg), append(q.itemGroup, it.Group)
		q.cols = append(q.cols, Column{Name: it.Name, Kind: kindOf(it.T)})
	}
	for _, k := range def.OrderBy {
		s := keySpec{group: k.Group, agg: -1, item: k.Item, desc: k.Desc}
		switch {
		case k.Agg != nil:
			s.agg = k.Agg.Index
		case len(def.GroupBy) == 0 && k.Item >= 0:
			s.x = q.items[k.Item]
		case len(def.GroupBy) == 0:
			s.x = c.expr(k.Expr)
		}
		if s.x != nil && c.err == nil {
			s.key = keyOf(s.x, s.desc)
		}
		q.order = append(q.order, s)
	}
	if def.Limit != nil {
		q.limit = c.expr(def.Limit)
	}
	for i, a := range def.After {
		if c.err == nil {
			x := c.expr(a)
			if lit, ok := a.(*schema.Lit); ok && q.order[i].x != nil {
				x = c.lit(lit, q.order[i].x.k) // a constant of its key's type
			}
			q.after = append(q.after, keyOf(x, q.order[i].desc))
		}
	}
	if c.err != nil {
		c.err.Pos = textPos(c.err.Pos, skip)
		return nil, c.err
	}
	c.compileWindows(def)
	if len(def.GroupBy) == 0 && len(def.Aggregates) == 0 {
		for i, x := range q.items {
			q.vals = append(q.vals, c.valueOf(def.Select[i].Expr, x))
		}
	}
	c.compileSpans(def)
	q.point = q.probe >= 0 && len(q.joins) == 0 && len(q.exists) == 0 && q.vals != nil && len(q.order) == 0 &&
		q.limit == nil && q.after == nil && q.wins == nil && !def.Distinct && !q.keepIndex
	if q.point {
		for i, v := range q.vals {
			p := pointItem{val: v}
			if cr, ok := def.Select[i].Expr.(*schema.ColRef); ok && cr.Var == def.From && bt.cols[cr.Column.Index].ok {
				p.k, p.bc = cr.Column.Type.Kind, &bt.cols[cr.Column.Index]
			}
			q.pointItems = append(q.pointItems, p)
		}
	}
	q.countLen = countOnly(def)
	q.cmpFn = q.cmpRows
	q.topFn = q.cmpSlots
	q.gcmpFn = q.cmpGroups
	q.plan = q.describe()
	return q, nil
}

// countOnly reports whether def's result is its table's live row count
// in every item: count()s alone, ungrouped, over a whole table (no where,
// join, probe, exists, order, limit or after), as the generated query's
// plan "count the live rows of T (Table.Len)".
func countOnly(def *schema.Query) bool {
	if def.From == nil || def.From.Kind != schema.RowVar || def.Where != nil || len(def.Joins) > 0 || def.Probe != nil ||
		len(def.Exists) > 0 || len(def.GroupBy) > 0 || def.Distinct || len(def.OrderBy) > 0 || def.Limit != nil ||
		def.After != nil || len(def.Windows) > 0 || def.SetOp != nil || len(def.Select) == 0 {
		return false
	}
	for _, it := range def.Select {
		if it.Agg == nil || it.Agg.Kind != schema.Count {
			return false
		}
	}
	return true
}

func (q *Query) describe() string {
	d := q.def
	var parts []string
	name := d.From.Table.Name
	switch {
	case q.countLen:
		return "count the live rows of " + name + " (Table.Len)"
	case q.probe >= 0:
		parts = append(parts, "probe "+name+" by handle param "+d.Probe.Name)
	case d.Unique != nil:
		parts = append(parts, "scan "+name+" (ascending index) for unique key "+d.Unique.Column.Name+": stop at the first match")
	default:
		s := "scan " + name + " (ascending index)"
		if d.Index != nil {
			s += fmt.Sprintf("; the planner's index %s (%s walk) is not walked by the interpreter yet: the scan gives the same rows", d.Index.Index.Name, d.Index.Walk)
		}
		parts = append(parts, s)
	}
	for _, j := range d.Joins {
		kind, by := "inner", "the same entity's row of "+j.On.Name
		if j.Left {
			kind = "left"
		}
		if j.Via != nil {
			by = "probe by " + j.On.Name + "." + j.Via.Name
		}
		parts = append(parts, kind+" join "+j.Table.Name+" "+j.Var.Name+": "+by)
	}
	if d.Where != nil {
		parts = append(parts, "filter")
	}
	if len(d.GroupBy) > 0 {
		parts = append(parts, "group by a hash map, groups sorted by key")
	} else if len(d.Aggregates) > 0 {
		parts = append(parts, "aggregate")
	}
	if d.Distinct {
		parts = append(parts, "distinct set")
	}
	if len(d.OrderBy) > 0 {
		parts = append(parts, "stable sort by the order keys (ties: "+map[bool]string{true: "group key order", false: "index"}[len(d.GroupBy) > 0]+")")
	}
	if d.Limit != nil {
		parts = append(parts, "limit")
	}
	return strings.Join(parts, "; ")
}

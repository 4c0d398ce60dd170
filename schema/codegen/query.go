package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The declared queries (docs/schema.md, Queries and Query results). Each
// query is one Go type with its row type, made by NewQ (host) or DeclareQ
// (a hand-written system), and Run. Run is written as nested parts, one
// function a family, so that a new family is one more function:
//
//	source (querySource: a table scan, a probe by handle, an event read)
//	  joins (queryJoins), where
//	    sink (sinkRows, sinkDistinct, sinkOrdered, sinkTopN, sinkAggregate, sinkGroup)
//	finish (the sink's: sort, drain the heap, emit the groups)

// qGen generates one query.
type qGen struct {
	g     *gen
	q     *schema.Query
	name  string // Go type name
	lower string // prefix of its unexported names
	sg    *sysGen
	loc   *locals
	param map[*schema.Param]string // Go names of the parameters
	// the from row: the Go name of its row index, ordinal (row or event position)
	row, ord string
	// the capacity expression of the from source (the bound of a limit)
	capExpr string
	fields  []field
	leases  map[*schema.Table]string
	closers int      // braces the source, joins and where opened
	hx      string   // a grouped walk's local holding the index's Hash
	limit   string   // the Go name of the bound, "" without a limit
	win     *winGen  // window locals (query_window.go)
	after   []string // the locals of the after values
	// forceRow: the row loop names the row index (a set operation's side,
	// an exists test); notes end the plan (query_semi.go).
	forceRow bool
	notes    []string
	// oneChunk: source walks chunk c only (the parallel lane's chunk method)
	oneChunk bool
	// joinCols: the locals holding a join variable's column slices
	// (column name, NUL, variable name -> local), set by leaseLocals
	joinCols map[string]string
	// evs: the local of the events an index walk reads (query_index.go)
	evs string
}

// queryNames are the package-level Go names a query Q defines.
func queryNames(name string) []string {
	n := exported(name)
	return []string{n, n + "Row", "New" + n, "Declare" + n}
}

// aggregated: the query returns one row of aggregates.
func aggregated(q *schema.Query) bool { return len(q.GroupBy) == 0 && len(q.Aggregates) > 0 }

func (g *gen) queries() {
	if len(g.s.Queries) == 0 {
		return
	}
	g.p("// Queries holds the schema's declared queries over the tables of t, each")
	g.p("// with its scratch state (group tables, heaps, sets), made once; a call")
	g.p("// allocates nothing once its result buffer and scratch have grown. One")
	g.p("// goroutine at a time: make one Queries per goroutine (docs/schema.md,")
	g.p("// Queries).")
	g.p("type Queries struct {")
	for _, q := range g.s.Queries {
		g.p("%s *%s", exported(q.Name), exported(q.Name))
	}
	g.p("}")
	g.p("")
	g.p("// NewQueries makes every declared query over t, for the host, between")
	g.p("// frames (never during World.Frame).")
	g.p("func NewQueries(t *Tables) *Queries {")
	g.p("return &Queries{")
	for _, q := range g.s.Queries {
		g.p("%s: New%s(t),", exported(q.Name), exported(q.Name))
	}
	g.p("}")
	g.p("}")
	g.p("")
	for _, q := range g.s.Queries {
		newQGen(g, q).query()
	}
}

// usesSlices says whether a query sorts (the file imports slices).
func usesSlices(s *schema.Schema) bool {
	for _, q := range s.Queries {
		walked := q.Index != nil && q.Index.Walk == schema.WalkOrdered // no sort
		if len(q.OrderBy) > 0 && !walked || len(q.GroupBy) > 0 || len(q.Windows) > 0 {
			return true
		}
	}
	return false
}

func newQGen(g *gen, q *schema.Query) *qGen {
	qg := &qGen{g: g, q: q, name: exported(q.Name), lower: unexported(q.Name), param: map[*schema.Param]string{},
		leases: map[*schema.Table]string{}}
	qg.loc = newLocals(append([]string{"q", "dst", "tb", "cr", "c", "nc", "mask", "base", "lo", "hi", "i", "row",
		"bound", "ents", "e", "gi", "gp", "k"}, g.top...)...)
	for _, p := range q.Params {
		qg.param[p] = qg.loc.name(p.Name)
	}
	y := &schema.System{Name: q.Name, From: q.From, Joins: q.Joins}
	qg.sg = &sysGen{g: g, y: y, env: map[string]string{}}
	for p, n := range qg.param {
		qg.sg.env["param:"+p.Name] = n
	}
	if q.From == nil {
		return qg // a set operation: its sides have their own (query_semi.go)
	}
	qg.row, qg.ord = "row", "int32(row)"
	if q.From.Kind == schema.EventVar {
		qg.row, qg.ord = "i", "int32(i)"
		qg.capExpr = "q.t." + exported(q.From.Event.Name) + ".Cap()"
	} else {
		qg.capExpr = "q.tb.Cap()"
	}
	return qg
}

// colName is the query struct's field for a column of a row variable.
func (qg *qGen) colName(v *schema.Var, c *schema.Column) string {
	return unexported(v.Name) + goCol(c)
}

// rowType is the result row's Go type.
func (qg *qGen) rowType() string { return qg.name + "Row" }

// query writes the row type, the query type, its constructors, Run and Plan.
func (qg *qGen) query() {
	g, q := qg.g, qg.q
	if q.SetOp != nil {
		qg.setQuery()
		return
	}
	plan := qg.plan()
	qg.typesHead(plan)
	qg.stateFields()
	g.fields(qg.fields)
	g.p("}")
	g.p("")
	qg.scratchTypes()
	if qg.parallel() {
		qg.parallelTypes()
	}
	qg.constructors()
	qg.run()
	if qg.lookup() {
		qg.get()
	}
	if qg.parallel() {
		qg.parallelMethods()
		g.p("// Plan is the query's plan: how it reads each variable and what it does")
		g.p("// with the rows, and the lane of the last Run (Lane).")
		g.p("func (q *%s) Plan() string {", qg.name)
		g.p("if q.lane == \"\" {")
		g.p("return %q", plan)
		g.p("}")
		g.p("return %q + q.lane", plan+"; lane of the last run: ")
		g.p("}")
	} else {
		g.p("// Plan is the query's plan: how it reads each variable and what it does")
		g.p("// with the rows.")
		g.p("func (q *%s) Plan() string {", qg.name)
		g.p("return %q", plan)
		g.p("}")
	}
	g.p("")
	qg.helpers()
}

// typesHead writes the query's row type and opens its query type, whose
// doc comment carries plan.
func (qg *qGen) typesHead(plan string) {
	g, q := qg.g, qg.q
	g.doc("%sRow is a row of the result of query %s (%s).", qg.name, q.Name, g.where(q.Pos))
	g.p("type %s struct {", qg.rowType())
	var fs []field
	for _, it := range q.Select {
		fs = append(fs, field{it.Name, goType(it.T), refNote(it.T)})
	}
	g.fields(fs)
	g.p("}")
	g.p("")
	g.doc("%s is declared query %s (%s). Plan: %s. Run it from one goroutine at a time; the result's order is docs/schema.md's Query results.", qg.name, q.Name, g.where(q.Pos), plan)
	g.p("type %s struct {", qg.name)
}

// stateFields lists the query type's fields.
func (qg *qGen) stateFields() {
	q := qg.q
	qg.fields = append(qg.fields, field{"t", "*Tables", ""})
	if q.From.Kind == schema.RowVar {
		qg.fields = append(qg.fields, field{"tb", "*tickwork.Table", q.From.Table.Name})
	} else {
		qg.fields = append(qg.fields, field{"events", "*tickwork.Consumer[" + exported(q.From.Event.Name) + "]", "set by Declare: read through the system's consumer"})
	}
	for _, u := range q.Access.Uses {
		if u.Var.Kind == schema.EventVar {
			continue
		}
		qg.fields = append(qg.fields, field{qg.colName(u.Var, u.Column), "[]" + goType(u.Column.Type), u.Column.Table.Name + "." + u.Column.Name})
	}
	qg.semiFields()
	if p := q.Index; p != nil {
		qg.fields = append(qg.fields, field{"ix", indexGoType(p.Index), "index " + p.Index.Name})
		if qg.collects() {
			qg.fields = append(qg.fields, field{"rows", "[]int32", "the index's candidate rows of a run"})
		}
		if p.Walk == schema.WalkRange {
			qg.fields = append(qg.fields, field{"mark", "[]uint64", "a range walk's rows, a bit per table row (clear between runs)"})
		}
	}
	switch {
	case len(q.GroupBy) > 0:
		qg.fields = append(qg.fields, field{"groups", "[]" + qg.lower + "Group", "the groups of a run"})
		if qg.denseGroup() {
			qg.fields = append(qg.fields, field{"slot", "[]int32", "entity index -> group+1 (0: none)"},
				field{"over", "map[tickwork.Handle]int32", "groups whose slot another generation holds"})
		} else {
			qg.fields = append(qg.fields, field{"index", "map[" + qg.lower + "Key]int32", "group key -> group"})
		}
	case len(q.OrderBy) > 0:
		qg.fields = append(qg.fields, field{"ents", "[]" + qg.lower + "Ent", "the rows with their order keys"})
	}
	if q.Distinct {
		qg.fields = append(qg.fields, field{"seen", "map[" + qg.lower + "Key]struct{}", "the distinct rows so far"})
	}
	qg.windowFields()
	if qg.parallel() {
		qg.parallelFields()
	}
}

// slotOrder writes, for a dense group without an order by, the groups'
// rows in key order without a sort when no group is out of line: the
// slots, in entity index order, hold one generation each, so their order
// is the keys' (index, then generation). It pays when the slots are not
// many more than the groups (the sort's n·log n against a pass over the
// slots).
func (qg *qGen) slotOrder() {
	g := qg.g
	g.p("if len(q.over) == 0 && len(q.groups) > 16 && len(q.slot) <= 64*len(q.groups) { // the slots in index order: the keys' order, no sort")
	g.p("for _, s := range q.slot {")
	g.p("if s == 0 {")
	g.p("continue")
	g.p("}")
	if qg.limit != "" {
		g.p("if len(dst) == bound {")
		g.p("break")
		g.p("}")
	}
	g.p("gp := &q.groups[s-1]")
	g.p("dst = append(dst, %s)", qg.groupRow())
	g.p("}")
	g.p("return dst")
	g.p("}")
}

// groupRow is the result row of the group gp.
func (qg *qGen) groupRow() string {
	var parts []string
	for _, it := range qg.q.Select {
		if it.Agg != nil {
			parts = append(parts, fmt.Sprintf("%s: gp.a%d", it.Name, it.Agg.Index))
		} else {
			parts = append(parts, fmt.Sprintf("%s: gp.g%d", it.Name, it.Group))
		}
	}
	return fmt.Sprintf("%s{%s}", qg.rowType(), strings.Join(parts, ", "))
}

// denseGroup: grouped by one ref key, on a dense array over the target's
// capacity.
func (qg *qGen) denseGroup() bool {
	return len(qg.q.GroupBy) == 1 && qg.q.GroupBy[0].Type().Kind == schema.Ref
}

// keyForm is the Go expression of x's ordering form (docs/schema.md, Query
// results) and its Go type.
func keyForm(x string, t schema.Type) (string, string) {
	switch t.Kind {
	case schema.Float32:
		return "tickwork.QueryFloatKey32(" + x + ")", "uint32"
	case schema.Float64:
		return "tickwork.QueryFloatKey64(" + x + ")", "uint64"
	case schema.Ref:
		return "tickwork.QueryHandleKey(" + x + ")", "uint64"
	case schema.Bool:
		return "tickwork.QueryBoolKey(" + x + ")", "uint8"
	}
	return x, goType(t)
}

// scratchTypes writes the unexported types of the query's scratch.
func (qg *qGen) scratchTypes() {
	g, q := qg.g, qg.q
	if len(q.GroupBy) > 0 {
		if !qg.denseGroup() {
			g.p("// %sKey is a group key of query %s, in ordering form.", qg.lower, q.Name)
			g.p("type %sKey struct {", qg.lower)
			for i, k := range q.GroupBy {
				_, t := keyForm("", k.Type())
				g.p("k%d %s", i, t)
			}
			g.p("}")
			g.p("")
		}
		g.p("// %sGroup is a group of query %s: its keys (value, ordering form) and", qg.lower, q.Name)
		g.p("// aggregates.")
		g.p("type %sGroup struct {", qg.lower)
		for i, k := range q.GroupBy {
			_, t := keyForm("", k.Type())
			g.p("g%d %s", i, goType(k.Type()))
			g.p("k%d %s", i, t)
		}
		for _, a := range q.Aggregates {
			qg.aggFields(a)
		}
		g.p("}")
		g.p("")
	}
	if len(q.GroupBy) == 0 && len(q.OrderBy) > 0 {
		g.p("// %sEnt is a row of query %s with its order keys and position.", qg.lower, q.Name)
		g.p("type %sEnt struct {", qg.lower)
		for i, k := range q.OrderBy {
			_, t := keyForm("", k.T)
			g.p("k%d %s", i, t)
		}
		g.p("ord int32")
		g.p("row %s", qg.rowType())
		g.p("}")
		g.p("")
	}
	qg.windowTypes()
	if q.Distinct {
		g.p("// %sKey is a distinct row of query %s, its floats in ordering form.", qg.lower, q.Name)
		g.p("type %sKey struct {", qg.lower)
		for i, it := range q.Select {
			_, t := keyForm("", it.T)
			if it.T.Kind == schema.Ref || it.T.Kind == schema.Bool {
				t = goType(it.T)
			}
			g.p("k%d %s", i, t)
		}
		g.p("}")
		g.p("")
	}
}

// aggFields writes the accumulator fields of aggregate a: aN (the value),
// and for sum/avg sN, for avg nN, for min/max okN (a value seen).
func (qg *qGen) aggFields(a *schema.Aggregate) {
	g := qg.g
	switch a.Kind {
	case schema.Count:
		g.p("a%d int64", a.Index)
	case schema.Sum:
		g.p("a%d %s", a.Index, goType(a.T))
	case schema.Avg:
		g.p("a%d, s%d float64", a.Index, a.Index)
		g.p("n%d int64", a.Index)
	default:
		g.p("a%d %s", a.Index, goType(a.T))
		g.p("ok%d bool", a.Index)
	}
}

// constructors writes NewQ and DeclareQ.
func (qg *qGen) constructors() {
	g, q := qg.g, qg.q
	for _, declared := range []bool{false, true} {
		if declared {
			g.doc("Declare%s makes query %s for a hand-written system: it declares a read of every column the query reads and the presence of every table it scans or probes without a column (tickwork.Read, tickwork.Presence; an event table: tickwork.Consume, whose events Run reads), so the manifest and the conflict check cover it. Call it in the system's DeclareFunc; Run it inside the system's RunFunc only.", qg.name, q.Name)
			g.p("func Declare%s(d *tickwork.Decl, t *Tables) *%s {", qg.name, qg.name)
		} else {
			g.doc("New%s makes query %s over the tables of t, for the host between frames (never during World.Frame).", qg.name, q.Name)
			g.p("func New%s(t *Tables) *%s {", qg.name, qg.name)
		}
		if q.From.Kind == schema.RowVar {
			g.p("q := &%s{t: t, tb: %s}", qg.name, tableRef(q.From.Table))
		} else {
			g.p("q := &%s{t: t}", qg.name)
			if declared {
				g.p("q.events = tickwork.Consume(d, t.%s)", exported(q.From.Event.Name))
			}
		}
		read := map[*schema.Table]bool{}
		for _, u := range q.Access.Uses {
			if u.Var.Kind == schema.EventVar {
				continue
			}
			read[u.Column.Table] = true
			if declared {
				g.p("q.%s = tickwork.Read(d, %s).All()", qg.colName(u.Var, u.Column), columnRef(u.Column))
			} else {
				g.p("q.%s = %s.All()", qg.colName(u.Var, u.Column), columnRef(u.Column))
			}
		}
		if declared {
			for _, t := range q.Access.Presence {
				if !read[t] {
					g.p("tickwork.Presence(d, %s)", tableRef(t))
				}
			}
		}
		if p := q.Index; p != nil {
			g.p("q.ix = t.Indexes.%s", exported(p.Index.Name))
			if p.Walk == schema.WalkRange {
				g.p("q.mark = make([]uint64, (q.tb.Chunks()*q.tb.ChunkRows()+63)/64) // the index's rows: every chunk's")
			}
			if declared {
				g.p("tickwork.ReadIndex(d, q.ix)")
			}
		}
		qg.semiInit(declared)
		switch {
		case qg.denseGroup():
			g.p("q.slot = make([]int32, %s.Cap())", tableRef(q.GroupBy[0].Type().Table))
			g.p("q.over = map[tickwork.Handle]int32{}")
		case len(q.GroupBy) > 0:
			g.p("q.index = map[%sKey]int32{}", qg.lower)
		}
		if q.Distinct {
			g.p("q.seen = map[%sKey]struct{}{}", qg.lower)
		}
		qg.windowInit()
		g.p("return q")
		g.p("}")
		g.p("")
	}
}

// signature is Run's parameter list after dst.
func (qg *qGen) signature() string {
	var ps []string
	for _, p := range qg.q.Params {
		ps = append(ps, qg.param[p]+" "+goType(p.Type))
	}
	return strings.Join(ps, ", ")
}

// run writes Run.
func (qg *qGen) run() {
	g, q := qg.g, qg.q
	sig := qg.signature()
	if aggregated(q) {
		g.doc("Run runs the query and returns its one row (over no rows: count 0, sums 0, min/max/avg 0). Allocates nothing.")
		g.p("func (q *%s) Run(%s) %s {", qg.name, sig, qg.rowType())
	} else {
		g.doc("Run appends the query's result to dst[:0] and returns it, in the order of docs/schema.md's Query results. It allocates nothing once cap(dst) and the query's scratch suffice; with a limit, dst grows once to its bound (the limit, at most the source's capacity) before any row is written, never past it.")
		if sig != "" {
			sig = ", " + sig
		}
		g.p("func (q *%s) Run(dst []%s%s) []%s {", qg.name, qg.rowType(), sig, qg.rowType())
		g.p("dst = dst[:0]")
	}
	if q.Limit != nil {
		qg.limit = "bound"
		g.p("bound := tickwork.QueryBound(int64(%s), %s)", qg.limitExpr(), qg.capExpr)
		if len(q.GroupBy) == 0 {
			g.p("if bound == 0 {")
			g.p("return dst")
			g.p("}")
			g.p("if cap(dst) < bound {")
			g.p("dst = make([]%s, 0, bound)", qg.rowType())
			g.p("}")
		}
	}
	// The sink's set-up.
	switch {
	case qg.walked():
		// an ordered index walk: rows come in the result's order
	case len(q.GroupBy) > 0:
		qg.groupReset()
	case aggregated(q) && !qg.countOnly():
		for _, a := range q.Aggregates {
			qg.aggLocals(a)
		}
	case qg.windowed():
		qg.windowReset()
	case q.Unique != nil:
	case qg.packedKeyset():
		qg.packedKeysetReset()
	case len(q.OrderBy) > 0 && qg.keysetTopN():
		// a keyset page's heap: local, moved by its offer (keysetSink)
		g.p("ents := q.ents[:0]")
		g.p("if cap(ents) < bound {")
		g.p("ents = make([]%sEnt, 0, bound)", qg.lower)
		g.p("}")
		_, t := keyForm("", q.OrderBy[0].T)
		g.p("var worst %s // the first key of the heap's root, the worst row kept", t)
	case len(q.OrderBy) > 0:
		if q.Limit != nil {
			// the heap lives in q.ents, moved by %sOffer: the row loop
			// holds only worst and filling
			g.p("q.ents = q.ents[:0]")
			g.p("if cap(q.ents) < bound {")
			g.p("q.ents = make([]%sEnt, 0, bound)", qg.lower)
			g.p("}")
			_, t := keyForm("", q.OrderBy[0].T)
			g.p("var worst %s // the first key of the heap's root, the worst row kept, once full", t)
			g.p("filling := true  // the heap holds fewer than bound rows")
		} else {
			g.p("ents := q.ents[:0]")
		}
	}
	if q.Distinct {
		g.p("clear(q.seen)")
	}
	if aggregated(q) && qg.countOnly() {
		g.p("var r %s", qg.rowType())
		for _, it := range q.Select {
			g.p("r.%s = int64(q.tb.Len())", it.Name)
		}
		g.p("return r")
		g.p("}")
		g.p("")
		return
	}
	par := qg.parallel()
	if par {
		qg.parallelBranch()
	}
	qg.leaseLocals()
	qg.afterLocals()
	qg.semiMarks()
	if qg.walksGroups() {
		qg.groupWalkOpen()
		qg.rowLoop()
		qg.groupWalkElse()
	} else {
		qg.rowLoop()
	}
	if par {
		g.p("}")
	}
	qg.finish()
	g.p("}")
	g.p("")
}

// rowLoop writes the loop over the source's rows: the where, the joins
// and the sink.
func (qg *qGen) rowLoop() {
	g, q := qg.g, qg.q
	qg.source()
	unique, where := 0, q.Where
	if q.Unique != nil {
		unique, where = qg.uniqueOpen(), q.Unique.Rest
	}
	// The where's conjuncts over the from row alone filter it before
	// any join probe; the others after the joins (expressions have no
	// effects and integer division has a constant divisor: reordering
	// conjuncts changes no result).
	early, late := qg.splitWhere(where)
	if early != nil {
		g.p("if %s {", qg.filterCode(early))
		qg.closers++
	}
	qg.joins()
	if late != nil {
		g.p("if %s {", qg.filterCode(late))
		qg.closers++
	}
	if q.After != nil && !qg.packedKeyset() {
		g.p("if %s {", qg.afterCond())
		qg.closers++
	}
	qg.sink()
	if q.Unique != nil {
		qg.uniqueClose(unique)
	}
	for ; qg.closers > 0; qg.closers-- {
		g.p("}")
	}
}

// lookup: a point lookup by handle whose result is at most one row of the
// probed table alone (no join, aggregate, order, distinct, limit, exists
// or window): it
// also gets Get, which returns the row without a buffer.
func (qg *qGen) lookup() bool {
	q := qg.q
	return q.Probe != nil && len(q.Joins) == 0 && !aggregated(q) && len(q.GroupBy) == 0 && len(q.OrderBy) == 0 && !q.Distinct && q.Limit == nil && len(q.Exists) == 0 && len(q.Windows) == 0
}

// get writes Get: Run's one probe, returning the row and whether it was
// found (small enough to inline at the caller).
func (qg *qGen) get() {
	g, q, sg := qg.g, qg.q, qg.sg
	g.doc("Get is Run without a buffer: the one row of the point lookup and true, or the zero row and false when the handle names no live row (or the where refuses it). Allocates nothing.")
	g.p("func (q *%s) Get(%s) (%s, bool) {", qg.name, qg.signature(), qg.rowType())
	p := qg.param[q.Probe]
	sg.env["handle:"+q.From.Name] = p
	for _, u := range q.Access.Uses {
		if u.Var == q.From {
			sg.env["col:"+q.From.Name+"."+u.Column.Name] = "q." + qg.colName(q.From, u.Column) + "[row]"
		}
	}
	cond := "row >= 0"
	if q.Where != nil {
		cond += " && " + sg.code(q.Where)
	}
	g.p("if row := q.tb.Lease().Find(%s); %s {", p, cond)
	g.p("return %s, true", qg.rowLit())
	g.p("}")
	g.p("return %s{}, false", qg.rowType())
	g.p("}")
	g.p("")
}

// splitWhere splits the where's top-level conjuncts into those that read
// only the from row and the parameters (early) and the others (late),
// each in its written order, rejoined by and; nil when there are none.
func (qg *qGen) splitWhere(where schema.Expr) (early, late schema.Expr) {
	q := qg.q
	if where == nil {
		return nil, nil
	}
	conj := schema.Conjuncts(where)
	and := func(acc, e schema.Expr) schema.Expr {
		if acc == nil {
			return e
		}
		return &schema.Binary{Pos: acc.Position(), Op: schema.And, X: acc, Y: e, T: e.Type()}
	}
	for _, e := range conj {
		if len(q.Joins) > 0 && qg.fromOnly(e) {
			early = and(early, e)
		} else {
			late = and(late, e)
		}
	}
	return early, late
}

// filterCode is the Go condition of a where part e. A conjunction of two
// or more comparisons of the from row's columns, parameters and constants
// is evaluated whole, without branches (the comparisons' bools and-ed as
// bytes, tickwork.QueryBoolKey): a row loop over a filter whose first
// comparison passes about half the rows (a box) mispredicts no branch.
// Anything else keeps Go's short-circuit and.
func (qg *qGen) filterCode(e schema.Expr) string {
	conj := schema.Conjuncts(e)
	simple := func(x schema.Expr) bool {
		switch x := x.(type) {
		case *schema.ColRef:
			return x.Var == qg.q.From && x.Var.Kind == schema.RowVar
		case *schema.ParamRef, *schema.Lit:
			return true
		}
		return false
	}
	if len(conj) < 2 {
		return qg.sg.code(e)
	}
	parts := make([]string, len(conj))
	for i, c := range conj {
		b, ok := c.(*schema.Binary)
		if !ok || !b.Op.IsComparison() || !simple(b.X) || !simple(b.Y) {
			return qg.sg.code(e)
		}
		parts[i] = "tickwork.QueryBoolKey(" + qg.sg.code(c) + ")"
	}
	return strings.Join(parts, "&") + " != 0"
}

// fromOnly: e reads no join variable (only the from row and parameters).
func (qg *qGen) fromOnly(e schema.Expr) bool {
	v, ok := qg.q.From, true
	walk(e, func(e schema.Expr) {
		switch e := e.(type) {
		case *schema.ColRef:
			ok = ok && e.Var == v
		case *schema.VarRef:
			ok = ok && e.Var == v
		case *schema.Has:
			ok = ok && e.Var == v
		case *schema.Probe:
			ok = false
		}
	})
	return ok
}

// countOnly: an aggregate-only query of count()s over a table's rows,
// with no filter: the table's live row count.
func (qg *qGen) countOnly() bool {
	q := qg.q
	if q.From.Kind != schema.RowVar || q.Where != nil || len(q.Joins) > 0 || q.Probe != nil {
		return false
	}
	for _, a := range q.Aggregates {
		if a.Kind != schema.Count {
			return false
		}
	}
	return true
}

func (qg *qGen) limitExpr() string { return qg.sg.code(qg.q.Limit) }

// leaseLocals writes the leases of the tables the query probes.
func (qg *qGen) leaseLocals() {
	q := qg.q
	// A joined row's columns that the where or a later join reads are
	// read through locals taken once, not through q in the row loop (an
	// append may alias q's fields, so the compiler would reload them
	// after each); the others, read only by a row that passed, through q.
	qg.joinCols = map[string]string{}
	filtered := map[*schema.Column]map[*schema.Var]bool{}
	mark := func(v *schema.Var, c *schema.Column) {
		if filtered[c] == nil {
			filtered[c] = map[*schema.Var]bool{}
		}
		filtered[c][v] = true
	}
	if q.Where != nil {
		walk(q.Where, func(e schema.Expr) {
			if c, ok := e.(*schema.ColRef); ok {
				mark(c.Var, c.Column)
			}
		})
	}
	for _, j := range q.Joins {
		if j.Kind == schema.RefJoin {
			mark(j.On, j.Via)
		}
	}
	for _, j := range q.Joins {
		for _, u := range q.Access.Uses {
			if u.Var == j.Var && !filtered[u.Column][u.Var] {
				// read on the row's way out only: through q, so the
				// row loop holds no register for it
				qg.joinCols[u.Column.Name+"\x00"+j.Var.Name] = "q." + qg.colName(u.Var, u.Column)
				continue
			}
			if u.Var == j.Var {
				n := qg.loc.name(unexported(j.Var.Name) + goCol(u.Column) + "Col")
				qg.joinCols[u.Column.Name+"\x00"+j.Var.Name] = n
				qg.g.p("%s := q.%s", n, qg.colName(u.Var, u.Column))
			}
		}
	}
	tables := append([]*schema.Table(nil), q.Access.Presence...)
	for _, t := range tables {
		if q.From.Kind == schema.RowVar && t == q.From.Table && q.Probe == nil && !qg.hasOn(t) {
			continue
		}
		n := qg.loc.name(unexported(t.Name) + "Lease")
		qg.leases[t] = n
		qg.sg.env["lease:"+t.Name] = n
		qg.g.p("%s := q.t.%s.Table.Lease()", n, exported(t.Name))
		if qg.byWords(t) {
			// The from row's entity has its row at its own index in
			// every table of its domain: presence is that row's
			// stored word (Lease.Words), no handle is built.
			w := qg.loc.name(unexported(t.Name) + "Words")
			qg.g.p("%s := %s.Words()", w, n)
			qg.sg.env["has:"+q.From.Name+"."+t.Name] = fmt.Sprintf("(row < len(%s) && %s[row] != 0)", w, w)
		}
	}
}

// byWords: the query scans its from table and tests the presence of the
// from row's entity in table t of its domain (an entity join on the from
// row, or has(v, t) of the from row v).
func (qg *qGen) byWords(t *schema.Table) bool {
	q := qg.q
	v := q.From
	if v.Kind != schema.RowVar || q.Probe != nil || v.Table.Domain == nil || t.Domain != v.Table.Domain {
		return false
	}
	found := false
	for _, e := range qg.exprs() {
		walk(e, func(e schema.Expr) {
			if h, ok := e.(*schema.Has); ok && h.Table == t && h.Var == v {
				found = true
			}
		})
	}
	for _, j := range q.Joins {
		found = found || j.Table == t && j.Kind == schema.EntityJoin && j.On == v
	}
	return found
}

// hasOn: some has() of the query tests table t.
func (qg *qGen) hasOn(t *schema.Table) bool {
	found := false
	for _, e := range qg.exprs() {
		walk(e, func(e schema.Expr) {
			if h, ok := e.(*schema.Has); ok && h.Table == t {
				found = true
			}
		})
	}
	for _, j := range qg.q.Joins {
		if j.Table == t {
			found = true
		}
	}
	return found
}

// exprs lists the query's expressions.
func (qg *qGen) exprs() []schema.Expr {
	q := qg.q
	var out []schema.Expr
	if q.Where != nil {
		out = append(out, q.Where)
	}
	out = append(out, q.GroupBy...)
	for _, it := range q.Select {
		if it.Expr != nil {
			out = append(out, it.Expr)
		}
	}
	for _, k := range q.OrderBy {
		if k.Expr != nil {
			out = append(out, k.Expr)
		}
	}
	for _, a := range q.Aggregates {
		if a.X != nil {
			out = append(out, a.X)
		}
	}
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

// walk calls fn on e and its subexpressions.
func walk(e schema.Expr, fn func(schema.Expr)) {
	fn(e)
	switch e := e.(type) {
	case *schema.Unary:
		walk(e.X, fn)
	case *schema.Binary:
		walk(e.X, fn)
		walk(e.Y, fn)
	case *schema.Convert:
		walk(e.X, fn)
	case *schema.Floor:
		walk(e.X, fn)
	case *schema.IndexOf:
		walk(e.X, fn)
	}
}

// source opens the loop (or the probe) over the from rows and sets the
// environment of the from variable's columns and handle.
func (qg *qGen) source() {
	g, q, sg := qg.g, qg.q, qg.sg
	v := q.From
	switch {
	case q.Index != nil:
		qg.indexSource()
	case v.Kind == schema.EventVar:
		ev := qg.loc.name(v.Name)
		evs := qg.loc.name(v.Name + "s")
		g.p("%s := q.t.%s.Read()", evs, exported(v.Event.Name))
		g.p("if q.events != nil {")
		g.p("%s = q.events.Read()", evs)
		g.p("}")
		used := false
		for _, u := range q.Access.Uses {
			used = used || u.Var == v
		}
		switch {
		case used:
			g.p("for i := range %s {", evs)
			g.p("%s := &%s[i]", ev, evs)
		case len(q.OrderBy) > 0 && len(q.GroupBy) == 0:
			g.p("for i := range %s {", evs)
		default:
			g.p("for range %s {", evs)
		}
		qg.closers++
		for _, f := range v.Event.Fields {
			sg.env["col:"+v.Name+"."+f.Name] = ev + "." + exported(f.Name)
		}
	case q.Probe != nil:
		p := qg.param[q.Probe]
		g.p("if row := %s.Find(%s); row >= 0 {", qg.leases[v.Table], p)
		qg.closers++
		sg.env["handle:"+v.Name] = p
		for _, u := range q.Access.Uses {
			if u.Var == v {
				sg.env["col:"+v.Name+"."+u.Column.Name] = "q." + qg.colName(v, u.Column) + "[row]"
			}
		}
	case qg.oneChunk:
		g.p("cr := q.tb.ChunkRows()")
		g.p("mask, base := q.tb.Enabled(c), c*cr")
		g.p("for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {")
		qg.closers += 2
		qg.scanEnv()
	default:
		g.p("cr := q.tb.ChunkRows()")
		g.p("for c, nc := 0, q.tb.UsedChunks(); c < nc; c++ {")
		g.p("mask, base := q.tb.Enabled(c), c*cr")
		g.p("for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {")
		qg.closers += 3
		qg.scanEnv()
	}
}

// scanEnv opens the row loop of a run [lo, hi) of chunk c of the from
// table: the column slices cut once per run, the from variable's columns
// and handle.
func (qg *qGen) scanEnv() {
	g, q, sg := qg.g, qg.q, qg.sg
	v := q.From
	{
		var first string
		var lhs, rhs []string
		for _, u := range q.Access.Uses {
			if u.Var != v {
				continue
			}
			n := qg.loc.name(unexported(v.Name) + goCol(u.Column) + "s")
			sg.env["col:"+v.Name+"."+u.Column.Name] = n + "[i]"
			if first == "" {
				first = n
				g.p("%s := q.%s[base+lo : base+hi]", n, qg.colName(v, u.Column))
				continue
			}
			lhs = append(lhs, n)
			rhs = append(rhs, "q."+qg.colName(v, u.Column)+"[base+lo : base+hi][:len("+first+")]")
		}
		sg.env["handle:"+v.Name] = "tickwork.QueryHandle(q.tb, row)"
		sg.env["index:"+v.Name] = "int32(row)"
		if first == "" {
			g.p("for row := base + lo; row < base+hi; row++ {")
		} else {
			if len(lhs) > 0 {
				g.defs(lhs, rhs)
			}
			g.p("for i := range %s {", first)
			if qg.needsRow() {
				g.p("row := base + lo + i")
			}
		}
	}
}

// needsRow: the row loop names the row index (a handle, an order key's
// position, an entity join).
func (qg *qGen) needsRow() bool {
	q := qg.q
	return q.Access.Handle || (len(q.OrderBy) > 0 && len(q.GroupBy) == 0) || qg.winRowsBuf() || qg.forceRow || len(q.Exists) > 0
}

// joins probes each join's table; an inner join opens a block its row
// must hit.
func (qg *qGen) joins() {
	g, q, sg := qg.g, qg.q, qg.sg
	for _, j := range q.Joins {
		v := j.Var
		row := qg.loc.name(unexported(v.Name) + "Row")
		var via string
		if j.Kind == schema.EntityJoin {
			via = sg.handle(j.On)
		} else {
			via = sg.env["col:"+j.On.Name+"."+j.Via.Name]
		}
		sg.env["row:"+v.Name] = row
		has, byWords := sg.env["has:"+j.On.Name+"."+j.Table.Name]
		byWords = byWords && j.Kind == schema.EntityJoin
		switch {
		case byWords && !j.Left:
			// the same row index, present
			g.p("if %s {", has)
			g.p("%s := row", row)
		case byWords:
			g.p("%s := -1", row)
			g.p("if %s {", has)
			g.p("%s = row", row)
			g.p("}")
		default:
			g.p("%s := %s.Find(%s)", row, qg.leases[j.Table], via)
		}
		if !j.Left {
			if !byWords {
				g.p("if %s >= 0 {", row)
			}
			qg.closers++
			sg.env["handle:"+v.Name] = via
			for _, u := range q.Access.Uses {
				if u.Var == v {
					sg.env["col:"+v.Name+"."+u.Column.Name] = qg.joinCols[u.Column.Name+"\x00"+v.Name] + "[" + row + "]"
				}
			}
			continue
		}
		// A left join: zero values when it missed.
		var names []string
		for _, u := range q.Access.Uses {
			if u.Var == v {
				n := qg.loc.name(unexported(v.Name) + goCol(u.Column))
				sg.env["col:"+v.Name+"."+u.Column.Name] = n
				g.p("var %s %s", n, goType(u.Column.Type))
				names = append(names, n+" = "+qg.joinCols[u.Column.Name+"\x00"+v.Name]+"["+row+"]")
			}
		}
		h := ""
		if qg.refersTo(v) {
			h = qg.loc.name(unexported(v.Name) + "H")
			sg.env["handle:"+v.Name] = h
			g.p("var %s tickwork.Handle", h)
			names = append(names, h+" = "+via)
		}
		if len(names) > 0 {
			g.p("if %s >= 0 {", row)
			for _, n := range names {
				g.p("%s", n)
			}
			g.p("}")
		}
	}
}

// refersTo: an expression of the query names variable v's handle.
func (qg *qGen) refersTo(v *schema.Var) bool {
	found := false
	for _, e := range qg.exprs() {
		walk(e, func(e schema.Expr) {
			switch e := e.(type) {
			case *schema.VarRef:
				found = found || e.Var == v
			case *schema.Has:
				found = found || e.Var == v
			}
		})
	}
	for _, j := range qg.q.Joins {
		found = found || (j.Kind == schema.EntityJoin && j.On == v)
	}
	return found
}

// rowLit is the result row of the current from row.
func (qg *qGen) rowLit() string {
	var parts []string
	for _, it := range qg.q.Select {
		if it.Win != nil {
			if x := qg.winInit(it.Win); x != "" {
				parts = append(parts, it.Name+": "+x)
			}
			continue
		}
		parts = append(parts, it.Name+": "+qg.sg.code(it.Expr))
	}
	return qg.rowType() + "{" + strings.Join(parts, ", ") + "}"
}

// sink writes what the loop does with a row that passed.
func (qg *qGen) sink() {
	q := qg.q
	if q.Distinct && q.Unique == nil {
		qg.sinkDistinct()
	}
	switch {
	case q.Unique != nil, qg.walked():
		qg.sinkRows()
	case qg.windowed():
		qg.sinkWindow()
	case len(q.GroupBy) > 0:
		qg.sinkGroup()
	case aggregated(q):
		qg.sinkAggregate()
	case qg.keysetTopN():
		qg.keysetSink()
	case len(q.OrderBy) > 0 && q.Limit != nil:
		qg.sinkTopN()
	case len(q.OrderBy) > 0:
		qg.sinkOrdered()
	default:
		qg.sinkRows()
	}
}

// sinkRows appends the row; a limit returns once the bound is reached.
func (qg *qGen) sinkRows() {
	g := qg.g
	g.p("dst = append(dst, %s)", qg.rowLit())
	if qg.limit != "" {
		g.p("if len(dst) == bound {")
		g.p("return dst")
		g.p("}")
	}
}

// sinkDistinct opens a block the row enters the first time its select
// items are seen.
func (qg *qGen) sinkDistinct() {
	g := qg.g
	var parts []string
	for i, it := range qg.q.Select {
		x := qg.sg.code(it.Expr)
		if it.T.IsFloat() {
			x, _ = keyForm(x, it.T)
		}
		parts = append(parts, fmt.Sprintf("k%d: %s", i, x))
	}
	g.p("k := %sKey{%s}", qg.lower, strings.Join(parts, ", "))
	g.p("if _, dup := q.seen[k]; !dup {")
	g.p("q.seen[k] = struct{}{}")
	qg.closers++
}

// entLit is the ordered entry of the current row (without its row when
// withRow is false).
func (qg *qGen) entLit(withRow bool) string {
	var parts []string
	for i, k := range qg.q.OrderBy {
		var x string
		if k.Item >= 0 {
			x = qg.sg.code(qg.q.Select[k.Item].Expr)
		} else {
			x = qg.sg.code(k.Expr)
		}
		x, _ = keyForm(x, k.T)
		parts = append(parts, fmt.Sprintf("k%d: %s", i, x))
	}
	parts = append(parts, "ord: "+qg.ord)
	if withRow {
		parts = append(parts, "row: "+qg.rowLit())
	}
	return qg.lower + "Ent{" + strings.Join(parts, ", ") + "}"
}

// sinkOrdered collects every row with its keys; finish sorts them.
func (qg *qGen) sinkOrdered() {
	qg.g.p("ents = append(ents, %s)", qg.entLit(true))
}

// sinkTopN keeps the bound best rows in a max-heap (its root the worst
// kept). Rows come in ascending position, so a row whose first key is no
// better than the root's loses (with one key, or a second that is
// index(v) ascending: a tie loses too, to the earlier row) before its
// entry or its row is built.
func (qg *qGen) sinkTopN() {
	g, q := qg.g, qg.q
	k0 := qg.loc.name("k0")
	first := q.OrderBy[0]
	var x string
	if first.Item >= 0 {
		x = qg.sg.code(q.Select[first.Item].Expr)
	} else {
		x = qg.sg.code(first.Expr)
	}
	x, _ = keyForm(x, first.T)
	op := "<"
	if first.Desc {
		op = ">"
	}
	if qg.topKeys() > 1 {
		op += "="
	}
	g.p("%s := %s", k0, x)
	// The heap's moves are out of line (%sOffer): the row loop is a load
	// and a comparison with worst; it keeps no slice of the heap, so its
	// values stay in registers (a row that enters is rare).
	g.p("if %s %s worst || filling {", k0, op)
	if qg.topKeys() > 1 {
		g.p("e := %s", qg.entLit(false))
		g.p("if !filling && %sCmp(&e, &q.ents[0]) >= 0 {", qg.lower)
		g.p("continue")
		g.p("}")
		g.p("e.row = %s", qg.rowLit())
	} else {
		g.p("e := %s", qg.entLit(true))
	}
	g.p("worst, filling = q.offer(&e, bound)")
	g.p("}")
}

// heapHelpers writes a top-N's heap move, the query's method offer: it
// adds an entry to the max-heap q.ents below its bound, or replaces the
// root, and returns the root's first key (the worst kept) and whether
// the heap is still below its bound.
func (qg *qGen) heapHelpers() {
	g, q := qg.g, qg.q
	_, t := keyForm("", q.OrderBy[0].T)
	ent, cmp := qg.lower+"Ent", qg.lower+"Cmp"
	g.p("// offer adds *e to the max-heap q.ents (below bound: a new entry, else in the root's place) and returns the root's first key and whether the heap holds fewer than bound entries.")
	g.p("func (q *%s) offer(e *%s, bound int) (%s, bool) {", qg.name, ent, t)
	g.p("ents := q.ents")
	g.p("if len(ents) < bound {")
	g.p("ents = append(ents, *e)")
	g.p("for j := len(ents) - 1; j > 0; {")
	g.p("p := (j - 1) / 2")
	g.p("if %s(&ents[j], &ents[p]) <= 0 {", cmp)
	g.p("break")
	g.p("}")
	g.p("ents[j], ents[p] = ents[p], ents[j]")
	g.p("j = p")
	g.p("}")
	g.p("q.ents = ents")
	g.p("return ents[0].k0, len(ents) < bound")
	g.p("}")
	g.p("ents[0] = *e")
	siftDown(g, cmp)
	g.p("return ents[0].k0, false")
	g.p("}")
	g.p("")
}

// aggLocals declares an ungrouped aggregate's accumulators.
func (qg *qGen) aggLocals(a *schema.Aggregate) {
	g := qg.g
	switch a.Kind {
	case schema.Count:
		g.p("var a%d int64", a.Index)
	case schema.Sum:
		g.p("var a%d %s", a.Index, goType(a.T))
	case schema.Avg:
		if qg.sharedSum(a) < 0 {
			g.p("var s%d float64", a.Index)
		}
		g.p("var n%d int64", a.Index)
	default:
		g.p("var a%d %s", a.Index, goType(a.T))
		g.p("var ok%d bool", a.Index)
	}
}

// accumulate writes the update of aggregate a, its accumulators prefixed
// by at ("" locals, "gp." a group's).
func (qg *qGen) accumulate(a *schema.Aggregate, at string) {
	g := qg.g
	i := a.Index
	switch a.Kind {
	case schema.Count:
		g.p("%sa%d++", at, i)
		return
	}
	x := qg.sg.code(a.X)
	switch a.Kind {
	case schema.Sum:
		g.p("%sa%d += %s(%s)", at, i, goType(a.T), x)
	case schema.Avg:
		if qg.sharedSum(a) < 0 {
			g.p("%ss%d += float64(%s)", at, i, x)
		}
		g.p("%sn%d++", at, i)
	default:
		// min/max: the total order of Query results for floats; the first
		// of equal values stays.
		v := qg.loc.name("v")
		g.p("if %s := %s; !%sok%d || %s {", v, x, at, i, better(a, v, at+fmt.Sprintf("a%d", i)))
		g.p("%sa%d, %sok%d = %s, true", at, i, at, i, v)
		g.p("}")
	}
}

// better is the test that v replaces the min or max m.
func better(a *schema.Aggregate, v, m string) string {
	op := "<"
	if a.Kind == schema.Max {
		op = ">"
	}
	if a.T.IsFloat() {
		// plain comparisons, the total order of Query results: a NaN m
		// gives way to any number (min), a NaN v beats any number (max);
		// -0 == +0 and one NaN over another tie, so the first stays.
		if a.Kind == schema.Max {
			return fmt.Sprintf("%s > %s || %s != %s && %s == %s", v, m, v, v, m, m)
		}
		return fmt.Sprintf("%s < %s || %s != %s && %s == %s", v, m, m, m, v, v)
	}
	return v + " " + op + " " + m
}

// sinkAggregate updates the ungrouped aggregates.
func (qg *qGen) sinkAggregate() {
	for _, a := range qg.q.Aggregates {
		qg.accumulate(a, "")
	}
}

// groupReset empties the groups of the last run.
func (qg *qGen) groupReset() {
	g := qg.g
	if qg.denseGroup() {
		g.p("for i := range q.groups {")
		g.p("if ix := int(q.groups[i].g0.Index()); ix < len(q.slot) {")
		g.p("q.slot[ix] = 0")
		g.p("}")
		g.p("}")
		g.p("if len(q.over) > 0 {")
		g.p("clear(q.over)")
		g.p("}")
	} else {
		g.p("if len(q.index) > 0 {")
		g.p("clear(q.index)")
		g.p("}")
	}
	g.p("q.groups = q.groups[:0]")
}

// sinkGroup finds (or adds) the row's group and updates its aggregates.
func (qg *qGen) sinkGroup() {
	g, q := qg.g, qg.q
	var vals []string
	for i, k := range q.GroupBy {
		v := qg.loc.name(fmt.Sprintf("g%d", i))
		x := qg.sg.code(k)
		if k.Type().IsFloat() {
			g.p("%s := %s", v, x)
			g.p("if %s == 0 {", v)
			g.p("%s = 0 // -0 and +0 are one group, reported as +0", v)
			g.p("}")
		} else {
			g.p("%s := %s", v, x)
		}
		vals = append(vals, v)
	}
	if qg.denseGroup() {
		// The slot's group in line; a new group or another generation's
		// slot out of line.
		ix := qg.loc.name("ix")
		if qg.walksGroups() {
			g.p("if gi < 0 { // the walked group's first row")
		} else {
			g.p("gi := int32(-1)")
		}
		g.p("if %s := int(%s.Index()); %s < len(q.slot) {", ix, vals[0], ix)
		g.p("switch s := q.slot[%s]; {", ix)
		g.p("case s == 0:")
		g.p("q.groups = append(q.groups, %sGroup{g0: %s, k0: tickwork.QueryHandleKey(%s)})", qg.lower, vals[0], vals[0])
		g.p("q.slot[%s] = int32(len(q.groups))", ix)
		g.p("gi = int32(len(q.groups) - 1)")
		g.p("case q.groups[s-1].g0 == %s:", vals[0])
		g.p("gi = s - 1")
		g.p("}")
		g.p("}")
		g.p("if gi < 0 {")
		g.p("gi = q.group(%s)", vals[0])
		g.p("}")
		if qg.walksGroups() {
			g.p("}")
		}
	} else {
		var parts []string
		for i, k := range q.GroupBy {
			kf, _ := keyForm(vals[i], k.Type())
			parts = append(parts, fmt.Sprintf("k%d: %s", i, kf))
		}
		if qg.walksGroups() {
			g.p("if gi < 0 { // the walked group's first row")
			g.p("gi = q.group(%sKey{%s}, %s)", qg.lower, strings.Join(parts, ", "), strings.Join(vals, ", "))
			g.p("}")
		} else {
			g.p("gi := q.group(%sKey{%s}, %s)", qg.lower, strings.Join(parts, ", "), strings.Join(vals, ", "))
		}
	}
	if len(q.Aggregates) == 0 {
		g.p("_ = gi // no aggregate: the group's key is all it keeps")
		return
	}
	g.p("gp := &q.groups[gi]")
	for _, a := range q.Aggregates {
		qg.accumulate(a, "gp.")
	}
}

// finish writes what follows the loop: the sink's result.
func (qg *qGen) finish() {
	g, q := qg.g, qg.q
	switch {
	case q.Unique != nil, qg.walked():
		g.p("return dst")
	case qg.windowed():
		qg.finishWindow()
	case len(q.GroupBy) > 0:
		if qg.hasAvg() {
			g.p("for i := range q.groups {")
			g.p("gp := &q.groups[i]")
			qg.finalize("gp.")
			g.p("}")
		}
		if qg.denseGroup() && len(q.OrderBy) == 0 {
			qg.slotOrder()
		}
		// few groups (a frame's hit targets) sort by insertion, no call
		// per comparison; groups' keys differ, so either sort gives the
		// one order
		g.p("if n := len(q.groups); n > 16 {")
		g.p("slices.SortFunc(q.groups, %sOrder)", qg.lower)
		g.p("} else {")
		g.p("for i := 1; i < n; i++ {")
		g.p("for j := i; j > 0 && %sOrder(q.groups[j], q.groups[j-1]) < 0; j-- {", qg.lower)
		g.p("q.groups[j], q.groups[j-1] = q.groups[j-1], q.groups[j]")
		g.p("}")
		g.p("}")
		g.p("}")
		g.p("for i := range q.groups {")
		if qg.limit != "" {
			g.p("if len(dst) == bound {")
			g.p("break")
			g.p("}")
		}
		g.p("gp := &q.groups[i]")
		g.p("dst = append(dst, %s)", qg.groupRow())
		g.p("}")
		g.p("return dst")
	case aggregated(q):
		qg.finalize("")
		var parts []string
		for _, it := range q.Select {
			parts = append(parts, fmt.Sprintf("%s: a%d", it.Name, it.Agg.Index))
		}
		g.p("return %s{%s}", qg.rowType(), strings.Join(parts, ", "))
	case len(q.OrderBy) > 0:
		if q.Limit != nil && !qg.keysetTopN() {
			g.p("ents := q.ents")
		} else {
			g.p("q.ents = ents")
		}
		g.p("slices.SortFunc(ents, %sOrder)", qg.lower)
		g.p("for i := range ents {")
		g.p("dst = append(dst, ents[i].row)")
		g.p("}")
		g.p("return dst")
	default:
		g.p("return dst")
	}
}

// hasAvg: the query has an avg().
func (qg *qGen) hasAvg() bool {
	for _, a := range qg.q.Aggregates {
		if a.Kind == schema.Avg {
			return true
		}
	}
	return false
}

// finalize computes the averages.
func (qg *qGen) finalize(at string) {
	g := qg.g
	for _, a := range qg.q.Aggregates {
		if a.Kind != schema.Avg {
			continue
		}
		if at == "" {
			g.p("var a%d float64", a.Index)
		}
		g.p("if %sn%d > 0 {", at, a.Index)
		if j := qg.sharedSum(a); j >= 0 {
			g.p("%sa%d = %sa%d / float64(%sn%d)", at, a.Index, at, j, at, a.Index)
		} else {
			g.p("%sa%d = %ss%d / float64(%sn%d)", at, a.Index, at, a.Index, at, a.Index)
		}
		g.p("}")
	}
}

// sharedSum is the index of a sum aggregate whose float64 total avg a
// can divide instead of adding its own: a sum of the same float
// expression, which adds the same values in the same order (the same
// bits); -1 if none. Integer sums add in int64 and are not shared.
func (qg *qGen) sharedSum(a *schema.Aggregate) int {
	if a.Kind != schema.Avg || !a.X.Type().IsFloat() {
		return -1
	}
	for _, b := range qg.q.Aggregates {
		if b.Kind == schema.Sum && sameCol(a.X, b.X) {
			return b.Index
		}
	}
	return -1
}

// sameCol: x and y read one column of one row variable (the shared sum's
// case; other expressions are not compared).
func sameCol(x, y schema.Expr) bool {
	a, ok1 := x.(*schema.ColRef)
	b, ok2 := y.(*schema.ColRef)
	return ok1 && ok2 && a.Var == b.Var && a.Column == b.Column
}

// helpers writes the query's order function, heap and group lookup.
func (qg *qGen) helpers() {
	g, q := qg.g, qg.q
	switch {
	case len(q.GroupBy) > 0:
		qg.groupHelpers()
	case len(q.OrderBy) > 0:
		g.p("// %sCmp orders rows of query %s: its order keys, then the position.", qg.lower, q.Name)
		g.p("func %sCmp(a, b *%sEnt) int {", qg.lower, qg.lower)
		for i, k := range q.OrderBy {
			lt, gt := "-1", "1"
			if k.Desc {
				lt, gt = "1", "-1"
			}
			g.p("if a.k%d != b.k%d {", i, i)
			g.p("if a.k%d < b.k%d {", i, i)
			g.p("return %s", lt)
			g.p("}")
			g.p("return %s", gt)
			g.p("}")
		}
		g.p("return int(a.ord - b.ord)")
		g.p("}")
		g.p("")
		g.p("func %sOrder(a, b %sEnt) int { return %sCmp(&a, &b) }", qg.lower, qg.lower, qg.lower)
		g.p("")
		if q.Limit != nil {
			qg.heapHelpers()
		}
	}
	qg.windowHelpers()
}

// groupHelpers writes the group lookup and the group order.
func (qg *qGen) groupHelpers() {
	g, q := qg.g, qg.q
	grp := qg.lower + "Group"
	if qg.denseGroup() {
		g.p("// group returns the index of key's group, adding it: the slot of its")
		g.p("// entity index, or (another generation holds the slot) the overflow map.")
		g.p("func (q *%s) group(key tickwork.Handle) int32 {", qg.name)
		g.p("ix := int(key.Index())")
		g.p("if ix < len(q.slot) {")
		g.p("if s := q.slot[ix]; s == 0 {")
		g.p("q.groups = append(q.groups, %s{g0: key, k0: tickwork.QueryHandleKey(key)})", grp)
		g.p("q.slot[ix] = int32(len(q.groups))")
		g.p("return int32(len(q.groups) - 1)")
		g.p("} else if q.groups[s-1].g0 == key {")
		g.p("return s - 1")
		g.p("}")
		g.p("}")
		g.p("if gi, ok := q.over[key]; ok {")
		g.p("return gi")
		g.p("}")
		g.p("q.groups = append(q.groups, %s{g0: key, k0: tickwork.QueryHandleKey(key)})", grp)
		g.p("q.over[key] = int32(len(q.groups) - 1)")
		g.p("return int32(len(q.groups) - 1)")
		g.p("}")
		g.p("")
	} else {
		var ps, inits []string
		for i, k := range q.GroupBy {
			ps = append(ps, fmt.Sprintf("g%d %s", i, goType(k.Type())))
			inits = append(inits, fmt.Sprintf("g%d: g%d, k%d: key.k%d", i, i, i, i))
		}
		g.p("// group returns the index of key's group, adding it with the key values.")
		g.p("func (q *%s) group(key %sKey, %s) int32 {", qg.name, qg.lower, strings.Join(ps, ", "))
		g.p("if gi, ok := q.index[key]; ok {")
		g.p("return gi")
		g.p("}")
		g.p("q.groups = append(q.groups, %s{%s})", grp, strings.Join(inits, ", "))
		g.p("q.index[key] = int32(len(q.groups) - 1)")
		g.p("return int32(len(q.groups) - 1)")
		g.p("}")
		g.p("")
	}
	g.p("// %sOrder orders the groups of query %s: its order keys, then the group", qg.lower, q.Name)
	g.p("// keys.")
	g.p("func %sOrder(a, b %s) int {", qg.lower, grp)
	cmpField := func(x, y string, t schema.Type, desc bool) {
		lt, gt := "-1", "1"
		if desc {
			lt, gt = "1", "-1"
		}
		kx, _ := keyForm(x, t)
		ky, _ := keyForm(y, t)
		g.p("if x, y := %s, %s; x != y {", kx, ky)
		g.p("if x < y {")
		g.p("return %s", lt)
		g.p("}")
		g.p("return %s", gt)
		g.p("}")
	}
	for _, k := range q.OrderBy {
		var f string
		switch {
		case k.Agg != nil:
			f = fmt.Sprintf("a%d", k.Agg.Index)
		case k.Item >= 0 && q.Select[k.Item].Agg != nil:
			f = fmt.Sprintf("a%d", q.Select[k.Item].Agg.Index)
		case k.Item >= 0:
			f = fmt.Sprintf("g%d", q.Select[k.Item].Group)
		default:
			f = fmt.Sprintf("g%d", k.Group)
		}
		cmpField("a."+f, "b."+f, k.T, k.Desc)
	}
	for i := range q.GroupBy {
		g.p("if a.k%d != b.k%d {", i, i)
		g.p("if a.k%d < b.k%d {", i, i)
		g.p("return -1")
		g.p("}")
		g.p("return 1")
		g.p("}")
	}
	g.p("return 0")
	g.p("}")
	g.p("")
}

// plan is the query's plan, for its comment and Plan.
func (qg *qGen) plan() string {
	q := qg.q
	var parts []string
	v := q.From
	switch {
	case q.Index != nil:
		parts = append(parts, qg.indexPlan())
	case v.Kind == schema.EventVar:
		parts = append(parts, "read "+v.Event.Name+" (emission order)")
	case q.Probe != nil:
		parts = append(parts, "probe "+v.Table.Name+" by handle param "+q.Probe.Name)
	case q.Unique != nil:
		parts = append(parts, "unique key lookup: scan "+v.Table.Name+" (ascending index) for "+goCol(q.Unique.Column)+", stop at the first match (limit 1)")
	case aggregated(q) && qg.countOnly():
		return "count the live rows of " + v.Table.Name + " (Table.Len)"
	default:
		parts = append(parts, "scan "+v.Table.Name+" (ascending index)")
	}
	for _, j := range q.Joins {
		kind := "inner"
		if j.Left {
			kind = "left"
		}
		by := "entity of " + j.On.Name
		if j.Kind == schema.RefJoin {
			by = j.On.Name + "." + j.Via.Name
		}
		parts = append(parts, fmt.Sprintf("%s join %s %s: probe by %s", kind, j.Table.Name, j.Var.Name, by))
	}
	parts = append(parts, qg.semiPlan()...)
	if q.Where != nil && (q.Unique == nil || q.Unique.Rest != nil) {
		parts = append(parts, "filter")
	}
	if q.After != nil {
		if qg.packedKeyset() {
			parts = append(parts, "keyset: the rows after ("+qg.afterText()+") in the order by's order, one packed range test a row (cursor, heap's worst)")
		} else {
			parts = append(parts, "keyset: the rows after ("+qg.afterText()+") in the order by's order")
		}
	}
	parts = append(parts, qg.windowPlan()...)
	if q.Distinct {
		parts = append(parts, "distinct: a set of the select items")
	}
	keys := func() string {
		var ks []string
		for _, k := range q.OrderBy {
			dir := "asc"
			if k.Desc {
				dir = "desc"
			}
			n := ""
			switch {
			case k.Item >= 0:
				n = q.Select[k.Item].Name
			case k.Agg != nil:
				n = k.Agg.Kind.String() + "()"
			default:
				n = keyName(k.Expr)
			}
			ks = append(ks, n+" "+dir)
		}
		return strings.Join(ks, ", ")
	}
	switch {
	case len(q.GroupBy) > 0:
		how := "a group table (map) of the keys"
		if qg.denseGroup() {
			t := q.GroupBy[0].Type().Table
			owner := "table " + t.Name
			if t.Domain != nil {
				owner = "domain " + t.Domain.Name
			}
			how = "a dense array over the capacity of " + owner
		}
		names := make([]string, len(q.GroupBy))
		for i := range names {
			names[i] = fmt.Sprintf("key %d", i+1)
		}
		for _, it := range q.Select {
			if it.Group >= 0 {
				names[it.Group] = it.Name
			}
		}
		parts = append(parts, fmt.Sprintf("group by %s: %s", strings.Join(names, ", "), how))
		if len(q.OrderBy) > 0 {
			parts = append(parts, "sort groups by ("+keys()+", keys)")
		} else {
			if qg.denseGroup() {
				parts = append(parts, "groups in key order: a pass over the slots, or a sort")
			} else {
				parts = append(parts, "sort groups by their keys")
			}
		}
		if q.Limit != nil {
			parts = append(parts, "first n")
		}
	case qg.walked():
		// the walk's own order (its part says so)
	case aggregated(q):
		var as []string
		for _, a := range q.Aggregates {
			as = append(as, a.Kind.String())
		}
		parts = append(parts, "aggregate "+strings.Join(as, ", ")+" (one row)")
	case q.Unique != nil:
	case qg.packed():
		parts = append(parts, "sort packed keys ("+keys()+", position)")
		if q.Limit != nil {
			parts = append(parts, "first n")
		}
	case qg.windowed() && len(q.OrderBy) > 0:
		parts = append(parts, "sort by ("+keys()+", index)")
		if q.Limit != nil {
			parts = append(parts, "first n")
		}
	case qg.windowed() && q.Limit != nil:
		parts = append(parts, "first n")
	case len(q.OrderBy) > 0 && q.Limit != nil:
		parts = append(parts, "top-n heap by ("+keys()+", index)")
	case len(q.OrderBy) > 0:
		parts = append(parts, "sort by ("+keys()+", index)")
	case q.Limit != nil:
		parts = append(parts, "first n")
	}
	return strings.Join(append(parts, qg.notes...), "; ")
}

// siftDown writes the bounded heap's sift-down of its root in ents, cmp
// ordering the entries (the worst row at the root): shared by the top-N's
// and the keyset page's offer.
func siftDown(g *gen, cmp string) {
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
}

package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The declared indexes (docs/schema.md, Indexes): their fields on Tables,
// their declaration in Declare, and the walks of the queries the planner
// serves from them (schema.IndexPlan). A walk is a query's source: it
// gives the rows the scan would, in the scan's order (ascending entity
// index, or emission order), or, for an ordered walk, in the order by's
// order; the where is then tested whole on each row, as the scan does.

// usesIndexes: the schema declares an index (the file imports package
// index when a query walks one).
func usesIndexes(s *schema.Schema) bool { return len(s.Indexes) > 0 }

// walksIndex: some query walks an index.
func walksIndex(s *schema.Schema) bool {
	for _, q := range s.Queries {
		if q.Index != nil {
			return true
		}
	}
	return false
}

// usesIndexMark: some query's range walk marks its rows in a bitmap
// (the file imports math/bits).
func usesIndexMark(s *schema.Schema) bool {
	for _, q := range s.Queries {
		if q.Index != nil && q.Index.Walk == schema.WalkRange {
			return true
		}
	}
	return false
}

// indexMath: some query's walk calls package math (a disc's bounds, a
// one-key keyset page's start).
func indexMath(s *schema.Schema) bool {
	for _, q := range s.Queries {
		if p := q.Index; p != nil && (p.Walk == schema.WalkDisc || p.Walk == schema.WalkOrdered && p.After && len(q.After) == 1) {
			return true
		}
	}
	return false
}

// composite: a hash or unique index of several columns (its key is a
// generated struct, NAMEKey).
func composite(ix *schema.Index) bool { return len(ix.Columns) > 1 }

// indexKeyType is the Go type of an index's key.
func indexKeyType(ix *schema.Index) string {
	if composite(ix) {
		return exported(ix.Name) + "Key"
	}
	return goType(ix.Columns[0].Type)
}

// indexGoType is the face's type of a declared index.
func indexGoType(ix *schema.Index) string {
	switch {
	case ix.Event != nil:
		return fmt.Sprintf("*tickwork.EventIndex[%s, %s]", exported(ix.Event.Name), indexKeyType(ix))
	case ix.Kind == schema.HashIndex:
		return "*tickwork.HashIndex[" + indexKeyType(ix) + "]"
	case ix.Kind == schema.UniqueIndex:
		return "*tickwork.UniqueIndex[" + indexKeyType(ix) + "]"
	case ix.Kind == schema.SortedIndex:
		return "*tickwork.SortedIndex[" + indexKeyType(ix) + "]"
	}
	return "*tickwork.GridIndex"
}

// indexColumns names an index's key columns, TABLE(A, B).
func indexColumns(ix *schema.Index) string {
	var cs []string
	for _, c := range ix.Columns {
		cs = append(cs, c.Name)
	}
	t := ""
	if ix.Event != nil {
		t = ix.Event.Name
	} else {
		t = ix.Table.Name
	}
	return t + "(" + strings.Join(cs, ", ") + ")"
}

// indexTypes writes the composite keys and type Indexes, Tables.Indexes.
func (g *gen) indexTypes() {
	if !usesIndexes(g.s) {
		return
	}
	for _, ix := range g.s.Indexes {
		if !composite(ix) {
			continue
		}
		g.doc("%sKey is the key of index %s on %s (%s), its columns in declared order.", exported(ix.Name), ix.Name, indexColumns(ix), g.where(ix.Pos))
		g.p("type %sKey struct {", exported(ix.Name))
		var fs []field
		for _, c := range ix.Columns {
			fs = append(fs, field{exported(c.Name), goType(c.Type), refNote(c.Type)})
		}
		g.fields(fs)
		g.p("}")
		g.p("")
	}
	g.doc("Indexes holds the schema's declared indexes (Declare adds them after the columns; the world keeps them consistent: docs/architecture.md, Indexes). The host reads one between frames; a hand-written system declares its read (tickwork.ReadIndex).")
	g.p("type Indexes struct {")
	var fs []field
	for _, ix := range g.s.Indexes {
		note := fmt.Sprintf("%s on %s", ix.Kind, indexColumns(ix))
		if ix.Kind == schema.GridIndex {
			note += fmt.Sprintf(", cell %v", ix.Cell)
		}
		fs = append(fs, field{exported(ix.Name), indexGoType(ix), note})
	}
	g.fields(fs)
	g.p("}")
	g.p("")
}

// declareIndexes adds every index on b (in Declare, after the columns).
func (g *gen) declareIndexes() {
	for _, ix := range g.s.Indexes {
		n := "t.Indexes." + exported(ix.Name)
		if ix.Event != nil {
			e := exported(ix.Event.Name)
			var key string
			if composite(ix) {
				var parts []string
				for _, f := range ix.Columns {
					parts = append(parts, exported(f.Name)+": e."+exported(f.Name))
				}
				key = indexKeyType(ix) + "{" + strings.Join(parts, ", ") + "}"
			} else {
				key = "e." + exported(ix.Columns[0].Name)
			}
			g.p("%s = tickwork.AddEventIndex(b, %q, t.%s, func(e *%s) %s { return %s })", n, ix.Name, e, e, indexKeyType(ix), key)
			continue
		}
		switch ix.Kind {
		case schema.GridIndex:
			g.p("%s = tickwork.AddGridIndex(b, %q, %s, %s, %v)", n, ix.Name, columnRef(ix.Columns[0]), columnRef(ix.Columns[1]), ix.Cell)
		case schema.SortedIndex:
			g.p("%s = tickwork.AddSortedIndex(b, %q, %s)", n, ix.Name, columnRef(ix.Columns[0]))
		default:
			kind := "Hash"
			if ix.Kind == schema.UniqueIndex {
				kind = "Unique"
			}
			if !composite(ix) {
				g.p("%s = tickwork.Add%sIndex(b, %q, %s)", n, kind, ix.Name, columnRef(ix.Columns[0]))
				continue
			}
			var parts, cols []string
			for _, c := range ix.Columns {
				parts = append(parts, exported(c.Name)+": "+columnRef(c)+".All()[row]")
				cols = append(cols, columnRef(c))
			}
			g.p("%s = tickwork.Add%sIndexOf(b, %q, %s, func(row int) %s { return %s{%s} }, %s)", n, kind, ix.Name, tableRef(ix.Table),
				indexKeyType(ix), indexKeyType(ix), strings.Join(parts, ", "), strings.Join(cols, ", "))
		}
	}
}

// walked: the query's ordered walk gives its rows in the order by's
// order (no heap, no sort).
func (qg *qGen) walked() bool { return qg.q.Index != nil && qg.q.Index.Walk == schema.WalkOrdered }

// collects: the walk collects candidate rows into q.rows first.
func (qg *qGen) collects() bool {
	if p := qg.q.Index; p != nil {
		switch p.Walk {
		case schema.WalkRange:
			return qg.q.Limit != nil // a limit's early return: the marks are read out first
		case schema.WalkBox, schema.WalkDisc:
			return true
		}
	}
	return false
}

// indexKey is the Go value of a find or equal walk's key.
func (qg *qGen) indexKey() string {
	p := qg.q.Index
	if !composite(p.Index) {
		return qg.sg.code(p.Keys[0])
	}
	var parts []string
	for i, c := range p.Index.Columns {
		parts = append(parts, exported(c.Name)+": "+qg.sg.code(p.Keys[i]))
	}
	return indexKeyType(p.Index) + "{" + strings.Join(parts, ", ") + "}"
}

// rowEnv points the from variable's columns, handle and index at table
// row `row` (an index walk's row).
func (qg *qGen) rowEnv() {
	q, sg, v := qg.q, qg.sg, qg.q.From
	for _, u := range q.Access.Uses {
		if u.Var == v {
			sg.env["col:"+v.Name+"."+u.Column.Name] = "q." + qg.colName(v, u.Column) + "[row]"
		}
	}
	sg.env["handle:"+v.Name] = "tickwork.QueryHandle(q.tb, row)"
	sg.env["index:"+v.Name] = "int32(row)"
}

// indexSource opens the walk of the query's index (source's case).
func (qg *qGen) indexSource() {
	g, q, p := qg.g, qg.q, qg.q.Index
	r := qg.loc.name("r")
	switch p.Walk {
	case schema.WalkFind:
		g.p("if %s := q.ix.Unique().Find(%s); %s != index.NoRow {", r, qg.indexKey(), r)
		g.p("row := int(%s)", r)
		qg.closers++
		qg.rowEnv()
	case schema.WalkEqual:
		hx := qg.loc.name("hx")
		if q.From.Kind == schema.EventVar {
			qg.eventRows()
		}
		g.p("%s := q.ix.Hash()", hx)
		g.p("for %s := %s.First(%s); %s != index.NoRow; %s = %s.Next(%s) {", r, hx, qg.indexKey(), r, r, hx, r)
		qg.closers++
		if q.From.Kind == schema.EventVar {
			qg.eventRow(r)
			return
		}
		g.p("row := int(%s)", r)
		qg.rowEnv()
	case schema.WalkGroups:
		// the index's groups, each walked in emission order; the row's
		// group is found once a group (sinkGroup, at its first row that
		// passes the where)
		gx, ng, first := qg.loc.name("gx"), qg.loc.name("ng"), qg.loc.name("first")
		if q.From.Kind == schema.EventVar {
			qg.eventRows()
		}
		g.p("for %s, %s := 0, %s.Groups(); %s < %s; %s++ {", gx, ng, qg.hx, gx, ng, gx)
		g.p("_, %s := %s.Group(%s)", first, qg.hx, gx)
		g.p("gi := int32(-1) // the group's, found at its first row the where passes")
		g.p("for %s := %s; %s != index.NoRow; %s = %s.Next(%s) {", r, first, r, r, qg.hx, r)
		qg.closers += 2
		if q.From.Kind == schema.EventVar {
			qg.eventRow(r)
			return
		}
		g.p("row := int(%s)", r)
		qg.rowEnv()
	case schema.WalkOrdered:
		sx := qg.loc.name("sx")
		g.p("%s := q.ix.Sorted()", sx)
		if p.Desc {
			run, k0 := qg.loc.name("run"), qg.loc.name("k0")
			g.p("for %s := %s.LastRun(); %s != index.NoRow; %s = %s.PrevRun(%s) {", run, sx, run, run, sx, run)
			g.p("%s, _ := %s.Key(%s)", k0, sx, run)
			if p.Lo != nil {
				g.p("if index.Compare(%s, %s) < 0 {", k0, qg.sg.code(p.Lo))
				g.p("break // below the range")
				g.p("}")
			}
			if p.Hi != nil {
				g.p("if index.Compare(%s, %s) > 0 {", k0, qg.sg.code(p.Hi))
				g.p("continue // above the range")
				g.p("}")
			}
			g.p("for %s := %s; %s != index.NoRow; %s = %s.Next(%s) {", r, run, r, r, sx, r)
			g.p("if k, _ := %s.Key(%s); index.Compare(k, %s) != 0 {", sx, r, k0)
			g.p("break // the run's end")
			g.p("}")
			g.p("row := int(%s)", r)
			qg.closers += 2
			qg.rowEnv()
			return
		}
		start := sx + ".First()"
		switch {
		case p.After && len(q.After) == 2:
			start = fmt.Sprintf("%s.SeekAfter(%s, %s)", sx, qg.sg.code(q.After[0]), qg.sg.code(q.After[1]))
		case p.After:
			start = fmt.Sprintf("%s.SeekAfter(%s, math.MaxInt32)", sx, qg.sg.code(q.After[0]))
		case p.Lo != nil:
			start = fmt.Sprintf("%s.Seek(%s)", sx, qg.sg.code(p.Lo))
		}
		g.p("for %s := %s; %s != index.NoRow; %s = %s.Next(%s) {", r, start, r, r, sx, r)
		if p.Hi != nil {
			g.p("if k, _ := %s.Key(%s); index.Compare(k, %s) > 0 {", sx, r, qg.sg.code(p.Hi))
			g.p("break // past the range")
			g.p("}")
		}
		g.p("row := int(%s)", r)
		qg.closers++
		qg.rowEnv()
	case schema.WalkRange:
		sx, rows := qg.loc.name("sx"), qg.loc.name("rows")
		mark, wlo, whi := qg.loc.name("mark"), qg.loc.name("wlo"), qg.loc.name("whi")
		w, m := qg.loc.name("w"), qg.loc.name("m")
		g.p("%s := q.ix.Sorted()", sx)
		if q.Limit != nil {
			g.p("%s := q.rows[:0]", rows)
		}
		g.p("%s := q.mark // a bit per table row, all clear between runs", mark)
		start := sx + ".First()"
		if p.Lo != nil {
			start = fmt.Sprintf("%s.Seek(%s)", sx, qg.sg.code(p.Lo))
		}
		if p.Hi != nil {
			g.p("%s, %s := %s.MarkTo(%s, %s, %s)", wlo, whi, sx, mark, start, qg.sg.code(p.Hi))
		} else {
			g.p("%s, %s := %s.MarkToEnd(%s, %s)", wlo, whi, sx, mark, start)
		}
		g.p("// the marked rows in ascending entity index (the scan's order), their")
		g.p("// words cleared for the next run")
		g.p("for %s := %s; %s <= %s; %s++ {", w, wlo, w, whi, w)
		g.p("%s := %s[%s]", m, mark, w)
		if q.Limit == nil {
			// no early return: the rows go straight to the body
			g.p("%s[%s] = 0", mark, w)
			g.p("for ; %s != 0; %s &= %s - 1 {", m, m, m)
			g.p("row := int(%s<<6 | int32(bits.TrailingZeros64(%s)))", w, m)
			qg.closers += 2
			qg.rowEnv()
			return
		}
		g.p("if %s == 0 {", m)
		g.p("continue")
		g.p("}")
		g.p("%s[%s] = 0", mark, w)
		g.p("for ; %s != 0; %s &= %s - 1 {", m, m, m)
		g.p("%s = append(%s, %s<<6|int32(bits.TrailingZeros64(%s)))", rows, rows, w, m)
		g.p("}")
		g.p("}")
		g.p("q.rows = %s", rows)
		g.p("for _, %s := range %s {", r, rows)
		g.p("row := int(%s)", r)
		qg.closers++
		qg.rowEnv()
	case schema.WalkBox:
		rows := qg.loc.name("rows")
		b := p.Box
		g.p("%s := q.ix.Grid().AppendBox(q.rows[:0], %s, %s, %s, %s) // candidates, ascending row", rows,
			qg.sg.code(b[0]), qg.sg.code(b[1]), qg.sg.code(b[2]), qg.sg.code(b[3]))
		g.p("q.rows = %s", rows)
		g.p("for _, %s := range %s {", r, rows)
		g.p("row := int(%s)", r)
		qg.closers++
		qg.rowEnv()
	case schema.WalkDisc:
		rows, rad, cx, cy := qg.loc.name("rows"), qg.loc.name("rad"), qg.loc.name("cx"), qg.loc.name("cy")
		g.p("// the disc's bounding box, never smaller than the true one: its radius")
		g.p("// from r2 in float64 with a margin past float32 rounding, its sides")
		g.p("// rounded outward")
		g.p("%s, %s := float64(%s), float64(%s)", cx, cy, qg.sg.code(p.Centre[0]), qg.sg.code(p.Centre[1]))
		g.p("%s := math.Sqrt(float64(%s)) * (1 + 1.0/(1<<16))", rad, qg.sg.code(p.R2))
		g.p("down, up := float32(math.Inf(-1)), float32(math.Inf(1))")
		g.p("// an infinite centre and radius make a side NaN (Inf - Inf): that side is unbounded")
		x0, y0, x1, y1 := qg.loc.name("x0"), qg.loc.name("y0"), qg.loc.name("x1"), qg.loc.name("y1")
		g.p("%s, %s, %s, %s := discSide(%s-%s, down), discSide(%s-%s, down), discSide(%s+%s, up), discSide(%s+%s, up)", x0, y0, x1, y1, cx, rad, cy, rad, cx, rad, cy, rad)
		g.p("%s := q.ix.Grid().AppendBox(q.rows[:0], %s, %s, %s, %s) // candidates, ascending row", rows, x0, y0, x1, y1)
		g.p("q.rows = %s", rows)
		g.p("for _, %s := range %s {", r, rows)
		g.p("row := int(%s)", r)
		qg.closers++
		qg.rowEnv()
	}
}

// eventRows declares the events the query reads (source's event case)
// and returns their local.
func (qg *qGen) eventRows() string {
	g, v := qg.g, qg.q.From
	evs := qg.loc.name(v.Name + "s")
	g.p("%s := q.t.%s.Read()", evs, exported(v.Event.Name))
	g.p("if q.events != nil {")
	g.p("%s = q.events.Read()", evs)
	g.p("}")
	qg.evs = evs
	return evs
}

// eventRow binds event position r of the walk (i, and the event).
func (qg *qGen) eventRow(r string) {
	g, v, sg := qg.g, qg.q.From, qg.sg
	ev := qg.loc.name(v.Name)
	g.p("i := int(%s)", r)
	g.p("%s := &%s[i]", ev, qg.evs)
	g.p("_ = %s", ev)
	for _, f := range v.Event.Fields {
		sg.env["col:"+v.Name+"."+f.Name] = ev + "." + exported(f.Name)
	}
}

// groupWalkRows is the run-time choice of a grouped walk of a hash
// index (docs/schema.md, Indexes, "Grouped walks"): the walk when the
// index holds at least groupWalkRows rows a group, else the scan; for a
// group by of a ref key (the scan's dense group array), and of other
// keys (the scan's group map, a lookup a row).
const (
	groupWalkRows    = 64
	groupWalkRowsMap = 2
)

// walkRows is the query's grouped-walk threshold.
func (qg *qGen) walkRows() int {
	if qg.denseGroup() {
		return groupWalkRows
	}
	return groupWalkRowsMap
}

// groupWalkOpen opens the run-time choice of a grouped walk: the walk's
// branch (rowLoop writes it), then groupWalkElse the scan's.
func (qg *qGen) groupWalkOpen() {
	qg.hx = qg.loc.name("hx")
	qg.g.p("%s := q.ix.Hash()", qg.hx)
	qg.g.p("if %s.Len() >= %d*%s.Groups() { // rows enough a group: walk the groups (docs/schema.md, Indexes)", qg.hx, qg.walkRows(), qg.hx)
}

// groupWalkElse closes the walk's branch and writes the scan's: the same
// rows loop with no index.
func (qg *qGen) groupWalkElse() {
	qg.g.p("} else {")
	p := qg.q.Index
	qg.q.Index = nil
	qg.rowLoop()
	qg.q.Index = p
	qg.g.p("}")
}

// walksGroups: the query walks a hash index's groups.
func (qg *qGen) walksGroups() bool { return qg.q.Index != nil && qg.q.Index.Walk == schema.WalkGroups }

// indexPlan is the plan's access path of an index walk.
func (qg *qGen) indexPlan() string {
	q, p := qg.q, qg.q.Index
	head := fmt.Sprintf("index %s (%s on %s): ", p.Index.Name, p.Index.Kind, indexColumns(p.Index))
	val := func(e schema.Expr) string {
		switch e := e.(type) {
		case *schema.ParamRef:
			return "param " + e.Param.Name
		case *schema.Lit:
			return literal(e)
		}
		return "?"
	}
	key := func() string {
		var ks []string
		for i, c := range p.Index.Columns {
			ks = append(ks, c.Name+" == "+val(p.Keys[i]))
		}
		return strings.Join(ks, " and ")
	}
	col := ""
	if len(p.Index.Columns) > 0 {
		col = p.Index.Columns[0].Name
	}
	rng := func() string {
		s := ""
		if p.Lo != nil {
			s += ", from " + col + " " + val(p.Lo)
		}
		if p.Hi != nil {
			s += ", to " + col + " " + val(p.Hi)
		}
		return s
	}
	switch p.Walk {
	case schema.WalkFind:
		return head + "find " + key() + " (0 or 1 rows)"
	case schema.WalkEqual:
		return head + "walk the rows of " + key() + " (ascending " + qg.ordWord() + ")"
	case schema.WalkGroups:
		rows := "rows"
		if q.From.Kind == schema.EventVar {
			rows = "events"
		}
		return head + fmt.Sprintf("a walk per group of %s (each in ascending %s; the scan instead when the %s are fewer than %d a group)", col, qg.ordWord(), rows, qg.walkRows())
	case schema.WalkOrdered:
		s := head + "ascending walk in (" + col + ", index)"
		if p.Desc {
			s = head + "descending walk by runs of " + col + " (ties in ascending index)"
		}
		if p.After {
			s += ", from after the keyset values"
		}
		s += rng()
		if q.Limit != nil {
			s += ", first n"
		}
		return s
	case schema.WalkRange:
		return head + "range walk" + rng() + ", rows marked in a bitmap, read in ascending index"
	case schema.WalkBox:
		return head + "candidates of the box's cells (ascending index)"
	}
	return head + "candidates of the cells of the disc's bounding box, rounded outward (ascending index)"
}

// ordWord names the from rows' order.
func (qg *qGen) ordWord() string {
	if qg.q.From.Kind == schema.EventVar {
		return "emission position"
	}
	return "index"
}

// discSideFunc writes discSide, a side of a disc query's bounding box,
// when a query walks a grid's disc.
func (g *gen) discSideFunc() {
	disc := false
	for _, q := range g.s.Queries {
		disc = disc || q.Index != nil && q.Index.Walk == schema.WalkDisc
	}
	if !disc {
		return
	}
	g.p("// discSide is a side of a disc query's bounding box: v rounded outward")
	g.p("// to float32 toward dir (±Inf), or dir itself when v is NaN (an")
	g.p("// infinite centre and radius: that side is unbounded, and the where")
	g.p("// decides). docs/schema.md, Indexes.")
	g.p("func discSide(v float64, dir float32) float32 {")
	g.p("if v != v {")
	g.p("return dir")
	g.p("}")
	g.p("return math.Nextafter32(float32(v), dir)")
	g.p("}")
	g.p("")
}

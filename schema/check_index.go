package schema

import (
	"fmt"
	"go/constant"
	"go/token"
	"math"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/index"
)

// indexDecl checks `index NAME on TABLE(COLUMN, ...) KIND` (docs/schema.md,
// Indexes); false after an error.
func (c *checker) indexDecl(ix *Index, d *synIndexDecl) bool {
	of := "index " + ix.Name
	td, ok := c.names[d.Table.Name]
	tp := c.pos(d.Table.Pos)
	var cols []*Column
	var tname string
	switch {
	case !ok:
		c.errorf(tp, KindUnknown, "unknown table %q of %s%s", d.Table.Name, of, c.tableHint(d.Table.Name))
		return false
	case td.table != nil:
		ix.Table, cols, tname = td.table, td.table.Columns, "table "+td.table.Name
	case td.event != nil:
		ix.Event, cols, tname = td.event, td.event.Fields, "event table "+td.event.Name
	default:
		c.errorf(tp, KindType, "%s is on %s, %s; an index is on a table or an event table", of, d.Table.Name, article(td.what))
		return false
	}
	good := true
	for _, id := range d.Cols {
		i := slices.IndexFunc(cols, func(col *Column) bool { return col.Name == id.Name })
		if i < 0 {
			names := make([]string, len(cols))
			for j, col := range cols {
				names[j] = col.Name
			}
			c.errorf(c.pos(id.Pos), KindUnknown, "unknown column %q of %s in %s%s", id.Name, tname, of, suggest(id.Name, names, "its columns"))
			good = false
			continue
		}
		if slices.Contains(ix.Columns, cols[i]) {
			c.errorf(c.pos(id.Pos), KindDuplicate, "%s names column %s twice; name each key column once", of, id.Name)
			good = false
			continue
		}
		ix.Columns = append(ix.Columns, cols[i])
	}
	kp := c.pos(d.Kind.Pos)
	switch d.Kind.Name {
	case "hash":
		ix.Kind = HashIndex
	case "unique":
		ix.Kind = UniqueIndex
	case "sorted":
		ix.Kind = SortedIndex
	case "grid":
		ix.Kind = GridIndex
	default:
		c.errorf(kp, KindUnknown, "unknown kind %q of %s%s", d.Kind.Name, of, suggest(d.Kind.Name, indexKindNames[:], "the kinds"))
		return false
	}
	if ix.Kind != GridIndex && len(d.Opts) > 0 {
		c.errorf(c.pos(d.Opts[0].Key.Pos), KindUnknown, "%s is a %s index, which takes no options (only a grid takes cell); drop the parentheses", of, ix.Kind)
		return false
	}
	opts := c.options(d.Opts, of, "cell")
	if ix.Event != nil && ix.Kind != HashIndex {
		c.errorf(kp, KindType, "%s is a %s index on event table %s; an event table's index is hash (equality and group by of its fields)", of, ix.Kind, ix.Event.Name)
		return false
	}
	if !good {
		return false
	}
	switch ix.Kind {
	case HashIndex, UniqueIndex:
		for i, col := range ix.Columns {
			switch {
			case col.Type.IsFloat():
				c.errorf(c.pos(d.Cols[i].Pos), KindType, "%s is a %s index on %s.%s, a %s column: floats have no exact equality key (-0 == +0, NaN != NaN); make it sorted (one column), or a grid over two float32 columns", of, ix.Kind, d.Table.Name, col.Name, col.Type)
				good = false
			case col.Type.Kind == Invalid:
				good = false
			}
		}
	case SortedIndex:
		if len(ix.Columns) != 1 {
			c.errorf(c.pos(d.Cols[1].Pos), KindValue, "%s is a sorted index on %d columns; a sorted index has one key column (for equality on several, make it hash)", of, len(ix.Columns))
			return false
		}
		col := ix.Columns[0]
		if !col.Type.IsNumeric() {
			c.errorf(c.pos(d.Cols[0].Pos), KindType, "%s is a sorted index on %s.%s, a %s column; a sorted index orders numbers (integers, floats): make it hash for equality", of, d.Table.Name, col.Name, col.Type)
			return false
		}
	case GridIndex:
		if len(ix.Columns) != 2 || ix.Columns[0].Type.Kind != Float32 || ix.Columns[1].Type.Kind != Float32 {
			var ts []string
			for _, col := range ix.Columns {
				ts = append(ts, col.Name+" "+col.Type.String())
			}
			c.errorf(c.pos(d.Cols[0].Pos), KindType, "%s is a grid on (%s); a grid is on exactly two float32 columns of one table, X then Y: on %s(X, Y) grid(cell: SIZE)", of, strings.Join(ts, ", "), d.Table.Name)
			good = false
		}
		o := opts["cell"]
		if o == nil {
			c.errorf(kp, KindMissing, "%s is a grid without a cell size; add (cell: SIZE), the side of a square cell in world units, about the size of the boxes queried", of)
			return false
		}
		cell, ok := c.cellOption(o, of)
		if !ok {
			return false
		}
		ix.Cell = cell
	}
	return good
}

// cellOption evaluates a grid's cell size: a positive finite number.
func (c *checker) cellOption(o *synOption, of string) (float32, bool) {
	p := c.pos(o.Value.Pos)
	if o.Value.IsList {
		c.errorf(p, KindType, "option cell of %s is a list; give a positive number", of)
		return 0, false
	}
	ex := c.expr(&scope{c: c}, o.Value.Expr)
	if ex.Type().Kind == Invalid {
		return 0, false
	}
	lit, ok := ex.(*Lit)
	if !ok || !ex.Type().IsNumeric() {
		c.errorf(p, KindType, "option cell of %s must be a numeric constant, not %s", of, describeExpr(ex))
		return 0, false
	}
	f, _ := constant.Float64Val(constant.ToFloat(lit.Value))
	v := float32(f)
	if !(v > 0) || math.IsInf(float64(v), 0) {
		c.errorf(p, KindValue, "option cell of %s is %s; a cell size is a positive finite number of world units (as a float32)", of, lit.Value)
		return 0, false
	}
	if !index.CellSizeOK(v) {
		c.errorf(p, KindValue, "option cell of %s is %s; a cell size is at least 2^-31 world units (index.MinCell): a grid has int32 cells a side, so a smaller cell's grid would not reach one world unit", of, lit.Value)
		return 0, false
	}
	return v, true
}

// planIndex chooses the index that serves q, or checks the one `using
// index` forces (docs/schema.md, Indexes: the rules and their order).
func (c *checker) planIndex(q *Query, u *synUsing) {
	of := "query " + q.Name
	if c.setSide {
		of = q.Name
	}
	if u != nil && u.Scan {
		q.Scan = true
		return
	}
	var forced *Index
	if u != nil {
		p := c.pos(u.Index.Pos)
		d, ok := c.names[u.Index.Name]
		switch {
		case !ok:
			c.errorf(p, KindUnknown, "unknown index %q in using of %s%s", u.Index.Name, of, c.hint(u.Index.Name, "index"))
			return
		case d.index == nil:
			c.errorf(p, KindType, "using index %s in %s: %s is %s, not an index", u.Index.Name, of, u.Index.Name, article(d.what))
			return
		case !slices.Contains(c.s.Indexes, d.index):
			return // its declaration failed and was reported
		}
		forced = d.index
		if c.setSide {
			c.errorf(p, KindValue, "using index %s in a side of set operation %s: each side is a scan; drop the using clause", u.Index.Name, of)
			return
		}
		if on, from := indexOn(forced), varSource(q.From); on != from {
			c.errorf(p, KindValue, "using index %s in %s: the index is on %s, and the query is from %s; use an index on %s (%s), or using scan", forced.Name, of, on, from, from, c.indexesOn(q.From))
			return
		}
		plan, why := c.servePlan(q, forced)
		if plan == nil {
			c.errorf(p, KindValue, "using index %s in %s: %s; %s", forced.Name, of, why, serves(forced, q.From))
			return
		}
		q.Index = plan
		return
	}
	if c.setSide || q.From == nil {
		return
	}
	// The automatic choice: the first walk in this order that some index
	// on the from table serves (indexes in declaration order).
	for _, w := range []IndexWalk{WalkFind, WalkEqual, WalkBox, WalkDisc, WalkOrdered, WalkRange, WalkGroups} {
		for _, ix := range c.s.Indexes {
			if indexOn(ix) != varSource(q.From) {
				continue
			}
			if plan, _ := c.servePlan(q, ix); plan != nil && plan.Walk == w {
				q.Index = plan
				return
			}
		}
	}
}

// indexOn names an index's table.
func indexOn(ix *Index) string {
	if ix.Event != nil {
		return "event table " + ix.Event.Name
	}
	return "table " + ix.Table.Name
}

// varSource names a from variable's table.
func varSource(v *Var) string {
	if v.Kind == EventVar {
		return "event table " + v.Event.Name
	}
	return "table " + v.Table.Name
}

// indexesOn lists the indexes on v's table, for a message.
func (c *checker) indexesOn(v *Var) string {
	var ns []string
	for _, ix := range c.s.Indexes {
		if indexOn(ix) == varSource(v) {
			ns = append(ns, ix.Name)
		}
	}
	if len(ns) == 0 {
		return "it has none: declare one"
	}
	return "its indexes are " + strings.Join(ns, ", ")
}

// serves says what queries an index serves, for a message.
func serves(ix *Index, v *Var) string {
	col := func(i int) string { return v.Name + "." + ix.Columns[i].Name }
	switch ix.Kind {
	case UniqueIndex, HashIndex:
		var eqs []string
		for i := range ix.Columns {
			eqs = append(eqs, col(i)+" == x")
		}
		s := fmt.Sprintf("%s serves a where with the conjuncts %s (x a parameter or a constant)", ix.Name, strings.Join(eqs, " and "))
		if ix.Event != nil && len(ix.Columns) == 1 {
			s += ", or a group by " + col(0)
		}
		return s
	case SortedIndex:
		return fmt.Sprintf("%s serves order by %s [desc][, index(%s)] (no group by, aggregate, distinct or window), or a where with a range conjunct on %s (>=, >, <=, <, == a parameter or a constant)", ix.Name, col(0), v.Name, col(0))
	}
	x, y := col(0), col(1)
	return fmt.Sprintf("%s serves a where with the box %s >= x0 and %s <= x1 and %s >= y0 and %s <= y1, or the disc (%s - x)*(%s - x) + (%s - y)*(%s - y) <= r2 (parameters or constants)", ix.Name, x, x, y, y, x, x, y, y)
}

// servePlan returns the plan by which ix serves q, or nil and why not.
// The first walk that applies wins, in the order of planIndex.
func (c *checker) servePlan(q *Query, ix *Index) (*IndexPlan, string) {
	switch {
	case q.Probe != nil:
		return nil, "the query is a point lookup by handle already"
	case len(q.Windows) > 0:
		return nil, "a query with window functions scans"
	}
	var conj []Expr
	if q.Where != nil {
		conj = Conjuncts(q.Where)
	}
	v := q.From
	isCol := func(e Expr, col *Column) bool {
		cr, ok := e.(*ColRef)
		return ok && cr.Var == v && cr.Column == col
	}
	value := func(e Expr) bool {
		switch e.(type) {
		case *ParamRef, *Lit:
			return true
		}
		return false
	}
	// equal finds the value of a conjunct col == x.
	equal := func(col *Column) Expr {
		for _, e := range conj {
			if b, ok := e.(*Binary); ok && b.Op == Eq {
				if isCol(b.X, col) && value(b.Y) {
					return b.Y
				}
				if isCol(b.Y, col) && value(b.X) {
					return b.X
				}
			}
		}
		return nil
	}
	// bound finds the first lower (lower true) or upper bound of col.
	bound := func(col *Column, lower bool) Expr {
		for _, e := range conj {
			b, ok := e.(*Binary)
			if !ok || !b.Op.IsComparison() || b.Op == Ne {
				continue
			}
			op, x, y := b.Op, b.X, b.Y
			if !isCol(x, col) {
				x, y = y, x
				op = flip(op)
			}
			if !isCol(x, col) || !value(y) {
				continue
			}
			if op == Eq || lower && (op == Ge || op == Gt) || !lower && (op == Le || op == Lt) {
				return y
			}
		}
		return nil
	}
	switch ix.Kind {
	case UniqueIndex, HashIndex:
		keys := make([]Expr, len(ix.Columns))
		missing := ""
		for i, col := range ix.Columns {
			if keys[i] = equal(col); keys[i] == nil && missing == "" {
				missing = v.Name + "." + col.Name
			}
		}
		if missing == "" {
			if ix.Kind == UniqueIndex {
				return &IndexPlan{Index: ix, Walk: WalkFind, Keys: keys}, ""
			}
			return &IndexPlan{Index: ix, Walk: WalkEqual, Keys: keys}, ""
		}
		if ix.Kind == HashIndex && len(ix.Columns) == 1 && len(q.GroupBy) == 1 && isCol(q.GroupBy[0], ix.Columns[0]) {
			return &IndexPlan{Index: ix, Walk: WalkGroups}, ""
		}
		return nil, "its where has no conjunct " + missing + " == x (x a parameter or a constant)"
	case GridIndex:
		x, y := ix.Columns[0], ix.Columns[1]
		box := [4]Expr{bound(x, true), bound(y, true), bound(x, false), bound(y, false)}
		if box[0] != nil && box[1] != nil && box[2] != nil && box[3] != nil {
			return &IndexPlan{Index: ix, Walk: WalkBox, Box: box}, ""
		}
		for _, e := range conj {
			if cx, cy, r2 := disc(e, v, x, y, value); r2 != nil {
				return &IndexPlan{Index: ix, Walk: WalkDisc, Centre: [2]Expr{cx, cy}, R2: r2}, ""
			}
		}
		return nil, "its where bounds neither a box of " + v.Name + "." + x.Name + " and " + v.Name + "." + y.Name + " on all four sides nor a disc"
	}
	// sorted
	col := ix.Columns[0]
	lo, hi := bound(col, true), bound(col, false)
	if plan, why := ordered(q, col); plan != nil {
		plan.Index, plan.Lo, plan.Hi = ix, lo, hi
		return plan, ""
	} else if lo == nil && hi == nil {
		return nil, "it serves neither the order (" + why + ") nor a range (the where has no range conjunct on " + v.Name + "." + col.Name + ")"
	}
	return &IndexPlan{Index: ix, Walk: WalkRange, Lo: lo, Hi: hi}, ""
}

// ordered returns the ordered walk of q by col, or nil and why not.
func ordered(q *Query, col *Column) (*IndexPlan, string) {
	switch {
	case len(q.OrderBy) == 0:
		return nil, "no order by"
	case len(q.GroupBy) > 0 || len(q.Aggregates) > 0:
		return nil, "the query groups or aggregates"
	case q.Distinct:
		return nil, "the query is distinct"
	}
	v := q.From
	keyExpr := func(k *OrderKey) Expr {
		if k.Item >= 0 {
			return q.Select[k.Item].Expr
		}
		return k.Expr
	}
	k0 := q.OrderBy[0]
	if cr, ok := keyExpr(k0).(*ColRef); !ok || cr.Var != v || cr.Column != col {
		return nil, "the first order key is not " + v.Name + "." + col.Name
	}
	if len(q.OrderBy) > 2 {
		return nil, "more than two keys"
	}
	if len(q.OrderBy) == 2 {
		k1 := q.OrderBy[1]
		ixo, ok := keyExpr(k1).(*IndexOf)
		if !ok || k1.Desc {
			return nil, "its second key is not index(" + v.Name + ") ascending"
		}
		if vr, ok := ixo.X.(*VarRef); !ok || vr.Var != v {
			return nil, "its second key is not index(" + v.Name + ") ascending"
		}
	}
	if q.After != nil && k0.Desc {
		return nil, "a descending keyset page"
	}
	return &IndexPlan{Walk: WalkOrdered, Desc: k0.Desc, After: q.After != nil}, ""
}

// flip is op with its operands swapped.
func flip(op BinaryOp) BinaryOp {
	switch op {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return op
}

// disc matches `(v.X - cx)*(v.X - cx) + (v.Y - cy)*(v.Y - cy) <= r2` (or
// <, or the two squares swapped, or r2 >= ...), cx, cy and r2 values.
func disc(e Expr, v *Var, x, y *Column, value func(Expr) bool) (cx, cy, r2 Expr) {
	b, ok := e.(*Binary)
	if !ok {
		return nil, nil, nil
	}
	sum, r := b.X, b.Y
	switch b.Op {
	case Le, Lt:
	case Ge, Gt:
		sum, r = b.Y, b.X
	default:
		return nil, nil, nil
	}
	add, ok := sum.(*Binary)
	if !ok || add.Op != Add || !value(r) {
		return nil, nil, nil
	}
	square := func(e Expr, col *Column) Expr {
		m, ok := e.(*Binary)
		if !ok || m.Op != Mul {
			return nil
		}
		a, ok1 := m.X.(*Binary)
		b, ok2 := m.Y.(*Binary)
		if !ok1 || !ok2 || a.Op != Sub || b.Op != Sub {
			return nil
		}
		ca, ok1 := a.X.(*ColRef)
		cb, ok2 := b.X.(*ColRef)
		if !ok1 || !ok2 || ca.Var != v || cb.Var != v || ca.Column != col || cb.Column != col || !value(a.Y) || !sameValue(a.Y, b.Y) {
			return nil
		}
		return a.Y
	}
	if cx, cy = square(add.X, x), square(add.Y, y); cx != nil && cy != nil {
		return cx, cy, r
	}
	if cx, cy = square(add.Y, x), square(add.X, y); cx != nil && cy != nil {
		return cx, cy, r
	}
	return nil, nil, nil
}

// sameValue: two parameter references to one parameter, or two equal
// constants of one type.
func sameValue(a, b Expr) bool {
	switch a := a.(type) {
	case *ParamRef:
		b, ok := b.(*ParamRef)
		return ok && a.Param == b.Param
	case *Lit:
		b, ok := b.(*Lit)
		return ok && a.T.Kind == b.T.Kind && constant.Compare(a.Value, token.EQL, b.Value)
	}
	return false
}

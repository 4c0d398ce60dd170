package schema

import (
	"go/constant"
	"slices"
	"strings"
)

// maxJoins bounds the joins of one system (the guard is a bit set).
const maxJoins = 64

// bodyState is what checking one system body accumulates.
type bodyState struct {
	sys       *System
	vars      map[string]*Var
	access    Access
	writes    map[*Column]bool
	joinReads []*ColRef         // columns read through joins, for the parallel check
	lost      []*AssignStmt     // assignments to a valid target whose value failed: their access still counts
	broken    map[string]bool   // variables whose declaration failed: uses are not reported again
	effects   bool              // emits, deletes, counts or joins: holes are not harmless
	query     *Query            // set when checking a query (sys is then a stand-in named as it)
	when      bool              // checking a system's when condition: no row variables
	rows      []string          // with when: the names of the system's row variables, refused in it
	params    map[string]*Param // the query's parameters
}

func (b *bodyState) varNames() []string {
	names := make([]string, 0, len(b.vars))
	for n := range b.vars {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// use records a column write and a read through a join, for the parallel
// check in finish (the access itself comes from Access.uses).
func (b *bodyState) use(r *ColRef, write bool) {
	if r.Var.Kind == EventVar {
		return // event fields: covered by Consumes
	}
	if write {
		b.writes[r.Column] = true
		return
	}
	if r.Var.Kind == JoinVar {
		b.joinReads = append(b.joinReads, r)
	}
}

// MaxGrain bounds a system's grain option, in chunks per worker.
const MaxGrain = 1 << 16

var phases = map[string]Phase{"frame_start": FrameStart, "fixed_update": FixedUpdate, "update": Update,
	"late_update": LateUpdate, "frame_end": FrameEnd}

// system checks one system declaration.
func (c *checker) system(d *synSystemDecl) *System {
	sys := &System{Pos: c.pos(d.Name.Pos), Name: d.Name.Name}
	of := "system " + sys.Name
	opts := c.options(d.Opts, of, "phase", "before", "after", "grain", "when")
	if o := opts["phase"]; o != nil {
		if id, ok := c.nameOption(o, of); ok {
			if p, ok := phases[id.Name]; ok {
				sys.Phase = p
				c.phased = append(c.phased, sys)
			} else {
				c.errorf(c.pos(id.Pos), KindUnknown, "unknown phase %q of %s%s", id.Name, of, suggest(id.Name, phaseNames[:], "the phases"))
			}
		}
	} else {
		c.errorf(sys.Pos, KindMissing, "%s has no phase; add (phase: P), P one of %s", of, strings.Join(phaseNames[:], ", "))
	}
	sys.Before = c.order(sys, opts["before"], of, sys.Name)
	sys.After = c.order(sys, opts["after"], of, sys.Name)
	if o := opts["grain"]; o != nil {
		sys.Grain, _ = c.intOption(o, of, 1, MaxGrain)
	}
	if o := opts["when"]; o != nil {
		sys.When, sys.WhenAccess = c.when(sys, o, of, rowNames(d.Body))
		if sys.When != nil {
			sys.WhenSource = exprText(o.Value.Expr)
		}
	}

	b := &bodyState{sys: sys, vars: map[string]*Var{}, writes: map[*Column]bool{}, broken: map[string]bool{}}
	if !c.from(b, d.Body.From) {
		return nil
	}
	for _, f := range d.Body.Where {
		c.change(b, f)
	}
	for _, j := range d.Body.Joins {
		c.join(b, j)
	}
	sc := &scope{c: c, b: b}
	sys.Body = c.stmts(sc, d.Body.Stmts)
	c.finish(b)
	return sys
}

// when checks a system's when option: a bool expression over resources,
// constants, @tick and @dt that is not constant (docs/schema.md, Systems).
// It returns the condition and what it reads; nil after an error.
func (c *checker) when(sys *System, o *synOption, of string, rows []string) (Expr, Access) {
	const reads = "resources (RESOURCE.FIELD), constants, @tick and @dt"
	if o.Value.IsList {
		c.errorf(c.pos(o.Value.Pos), KindType, "option when of %s is a list; give a bool expression over %s, such as when: Match.On", of, reads)
		return nil, Access{}
	}
	b := &bodyState{sys: sys, vars: map[string]*Var{}, writes: map[*Column]bool{}, broken: map[string]bool{}, when: true, rows: rows}
	x := c.expr(&scope{c: c, b: b}, o.Value.Expr)
	switch {
	case invalid(x):
		return nil, Access{}
	case x.Type().Kind != Bool:
		c.errorf(x.Position(), KindType, "the when condition of %s must be a bool, not %s; compare it, such as %s != 0", of, describeExpr(x), exprText(o.Value.Expr))
		return nil, Access{}
	}
	if l, ok := x.(*Lit); ok {
		c.errorf(x.Position(), KindValue, "the when condition of %s is constant (always %v); drop the option, or read a resource field, @tick or @dt", of, constant.BoolVal(l.Value))
		return nil, Access{}
	}
	return x, b.access
}

// rowNames lists the row variables a body declares (from, joins).
func rowNames(b *synBody) []string {
	var names []string
	if b != nil && b.From != nil && b.From.Var != nil {
		names = append(names, b.From.Var.Name)
	}
	if b != nil {
		for _, j := range b.Joins {
			if j.Var != nil {
				names = append(names, j.Var.Name)
			}
		}
	}
	return names
}

// order resolves a before or after list.
func (c *checker) order(sys *System, o *synOption, of, self string) []string {
	if o == nil {
		return nil
	}
	var ids []*synIdent
	if o.Value.IsList {
		ids = o.Value.List
	} else if id, ok := c.nameOption(o, of); ok {
		ids = []*synIdent{id}
	}
	var names []string
	for _, id := range ids {
		p := c.pos(id.Pos)
		d, ok := c.names[id.Name]
		switch {
		case id.Name == self:
			c.errorf(p, KindValue, "%s names itself in %s; a system cannot run %s itself", of, o.Key.Name, o.Key.Name)
		case !ok:
			c.errorf(p, KindUnknown, "unknown system %q in %s of %s; declare it, or name a hand-written one with extern system %s%s",
				id.Name, o.Key.Name, of, id.Name, c.systemHint(id.Name))
		case !d.system:
			c.errorf(p, KindType, "%s in %s of %s is %s, not a system", id.Name, o.Key.Name, of, article(d.what))
		case slices.Contains(names, id.Name):
			c.errorf(p, KindDuplicate, "%s is named twice in %s of %s", id.Name, o.Key.Name, of)
		default:
			names = append(names, id.Name)
			c.orders = append(c.orders, orderRef{sys: sys, before: o.Key.Name == "before", name: id.Name, pos: p})
		}
	}
	return names
}

// systemHint suggests a declared or extern system close to name.
func (c *checker) systemHint(name string) string {
	var cands []string
	for n, d := range c.names {
		if d.system {
			cands = append(cands, n)
		}
	}
	slices.Sort(cands)
	if s := suggest(name, cands, ""); strings.HasPrefix(s, "; did") {
		return s
	}
	return ""
}

// newVar declares a row variable, refusing duplicates and names of
// constants (which a bare name would then hide).
func (c *checker) newVar(b *bodyState, id *synIdent, v *Var) bool {
	v.Pos, v.Name = c.pos(id.Pos), id.Name
	if prev := b.vars[id.Name]; prev != nil {
		c.errorf(v.Pos, KindDuplicate, "row variable %q is already declared at %s; use another name", id.Name, prev.Pos)
		return false
	}
	if p := b.params[id.Name]; p != nil {
		c.errorf(v.Pos, KindDuplicate, "row variable %q has the name of the parameter declared at %s; use another name", id.Name, p.Pos)
		return false
	}
	if d, ok := c.names[id.Name]; ok && (d.cnst != nil || d.res != nil) {
		c.errorf(v.Pos, KindDuplicate, "row variable %q has the name of the %s declared at %s; use another name", id.Name, d.what, d.pos)
		return false
	}
	b.vars[id.Name] = v
	return true
}

// from checks the from clause; false when the body cannot be checked.
func (c *checker) from(b *bodyState, f *synFromClause) bool {
	d, ok := c.names[f.Table.Name]
	p := c.pos(f.Table.Pos)
	v := &Var{}
	switch {
	case !ok:
		c.errorf(p, KindUnknown, "unknown table %q in from of system %s%s", f.Table.Name, b.sys.Name, c.tableHint(f.Table.Name))
		return false
	case d.table != nil:
		v.Kind, v.Table = RowVar, d.table
	case d.event != nil:
		v.Kind, v.Event = EventVar, d.event
		b.access.Consumes = []*EventTable{d.event}
	default:
		c.errorf(p, KindType, "from %s in system %s: %s is %s; from names a table or an event table%s", f.Table.Name, b.sys.Name, f.Table.Name, article(d.what), lifeHint(d))
		return false
	}
	if !c.newVar(b, f.Var, v) {
		return false
	}
	b.sys.From = v
	return true
}

// change checks a change filter of the from clause: changed(x.C) names a
// column (a struct column's field as x.C.F) of the from row's table,
// added(x) the from row; the from clause must be over a table.
func (c *checker) change(b *bodyState, f *synChange) {
	sys, v := b.sys, b.sys.From
	p := c.pos(f.Pos)
	switch {
	case v.Kind != RowVar:
		c.errorf(p, KindType, "%s in system %s: the system runs over event table %s; change filters need a table's rows (from TABLE x where changed(x.C))", changeText(f), sys.Name, v.Event.Name)
		return
	case f.Var.Name != v.Name:
		c.errorf(c.pos(f.Var.Pos), KindUnknown, "%s in system %s: %s is not the from row; a change filter names the from row %s", changeText(f), sys.Name, f.Var.Name, v.Name)
		return
	case f.Kind == "added":
		if f.Col != nil {
			c.errorf(c.pos(f.Col.Pos), KindType, "added(%s.%s) in system %s: added takes the row, not a column: added(%s)", v.Name, f.Col.Name, sys.Name, v.Name)
			return
		}
		if sys.Added {
			c.errorf(p, KindDuplicate, "added(%s) is named twice in system %s", v.Name, sys.Name)
		}
		sys.Added = true
		return
	case f.Col == nil:
		c.errorf(p, KindType, "changed(%s) in system %s: changed takes a column: changed(%s.COLUMN)", v.Name, sys.Name, v.Name)
		return
	}
	name := f.Col.Name
	if f.Field != nil {
		name += "." + f.Field.Name
	}
	var col *Column
	var names []string
	for _, k := range v.Table.Columns {
		names = append(names, k.Name)
		if k.Name == name {
			col = k
		}
	}
	switch {
	case col == nil:
		c.errorf(c.pos(f.Col.Pos), KindUnknown, "unknown column %q in changed(%s.%s) (%s is a row of table %s)%s", name, v.Name, name, v.Name, v.Table.Name, suggest(name, names, "its columns"))
	case slices.Contains(sys.Changed, col):
		c.errorf(p, KindDuplicate, "changed(%s.%s) is named twice in system %s", v.Name, name, sys.Name)
	default:
		sys.Changed = append(sys.Changed, col)
	}
}

// tableHint suggests a table or event table close to name.
func (c *checker) tableHint(name string) string {
	var cands []string
	for n, d := range c.names {
		if d.table != nil || d.event != nil {
			cands = append(cands, n)
		}
	}
	slices.Sort(cands)
	return suggest(name, cands, "the tables")
}

// join checks `join TABLE VAR on VAR.COLUMN`.
func (c *checker) join(b *bodyState, j *synJoinClause) {
	if !c.joinOK(b, j) && b.vars[j.Var.Name] == nil {
		b.broken[j.Var.Name] = true
	}
}

// joinOK checks a join and declares its variable.
func (c *checker) joinOK(b *bodyState, j *synJoinClause) bool {
	sys := b.sys
	p := c.pos(j.Table.Pos)
	d, ok := c.names[j.Table.Name]
	switch {
	case !ok:
		c.errorf(p, KindUnknown, "unknown table %q in join of system %s%s", j.Table.Name, sys.Name, c.hint(j.Table.Name, "table"))
		return false
	case d.table == nil:
		c.errorf(p, KindType, "join %s in system %s: %s is %s; a join probes a table through a ref", j.Table.Name, sys.Name, j.Table.Name, article(d.what))
		return false
	case len(sys.Joins) == maxJoins:
		c.errorf(p, KindValue, "system %s has more than %d joins; split it", sys.Name, maxJoins)
		return false
	}
	vp := c.pos(j.On.Var.Pos)
	if j.On.Var.Name != sys.From.Name {
		c.errorf(vp, KindType, "join %s %s on %s.%s: a join probes a ref column of the from row %s", j.Table.Name, j.Var.Name, j.On.Var.Name, j.On.Column.Name, sys.From.Name)
		return false
	}
	ex := c.column(&scope{c: c, b: b}, j.On.Var, j.On.Column, j.On.Field, nil, false)
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
			j.On.Var.Name, via.Name, j.On.Var.Name, via.Name, via.Type, j.Table.Name, need)
		return false
	}
	jn := &Join{Pos: p, Table: d.table, Via: via, Index: len(sys.Joins)}
	v := &Var{Kind: JoinVar, Table: d.table, Join: jn}
	if !c.newVar(b, j.Var, v) {
		return false
	}
	jn.Var = v
	sys.Joins = append(sys.Joins, jn)
	b.access.Probes = addTable(b.access.Probes, d.table)
	b.effects = true
	return true
}

func addTable(ts []*Table, t *Table) []*Table {
	if slices.Contains(ts, t) {
		return ts
	}
	return append(ts, t)
}

// stmts checks a statement list.
func (c *checker) stmts(sc *scope, ss []*synStmt) []Stmt {
	var out []Stmt
	for _, s := range ss {
		var st Stmt
		switch {
		case s.Set != nil:
			st = c.set(sc, s.Set)
		case s.Match != nil:
			st = c.match(sc, s.Match)
		case s.Emit != nil:
			st = c.emit(sc, s.Emit)
		case s.Delete != nil:
			st = c.delete(sc, s.Delete)
		case s.Count != nil:
			st = c.count(sc, s.Count)
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out
}

var assignOps = map[string]AssignOp{"=": Assign, "+=": AddAssign, "-=": SubAssign, "*=": MulAssign}

func (c *checker) set(sc *scope, s *synSetStmt) Stmt {
	st := &SetStmt{Pos: c.pos(s.Pos)}
	for _, a := range s.Assigns {
		// A struct column set whole is one assignment per field, each
		// checking the value with struct operands standing for that
		// field (docs/schema.md, Structs).
		if g := c.structTarget(sc, a.Target); g != nil {
			for _, f := range g.Struct.Fields {
				fs := *sc
				fs.proj, fs.projStruct = f, g.Struct
				c.assign(&fs, st, a)
			}
			continue
		}
		c.assign(sc, st, a)
	}
	return st
}

// structTarget returns the struct column a set target names whole
// (VAR.COLUMN of a struct column), or nil.
func (c *checker) structTarget(sc *scope, t *synColExpr) *StructColumn {
	v := sc.b.vars[t.Var.Name]
	if t.Field != nil || v == nil || v.Kind == EventVar {
		return nil
	}
	for _, g := range v.Table.Structs {
		if g.Name == t.Column.Name {
			return g
		}
	}
	return nil
}

// assign checks one assignment and appends it to st.
func (c *checker) assign(sc *scope, st *SetStmt, a *synAssign) {
	{
		p := c.pos(a.Pos)
		target := c.setTarget(sc, a.Target)
		value := c.expr(sc, a.Value)
		if invalid(target) {
			return
		}
		ref := target.(*ColRef)
		op := assignOps[a.Op]
		// An assignment whose value fails still writes its target: the
		// access checks (conflicts) see it, so a bad value hides no
		// other error.
		lost := func() { sc.b.lost = append(sc.b.lost, &AssignStmt{Pos: p, Target: ref, Op: op}) }
		if invalid(value) {
			lost()
			return
		}
		t := ref.Column.Type
		if op != Assign && !t.IsNumeric() {
			c.errorf(p, KindType, "%s needs a number column; %s.%s is %s", a.Op, ref.Var.Name, ref.Column.Name, t)
			lost()
			return
		}
		what := "set " + ref.Var.Name + "." + ref.Column.Name
		if value = c.convertTo(value, t, what); invalid(value) {
			lost()
			return
		}
		st.Assigns = append(st.Assigns, &AssignStmt{Pos: p, Target: ref, Op: op, Value: value})
	}
}

// setTarget resolves a set target and checks that it may be written.
func (c *checker) setTarget(sc *scope, t *synColExpr) Expr {
	b := sc.b
	v := b.vars[t.Var.Name]
	p := c.pos(t.Var.Pos)
	switch {
	case v == nil && b.broken[t.Var.Name]:
		return bad(p)
	case v == nil:
	case v.Kind == EventVar:
		c.errorf(p, KindAccess, "cannot set %s.%s: %s is an event of %s, and events are read-only", v.Name, t.Column.Name, v.Name, v.Event.Name)
		return bad(p)
	case v.Kind == JoinVar && b.sys.From.Kind == RowVar:
		c.errorf(p, KindAccess, "cannot set %s.%s: %s is a %s row joined through %s.%s, and rows of %s run in parallel, so two of them may write one %s row; only a system over an event table (one event at a time) writes joined rows",
			v.Name, t.Column.Name, v.Name, v.Table.Name, b.sys.From.Name, v.Join.Via.Name, b.sys.From.Table.Name, v.Table.Name)
		return bad(p)
	}
	return c.column(sc, t.Var, t.Column, t.Field, nil, true)
}

func (c *checker) match(sc *scope, m *synMatchStmt) Stmt {
	st := &MatchStmt{Pos: c.pos(m.Pos)}
	if len(m.Arms) == 0 {
		c.errorf(st.Pos, KindMissing, "match has no arms; add COND => { ... }")
		return nil
	}
	failed := uint64(0) // joins known to have hit once the earlier arms failed
	for i, a := range m.Arms {
		p := c.pos(a.Pos)
		arm := &Arm{Pos: p}
		as := *sc
		as.guard |= failed
		if a.Else {
			if i != len(m.Arms)-1 {
				c.errorf(p, KindValue, "else must be the last arm of a match; the arms after it never run")
			}
		} else {
			cond := c.expr(&as, a.Cond)
			if !invalid(cond) && cond.Type().Kind != Bool {
				c.errorf(cond.Position(), KindType, "a match arm's condition must be a bool, not %s", describeExpr(cond))
				cond = bad(p)
			}
			arm.Cond = cond
			if !invalid(cond) {
				failed |= facts(cond, false)
				as.guard |= facts(cond, true)
			}
		}
		arm.Body = c.stmts(&as, a.Stmts)
		st.Arms = append(st.Arms, arm)
	}
	return st
}

func (c *checker) emit(sc *scope, e *synEmitStmt) Stmt {
	b := sc.b
	p := c.pos(e.Event.Pos)
	d, ok := c.names[e.Event.Name]
	switch {
	case !ok:
		c.errorf(p, KindUnknown, "unknown event table %q in emit%s", e.Event.Name, c.hint(e.Event.Name, "event table"))
		return nil
	case d.event == nil:
		c.errorf(p, KindType, "emit %s: %s is %s, not an event table%s", e.Event.Name, e.Event.Name, article(d.what), lifeHint(d))
		return nil
	}
	ev := d.event
	st := &EmitStmt{Pos: c.pos(e.Pos), Event: ev, Values: make([]Expr, len(ev.Fields))}
	given := map[string]Pos{}
	okAll := true
	for _, f := range e.Fields {
		fp := c.pos(f.Name.Pos)
		value := c.expr(sc, f.Value)
		var field *Column
		for _, k := range ev.Fields {
			if k.Name == f.Name.Name {
				field = k
			}
		}
		switch prev, dup := given[f.Name.Name]; {
		case field == nil:
			c.errorf(fp, KindUnknown, "event table %s has no field %q%s", ev.Name, f.Name.Name, suggest(f.Name.Name, colNames(ev.Fields), "its fields"))
			okAll = false
			continue
		case dup:
			c.errorf(fp, KindDuplicate, "field %s of %s is given twice in this emit (first at %s); give it once", f.Name.Name, ev.Name, prev)
			okAll = false
			continue
		}
		given[f.Name.Name] = fp
		value = c.convertTo(value, field.Type, "field "+field.Name+" of "+ev.Name)
		okAll = okAll && !invalid(value)
		st.Values[field.Index] = value
	}
	var missing []string
	for _, k := range ev.Fields {
		if _, ok := given[k.Name]; !ok {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		c.errorf(p, KindMissing, "emit %s does not give field %s; an emit gives every field of the event", ev.Name, strings.Join(missing, ", "))
		return nil
	}
	if !okAll {
		return nil
	}
	if !slices.Contains(b.access.Emits, ev) {
		b.access.Emits = append(b.access.Emits, ev)
	}
	b.effects = true
	return st
}

func (c *checker) delete(sc *scope, d *synDeleteStmt) Stmt {
	b := sc.b
	p := c.pos(d.Var.Pos)
	v := b.vars[d.Var.Name]
	switch {
	case v == nil && b.broken[d.Var.Name]:
		return nil
	case v == nil:
		c.errorf(p, KindUnknown, "unknown row variable %q in delete%s", d.Var.Name, suggest(d.Var.Name, b.varNames(), "the row variables"))
		return nil
	case v.Kind == EventVar:
		c.errorf(p, KindAccess, "cannot delete %s: it is an event of %s; events are retired by their lifetime", v.Name, v.Event.Name)
		return nil
	case v.Kind == JoinVar && sc.guard&(1<<v.Join.Index) == 0:
		c.errorf(p, KindAccess, "%s is deleted where join %s may have missed; test missing(%s) in an earlier match arm, or found(%s) and ... in this arm's condition",
			v.Name, v.Name, v.Name, v.Name)
		return nil
	}
	if v.Kind == RowVar {
		b.access.Handle = true
	}
	b.access.Deletes = addTable(b.access.Deletes, v.Table)
	b.effects = true
	return &DeleteStmt{Pos: c.pos(d.Pos), Var: v, Entity: d.Entity}
}

func (c *checker) count(sc *scope, s *synCountStmt) Stmt {
	sys := sc.b.sys
	name := s.Name.Name
	i := slices.Index(sys.Counters, name)
	if i < 0 {
		i = len(sys.Counters)
		sys.Counters = append(sys.Counters, name)
	}
	sc.b.effects = true
	return &CountStmt{Pos: c.pos(s.Pos), Name: name, Index: i}
}

// finish derives the system's access and checks what parallel rows may
// not share.
func (c *checker) finish(b *bodyState) {
	sys := b.sys
	if sys.From.Kind == RowVar {
		for _, r := range b.joinReads {
			if b.writes[r.Column] {
				c.errorf(r.Pos, KindAccess, "cannot read %s.%s through join %s: this system writes %s.%s on its own rows, which run in parallel, so a joined row may change while it is read; split the system in two",
					r.Var.Name, r.Column.Name, r.Var.Name, r.Column.Table.Name, r.Column.Name)
			}
		}
	}
	a := &b.access
	a.uses(sys)
	read, written := map[*Column]bool{}, map[*Column]bool{}
	for _, u := range a.Uses {
		if u.Var.Kind != EventVar { // event fields: covered by Consumes
			read[u.Column] = read[u.Column] || u.Read
			written[u.Column] = written[u.Column] || u.Write
		}
	}
	for _, l := range b.lost { // the schema has an error already: only the conflicts read these
		if l.Target.Var.Kind != EventVar {
			read[l.Target.Column] = read[l.Target.Column] || l.Op != Assign
			written[l.Target.Column] = true
		}
	}
	for _, k := range sys.Changed {
		read[k] = true // a change filter reads its column
	}
	for _, t := range c.s.Tables {
		for _, k := range t.Columns {
			switch {
			case written[k]:
				a.Writes = append(a.Writes, k)
			case read[k]:
				a.Reads = append(a.Reads, k)
			}
		}
	}
	a.Probes = inTableOrder(c.s.Tables, a.Probes)
	slices.SortStableFunc(a.Resources, func(x, y *Resource) int {
		return slices.Index(c.s.Resources, x) - slices.Index(c.s.Resources, y)
	})
	a.Deletes = inTableOrder(c.s.Tables, a.Deletes)
	slices.SortStableFunc(a.Emits, func(x, y *EventTable) int {
		return slices.Index(c.s.Events, x) - slices.Index(c.s.Events, y)
	})
	sys.Access = *a
	sys.Dense = sys.From.Kind == RowVar && !b.effects && !a.Handle
}

func inTableOrder(all, ts []*Table) []*Table {
	var out []*Table
	for _, t := range all {
		if slices.Contains(ts, t) {
			out = append(out, t)
		}
	}
	return out
}

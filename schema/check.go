package schema

import (
	"fmt"
	"go/constant"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tickwork/tickwork/ephemeral"
)

// Load parses and checks the schema text src of the file named filename:
// Parse, then Check. It returns the checked schema or an [ErrorList] of
// every error found, each a *Error printed as "file:line:col: message"
// (the list prints the first MaxErrors, then how many more). Safe for concurrent use.
func Load(filename string, src []byte) (*Schema, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return Check(filename, f)
}

// Check resolves every name of f, types every expression, folds constant
// subexpressions and derives each system's access (the rules are in
// docs/schema.md). It returns the checked schema, or an [ErrorList] of the
// errors found, in text order. It does not modify f.
// Safe for concurrent use on distinct files.
func Check(filename string, f *File) (*Schema, error) {
	c := &checker{
		file:     filename,
		s:        &Schema{File: filename},
		names:    map[string]declared{},
		consts:   map[string]*constState{},
		badQuery: map[*Query]bool{},
	}
	c.check(f)
	if len(c.errs) > 0 {
		slices.SortStableFunc(c.errs, func(a, b *Error) int {
			if a.Pos.Line != b.Pos.Line {
				return a.Pos.Line - b.Pos.Line
			}
			return a.Pos.Col - b.Pos.Col
		})
		// A struct assignment checks its value once per field: the same
		// error is reported once.
		type key struct {
			p   Pos
			msg string
		}
		seen := map[key]bool{}
		return nil, slices.DeleteFunc(c.errs, func(e *Error) bool {
			k := key{e.Pos, e.Msg}
			dup := seen[k]
			seen[k] = true
			return dup
		})
	}
	return c.s, nil
}

// declared is a top-level name: what it is and where.
type declared struct {
	what string // "constant", "domain", "table", "event table", "system", "extern system"
	pos  Pos
	// one of:
	cnst   *constState
	domain *Domain
	table  *Table
	event  *EventTable
	strct  *Struct
	res    *Resource
	index  *Index
	life   *Lifecycle
	system bool
}

// constState resolves a constant on first use (capacities may name
// constants declared later).
type constState struct {
	decl  *synConstDecl
	c     *Const
	state uint8 // 0 not started, 1 resolving, 2 done
}

type checker struct {
	file   string
	s      *Schema
	errs   ErrorList
	names  map[string]declared
	consts map[string]*constState
	orders []orderRef // every before/after name, in text order
	// phased are the systems whose phase option checked, whether or not
	// their body did (the phase order needs only the phases).
	phased []*System
	// badQuery: the queries that had errors (a subscription of one adds
	// none of its own).
	badQuery map[*Query]bool
	// setSide: the query being checked is a set operation's side (it
	// scans: no index plan).
	setSide bool
}

// errorf records an error.
func (c *checker) errorf(p Pos, k Kind, format string, args ...any) {
	c.errs = append(c.errs, &Error{Pos: p, Kind: k, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) pos(p lexer.Position) Pos { return pos(c.file, p) }

func (c *checker) check(f *File) {
	var tables []*synTableDecl
	var events []*synEventDecl
	var systems []*synSystemDecl
	var structs []*synStructDecl
	var resources []*synResourceDecl
	var queries []*synQueryDecl
	var indexes []*synIndexDecl
	var indexModels []*Index
	var lifes []*synLifeDecl
	var subs []*synSubDecl
	for _, d := range f.Decls {
		switch {
		case d.Const != nil:
			st := &constState{decl: d.Const}
			if c.declare(d.Const.Name, declared{what: "constant", cnst: st}) {
				c.consts[d.Const.Name.Name] = st
			}
		case d.Domain != nil:
			dom := &Domain{Pos: c.pos(d.Domain.Name.Pos), Name: d.Domain.Name.Name}
			if c.declare(d.Domain.Name, declared{what: "domain", domain: dom}) {
				c.s.Domains = append(c.s.Domains, dom)
			}
		case d.Table != nil:
			t := &Table{Pos: c.pos(d.Table.Name.Pos), Name: d.Table.Name.Name}
			if c.declare(d.Table.Name, declared{what: "table", table: t}) {
				c.s.Tables = append(c.s.Tables, t)
				tables = append(tables, d.Table)
			}
		case d.Event != nil:
			e := &EventTable{Pos: c.pos(d.Event.Name.Pos), Name: d.Event.Name.Name}
			if c.declare(d.Event.Name, declared{what: "event table", event: e}) {
				c.s.Events = append(c.s.Events, e)
				events = append(events, d.Event)
			}
		case d.Struct != nil:
			st := &Struct{Pos: c.pos(d.Struct.Name.Pos), Name: d.Struct.Name.Name}
			if c.declare(d.Struct.Name, declared{what: "struct", strct: st}) {
				c.s.Structs = append(c.s.Structs, st)
				structs = append(structs, d.Struct)
			}
		case d.Resource != nil:
			r := &Resource{Pos: c.pos(d.Resource.Name.Pos), Name: d.Resource.Name.Name}
			if c.declare(d.Resource.Name, declared{what: "resource", res: r}) {
				c.s.Resources = append(c.s.Resources, r)
				resources = append(resources, d.Resource)
			}
		case d.Extern != nil:
			if c.declare(d.Extern.Name, declared{what: "extern system", system: true}) {
				c.s.Externs = append(c.s.Externs, &Extern{Pos: c.pos(d.Extern.Name.Pos), Name: d.Extern.Name.Name})
			}
		case d.System != nil:
			if c.declare(d.System.Name, declared{what: "system", system: true}) {
				systems = append(systems, d.System)
			}
		case d.Query != nil:
			if c.declare(d.Query.Name, declared{what: "query"}) {
				queries = append(queries, d.Query)
			}
		case d.Index != nil:
			ix := &Index{Pos: c.pos(d.Index.Name.Pos), Name: d.Index.Name.Name}
			if c.declare(d.Index.Name, declared{what: "index", index: ix}) {
				indexes = append(indexes, d.Index)
				indexModels = append(indexModels, ix)
			}
		case d.Life != nil:
			l := &Lifecycle{Pos: c.pos(d.Life.Name.Pos), Name: d.Life.Name.Name}
			if c.declare(d.Life.Name, declared{what: "lifecycle event table", life: l}) {
				c.s.Lifecycles = append(c.s.Lifecycles, l)
				lifes = append(lifes, d.Life)
			}
		case d.Sub != nil:
			if c.declare(d.Sub.Name, declared{what: "subscription"}) {
				subs = append(subs, d.Sub)
			}
		}
	}
	// Constants first (in text order; each resolves what it names), then
	// domains, tables and events, whose options may name constants.
	for _, d := range f.Decls {
		if d.Const != nil {
			if st := c.consts[d.Const.Name.Name]; st != nil && st.decl == d.Const {
				c.resolveConst(st)
			}
		}
	}
	for i, d := range structs {
		c.structDecl(c.s.Structs[i], d)
	}
	for i, d := range resources {
		c.resourceDecl(c.s.Resources[i], d)
	}
	for _, d := range f.Decls {
		if d.Domain != nil {
			c.domain(d.Domain)
		}
	}
	for i, t := range tables {
		c.tableOptions(c.s.Tables[i], t)
	}
	for i, t := range tables {
		c.s.Tables[i].Columns = c.fields(t.Columns, "table "+t.Name.Name, c.s.Tables[i], nil)
	}
	for i, e := range events {
		c.eventTable(c.s.Events[i], e)
	}
	for i, d := range lifes {
		c.lifecycle(c.s.Lifecycles[i], d)
	}
	for i, d := range indexes {
		if c.indexDecl(indexModels[i], d) {
			c.s.Indexes = append(c.s.Indexes, indexModels[i])
		}
	}
	for _, sd := range systems {
		if sys := c.system(sd); sys != nil {
			c.s.Systems = append(c.s.Systems, sys)
		}
	}
	for _, qd := range queries {
		n := len(c.errs)
		if q := c.query(qd); q != nil {
			c.s.Queries = append(c.s.Queries, q)
			if len(c.errs) > n {
				c.badQuery[q] = true
			}
		}
	}
	for _, sd := range subs {
		if sub := c.subscription(sd); sub != nil {
			c.s.Subscriptions = append(c.s.Subscriptions, sub)
		}
	}
	// Independent checks, each reporting every error it finds: a cycle
	// does not hide a phase-order contradiction or an unordered pair
	// elsewhere (systems in a cycle reach each other, so no pair of them
	// is reported as unordered).
	c.cycles()
	c.phaseOrder()
	c.conflicts()
}

// cycles reports each cycle of before/after constraints among the
// declared systems of one phase, at its first system (Build would refuse
// it, without a position). Constraints through hand-written systems are
// not known here: Build checks the whole graph (docs/schema.md, Systems).
func (c *checker) cycles() {
	idx := map[string]int{}
	for i, y := range c.s.Systems {
		idx[y.Name] = i
	}
	succ := make([][]int, len(c.s.Systems))
	edge := func(a, b int) {
		if c.s.Systems[a].Phase == c.s.Systems[b].Phase && !slices.Contains(succ[a], b) {
			succ[a] = append(succ[a], b)
		}
	}
	for i, y := range c.s.Systems {
		for _, n := range y.Before {
			if j, ok := idx[n]; ok {
				edge(i, j)
			}
		}
		for _, n := range y.After {
			if j, ok := idx[n]; ok {
				edge(j, i)
			}
		}
	}
	state := make([]uint8, len(succ)) // 0 new, 1 on the stack, 2 done
	var stack []int
	var visit func(i int)
	visit = func(i int) {
		state[i] = 1
		stack = append(stack, i)
		for _, j := range succ[i] {
			switch state[j] {
			case 0:
				visit(j)
			case 1:
				cyc := stack[slices.Index(stack, j):]
				names := make([]string, 0, len(cyc)+1)
				for _, k := range cyc {
					names = append(names, c.s.Systems[k].Name)
				}
				names = append(names, c.s.Systems[j].Name)
				first := slices.Min(cyc)
				c.errorf(c.s.Systems[first].Pos, KindValue, "systems %s order themselves in a cycle (%s); drop one of these before/after constraints",
					strings.Join(names[:len(names)-1], ", "), strings.Join(names, " runs before "))
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = 2
	}
	for i := range succ {
		if state[i] == 0 {
			visit(i)
		}
	}
}

// declare records a top-level name, or reports it as a duplicate.
func (c *checker) declare(id *synIdent, d declared) bool {
	d.pos = c.pos(id.Pos)
	if prev, ok := c.names[id.Name]; ok {
		c.errorf(d.pos, KindDuplicate, "%s %q is already declared as %s at %s; rename one of them", d.what, id.Name, article(prev.what), prev.pos)
		return false
	}
	c.names[id.Name] = d
	return true
}

// resolveConst types and folds a constant's value, once.
func (c *checker) resolveConst(st *constState) *Const {
	switch st.state {
	case 1:
		c.errorf(c.pos(st.decl.Name.Pos), KindValue, "constant %q depends on itself; give it a value that does not name it, directly or through other constants", st.decl.Name.Name)
		st.state = 2
		return nil
	case 2:
		return st.c
	}
	st.state = 1
	d := st.decl
	var t Type
	ok := true
	if d.Type != nil {
		t, ok = c.typeExpr(d.Type, "constant "+d.Name.Name)
		ok = c.noArray(t, ok, d.Type, "constant "+d.Name.Name)
		if ok && (t.Kind == Ref || t.Kind == StructKind) {
			what := "a ref"
			if t.Kind == StructKind {
				what = "struct " + t.Struct.Name
			}
			c.errorf(c.pos(d.Type.Pos), KindType, "constant %q cannot be %s; constants are int32, int64, float32, float64 or bool", d.Name.Name, what)
			ok = false
		}
	}
	ex := c.expr(&scope{c: c}, d.Value)
	st.state = 2
	if !ok || ex.Type().Kind == Invalid {
		return nil
	}
	if d.Type == nil {
		t = ex.Type() // inferred: untyped stays untyped (typed by each use)
	}
	ex = c.convertTo(ex, t, "constant "+d.Name.Name)
	lit, isLit := ex.(*Lit)
	if !isLit {
		if ex.Type().Kind != Invalid {
			c.errorf(c.pos(d.Value.Pos), KindValue, "the value of constant %q is not constant; use literals and other constants only", d.Name.Name)
		}
		return nil
	}
	st.c = &Const{Pos: c.pos(d.Name.Pos), Name: d.Name.Name, Type: t, Value: lit.Value}
	c.s.Consts = append(c.s.Consts, st.c)
	return st.c
}

// typeExpr resolves a column, field or constant type.
func (c *checker) typeExpr(t *synTypeExpr, of string) (Type, bool) {
	if t.Ref != nil {
		d, ok := c.names[t.Ref.Name]
		switch {
		case !ok:
			c.errorf(c.pos(t.Ref.Pos), KindUnknown, "unknown table %q in ref type of %s%s", t.Ref.Name, of, c.hint(t.Ref.Name, "table"))
			return Type{}, false
		case d.table == nil:
			c.errorf(c.pos(t.Ref.Pos), KindType, "ref %s in %s: %s is %s; ref names a table, whose rows have handles", t.Ref.Name, of, t.Ref.Name, article(d.what))
			return Type{}, false
		}
		return Type{Kind: Ref, Table: d.table}, true
	}
	if t.Len != nil {
		return c.arrayType(t, of)
	}
	k, ok := basicTypes[t.Name.Name]
	if !ok {
		if d := c.names[t.Name.Name]; d.strct != nil {
			return Type{Kind: StructKind, Struct: d.strct}, true
		}
		c.errorf(c.pos(t.Name.Pos), KindUnknown, "unknown type %q in %s; types are int32, int64, float32, float64, bool, ref TABLE and the declared structs%s", t.Name.Name, of, c.hint(t.Name.Name, "struct"))
		return Type{}, false
	}
	return Type{Kind: k}, true
}

// MaxArrayLen bounds the length of a resource's array field.
const MaxArrayLen = 1 << 20

// arrayType resolves `[N]TYPE`: N an integer constant in 1..MaxArrayLen,
// TYPE a basic type.
func (c *checker) arrayType(t *synTypeExpr, of string) (Type, bool) {
	k, ok := basicTypes[t.Elem.Name]
	if !ok {
		c.errorf(c.pos(t.Elem.Pos), KindType, "the elements of array type [...]%s of %s are int32, int64, float32, float64 or bool, not %s", t.Elem.Name, of, t.Elem.Name)
		return Type{}, false
	}
	ex := c.expr(&scope{c: c}, t.Len)
	if invalid(ex) {
		return Type{}, false
	}
	lit, isLit := ex.(*Lit)
	if !isLit || !ex.Type().IsInteger() {
		c.errorf(c.pos(t.Len.Pos), KindType, "the length of an array of %s must be an integer constant, not %s", of, describeExpr(ex))
		return Type{}, false
	}
	n, exact := constant.Int64Val(lit.Value)
	if !exact || n < 1 || n > MaxArrayLen {
		c.errorf(c.pos(t.Len.Pos), KindValue, "the length of an array of %s is %s; it must be between 1 and %d", of, lit.Value, MaxArrayLen)
		return Type{}, false
	}
	return Type{Kind: ArrayKind, Elem: &Type{Kind: k}, Len: int(n)}, true
}

// noArray reports an array type where only a resource field may have
// one.
func (c *checker) noArray(t Type, ok bool, at *synTypeExpr, what string) bool {
	if ok && t.Kind == ArrayKind {
		c.errorf(c.pos(at.Pos), KindType, "%s is an array; only a resource's fields are arrays (a table stores one value a row in each column)", what)
		return false
	}
	return ok
}

// structDecl resolves a struct's fields: basic types and refs.
func (c *checker) structDecl(st *Struct, d *synStructDecl) {
	of := "struct " + st.Name
	if len(d.Fields) == 0 {
		c.errorf(st.Pos, KindMissing, "%s has no fields; give it at least one, FIELD: TYPE", of)
	}
	seen := map[string]Pos{}
	for _, f := range d.Fields {
		p := c.pos(f.Name.Pos)
		if prev, ok := seen[f.Name.Name]; ok {
			c.errorf(p, KindDuplicate, "%s has two fields named %q (the first at %s); rename one", of, f.Name.Name, prev)
			continue
		}
		seen[f.Name.Name] = p
		typ, ok := c.typeExpr(f.Type, of+" field "+f.Name.Name)
		ok = c.noArray(typ, ok, f.Type, "field "+f.Name.Name+" of "+of)
		if ok && typ.Kind == StructKind {
			c.errorf(c.pos(f.Type.Pos), KindType, "field %s of %s is struct %s; struct fields are int32, int64, float32, float64, bool or ref TABLE (give its fields here)", f.Name.Name, of, typ.Struct.Name)
			ok = false
		}
		if f.Unique {
			c.errorf(p, KindType, "field %s of %s is unique; unique is an attribute of a table column (a struct's field is one column of several): drop it", f.Name.Name, of)
		}
		if !ok {
			typ = Type{Kind: Invalid}
		}
		st.Fields = append(st.Fields, &StructField{Pos: p, Name: f.Name.Name, Type: typ, Index: len(st.Fields)})
	}
}

// resourceDecl resolves a resource's fields and their initial values.
func (c *checker) resourceDecl(r *Resource, d *synResourceDecl) {
	of := "resource " + r.Name
	if len(d.Fields) == 0 {
		c.errorf(r.Pos, KindMissing, "%s has no fields; give it at least one, FIELD: TYPE = VALUE", of)
	}
	seen := map[string]Pos{}
	for _, f := range d.Fields {
		p := c.pos(f.Name.Pos)
		if prev, ok := seen[f.Name.Name]; ok {
			c.errorf(p, KindDuplicate, "%s has two fields named %q (the first at %s); rename one", of, f.Name.Name, prev)
			continue
		}
		seen[f.Name.Name] = p
		typ, ok := c.typeExpr(f.Type, of+" field "+f.Name.Name)
		if ok && typ.Kind == Ref {
			c.errorf(c.pos(f.Type.Pos), KindType, "field %s of %s is a ref; resource fields are int32, int64, float32, float64, bool or a struct (a handle in a resource is a hand-written system's)", f.Name.Name, of)
			ok = false
		}
		if !ok {
			typ = Type{Kind: Invalid}
		}
		rf := &ResourceField{Pos: p, Name: f.Name.Name, Type: typ, Index: len(r.Fields)}
		r.Fields = append(r.Fields, rf)
		if f.Value == nil || !ok {
			continue
		}
		if typ.Kind == StructKind || typ.Kind == ArrayKind {
			c.errorf(c.pos(f.Value.Pos), KindType, "field %s of %s is %s, which has no literal; drop = ...: it starts at zero, and the host or a hand-written system sets it", f.Name.Name, of, describeType(typ))
			continue
		}
		ex := c.convertTo(c.expr(&scope{c: c}, f.Value), typ, "field "+f.Name.Name+" of "+of)
		switch lit, isLit := ex.(*Lit); {
		case invalid(ex):
		case !isLit:
			c.errorf(c.pos(f.Value.Pos), KindValue, "the initial value of field %s of %s is not constant; use literals and constants only", f.Name.Name, of)
		default:
			rf.Value = lit.Value
		}
	}
}

// fields resolves the columns of a table or the fields of an event table.
func (c *checker) fields(fs []*synField, of string, t *Table, e *EventTable) []*Column {
	var cols []*Column
	seen := map[string]Pos{}
	for _, f := range fs {
		p := c.pos(f.Name.Pos)
		if prev, ok := seen[f.Name.Name]; ok {
			c.errorf(p, KindDuplicate, "%s has two columns named %q (the first at %s); rename one", of, f.Name.Name, prev)
			continue
		}
		seen[f.Name.Name] = p
		typ, ok := c.typeExpr(f.Type, of+" column "+f.Name.Name)
		ok = c.noArray(typ, ok, f.Type, of+" column "+f.Name.Name)
		if ok && typ.Kind == StructKind && t == nil {
			c.errorf(c.pos(f.Type.Pos), KindType, "field %s of %s is struct %s; event fields are int32, int64, float32, float64, bool or ref TABLE (give the struct's fields one by one)", f.Name.Name, of, typ.Struct.Name)
			ok = false
		}
		if !ok {
			typ = Type{Kind: Invalid}
		}
		if f.Unique && typ.Kind == StructKind {
			c.uniqueColumn(f, typ, of, t)
		}
		if typ.Kind == StructKind {
			g := &StructColumn{Pos: p, Name: f.Name.Name, Struct: typ.Struct, Table: t}
			for _, sf := range typ.Struct.Fields {
				k := &Column{Pos: p, Name: f.Name.Name + "." + sf.Name, Type: sf.Type, Table: t, Index: len(cols), Group: g, Field: sf}
				cols = append(cols, k)
				g.Fields = append(g.Fields, k)
			}
			t.Structs = append(t.Structs, g)
			continue
		}
		uniq := f.Unique && c.uniqueColumn(f, typ, of, t)
		cols = append(cols, &Column{Pos: p, Name: f.Name.Name, Type: typ, Table: t, Event: e, Index: len(cols), Unique: uniq})
	}
	return cols
}

// options indexes a declaration's options by key; it reports duplicates
// and keys not in allowed.
func (c *checker) options(opts []*synOption, of string, allowed ...string) map[string]*synOption {
	m := map[string]*synOption{}
	for _, o := range opts {
		k := o.Key.Name
		p := c.pos(o.Key.Pos)
		if !slices.Contains(allowed, k) {
			c.errorf(p, KindUnknown, "unknown option %q of %s%s", k, of, suggest(k, allowed, "options"))
			continue
		}
		if _, dup := m[k]; dup {
			c.errorf(p, KindDuplicate, "option %q of %s is given twice; keep one", k, of)
			continue
		}
		m[k] = o
	}
	return m
}

// intOption evaluates an integer option in lo..hi; ok false after an error.
func (c *checker) intOption(o *synOption, of string, lo, hi int64) (int, bool) {
	if o.Value.IsList {
		c.errorf(c.pos(o.Value.Pos), KindType, "option %s of %s is a list; give an integer", o.Key.Name, of)
		return 0, false
	}
	ex := c.expr(&scope{c: c}, o.Value.Expr)
	if ex.Type().Kind == Invalid {
		return 0, false
	}
	lit, ok := ex.(*Lit)
	if !ok || !ex.Type().IsInteger() {
		c.errorf(c.pos(o.Value.Pos), KindType, "option %s of %s must be an integer constant, not %s", o.Key.Name, of, describeExpr(ex))
		return 0, false
	}
	v, exact := constant.Int64Val(lit.Value)
	if !exact || v < lo || v > hi {
		c.errorf(c.pos(o.Value.Pos), KindValue, "option %s of %s is %s; it must be between %d and %d", o.Key.Name, of, lit.Value, lo, hi)
		return 0, false
	}
	return int(v), true
}

// chunkRows evaluates a chunk_rows option.
func (c *checker) chunkRows(o *synOption, of string) int {
	n, ok := c.intOption(o, of, ephemeral.MinChunkRows, ephemeral.MaxChunkRows)
	if ok && n&(n-1) != 0 {
		c.errorf(c.pos(o.Value.Pos), KindValue, "option chunk_rows of %s is %d; it must be a power of two (%d, %d, ...)", of, n, ephemeral.MinChunkRows, 2*ephemeral.MinChunkRows)
		return 0
	}
	return n
}

// nameOption reads an option whose value is one name.
func (c *checker) nameOption(o *synOption, of string) (*synIdent, bool) {
	if !o.Value.IsList {
		if id := bareName(o.Value.Expr); id != nil {
			return id, true
		}
	}
	c.errorf(c.pos(o.Value.Pos), KindType, "option %s of %s must be a name", o.Key.Name, of)
	return nil, false
}

func (c *checker) domain(d *synDomainDecl) {
	dom := c.names[d.Name.Name].domain
	if dom == nil {
		return
	}
	of := "domain " + d.Name.Name
	opts := c.options(d.Opts, of, "capacity", "chunk_rows")
	if o := opts["capacity"]; o != nil {
		dom.Capacity, _ = c.intOption(o, of, 1, ephemeral.MaxCapacity)
	} else {
		c.errorf(c.pos(d.Name.Pos), KindMissing, "%s has no capacity; add (capacity: N), the most entities it holds", of)
	}
	if o := opts["chunk_rows"]; o != nil {
		dom.ChunkRows = c.chunkRows(o, of)
	}
}

func (c *checker) tableOptions(t *Table, d *synTableDecl) {
	of := "table " + d.Name.Name
	opts := c.options(d.Opts, of, "capacity", "chunk_rows", "domain")
	if o := opts["domain"]; o != nil {
		if id, ok := c.nameOption(o, of); ok {
			dd, found := c.names[id.Name]
			switch {
			case !found:
				c.errorf(c.pos(id.Pos), KindUnknown, "unknown domain %q of %s%s", id.Name, of, c.hint(id.Name, "domain"))
			case dd.domain == nil:
				c.errorf(c.pos(id.Pos), KindType, "domain %s of %s is %s, not a domain", id.Name, of, article(dd.what))
			default:
				t.Domain = dd.domain
				dd.domain.Tables = append(dd.domain.Tables, t)
			}
		}
	}
	if t.Domain != nil {
		for _, k := range []string{"capacity", "chunk_rows"} {
			if o := opts[k]; o != nil {
				c.errorf(c.pos(o.Key.Pos), KindValue, "%s is in domain %s, which sets its %s; remove %s here or set it on the domain",
					of, t.Domain.Name, k, k)
			}
		}
		t.Capacity, t.ChunkRows = t.Domain.Capacity, t.Domain.ChunkRows
		return
	}
	if o := opts["capacity"]; o != nil {
		t.Capacity, _ = c.intOption(o, of, 1, ephemeral.MaxCapacity)
	} else if opts["domain"] == nil {
		c.errorf(c.pos(d.Name.Pos), KindMissing, "%s has no capacity; add (capacity: N), the most rows it holds, or (domain: D)", of)
	}
	if o := opts["chunk_rows"]; o != nil {
		t.ChunkRows = c.chunkRows(o, of)
	}
}

func (c *checker) eventTable(e *EventTable, d *synEventDecl) {
	of := "event table " + d.Name.Name
	opts := c.options(d.Opts, of, "capacity", "lifetime")
	if o := opts["capacity"]; o != nil {
		e.Capacity, _ = c.intOption(o, of, 1, ephemeral.MaxCapacity)
	} else {
		c.errorf(c.pos(d.Name.Pos), KindMissing, "%s has no capacity; add (capacity: N), the most events it holds", of)
	}
	if o := opts["lifetime"]; o != nil {
		if id, ok := c.nameOption(o, of); ok {
			switch id.Name {
			case "next_frame":
				e.Lifetime = NextFrame
			case "this_frame":
				e.Lifetime = ThisFrame
			default:
				c.errorf(c.pos(id.Pos), KindUnknown, "unknown lifetime %q of %s; lifetimes are next_frame and this_frame", id.Name, of)
			}
		}
	} else {
		c.errorf(c.pos(d.Name.Pos), KindMissing, "%s has no lifetime; add lifetime: next_frame (read in the next frame) or lifetime: this_frame", of)
	}
	e.Fields = c.fields(d.Fields, of, nil, e)
	for _, f := range e.Fields {
		if f.Type.Kind == Ref && f.Type.Table == nil {
			f.Type = Type{Kind: Invalid}
		}
	}
}

// hint suggests a declared name of kind what close to name.
func (c *checker) hint(name, what string) string {
	var cands []string
	for n, d := range c.names {
		if d.what == what {
			cands = append(cands, n)
		}
	}
	slices.Sort(cands)
	return suggest(name, cands, plural(what))
}

// plural is the plural of the name of a kind of declaration.
func plural(what string) string {
	if strings.HasSuffix(what, "x") || strings.HasSuffix(what, "s") {
		return what + "es"
	}
	return what + "s"
}

// suggest is "; did you mean X?" for a candidate close to name, else a
// list of the candidates (up to 8), else "".
func suggest(name string, cands []string, what string) string {
	best, bestD := "", 3
	for _, c := range cands {
		if d := distance(strings.ToLower(name), strings.ToLower(c)); d < bestD && d <= max(1, len(name)/3) {
			best, bestD = c, d
		}
	}
	switch {
	case best != "":
		return fmt.Sprintf("; did you mean %q?", best)
	case len(cands) > 0 && len(cands) <= 8:
		return fmt.Sprintf("; %s are %s", what, strings.Join(cands, ", "))
	}
	return ""
}

// distance is the Levenshtein distance of a and b (bytes).
func distance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}

// describeType is "struct S" or "an array [N]T" or the type.
func describeType(t Type) string {
	switch t.Kind {
	case StructKind:
		return "struct " + t.Struct.Name
	case ArrayKind:
		return "an array " + t.String()
	}
	return t.String()
}

// article prefixes a or an.
func article(what string) string {
	if what != "" && strings.ContainsRune("aeiou", rune(what[0])) {
		return "an " + what
	}
	return "a " + what
}

// bareName returns the name of an expression that is one plain name.
func bareName(e *synExpr) *synIdent {
	if e == nil || len(e.Right) > 0 || len(e.Left.Right) > 0 {
		return nil
	}
	n := e.Left.Left
	if n.Cmp == nil || n.Cmp.Op != "" || len(n.Cmp.Left.Right) > 0 || len(n.Cmp.Left.Left.Right) > 0 {
		return nil
	}
	u := n.Cmp.Left.Left.Left
	if u.Primary == nil || u.Primary.Name == nil || u.Primary.Name.Column != nil || u.Primary.Name.Call {
		return nil
	}
	return u.Primary.Name.Name
}

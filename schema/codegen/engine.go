package codegen

// This file is the generator's target: what the generated code calls in
// the engine. It targets the engine packages of today's main (runtime,
// systems, ephemeral, events, commands); retargeting to the typed face
// (package tickwork) means rewriting these functions — declarations on
// the builder, the system's acquisitions and its kernel drivers — while
// kernel.go (loops, statements, expressions) stays as it is.

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

func (g *gen) imports() {
	var anyDelete, anyDense bool
	for _, y := range g.s.Systems {
		anyDelete = anyDelete || len(y.Access.Deletes) > 0
		anyDense = anyDense || y.Dense
	}
	g.p("import (")
	if anyDense {
		g.p(`"github.com/kelindar/bitmap"`)
		g.p("")
	}
	if anyDelete {
		g.p(`"github.com/tickwork/tickwork/commands"`)
	}
	g.p(`"github.com/tickwork/tickwork/ephemeral"`)
	if len(g.s.Events) > 0 {
		g.p(`"github.com/tickwork/tickwork/events"`)
	}
	g.p(`"github.com/tickwork/tickwork/runtime"`)
	if len(g.s.Systems) > 0 {
		g.p(`"github.com/tickwork/tickwork/systems"`)
	}
	g.p(")")
	g.p("")
}

func (g *gen) sizes() {
	g.p("// Sizes are the capacities of the schema's domains, standalone tables")
	g.p("// and event tables (entities, rows, events); DefaultSizes has the")
	g.p("// schema's. A host may pass others to Declare.")
	g.p("type Sizes struct {")
	for _, d := range g.s.Domains {
		g.p("%s int // domain %s, entities", exported(d.Name), d.Name)
	}
	for _, t := range g.s.Tables {
		if t.Domain == nil {
			g.p("%s int // table %s, rows", exported(t.Name), t.Name)
		}
	}
	for _, e := range g.s.Events {
		g.p("%s int // event table %s, events", exported(e.Name), e.Name)
	}
	g.p("}")
	g.p("")
	g.p("// DefaultSizes returns the capacities the schema declares.")
	g.p("func DefaultSizes() Sizes {")
	g.p("return Sizes{")
	for _, d := range g.s.Domains {
		g.p("%s: %d,", exported(d.Name), d.Capacity)
	}
	for _, t := range g.s.Tables {
		if t.Domain == nil {
			g.p("%s: %d,", exported(t.Name), t.Capacity)
		}
	}
	for _, e := range g.s.Events {
		g.p("%s: %d,", exported(e.Name), e.Capacity)
	}
	g.p("}")
	g.p("}")
	g.p("")
}

func (g *gen) tables() {
	for _, t := range g.s.Tables {
		where := "standalone"
		if t.Domain != nil {
			where = "in domain " + t.Domain.Name
		}
		g.doc("%s is table %s (%s, %s): the table and a typed column per schema column. Filled by Declare.", exported(t.Name), t.Name, where, g.where(t.Pos))
		g.p("type %s struct {", exported(t.Name))
		g.p("Table *ephemeral.Table")
		for _, c := range t.Columns {
			g.p("%s *ephemeral.Column[%s] // %s", exported(c.Name), goType(c.Type), c.Type)
		}
		g.p("}")
		g.p("")
	}
	for _, e := range g.s.Events {
		g.p("// %s is an event of event table %s (%s, %s).", exported(e.Name), e.Name, e.Lifetime, g.where(e.Pos))
		g.p("type %s struct {", exported(e.Name))
		for _, f := range e.Fields {
			g.p("%s %s // %s", exported(f.Name), goType(f.Type), f.Type)
		}
		g.p("}")
		g.p("")
	}
	g.p("// Tables holds every domain, table and event table of the schema, as")
	g.p("// Declare made them.")
	g.p("type Tables struct {")
	for _, d := range g.s.Domains {
		g.p("%s *ephemeral.Domain", exported(d.Name))
	}
	for _, t := range g.s.Tables {
		g.p("%s %s", exported(t.Name), exported(t.Name))
	}
	for _, e := range g.s.Events {
		g.p("%s *events.Table[%s]", exported(e.Name), exported(e.Name))
	}
	g.p("}")
	g.p("")
}

func (g *gen) declare() {
	g.p("// Declare declares the schema's domains, tables, columns and event")
	g.p("// tables on b with the capacities sz, and returns them. It returns the")
	g.p("// first error of the builder's calls (the builder keeps it too, and")
	g.p("// Build returns it). Call it before adding systems, from one goroutine.")
	g.p("func Declare(b *runtime.Builder, sz Sizes) (*Tables, error) {")
	g.p("t := &Tables{}")
	g.p("var err error")
	check := func(assign string) {
		g.p("if %s; err != nil {", assign)
		g.p("return nil, err")
		g.p("}")
	}
	for _, d := range g.s.Domains {
		check(fmt.Sprintf("t.%s, err = b.Domain(ephemeral.DomainSpec{Name: %q, Capacity: sz.%s, ChunkRows: %d})",
			exported(d.Name), d.Name, exported(d.Name), d.ChunkRows))
	}
	for _, t := range g.s.Tables {
		spec := fmt.Sprintf("Name: %q, Capacity: sz.%s, ChunkRows: %d", t.Name, exported(t.Name), t.ChunkRows)
		if t.Domain != nil {
			spec = fmt.Sprintf("Name: %q, Domain: t.%s", t.Name, exported(t.Domain.Name))
		}
		check(fmt.Sprintf("t.%s.Table, err = b.Table(ephemeral.TableSpec{%s})", exported(t.Name), spec))
		for _, c := range t.Columns {
			check(fmt.Sprintf("t.%s.%s, err = runtime.AddColumn[%s](b, t.%s.Table, %q)",
				exported(t.Name), exported(c.Name), goType(c.Type), exported(t.Name), c.Name))
		}
	}
	for _, e := range g.s.Events {
		life := "events.NextFrame"
		if e.Lifetime == schema.ThisFrame {
			life = "events.ThisFrame"
		}
		check(fmt.Sprintf("t.%s, err = runtime.AddEvents[%s](b, events.Spec{Name: %q, Capacity: sz.%s, Lifetime: %s})",
			exported(e.Name), exported(e.Name), e.Name, exported(e.Name), life))
	}
	g.p("return t, nil")
	g.p("}")
	g.p("")
}

// tableRef is the Go expression of a table's *ephemeral.Table from t.
func tableRef(t *schema.Table) string { return "t." + exported(t.Name) + ".Table" }

// columnRef is the Go expression of a column from t.
func columnRef(c *schema.Column) string {
	return "t." + exported(c.Table.Name) + "." + exported(c.Name)
}

func (g *gen) systems() {
	if len(g.s.Systems) == 0 {
		return
	}
	g.p("// Systems are the schema's declared systems, made by NewSystems.")
	g.p("type Systems struct {")
	for _, y := range g.s.Systems {
		g.p("%s *%s", exported(y.Name), exported(y.Name))
	}
	g.p("}")
	g.p("")
	g.p("// NewSystems makes the declared systems over the tables of t. Each is")
	g.p("// added to a builder with its System method (All gives them all).")
	g.p("func NewSystems(t *Tables) *Systems {")
	g.p("return &Systems{")
	for _, y := range g.s.Systems {
		g.p("%s: new%s(t),", exported(y.Name), exported(y.Name))
	}
	g.p("}")
	g.p("}")
	g.p("")
	g.p("// All returns every declared system, in schema order, for Builder.Add.")
	g.p("func (s *Systems) All() []systems.System {")
	names := make([]string, len(g.s.Systems))
	for i, y := range g.s.Systems {
		names[i] = "s." + exported(y.Name) + ".System()"
	}
	g.p("return []systems.System{%s}", strings.Join(names, ", "))
	g.p("}")
	g.p("")
	for _, y := range g.s.Systems {
		sg := newSysGen(g, y)
		if y.From.Kind == schema.EventVar {
			sg.eventSystem()
		} else {
			sg.tableSystem()
		}
	}
}

var phaseConst = map[schema.Phase]string{schema.FrameStart: "systems.FrameStart", schema.FixedUpdate: "systems.FixedUpdate",
	schema.Update: "systems.Update", schema.LateUpdate: "systems.LateUpdate", schema.FrameEnd: "systems.FrameEnd"}

// header writes the system type's comment and its System method.
func (sg *sysGen) header(kind string) {
	g, y := sg.g, sg.y
	counters := ""
	if len(y.Counters) > 0 {
		counters = " Its counters are summed over every run since it was made."
	}
	g.doc("%s is declared system %s (%s): phase %s, %s.%s", sg.name, y.Name, g.where(y.Pos), y.Phase, kind, counters)
	g.p("type %s struct {", sg.name)
	for _, c := range y.Counters {
		g.p("%s int64 // count %s", exported(c), c)
	}
}

// systemMethod writes System: the systems.System with the derived manifest.
func (sg *sysGen) systemMethod() {
	g, y, a := sg.g, sg.y, sg.y.Access
	g.p("// System returns the system for Builder.Add, with the manifest its body")
	g.p("// implies.")
	g.p("func (s *%s) System() systems.System {", sg.name)
	g.p("t := s.t")
	g.p("return systems.System{")
	g.p("Name: %q,", y.Name)
	g.p("Phase: %s,", phaseConst[y.Phase])
	if len(y.Before) > 0 {
		g.p("Before: %s,", stringList(y.Before))
	}
	if len(y.After) > 0 {
		g.p("After: %s,", stringList(y.After))
	}
	g.p("Manifest: systems.Manifest{")
	reads := a.Reads
	for _, tb := range a.Probes {
		if !touches(a, tb) {
			// The engine has no probe-only declaration: a join that reads
			// none of its table's columns declares a read of the first.
			reads = append(reads, tb.Columns[0])
		}
	}
	if refs := colRefs(reads); refs != "" {
		g.p("Reads: []systems.ColumnRef{%s},", refs)
	}
	if refs := colRefs(a.Writes); refs != "" {
		g.p("Writes: []systems.ColumnRef{%s},", refs)
	}
	if len(a.Deletes) > 0 {
		ts := make([]string, len(a.Deletes))
		for i, tb := range a.Deletes {
			ts[i] = tableRef(tb)
		}
		g.p("Deletes: []*ephemeral.Table{%s},", strings.Join(ts, ", "))
	}
	if len(a.Emits) > 0 {
		g.p("Emits: []events.Buffer{%s},", eventRefs(a.Emits))
	}
	if len(a.Consumes) > 0 {
		g.p("Consumes: []events.Buffer{%s},", eventRefs(a.Consumes))
	}
	g.p("},")
	g.p("Run: s.Run,")
	g.p("}")
	g.p("}")
	g.p("")
}

// touches reports whether access a names a column of tb.
func touches(a schema.Access, tb *schema.Table) bool {
	for _, c := range append(append([]*schema.Column(nil), a.Reads...), a.Writes...) {
		if c.Table == tb {
			return true
		}
	}
	return false
}

func stringList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func colRefs(cs []*schema.Column) string {
	refs := make([]string, len(cs))
	for i, c := range cs {
		refs[i] = "systems.Col(" + columnRef(c) + ")"
	}
	return strings.Join(refs, ", ")
}

func eventRefs(es []*schema.EventTable) string {
	refs := make([]string, len(es))
	for i, e := range es {
		refs[i] = "t." + exported(e.Name)
	}
	return strings.Join(refs, ", ")
}

// acquire writes the checked acquisition of a column slice into dst.
func (sg *sysGen) acquire(dst string, c *schema.Column, write bool) {
	fn := "Read"
	if write {
		fn = "Write"
	}
	sg.g.p("if %s, err = systems.%s(ctx, %s); err != nil {", dst, fn, columnRef(c))
	sg.g.p("return err")
	sg.g.p("}")
}

// dtValues writes the run's @dt and @tick values into prefix+name.
func (sg *sysGen) dtValues(prefix string) {
	g, a := sg.g, sg.y.Access
	if !a.DT && !a.Tick {
		return
	}
	dt := "ctx.DT()"
	if sg.y.Phase == schema.FixedUpdate {
		dt = "ctx.FixedDT()"
	}
	if a.DT {
		if sg.usesDT(schema.Float32) {
			g.p("%sdt32 = float32(%s)", prefix, dt)
		}
		if sg.usesDT(schema.Float64) {
			g.p("%sdt64 = %s", prefix, dt)
		}
	}
	if a.Tick {
		g.p("%stick = int64(ctx.Tick())", prefix)
	}
}

// usesDT reports whether the body uses @dt as type k.
func (sg *sysGen) usesDT(k schema.TypeKind) bool {
	found := false
	var expr func(e schema.Expr)
	expr = func(e schema.Expr) {
		switch e := e.(type) {
		case *schema.EnvRef:
			found = found || (e.Env == schema.DT && e.T.Kind == k)
		case *schema.Unary:
			expr(e.X)
		case *schema.Binary:
			expr(e.X)
			expr(e.Y)
		case *schema.Convert:
			expr(e.X)
		case *schema.IndexOf:
			expr(e.X)
		}
	}
	var stmts func(ss []schema.Stmt)
	stmts = func(ss []schema.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *schema.SetStmt:
				for _, a := range s.Assigns {
					expr(a.Value)
				}
			case *schema.MatchStmt:
				for _, a := range s.Arms {
					if a.Cond != nil {
						expr(a.Cond)
					}
					stmts(a.Body)
				}
			case *schema.EmitStmt:
				for _, v := range s.Values {
					expr(v)
				}
			}
		}
	}
	stmts(sg.y.Body)
	return found
}

// reserveBound is the Go expression of the most records one run of the
// system records: per deleted table, its most deletes per item times the
// items (the from table's capacity, or the event table's).
func (sg *sysGen) reserveBound() string {
	y := sg.y
	var items string
	if y.From.Kind == schema.EventVar {
		items = "s.t." + exported(y.From.Event.Name) + ".Cap()"
	} else {
		items = tableRefS(y.From.Table) + ".Cap()"
	}
	per := 0
	for _, tb := range y.Access.Deletes {
		per += maxDeletes(y.Body, tb)
	}
	return fmt.Sprintf("%d * %s", per, items)
}

func tableRefS(t *schema.Table) string { return "s.t." + exported(t.Name) + ".Table" }

package codegen

// This file and engine_system.go are the generator's target: what the
// generated code calls. It calls the face, package tickwork (the module
// root), and nothing else, so nothing generated could not have been
// written by hand on it. Declarations go on the builder; each system asks
// its Decl for the accessors its body implies (the engine derives the
// manifest from them) and drives its kernels. kernel.go (loops,
// statements, expressions) does not depend on the target.

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

func (g *gen) imports() {
	g.p(`import "github.com/tickwork/tickwork"`)
	g.p("")
}

// sized is one field of the generated Sizes: a domain, a standalone table
// or an event table, its capacity and what it counts.
type sized struct {
	name, kind, unit string
	capacity         int
}

// sizedFields lists the generated Sizes' fields in declaration order:
// domains, then standalone tables, then event tables.
func (g *gen) sizedFields() []sized {
	var out []sized
	for _, d := range g.s.Domains {
		out = append(out, sized{d.Name, "domain", "entities", d.Capacity})
	}
	for _, t := range g.s.Tables {
		if t.Domain == nil {
			out = append(out, sized{t.Name, "table", "rows", t.Capacity})
		}
	}
	for _, e := range g.s.Events {
		out = append(out, sized{e.Name, "event table", "events", e.Capacity})
	}
	return out
}

func (g *gen) sizes() {
	fields := g.sizedFields()
	g.p("// Sizes are the capacities of the schema's domains, standalone tables")
	g.p("// and event tables (entities, rows, events); DefaultSizes has the")
	g.p("// schema's. A host may pass others to Declare.")
	g.p("type Sizes struct {")
	for _, f := range fields {
		g.p("%s int // %s %s, %s", exported(f.name), f.kind, f.name, f.unit)
	}
	g.p("}")
	g.p("")
	g.p("// DefaultSizes returns the capacities the schema declares.")
	g.p("func DefaultSizes() Sizes {")
	g.p("return Sizes{")
	for _, f := range fields {
		g.p("%s: %d,", exported(f.name), f.capacity)
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
		g.p("Table *tickwork.Table")
		for _, c := range t.Columns {
			g.p("%s *tickwork.Column[%s] // %s", exported(c.Name), goType(c.Type), c.Type)
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
		g.p("%s *tickwork.Domain", exported(d.Name))
	}
	for _, t := range g.s.Tables {
		g.p("%s %s", exported(t.Name), exported(t.Name))
	}
	for _, e := range g.s.Events {
		g.p("%s *tickwork.Events[%s]", exported(e.Name), exported(e.Name))
	}
	g.p("}")
	g.p("")
}

func (g *gen) declare() {
	g.p("// Declare declares the schema's domains, tables, columns and event")
	g.p("// tables on b with the capacities sz, and returns them, or the")
	g.p("// builder's first error (Builder.Err; Build returns it too). Call it")
	g.p("// before adding systems, from one goroutine.")
	g.p("func Declare(b *tickwork.Builder, sz Sizes) (*Tables, error) {")
	g.p("t := &Tables{}")
	for _, d := range g.s.Domains {
		g.p("t.%s = b.Domain(tickwork.DomainSpec{Name: %q, Capacity: sz.%s, ChunkRows: %d})",
			exported(d.Name), d.Name, exported(d.Name), d.ChunkRows)
	}
	for _, t := range g.s.Tables {
		spec := fmt.Sprintf("Name: %q, Capacity: sz.%s, ChunkRows: %d", t.Name, exported(t.Name), t.ChunkRows)
		if t.Domain != nil {
			spec = fmt.Sprintf("Name: %q, Domain: t.%s", t.Name, exported(t.Domain.Name))
		}
		g.p("t.%s.Table = b.Table(tickwork.TableSpec{%s})", exported(t.Name), spec)
		for _, c := range t.Columns {
			g.p("t.%s.%s = tickwork.AddColumn[%s](b, t.%s.Table, %q)",
				exported(t.Name), exported(c.Name), goType(c.Type), exported(t.Name), c.Name)
		}
	}
	for _, e := range g.s.Events {
		life := "tickwork.NextFrame"
		if e.Lifetime == schema.ThisFrame {
			life = "tickwork.ThisFrame"
		}
		g.p("t.%s = tickwork.AddEvents[%s](b, tickwork.EventSpec{Name: %q, Capacity: sz.%s, Lifetime: %s})",
			exported(e.Name), exported(e.Name), e.Name, exported(e.Name), life)
	}
	g.p("if err := b.Err(); err != nil {")
	g.p("return nil, err")
	g.p("}")
	g.p("return t, nil")
	g.p("}")
	g.p("")
}

// tableRef is the Go expression of a table's *tickwork.Table from t.
func tableRef(t *schema.Table) string { return "t." + exported(t.Name) + ".Table" }

// columnRef is the Go expression of a column from t.
func columnRef(c *schema.Column) string {
	return "t." + exported(c.Table.Name) + "." + exported(c.Name)
}

// accessor is the face call that declares a column: Read or Write.
func accessor(write bool) string {
	if write {
		return "tickwork.Write"
	}
	return "tickwork.Read"
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
	if len(g.simdSystems()) > 0 {
		g.p("// The systems with a SIMD variant run the widest lane this build and")
		g.p("// CPU run (tickwork.BestLane); SetLane forces another.")
	}
	g.p("func NewSystems(t *Tables) *Systems {")
	g.p("%s &Systems{", map[bool]string{true: "s :=", false: "return"}[len(g.simdSystems()) > 0])
	for _, y := range g.s.Systems {
		g.p("%s: new%s(t),", exported(y.Name), exported(y.Name))
	}
	g.p("}")
	if len(g.simdSystems()) > 0 {
		g.p("s.setLane(tickwork.BestLane())")
		g.p("return s")
	}
	g.p("}")
	g.p("")
	g.setLane()
	g.p("// All returns every declared system, in schema order, for Builder.Add.")
	g.p("func (s *Systems) All() []tickwork.System {")
	names := make([]string, len(g.s.Systems))
	for i, y := range g.s.Systems {
		names[i] = "s." + exported(y.Name) + ".System()"
	}
	g.p("return []tickwork.System{%s}", strings.Join(names, ", "))
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

var phaseConst = map[schema.Phase]string{schema.FrameStart: "tickwork.FrameStart", schema.FixedUpdate: "tickwork.FixedUpdate",
	schema.Update: "tickwork.Update", schema.LateUpdate: "tickwork.LateUpdate", schema.FrameEnd: "tickwork.FrameEnd"}

// header writes the system type's comment and its first fields.
func (sg *sysGen) header(kind string) {
	g, y := sg.g, sg.y
	counters := ""
	if len(y.Counters) > 0 {
		counters = " Its counters (count NAME) are declared on its Decl: the frame report has each frame's sum (FrameReport.Counter), Counter.Total the sum since the world was built."
	}
	simd := " It has a SIMD variant (docs/schema.md, SIMD variants)."
	if n := simdCheck(y); !n.SIMD {
		simd = " No SIMD variant: " + n.Reason + "."
	}
	g.doc("%s is declared system %s (%s): phase %s, %s.%s%s", sg.name, y.Name, g.where(y.Pos), y.Phase, kind, counters, simd)
	g.p("type %s struct {", sg.name)
	for _, c := range y.Counters {
		g.p("%s tickwork.Counter // count %s", exported(c), c)
	}
}

// systemMethod writes System: the tickwork.System of the declaration.
func (sg *sysGen) systemMethod() {
	g, y := sg.g, sg.y
	g.p("// System returns the system for Builder.Add. Its declaration asks for")
	g.p("// the accessors the body implies, from which the engine derives its")
	g.p("// manifest (reads, writes, records, emits, consumes).")
	g.p("func (s *%s) System() tickwork.System {", sg.name)
	g.p("return tickwork.System{")
	g.p("Name: %q,", y.Name)
	g.p("Phase: %s,", phaseConst[y.Phase])
	if len(y.Before) > 0 {
		g.p("Before: %s,", stringList(y.Before))
	}
	if len(y.After) > 0 {
		g.p("After: %s,", stringList(y.After))
	}
	g.p("Declare: s.declare,")
	if g.simd[y] {
		g.p("Lane: s.lane.String(), // the lane its kernel runs: Systems.SetLane")
	} else {
		g.p("Lane: %q, // generated kernels are plain Go", "scalar")
	}
	g.p("}")
	g.p("}")
	g.p("")
}

// probeColumn is the column a join's lease comes from: the first used
// column of the joined table, else its first column (the engine has no
// probe-only declaration, so a join that reads nothing of its table
// declares a read of that column).
func (sg *sysGen) probeColumn(j *schema.Join) (*schema.Column, bool) {
	if us := sg.joinUses(j.Var); len(us) > 0 {
		return us[0].c, sg.uses[us[0].v][us[0].c].write
	}
	return j.Table.Columns[0], false
}

func stringList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
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
// system records, for deleted table tb: its most deletes per item times
// the items (the from table's capacity, or the event table's).
func (sg *sysGen) reserveBound(tb *schema.Table) string {
	y := sg.y
	var items string
	if y.From.Kind == schema.EventVar {
		items = "s.t." + exported(y.From.Event.Name) + ".Cap()"
	} else {
		items = "s.t." + exported(y.From.Table.Name) + ".Table.Cap()"
	}
	return fmt.Sprintf("%d * %s", maxDeletes(y.Body, tb), items)
}

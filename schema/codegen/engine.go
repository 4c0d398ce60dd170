package codegen

// This file and engine_system.go are the generator's target: what the
// generated code calls. It calls the face, package tickwork (the module
// root), and nothing else (but math.Floor, for floor), so nothing
// generated could not have been written by hand on it. Declarations go on the builder; each system asks
// its Decl for the accessors its body implies (the engine derives the
// manifest from them) and drives its kernels. kernel.go (loops,
// statements, expressions) does not depend on the target.

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

func (g *gen) imports() {
	var std []string
	if usesFloor(g.s) || indexMath(g.s) {
		std = append(std, `"math"`)
	}
	if usesIndexMark(g.s) {
		std = append(std, `"math/bits"`)
	}
	if usesSlices(g.s) {
		std = append(std, `"slices"`)
	}
	ix := walksIndex(g.s) || upkeepGrid(g)
	if len(std) > 0 || ix {
		g.p("import (")
		for _, s := range std {
			g.p("%s", s)
		}
		g.p("")
		g.p(`"github.com/tickwork/tickwork"`)
		if ix {
			g.p(`"github.com/tickwork/tickwork/index"`)
		}
		g.p(")")
		g.p("")
		return
	}
	g.p(`import "github.com/tickwork/tickwork"`)
	g.p("")
}

// floorFunc writes the schema's floor(x) (docs/schema.md, Resources),
// when a body uses it.
func (g *gen) floorFunc() {
	if !usesFloor(g.s) {
		return
	}
	g.p("// floorInt32 is the schema's floor(x): the greatest integer at most x,")
	g.p("// saturated at the int32 limits, 0 for NaN; the same on every machine.")
	g.p("func floorInt32(x float64) int32 {")
	g.p("switch {")
	g.p("case x != x:")
	g.p("return 0")
	g.p("case x >= math.MaxInt32:")
	g.p("return math.MaxInt32")
	g.p("case x <= math.MinInt32:")
	g.p("return math.MinInt32")
	g.p("}")
	g.p("return int32(math.Floor(x))")
	g.p("}")
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
	return append(out, lifecycleSized(g.s.Lifecycles)...)
}

func (g *gen) sizes() {
	fields := g.sizedFields()
	g.p("// Sizes are the capacities of the schema's domains, standalone tables and")
	g.p("// event tables; DefaultSizes has the schema's, a host may pass others.")
	g.p("type Sizes struct {")
	for _, f := range fields {
		g.p("%s int // %s %s, %s", exported(f.name), f.kind, f.name, f.unit)
	}
	g.p("}")
	g.p("")
	g.p("// DefaultSizes returns the capacities the schema declares.")
	g.p("func DefaultSizes() Sizes {")
	vals := make([]string, len(fields))
	for i, f := range fields {
		vals[i] = fmt.Sprintf("%s: %d", exported(f.name), f.capacity)
	}
	g.p("return Sizes{%s}", strings.Join(vals, ", "))
	g.p("}")
	g.p("")
}

func (g *gen) tables() {
	for _, t := range g.s.Tables {
		where := "standalone"
		if t.Domain != nil {
			where = "in domain " + t.Domain.Name
		}
		g.doc("%s is table %s (%s, %s), filled by Declare.", exported(t.Name), t.Name, where, g.where(t.Pos))
		g.p("type %s struct {", exported(t.Name))
		fs := []field{{"Table", "*tickwork.Table", ""}}
		for _, c := range t.Columns {
			switch {
			case c.Group == nil:
				fs = append(fs, field{exported(c.Name), "*tickwork.Column[" + goType(c.Type) + "]", refNote(c.Type)})
			case c.Field.Index == 0:
				fs = append(fs, field{exported(c.Group.Name), exported(c.Group.Struct.Name) + "Columns", "struct " + c.Group.Struct.Name})
			}
		}
		g.fields(fs)
		g.p("}")
		g.p("")
	}
	for _, e := range g.s.Events {
		g.p("// %s is an event of event table %s (%s, %s).", exported(e.Name), e.Name, e.Lifetime, g.where(e.Pos))
		g.p("type %s struct {", exported(e.Name))
		var fs []field
		for _, f := range e.Fields {
			fs = append(fs, field{exported(f.Name), goType(f.Type), refNote(f.Type)})
		}
		g.fields(fs)
		g.p("}")
		g.p("")
	}
	g.lifecycleTypes()
	g.indexTypes()
	g.p("// Tables holds the schema's domains, tables and event tables (Declare).")
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
	g.lifecycleFields()
	for _, r := range g.s.Resources {
		g.p("%s *tickwork.Resource[%s]", exported(r.Name), exported(r.Name))
	}
	if usesIndexes(g.s) {
		g.p("Indexes Indexes // the declared indexes")
	}
	g.p("}")
	g.p("")
}

// structs writes each declared struct: its Go value type, and the type of
// a table column of it, a column per field, with Get and Set.
func (g *gen) structs() {
	for _, st := range g.s.Structs {
		n := exported(st.Name)
		g.doc("%s is struct %s (%s): the value of a column of this type.", n, st.Name, g.where(st.Pos))
		g.p("type %s struct {", n)
		var fs, cs []field
		for _, f := range st.Fields {
			fs = append(fs, field{exported(f.Name), goType(f.Type), refNote(f.Type)})
			cs = append(cs, field{exported(f.Name), "*tickwork.Column[" + goType(f.Type) + "]", ""})
		}
		g.fields(fs)
		g.p("}")
		g.p("")
		g.doc("%sColumns are the columns of a table column C of type %s, one engine column per field, named C.FIELD (%s), filled by Declare.",
			n, st.Name, quotedFields(st))
		g.p("type %sColumns struct {", n)
		g.fields(cs)
		g.p("}")
		g.p("")
		g.doc("Get returns the %s of h's row, and false (and the zero %s) when h has no row in the table: Column.Get per field, for the host between frames.", n, n)
		g.p("func (c %sColumns) Get(h tickwork.Handle) (%s, bool) {", n, n)
		g.p("var v %s", n)
		for i, f := range st.Fields {
			if i == 0 {
				g.p("var ok bool")
				g.p("if v.%s, ok = c.%s.Get(h); !ok {", exported(f.Name), exported(f.Name))
				g.p("return %s{}, false", n)
				g.p("}")
				continue
			}
			g.p("v.%s, _ = c.%s.Get(h)", exported(f.Name), exported(f.Name))
		}
		g.p("return v, true")
		g.p("}")
		g.p("")
		g.doc("Set sets h's row to v, and reports false (setting nothing) when h has no row in the table: Column.Set per field, for the host between frames.")
		g.p("func (c %sColumns) Set(h tickwork.Handle, v %s) bool {", n, n)
		for i, f := range st.Fields {
			if i == 0 {
				g.p("if !c.%s.Set(h, v.%s) {", exported(f.Name), exported(f.Name))
				g.p("return false")
				g.p("}")
				continue
			}
			g.p("c.%s.Set(h, v.%s)", exported(f.Name), exported(f.Name))
		}
		g.p("return true")
		g.p("}")
		g.p("")
	}
}

// quotedFields is "X, Y" of a struct's fields.
func quotedFields(st *schema.Struct) string {
	names := make([]string, len(st.Fields))
	for i, f := range st.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// resources writes each declared resource's value type.
func (g *gen) resources() {
	for _, r := range g.s.Resources {
		n := exported(r.Name)
		g.doc("%s is resource %s (%s), read-only in the declared systems; Declare adds it with the schema's initial values. A hand-written system writes it (tickwork.WriteResource), or the host between frames (Tables.%s.Get).", n, r.Name, g.where(r.Pos), n)
		g.p("type %s struct {", n)
		var fs []field
		for _, f := range r.Fields {
			fs = append(fs, field{exported(f.Name), goType(f.Type), ""})
		}
		g.fields(fs)
		g.p("}")
		g.p("")
	}
}

func (g *gen) declare() {
	g.p("// Declare declares the schema's domains, tables, columns and event tables")
	g.p("// on b with the capacities sz, and returns them, or the builder's first")
	g.p("// error (Builder.Err). Call it before adding systems, from one goroutine.")
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
			g.p("%s = tickwork.AddColumn[%s](b, t.%s.Table, %q)", columnRef(c), goType(c.Type), exported(t.Name), c.Name)
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
	g.declareLifecycles()
	g.declareIndexes()
	for _, r := range g.s.Resources {
		var vals []string
		for _, f := range r.Fields {
			if f.Value != nil {
				vals = append(vals, exported(f.Name)+": "+literal(&schema.Lit{T: f.Type, Value: f.Value}))
			}
		}
		g.p("t.%s = tickwork.AddResource(b, %q, %s{%s})", exported(r.Name), r.Name, exported(r.Name), strings.Join(vals, ", "))
	}
	g.p("if err := b.Err(); err != nil {")
	g.p("return nil, err")
	g.p("}")
	g.p("return t, nil")
	g.p("}")
	g.p("")
}

// field is one field of a generated struct: name, Go type, comment.
type field struct{ name, typ, note string }

// fields writes the fields of a struct, consecutive fields of one type
// in one line.
func (g *gen) fields(fs []field) {
	for i := 0; i < len(fs); {
		j := i + 1
		for j < len(fs) && fs[j].typ == fs[i].typ {
			j++
		}
		var names, notes []string
		for _, f := range fs[i:j] {
			names = append(names, f.name)
			if f.note != "" {
				notes = append(notes, f.note)
			}
		}
		line := strings.Join(names, ", ") + " " + fs[i].typ
		if len(notes) > 0 {
			line += " // " + strings.Join(notes, ", ")
		}
		g.p("%s", line)
		i = j
	}
}

// refNote is the comment of a ref column or field: the table it refers
// to.
func refNote(t schema.Type) string {
	if t.Kind == schema.Ref {
		return t.String()
	}
	return ""
}

// tableRef is the Go expression of a table's *tickwork.Table from t.
func tableRef(t *schema.Table) string { return "t." + exported(t.Name) + ".Table" }

// columnRef is the Go expression of a column from t.
func columnRef(c *schema.Column) string {
	if c.Group != nil {
		return "t." + exported(c.Table.Name) + "." + exported(c.Group.Name) + "." + exported(c.Field.Name)
	}
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
	g.p("// NewSystems makes the declared systems over the tables of t, for")
	g.p("// Builder.Add (All). Each declaration asks for exactly the accessors its")
	g.p("// body implies (schema.Access), from which the engine derives its manifest.")
	if len(g.laneSystems()) > 0 {
		g.p("// Systems with %s run tickwork.BestLane; SetLane forces another.", g.laneKinds())
	}
	g.p("func NewSystems(t *Tables) *Systems {")
	g.p("%s &Systems{", map[bool]string{true: "s :=", false: "return"}[len(g.laneSystems()) > 0])
	for _, y := range g.s.Systems {
		g.p("%s: &%s{t: t},", exported(y.Name), exported(y.Name))
	}
	g.p("}")
	if len(g.laneSystems()) > 0 {
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
	simd := ""
	if g.simd[y] {
		simd = ", with a SIMD variant"
	}
	if g.scan[y] {
		simd = ", with a scan hook"
	}
	when := ""
	if y.When != nil {
		when = "; it runs only while " + y.WhenSource + " holds (tickwork.Decl.RunIf)"
	}
	g.doc("%s is declared system %s (%s): phase %s, %s%s%s.", sg.name, y.Name, g.where(y.Pos), y.Phase, kind, simd, when)
	g.p("type %s struct {", sg.name)
	var fs []field
	for _, c := range y.Counters {
		fs = append(fs, field{exported(c), "tickwork.Counter", "count " + c})
	}
	g.fields(fs)
}

// systemMethod writes System: the tickwork.System of the declaration.
func (sg *sysGen) systemMethod() {
	g, y := sg.g, sg.y
	lane := `"scalar"` // generated kernels are plain Go
	if g.simd[y] || g.scan[y] {
		lane = "s.lane.String()" // the lane its kernel runs: Systems.SetLane
	}
	order := ""
	if len(y.Before) > 0 {
		order += "Before: " + stringList(y.Before) + ", "
	}
	if len(y.After) > 0 {
		order += "After: " + stringList(y.After) + ", "
	}
	g.p("// System returns the system for Builder.Add.")
	g.p("func (s *%s) System() tickwork.System {", sg.name)
	if order == "" {
		g.p("return tickwork.System{Name: %q, Phase: %s, Declare: s.declare, Lane: %s}", y.Name, phaseConst[y.Phase], lane)
	} else {
		g.p("return tickwork.System{Name: %q, Phase: %s, Declare: s.declare, Lane: %s,", y.Name, phaseConst[y.Phase], lane)
		g.p("%s}", strings.TrimSuffix(order, ", "))
	}
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

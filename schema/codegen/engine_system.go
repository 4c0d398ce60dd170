package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The systems' types, declarations, bodies and kernel drivers (the
// target's side; see engine.go). A system over a table gets a kernel state
// type and chunk functions; a system over an event table runs its loop in
// its body.

// tableSystem writes a system over a table's rows: its type, its kernel
// state, its declaration and its kernel, which the engine's chunk kernel
// (tickwork.DenseKernel, tickwork.MaskedKernel) runs over the used chunks
// on one worker or the pool.
func (sg *sysGen) tableSystem() {
	g, y := sg.g, sg.y
	kind := "a masked kernel over the live rows of " + y.From.Table.Name
	if y.Dense {
		kind = "a dense kernel over " + y.From.Table.Name
	}
	sg.header(kind)
	sg.kernelFields()
	g.p("}")
	g.p("")
	sg.systemMethod()
	sg.tableDeclare()
	switch {
	case y.Dense && len(sg.fromUses()) == 0:
	case y.Dense:
		sg.span()
	default:
		sg.maskedChunk()
	}
}

// kernelFields writes the system's kernel state, after its counters: its
// tables, its lane, the declaration's accessors (whole columns by row)
// and each run's @dt and @tick.
func (sg *sysGen) kernelFields() {
	g, y := sg.g, sg.y
	fs := []field{{"t", "*Tables", ""}}
	if g.simd[y] {
		fs = append(fs, field{"lane", "tickwork.Lane", "the lane its kernel runs (setLane)"},
			field{"simd", "func(k *" + sg.name + ", lo, hi int) int", "its lane's SIMD variant, nil for scalar"})
	}
	if g.scan[y] {
		fs = append(fs, field{"lane", "tickwork.Lane", "the lane its kernel runs (setLane)"},
			field{"scan", "func(k *" + sg.name + ", row int, live uint64) uint64", "its lane's scan (tickwork.ScanVariant), nil for scalar"})
	}
	for _, u := range sg.fromUses() {
		fs = append(fs, field{colField(sg, u.v, u.c), "[]" + goType(u.c.Type), y.From.Table.Name + "." + u.c.Name})
	}
	for _, j := range y.Joins {
		pc, _ := sg.probeColumn(j)
		fs = append(fs, field{sg.stateField("probe:"+j.Var.Name, j.Var.Name+"Probe"), "tickwork.ReadColumn[" + goType(pc.Type) + "]", "join " + j.Var.Name + ": its lease probes " + j.Table.Name})
		for _, u := range sg.joinUses(j.Var) {
			fs = append(fs, field{colField(sg, u.v, u.c), "[]" + goType(u.c.Type), j.Table.Name + "." + u.c.Name})
		}
	}
	if y.Access.DTFloat32 {
		fs = append(fs, field{sg.stateField("dt32", "dt32"), "float32", "@dt"})
	}
	if y.Access.DTFloat64 {
		fs = append(fs, field{sg.stateField("dt64", "dt64"), "float64", "@dt"})
	}
	if y.Access.Tick {
		fs = append(fs, field{sg.stateField("tick", "tick"), "int64", "@tick"})
	}
	for _, r := range y.Access.Resources {
		fs = append(fs, field{sg.resField(r), "*" + exported(r.Name), "resource " + r.Name + ", read"})
	}
	if !y.Dense {
		for _, tb := range y.Access.Deletes {
			fs = append(fs, field{sg.stateField("rec:"+tb.Name, "rec"+exported(tb.Name)), "*tickwork.Recorder", ""})
		}
		for _, e := range y.Access.Emits {
			fs = append(fs, field{sg.stateField("emit:"+e.Name, "emit"+exported(e.Name)), "*tickwork.ParallelEmitter[" + exported(e.Name) + "]", ""})
		}
	}
	fs = append(fs, sg.markFields()...)
	g.fields(fs)
}

// deleteMethod is the recorder method of a delete statement.
func deleteMethod(s *schema.DeleteStmt) string {
	if !s.Entity && s.Var.Table.Domain != nil {
		return "Remove" // this row only
	}
	return "Delete" // the entity, with its rows in every table of its domain
}

// tableDeclare writes the declaration of a system over a table: one
// accessor per column the body uses (schema.Access.Uses), a lease per
// join, a recorder per table it deletes from, a parallel emitter per
// event table it emits into, its counters, and the engine's chunk kernel
// over its table as its body.
func (sg *sysGen) tableDeclare() {
	g, y := sg.g, sg.y
	g.p("func (s *%s) declare(d *tickwork.Decl) tickwork.RunFunc {", sg.name)
	sg.declareWhen()
	if y.Dense && len(sg.fromUses()) == 0 {
		g.p("return func(*tickwork.Context) {} // the body uses no column: it does nothing")
		g.p("}")
		g.p("")
		return
	}
	for _, u := range sg.fromUses() {
		g.p("s.%s = %s(d, s.%s).All()", colField(sg, u.v, u.c), accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
	}
	for _, j := range y.Joins {
		pc, write := sg.probeColumn(j)
		probe := sg.field["probe:"+j.Var.Name]
		g.p("s.%s = %s(d, s.%s)%s", probe, accessor(write), columnRef(pc), map[bool]string{true: ".ReadColumn", false: ""}[write])
		for _, u := range sg.joinUses(j.Var) {
			if u.c == pc {
				g.p("s.%s = s.%s.All()", colField(sg, u.v, u.c), probe)
				continue
			}
			g.p("s.%s = %s(d, s.%s).All()", colField(sg, u.v, u.c), accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
		}
	}
	for _, r := range y.Access.Resources {
		g.p("s.%s = tickwork.ReadResource(d, s.t.%s)", sg.resField(r), exported(r.Name))
	}
	if sg.env == nil {
		sg.env = map[string]string{}
	}
	sg.declareMarks(nil)
	var segs []string
	if !y.Dense {
		for _, tb := range y.Access.Deletes {
			g.p("s.%s = tickwork.Record(d, s.%s)", sg.field["rec:"+tb.Name], tableRef(tb))
		}
		for _, e := range y.Access.Emits {
			g.p("s.%s = tickwork.EmitParallel(d, s.t.%s)", sg.field["emit:"+e.Name], exported(e.Name))
			segs = append(segs, "s."+sg.field["emit:"+e.Name])
		}
		if len(y.Access.Deletes) > 0 {
			// Sized at seal, after the emitters' staging (binds run in
			// declaration order), which the memory budget may refuse
			// first, so that no frame allocates. The recorders share the
			// worker's buffer: one starts its segments.
			r := "s." + sg.field["rec:"+y.Access.Deletes[0].Name]
			g.p("%s.ReserveWorkers(%s) // the most records a run makes, on any worker: recording never allocates", r, sg.reserveTotal())
			segs = append([]string{r}, segs...)
		}
	}
	sg.declareCounters()
	tab := "s." + tableRef(y.From.Table)
	var kernel string
	if y.Dense {
		kernel = fmt.Sprintf("tickwork.DenseKernel(d, %s, %d, s, (*%s).span)", tab, y.Grain, sg.name)
		if g.simd[y] {
			kernel += ".SIMD(&s.simd)"
		}
	} else {
		list := "nil"
		if len(segs) > 0 {
			list = "[]tickwork.Segmented{" + strings.Join(segs, ", ") + "}"
		}
		counters := ""
		for _, c := range y.Counters {
			counters += ", s." + exported(c)
		}
		kernel = fmt.Sprintf("tickwork.MaskedKernel(d, %s, %d, s, (*%s).chunk, %s%s)", tab, y.Grain, sg.name, list, counters)
	}
	world, any := []string{"nil", "nil", "nil"}, false
	for i, key := range []string{"dt32", "dt64", "tick"} {
		if f, ok := sg.field[key]; ok {
			world[i], any = "&s."+f, true
		}
	}
	if any {
		kernel += ".World(" + strings.Join(world, ", ") + ")"
	}
	if only := sg.changeFilters(); only != "" {
		kernel += ".Only(" + only + ")"
	}
	g.p("return %s.Run", kernel)
	g.p("}")
	g.p("")
}

// declareWhen writes the system's run condition (schema.System.When), when
// it has one: a tickwork.Decl.RunIf whose declaration reads the resources
// the condition names and whose test is the condition, @tick and @dt
// read from the test's Context (docs/architecture.md, Run conditions).
func (sg *sysGen) declareWhen() {
	g, y := sg.g, sg.y
	if y.When == nil {
		return
	}
	saved := sg.env
	sg.env = map[string]string{"tick": "int64(ctx.Tick())", "dt64": "ctx.DT()", "dt32": "float32(ctx.DT())"}
	g.p("d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc { // when: %s", y.WhenSource)
	local := map[*schema.Resource]string{}
	for _, r := range y.WhenAccess.Resources {
		local[r] = "when" + exported(r.Name)
		g.p("%s := tickwork.ReadResource(c, s.t.%s)", local[r], exported(r.Name))
	}
	when := []schema.Stmt{&schema.MatchStmt{Arms: []*schema.Arm{{Cond: y.When}}}}
	for _, e := range resRefs(when) {
		sg.env["res:"+resKey(e)] = local[e.Resource] + resGo(e)
	}
	g.p("return func(ctx *tickwork.Context) bool { return %s }", sg.code(y.When))
	g.p("})")
	sg.env = saved
}

// changeFilters is the argument list of the kernel's Only for the from
// clause's change filters (tickwork.Changed of each column, then
// tickwork.Added), "" without any: the kernel skips the chunks none of
// them changed (docs/architecture.md, Change detection).
func (sg *sysGen) changeFilters() string {
	var rs []string
	for _, c := range sg.y.Changed {
		rs = append(rs, "tickwork.Changed(d, s."+columnRef(c)+")")
	}
	if sg.y.Added {
		rs = append(rs, "tickwork.Added(d, s."+tableRef(sg.y.From.Table)+")")
	}
	return strings.Join(rs, ", ")
}

// declareCounters declares the system's counters on its Decl, in one
// assignment.
func (sg *sysGen) declareCounters() {
	if len(sg.y.Counters) == 0 {
		return
	}
	lhs := make([]string, len(sg.y.Counters))
	rhs := make([]string, len(sg.y.Counters))
	for i, c := range sg.y.Counters {
		lhs[i] = "s." + exported(c)
		rhs[i] = fmt.Sprintf("d.Counter(%q)", c)
	}
	sg.g.p("%s = %s", strings.Join(lhs, ", "), strings.Join(rhs, ", "))
}

// reserveTotal is the Go expression of the most records one run makes in
// the system's buffer, all deleted tables together (they share it).
func (sg *sysGen) reserveTotal() string {
	parts := make([]string, len(sg.y.Access.Deletes))
	for i, tb := range sg.y.Access.Deletes {
		parts[i] = sg.reserveBound(tb)
	}
	return strings.Join(parts, " + ")
}

// span writes a dense kernel: the body on rows lo..hi-1 of the whole
// columns, holes included (the engine runs a SIMD variant on the whole
// vectors first: ChunkKernel.SIMD).
func (sg *sysGen) span() {
	g := sg.g
	g.p("// span runs the body on rows lo..hi-1 of the whole columns, holes included.")
	g.p("func (k *%s) span(lo, hi int) {", sg.name)
	loc := newLocals(append([]string{"k", "lo", "hi", "i"}, g.top...)...)
	sg.env = map[string]string{}
	sg.kernelMarks()
	sg.envValues(loc)
	sg.rows(loc, "lo", "hi", "")
	g.p("}")
	g.p("")
	if sg.simdMarks() {
		sg.simdMarking()
	}
}

// maskedChunk writes a masked kernel: the body on the live runs of one
// chunk (base its row 0 in the whole columns, mask its enabled bitmap),
// the rare actions of its arms (delete, emit, count) through the worker's
// tickwork.ChunkOut, out of line, so that the loop over the rows keeps
// only its spans and its tests in registers (docs/schema.md, Generated
// code).
func (sg *sysGen) maskedChunk() {
	g, y := sg.g, sg.y
	g.p("// chunk runs the body on the live rows of a chunk (row 0 at base, mask its enabled bitmap).")
	g.p("func (k *%s) chunk(o *tickwork.ChunkOut, base int, mask []uint64) {", sg.name)
	loc := sg.chunkPrelude()
	if g.scan[y] {
		g.p("if k.scan != nil {")
		g.p("k.scanned(o, base, mask)")
		g.p("return")
		g.p("}")
	}
	g.p("for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {")
	sg.rows(loc, "base+lo", "base+hi", "base+lo+i")
	g.p("}")
	g.p("}")
	g.p("")
	if g.scan[y] {
		sg.scannedChunk()
	}
}

// chunkPrelude writes the locals of a masked kernel's chunk (@dt, @tick,
// resources, each join's lease and column slices, the counters' calls)
// and returns the locals' names.
func (sg *sysGen) chunkPrelude() *locals {
	g, y := sg.g, sg.y
	loc := newLocals(append([]string{"k", "o", "base", "mask", "lo", "hi", "i", "w", "m", "row", "ms"}, g.top...)...)
	sg.env = map[string]string{"out": "o"}
	sg.kernelMarks()
	sg.envValues(loc)
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name)
		lhs, rhs := []string{l}, []string{"k." + sg.field["probe:"+j.Var.Name] + ".Lease()"}
		sg.env["lease:"+j.Var.Name] = l
		for _, u := range sg.joinUses(j.Var) {
			s := loc.name(j.Var.Name + goCol(u.c) + "s")
			lhs, rhs = append(lhs, s), append(rhs, "k."+colField(sg, u.v, u.c))
			sg.env["colspan:"+j.Var.Name+"."+u.c.Name] = s
		}
		g.p("%s := %s", strings.Join(lhs, ", "), strings.Join(rhs, ", "))
	}
	for i, c := range y.Counters {
		sg.env["count:"+c] = fmt.Sprintf("o.Count(%d)", i)
	}
	return loc
}

// scannedChunk writes a scan-hooked kernel's chunk in a SIMD lane: the
// lane's scan marks, of each whole word of 64 rows of the enabled bitmap,
// the rows the body may act on, and the body runs on the marked live rows
// only, in row order, so records, emits and counts come in the scalar
// loop's order (docs/schema.md, Scan hooks). A word past the columns'
// end (a capacity not a multiple of 64) runs whole.
func (sg *sysGen) scannedChunk() {
	g, y := sg.g, sg.y
	via := "k." + colField(sg, y.From, y.Joins[0].Via)
	g.p("// scanned is chunk in a SIMD lane: k.scan marks the rows of each word of 64 the body may act on, and the body runs on the marked live rows, in row order.")
	g.p("func (k *%s) scanned(o *tickwork.ChunkOut, base int, mask []uint64) {", sg.name)
	loc := sg.chunkPrelude()
	g.p("for w, m := range mask {")
	g.p("row := base + w<<6")
	g.p("if m != 0 && row+64 <= len(%s) {", via)
	g.p("m = k.scan(k, row, m)")
	g.p("}")
	g.p("ms := [1]uint64{m}")
	g.p("for lo, hi := tickwork.NextRun(ms[:], 0); lo < hi; lo, hi = tickwork.NextRun(ms[:], hi) {")
	sg.rows(loc, "row+lo", "row+hi", "row+lo+i")
	g.p("}")
	g.p("}")
	g.p("}")
	g.p("")
}

// envValues binds @dt, @tick and the resource fields the body reads to
// locals, once per run of the kernel (the resources are read-only during
// the frame).
func (sg *sysGen) envValues(loc *locals) {
	for _, key := range []string{"dt32", "dt64", "tick"} {
		if f, ok := sg.field[key]; ok {
			l := loc.name(key)
			sg.g.p("%s := k.%s", l, f)
			sg.env[key] = l
		}
	}
	sg.resValues(loc, func(r *schema.Resource) string { return "k." + sg.resField(r) })
}

// resValues binds each resource field the body reads to a local, from
// the resource's pointer (ptr's Go expression).
func (sg *sysGen) resValues(loc *locals, ptr func(*schema.Resource) string) {
	for _, e := range resRefs(sg.y.Body) {
		l := loc.name(unexported(strings.ReplaceAll(resGo(e)[1:], ".", "")))
		if e.Index != nil { // the array's address: its elements are read in the loop
			sg.g.p("%s := &%s%s // resource %s", l, ptr(e.Resource), resGo(e), resKey(e))
		} else {
			sg.g.p("%s := %s%s // resource %s", l, ptr(e.Resource), resGo(e), resKey(e))
		}
		sg.env["res:"+resKey(e)] = l
	}
}

// resField is the kernel-state field of a resource's pointer.
func (sg *sysGen) resField(r *schema.Resource) string {
	return sg.stateField("res:"+r.Name, unexported(r.Name))
}

// rows writes the loop over rows lo..hi (Go expressions of indexes into
// the whole columns); row is the Go expression of a row's table index
// (empty in dense loops, which never need a handle).
func (sg *sysGen) rows(loc *locals, lo, hi, row string) {
	g, y := sg.g, sg.y
	from := y.From
	var first string
	type stored struct{ local, span string }
	var ends []stored
	var loads, loaded, decls, spans, sliced []string
	byCol := map[*schema.Column]string{}
	for _, u := range sg.fromUses() {
		us := sg.uses[u.v][u.c]
		span := loc.name(from.Name + goCol(u.c) + "s")
		byCol[u.c] = span
		if first == "" {
			first = span
			g.p("%s := k.%s[%s : %s]", span, colField(sg, u.v, u.c), lo, hi)
		} else {
			// As long as the first, which lets the compiler drop their
			// index checks.
			spans = append(spans, span)
			sliced = append(sliced, fmt.Sprintf("k.%s[%s : %s][:len(%s)]", colField(sg, u.v, u.c), lo, hi, first))
		}
		key := from.Name + "." + u.c.Name
		if !us.write {
			sg.env["col:"+key] = span + "[i]"
			continue
		}
		l := loc.name(from.Name + goCol(u.c))
		sg.env["col:"+key] = l
		if us.read {
			loads, loaded = append(loads, l), append(loaded, span+"[i]")
		} else {
			// Never read: every path assigns it before the row's end.
			decls = append(decls, fmt.Sprintf("var %s %s", l, goType(u.c.Type)))
		}
		if us.always {
			ends = append(ends, stored{l, span})
		} else {
			sg.env["colw:"+key] = span + "[i]"
		}
	}
	g.defs(spans, sliced)
	sg.cellSpans(loc, lo, hi, first)
	if y.Access.Handle {
		sg.env["handle:"+from.Name] = "o.Handle(" + row + ")"
		sg.env["row"] = row
	}
	switch {
	case first != "":
		g.p("for i := range %s {", first)
	case y.Access.Handle:
		g.p("for i := range (%s) - (%s) {", hi, lo)
	default: // the body names no column and no handle: i would be unused
		g.p("for range (%s) - (%s) {", hi, lo)
	}
	// A written column is a local, loaded at the row's start (when read)
	// and stored at its end (when every path writes it).
	g.defs(loads, loaded)
	for _, d := range decls {
		g.p("%s", d)
	}
	markRow := row
	if markRow == "" {
		markRow = lo + "+i"
	}
	marks := sg.keepKeys(loc, byCol, markRow)
	sg.probes(loc, from)
	sg.body(y.Body)
	if len(ends) > 0 {
		var dst, src []string
		for _, e := range ends {
			dst, src = append(dst, e.span+"[i]"), append(src, e.local)
		}
		g.p("%s = %s", strings.Join(dst, ", "), strings.Join(src, ", "))
	}
	marks()
	g.p("}")
}

// renameRow points a join's column expressions at its row local.
func (sg *sysGen) renameRow(v *schema.Var, row string) {
	for _, u := range sg.joinUses(v) {
		key := v.Name + "." + u.c.Name
		sg.env["col:"+key] = sg.env["colspan:"+key] + "[" + row + "]"
	}
}

// eventSystem writes a system over an event table's readable events: one
// loop in the body, events in emission order.
func (sg *sysGen) eventSystem() {
	g, y := sg.g, sg.y
	ev := y.From.Event
	sg.header("a loop over the readable events of " + ev.Name + ", in emission order")
	g.p("t *Tables")
	g.p("}")
	g.p("")
	sg.systemMethod()
	g.p("func (s *%s) declare(d *tickwork.Decl) tickwork.RunFunc {", sg.name)
	sg.declareWhen()
	loc := newLocals(append([]string{"s", "t", "d", "ctx", "i"}, g.top...)...)
	sg.env = map[string]string{}
	cons := loc.name(y.From.Name + "Events")
	g.p("%s := tickwork.Consume(d, s.t.%s)", cons, exported(ev.Name))
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name + "Probe")
		pc, write := sg.probeColumn(j)
		g.p("%s := %s(d, s.%s)", l, accessor(write), columnRef(pc))
		sg.env["probe:"+j.Var.Name] = l
		for _, u := range sg.joinUses(j.Var) {
			s := loc.name(j.Var.Name + goCol(u.c) + "s")
			if u.c == pc {
				g.p("%s := %s.All()", s, l)
			} else {
				g.p("%s := %s(d, s.%s).All()", s, accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
			}
			sg.env["colspan:"+j.Var.Name+"."+u.c.Name] = s
		}
	}
	resPtr := map[*schema.Resource]string{}
	for _, r := range y.Access.Resources {
		l := loc.name(unexported(r.Name))
		resPtr[r] = l
		g.p("%s := tickwork.ReadResource(d, s.t.%s)", l, exported(r.Name))
	}
	var recs []string
	for _, tb := range y.Access.Deletes {
		r := loc.name("rec" + exported(tb.Name))
		sg.env["rec:"+tb.Name] = r
		recs = append(recs, r)
		g.p("%s := tickwork.Record(d, s.%s)", r, tableRef(tb))
	}
	if len(recs) > 0 {
		g.p("%s.Reserve(%s) // the most records a run makes: recording never allocates", recs[0], sg.reserveTotal())
	}
	for _, e := range y.Access.Emits {
		em := loc.name("emit" + exported(e.Name))
		sg.env["emit:"+e.Name] = em
		g.p("%s := tickwork.Emit(d, s.t.%s)", em, exported(e.Name))
	}
	sg.declareMarks(loc)
	sg.declareCounters()
	g.p("return func(ctx *tickwork.Context) {")
	evs := loc.name(y.From.Name + "s")
	g.p("%s := %s.Read()", evs, cons)
	evLocal := loc.name(y.From.Name)
	for _, f := range ev.Fields {
		sg.env["col:"+y.From.Name+"."+f.Name] = evLocal + "." + exported(f.Name)
	}
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name)
		g.p("%s := %s.Lease()", l, sg.env["probe:"+j.Var.Name])
		sg.env["lease:"+j.Var.Name] = l
	}
	if y.Access.DTFloat32 {
		sg.env["dt32"] = loc.name("dt32")
		g.p("%s := float32(ctx.DT())", sg.env["dt32"])
	}
	if y.Access.DTFloat64 {
		sg.env["dt64"] = loc.name("dt64")
		g.p("%s := ctx.DT()", sg.env["dt64"])
	}
	if y.Access.Tick {
		sg.env["tick"] = loc.name("tick")
		g.p("%s := int64(ctx.Tick())", sg.env["tick"])
	}
	sg.resValues(loc, func(r *schema.Resource) string { return resPtr[r] })
	counts := make([]string, len(y.Counters))
	for i, c := range y.Counters {
		counts[i] = loc.name("n" + exported(c))
		sg.env["count:"+c] = counts[i] + "++"
	}
	if len(counts) > 0 {
		g.p("var %s int64", strings.Join(counts, ", "))
	}
	if len(sg.fromUses()) == 0 { // the body names no field (and joins nothing)
		g.p("for range %s {", evs)
	} else {
		g.p("for i := range %s {", evs)
		g.p("%s := &%s[i]", evLocal, evs)
	}
	sg.probes(loc, y.From)
	sg.body(y.Body)
	g.p("}")
	for i, c := range y.Counters {
		g.p("s.%s.Add(%s)", exported(c), counts[i])
	}
	g.p("}")
	g.p("}")
	g.p("")
}

// probes writes each join's probe of the item's handle: its row local
// (Lease.Find: the row, or -1 on a miss), blank when the body neither
// reads the joined row nor tests the hit (go vet refuses an unused local),
// so the probe still runs. One int result, not Row's (row, ok) pair: the
// row loop keeps one value alive and branches on it directly.
func (sg *sysGen) probes(loc *locals, from *schema.Var) {
	g, y := sg.g, sg.y
	for _, j := range y.Joins {
		r, op := "_", "="
		if len(sg.joinUses(j.Var)) > 0 || probed(y.Body, j.Var) {
			r, op = loc.name(j.Var.Name+"Row"), ":="
			sg.renameRow(j.Var, r)
			sg.env["row:"+j.Var.Name] = r
		}
		g.p("%s %s %s.Find(%s)", r, op, sg.env["lease:"+j.Var.Name], sg.env["col:"+from.Name+"."+j.Via.Name])
	}
}

// probed says whether statements ss test join v (found, missing).
func probed(ss []schema.Stmt, v *schema.Var) bool {
	var expr func(e schema.Expr) bool
	expr = func(e schema.Expr) bool {
		switch e := e.(type) {
		case *schema.Probe:
			return e.Var == v
		case *schema.Unary:
			return expr(e.X)
		case *schema.Binary:
			return expr(e.X) || expr(e.Y)
		case *schema.Convert:
			return expr(e.X)
		case *schema.Floor:
			return expr(e.X)
		case *schema.ResRef:
			return e.Index != nil && expr(e.Index)
		case *schema.IndexOf:
			return expr(e.X)
		}
		return false
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *schema.SetStmt:
			for _, a := range s.Assigns {
				if expr(a.Value) {
					return true
				}
			}
		case *schema.MatchStmt:
			for _, a := range s.Arms {
				if (a.Cond != nil && expr(a.Cond)) || probed(a.Body, v) {
					return true
				}
			}
		case *schema.EmitStmt:
			for _, e := range s.Values {
				if expr(e) {
					return true
				}
			}
		}
	}
	return false
}

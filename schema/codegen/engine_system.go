package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The systems' types, declarations, bodies and kernel drivers (the
// target's side; see engine.go). A system over a table gets a kernel state
// type and chunk functions; a system over an event table runs its loop in
// its body.

// tableSystem writes a system over a table's rows.
func (sg *sysGen) tableSystem() {
	g, y := sg.g, sg.y
	kind := "a masked kernel over the live rows of " + y.From.Table.Name
	if y.Dense {
		kind = "a dense kernel over the chunks of " + y.From.Table.Name + " (holes included: the body only sets its row)"
	}
	kt := sg.lower + "Kernel"
	sg.header(kind)
	g.p("t *Tables")
	g.p("k %s", kt)
	if g.simd[y] {
		g.p("lane tickwork.Lane // the lane its kernel runs (setLane)")
	}
	g.p("}")
	g.p("")
	sg.kernelType(kt)
	if g.simd[y] {
		sg.simdHooks()
	}
	if !y.Dense && len(y.Counters) > 0 {
		sg.countsType()
	}
	if sg.rare() {
		sg.outType("scalar")
		sg.outType("parallel")
	}
	g.p("func new%s(t *Tables) *%s {", sg.name, sg.name)
	g.p("s := &%s{t: t}", sg.name)
	g.p("s.k.table = %s", tableRef(y.From.Table))
	g.p("s.k.rows = s.k.table.ChunkRows()")
	g.p("return s")
	g.p("}")
	g.p("")
	sg.systemMethod()
	sg.tableDeclare()
	sg.tableRun()
	switch {
	case g.simd[y]:
		sg.spanChunk()
	case y.Dense:
		sg.chunkFunc("dense")
	default:
		sg.chunkFunc("scalar")
		sg.chunkFunc("parallel")
	}
}

// kernelType writes the kernel state: what the chunk functions read. The
// declaration fills the accessors; each run its @dt and @tick.
func (sg *sysGen) kernelType(kt string) {
	g, y := sg.g, sg.y
	g.doc("%s is the state the kernels of %s read: accessors from the declaration, the run's world values.", kt, sg.name)
	g.p("type %s struct {", kt)
	g.p("table *tickwork.Table")
	g.p("rows int // rows per chunk")
	for _, u := range sg.fromUses() {
		g.p("%s []%s // %s.%s, whole column by row", colField(sg, u.v, u.c), goType(u.c.Type), y.From.Table.Name, u.c.Name)
	}
	for _, j := range y.Joins {
		pc, _ := sg.probeColumn(j)
		g.p("%s tickwork.ReadColumn[%s] // join %s: its lease probes %s", sg.stateField("probe:"+j.Var.Name, j.Var.Name+"Probe"), goType(pc.Type), j.Var.Name, j.Table.Name)
		for _, u := range sg.joinUses(j.Var) {
			g.p("%s []%s // %s.%s, whole column by row", colField(sg, u.v, u.c), goType(u.c.Type), j.Table.Name, u.c.Name)
		}
	}
	sg.dtFields()
	if g.simd[y] {
		g.p("// the lane's SIMD variant, nil for scalar: see span")
		g.p("simd func(k *%s, lo, hi int) int", kt)
	}
	if !y.Dense {
		for _, tb := range y.Access.Deletes {
			g.p("%s *tickwork.Recorder", sg.stateField("rec:"+tb.Name, "rec"+exported(tb.Name)))
		}
		for _, e := range y.Access.Emits {
			g.p("%s *tickwork.Emitter[%s] // scalar", sg.stateField("emit:"+e.Name, "emit"+exported(e.Name)), exported(e.Name))
			g.p("%s *tickwork.ParallelEmitter[%s] // parallel", sg.stateField("par:"+e.Name, "par"+exported(e.Name)), exported(e.Name))
		}
		if n := len(y.Counters); n > 0 {
			g.p("%s [%d]int64 // scalar counts", sg.stateField("total", "total"), n)
			g.p("%s []%sCounts // parallel counts, per worker", sg.stateField("counts", "counts"), sg.lower)
		}
	}
	g.p("}")
	g.p("")
}

func (sg *sysGen) dtFields() {
	if sg.y.Access.DT && sg.usesDT(schema.Float32) {
		sg.g.p("%s float32 // @dt", sg.stateField("dt32", "dt32"))
	}
	if sg.y.Access.DT && sg.usesDT(schema.Float64) {
		sg.g.p("%s float64 // @dt", sg.stateField("dt64", "dt64"))
	}
	if sg.y.Access.Tick {
		sg.g.p("%s int64 // @tick", sg.stateField("tick", "tick"))
	}
}

// countsType writes one worker's counters, padded to a cache line.
func (sg *sysGen) countsType() {
	n := len(sg.y.Counters)
	sg.g.doc("%sCounts are one worker's counters of %s, padded to a cache line.", sg.lower, sg.name)
	sg.g.p("type %sCounts struct {", sg.lower)
	sg.g.p("n [%d]int64 // %s", n, strings.Join(sg.y.Counters, ", "))
	if pad := (64 - 8*n%64) % 64; pad > 0 {
		sg.g.p("_ [%d]byte", pad)
	}
	sg.g.p("}")
	sg.g.p("")
}

// rare reports whether a masked kernel's arms record, emit or count: then
// those actions go through an out value (outType).
func (sg *sysGen) rare() bool {
	a := sg.y.Access
	return !sg.y.Dense && (len(a.Deletes) > 0 || len(a.Emits) > 0 || len(sg.y.Counters) > 0)
}

// outName is the type of mode's out value.
func (sg *sysGen) outName(mode string) string {
	if mode == "parallel" {
		return sg.lower + "WorkerOut"
	}
	return sg.lower + "ScalarOut"
}

// deleteOp is one delete action of a body: the table's recorder and its
// method (Delete: the entity; Remove: one row of a domain table).
type deleteOp struct {
	table *schema.Table
	op    string
}

// deleteOps lists the body's delete actions, in first-use order.
func (sg *sysGen) deleteOps() []deleteOp {
	var out []deleteOp
	var walk func(ss []schema.Stmt)
	walk = func(ss []schema.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *schema.DeleteStmt:
				if d := (deleteOp{s.Var.Table, deleteMethod(s)}); !slices.Contains(out, d) {
					out = append(out, d)
				}
			case *schema.MatchStmt:
				for _, a := range s.Arms {
					walk(a.Body)
				}
			}
		}
	}
	walk(sg.y.Body)
	return out
}

// deleteMethod is the recorder method of a delete statement.
func deleteMethod(s *schema.DeleteStmt) string {
	if !s.Entity && s.Var.Table.Domain != nil {
		return "Remove" // this row only
	}
	return "Delete" // the entity, with its rows in every table of its domain
}

// outType writes the out value of mode's kernel: the recorders, emitters
// and counts its match arms' rare actions use, behind one pointer, each
// action a method the compiler does not inline, so that the loop over the
// rows keeps only its spans and the tests in registers (the hand-written
// kernels' shape; docs/schema.md, Generated code).
func (sg *sysGen) outType(mode string) {
	g, y := sg.g, sg.y
	name := sg.outName(mode)
	g.doc("%s is where a run of %s's %s kernel records, emits and counts: the rare actions of its arms, kept out of the loop over the rows.", name, sg.name, mode)
	g.p("type %s struct {", name)
	g.p("table *tickwork.Table")
	g.p("first int // the run's first row in the table")
	for _, tb := range y.Access.Deletes {
		g.p("rec%s *tickwork.Recorder", exported(tb.Name))
	}
	for _, e := range y.Access.Emits {
		if mode == "parallel" {
			g.p("out%s tickwork.WorkerEmitter[%s]", exported(e.Name), exported(e.Name))
		} else {
			g.p("out%s *tickwork.Emitter[%s]", exported(e.Name), exported(e.Name))
		}
	}
	if n := len(y.Counters); n > 0 {
		g.p("n [%d]int64 // %s", n, strings.Join(y.Counters, ", "))
	}
	g.p("}")
	g.p("")
	for _, d := range sg.deleteOps() {
		t := exported(d.table.Name)
		g.p("//go:noinline")
		g.p("func (o *%s) %s%s(h tickwork.Handle) { o.rec%s.%s(h) }", name, strings.ToLower(d.op), t, t, d.op)
		g.p("")
	}
	for _, e := range y.Access.Emits {
		n := exported(e.Name)
		g.p("//go:noinline")
		g.p("func (o *%s) emit%s(e %s) {", name, n, n)
		g.p("o.out%s.Emit(e) // a full table drops it, and Frame reports the overflow", n)
		g.p("}")
		g.p("")
	}
}

// tableDeclare writes the declaration of a system over a table: one
// accessor per column the body uses, a lease per join, a recorder per
// table it deletes from, emitters per event table it emits into.
func (sg *sysGen) tableDeclare() {
	g, y := sg.g, sg.y
	g.p("func (s *%s) declare(d *tickwork.Decl) tickwork.RunFunc {", sg.name)
	// t and k only when a line below uses them (go vet refuses an unused
	// local): an accessor, a probe, a recorder or an emitter.
	records := !y.Dense && len(y.Access.Deletes)+len(y.Access.Emits) > 0
	if len(sg.fromUses()) > 0 || len(y.Joins) > 0 || records {
		g.p("t, k := s.t, &s.k")
	}
	for _, u := range sg.fromUses() {
		g.p("k.%s = %s(d, %s).All()", colField(sg, u.v, u.c), accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
	}
	for _, j := range y.Joins {
		pc, write := sg.probeColumn(j)
		g.p("k.%s = %s(d, %s)%s", sg.field["probe:"+j.Var.Name], accessor(write), columnRef(pc), map[bool]string{true: ".ReadColumn", false: ""}[write])
		for _, u := range sg.joinUses(j.Var) {
			g.p("k.%s = %s(d, %s).All()", colField(sg, u.v, u.c), accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
		}
	}
	if !y.Dense {
		for _, tb := range y.Access.Deletes {
			g.p("k.%s = tickwork.Record(d, %s)", sg.field["rec:"+tb.Name], tableRef(tb))
		}
		for _, e := range y.Access.Emits {
			g.p("k.%s = tickwork.Emit(d, t.%s)", sg.field["emit:"+e.Name], exported(e.Name))
			g.p("k.%s = tickwork.EmitParallel(d, t.%s)", sg.field["par:"+e.Name], exported(e.Name))
		}
		if len(y.Access.Deletes) > 0 {
			// Sized at seal (after the emitters' staging, which the memory
			// budget may refuse first), so that no frame allocates
			// whichever kernel it runs.
			r := sg.field["rec:"+y.Access.Deletes[0].Name]
			g.p("k.%s.Reserve(%s) // the most records a run makes: recording never allocates", r, sg.reserveTotal())
			g.p("k.%s.ReserveWorkers(%s) // any worker may record the whole run's", r, sg.reserveTotal())
		}
	}
	sg.declareCounters()
	g.p("return s.run")
	g.p("}")
	g.p("")
}

// declareCounters declares the system's counters on its Decl.
func (sg *sysGen) declareCounters() {
	for _, c := range sg.y.Counters {
		sg.g.p("s.%s = d.Counter(%q)", exported(c), c)
	}
}

// parallel is the call that runs the parallel kernel fn over the used
// chunks: under the system's grain option when it has one.
func (sg *sysGen) parallel(fn string) string {
	if sg.y.Grain > 0 {
		return fmt.Sprintf("tickwork.ParallelPolicy(ctx, tickwork.KernelPolicy{Grain: %d}, k.table.UsedChunks(), *k, (*%sKernel).%s)", sg.y.Grain, sg.lower, fn)
	}
	return fmt.Sprintf("tickwork.Parallel(ctx, k.table.UsedChunks(), *k, (*%sKernel).%s)", sg.lower, fn)
}

// dtValues writes the run's @dt and @tick into the kernel state.
func (sg *sysGen) dtValues() {
	g := sg.g
	if f, ok := sg.field["dt32"]; ok {
		g.p("k.%s = float32(ctx.DT())", f)
	}
	if f, ok := sg.field["dt64"]; ok {
		g.p("k.%s = ctx.DT()", f)
	}
	if f, ok := sg.field["tick"]; ok {
		g.p("k.%s = int64(ctx.Tick())", f)
	}
}

// tableRun writes the body of a system over a table: the scalar kernel
// with one worker, the parallel kernel with more.
func (sg *sysGen) tableRun() {
	g, y := sg.g, sg.y
	switch {
	case y.Dense && len(sg.fromUses()) == 0:
		g.p("// run runs the system once: its body uses no column, so it does nothing.")
	case y.Dense:
		g.p("// run runs the system once: its one kernel, chunk, on this goroutine")
		g.p("// with one worker or a table of one chunk, on the world's workers")
		g.p("// otherwise (the results do not depend on the worker count).")
	default:
		g.p("// run runs the system once: the scalar kernel on this goroutine with one")
		g.p("// worker or a table of one chunk, the parallel kernel on the world's")
		g.p("// workers otherwise (the same kernel every run; the results do not")
		g.p("// depend on the worker count).")
	}
	g.p("func (s *%s) run(ctx *tickwork.Context) {", sg.name)
	if y.Dense && len(sg.fromUses()) == 0 {
		g.p("// the body does nothing")
		g.p("}")
		g.p("")
		return
	}
	g.p("k := &s.k")
	sg.dtValues()
	if y.Dense {
		g.p("if k.table.Chunks() <= 1 { // one chunk: nothing to split or skip")
		g.p("for c := range k.table.Chunks() {")
		g.p("k.chunk(0, c)")
		g.p("}")
		g.p("return")
		g.p("}")
		g.p("if ctx.Workers() <= 1 {")
		g.p("for c := range k.table.UsedChunks() {")
		g.p("k.chunk(0, c)")
		g.p("}")
		g.p("return")
		g.p("}")
		g.p("%s", sg.parallel("chunk"))
		g.p("}")
		g.p("")
		return
	}
	g.p("if ctx.Workers() <= 1 || k.table.Chunks() <= 1 {")
	if len(y.Counters) > 0 {
		g.p("k.total = [%d]int64{}", len(y.Counters))
	}
	g.p("for c := range k.table.UsedChunks() {")
	g.p("k.chunkScalar(c)")
	g.p("}")
	sg.publishCounters()
	g.p("return")
	g.p("}")
	if len(y.Counters) > 0 {
		g.p("if len(k.counts) != ctx.Workers() {")
		g.p("k.counts = make([]%sCounts, ctx.Workers())", sg.lower)
		g.p("}")
		g.p("clear(k.counts)")
	}
	g.p("%s", sg.parallel("chunkParallel"))
	if len(y.Counters) > 0 {
		g.p("k.total = [%d]int64{}", len(y.Counters))
		g.p("for w := range k.counts {")
		for i := range y.Counters {
			g.p("k.total[%d] += k.counts[w].n[%d]", i, i)
		}
		g.p("}")
		sg.publishCounters()
	}
	g.p("}")
	g.p("")
}

// publishCounters adds the run's totals, k.total, to the system's
// counters, one Add per counter in declaration order.
func (sg *sysGen) publishCounters() {
	for i, c := range sg.y.Counters {
		sg.g.p("s.%s.Add(k.total[%d])", exported(c), i)
	}
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

// chunkFunc writes one chunk function: mode "dense" (both drivers),
// "scalar" or "parallel".
func (sg *sysGen) chunkFunc(mode string) {
	g, y := sg.g, sg.y
	loc := newLocals(append([]string{"k", "c", "w", "base", "lo", "hi", "i"}, g.top...)...)
	sg.env = map[string]string{}
	switch mode {
	case "dense":
		g.p("// chunk is the kernel of chunk c (worker unused), for both drivers.")
		g.p("func (k *%sKernel) chunk(_, c int) {", sg.lower)
	case "scalar":
		g.p("// chunkScalar is the scalar kernel of chunk c: serial recorder and")
		g.p("// emitter, counts into k.total.")
		g.p("func (k *%sKernel) chunkScalar(c int) {", sg.lower)
	default:
		g.p("// chunkParallel is worker w's kernel of chunk c: its recorders and")
		g.p("// emitters keyed by chunk, counts into k.counts[w].")
		g.p("func (k *%sKernel) chunkParallel(w, c int) {", sg.lower)
	}
	a := y.Access
	out := ""
	if sg.rare() {
		out = loc.name("o")
		sg.env["out"] = out
		if mode == "parallel" {
			g.p("// Every chunk starts its segments, empty or not.")
		}
		g.p("%s := %s{table: k.table}", out, sg.outName(mode))
		for _, tb := range a.Deletes {
			if mode == "parallel" {
				g.p("%s.rec%s = k.%s.Worker(w, c)", out, exported(tb.Name), sg.field["rec:"+tb.Name])
			} else {
				g.p("%s.rec%s = k.%s", out, exported(tb.Name), sg.field["rec:"+tb.Name])
			}
		}
		for _, e := range a.Emits {
			if mode == "parallel" {
				g.p("%s.out%s = k.%s.Worker(w, c)", out, exported(e.Name), sg.field["par:"+e.Name])
			} else {
				g.p("%s.out%s = k.%s", out, exported(e.Name), sg.field["emit:"+e.Name])
			}
		}
	}
	if mode != "dense" {
		g.p("if k.table.ChunkLen(c) == 0 {")
		g.p("return")
		g.p("}")
	}
	g.p("base := c * k.rows")
	sg.envValues(loc)
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name)
		g.p("%s := k.%s.Lease()", l, sg.field["probe:"+j.Var.Name])
		sg.env["lease:"+j.Var.Name] = l
		for _, u := range sg.joinUses(j.Var) {
			s := loc.name(j.Var.Name + exported(u.c.Name) + "s")
			g.p("%s := k.%s", s, colField(sg, u.v, u.c))
			sg.env["colspan:"+j.Var.Name+"."+u.c.Name] = s
		}
	}
	for i, c := range y.Counters {
		sg.env["count:"+c] = fmt.Sprintf("%s.n[%d]", out, i)
	}
	if mode == "dense" {
		g.p("hi := k.table.LiveEnd(c)")
		sg.rows(loc, "base", "base+hi", "")
	} else {
		mask := loc.name("mask")
		g.p("%s := k.table.Enabled(c)", mask)
		g.p("for lo, hi := tickwork.NextRun(%s, 0); lo < hi; lo, hi = tickwork.NextRun(%s, hi) {", mask, mask)
		row := "base+lo+i"
		if out != "" {
			g.p("%s.first = base + lo", out)
			row = out + ".first+i"
		}
		sg.rows(loc, "base+lo", "base+hi", row)
		g.p("}")
	}
	for i := range y.Counters {
		if mode == "parallel" {
			g.p("k.counts[w].n[%d] += %s.n[%d]", i, out, i)
		} else {
			g.p("k.total[%d] += %s.n[%d]", i, out, i)
		}
	}
	g.p("}")
	g.p("")
}

// envValues binds @dt and @tick to locals.
func (sg *sysGen) envValues(loc *locals) {
	for _, key := range []string{"dt32", "dt64", "tick"} {
		if f, ok := sg.field[key]; ok {
			l := loc.name(key)
			sg.g.p("%s := k.%s", l, f)
			sg.env[key] = l
		}
	}
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
	var loads []string
	for _, u := range sg.fromUses() {
		us := sg.uses[u.v][u.c]
		span := loc.name(from.Name + exported(u.c.Name) + "s")
		if first == "" {
			first = span
			g.p("%s := k.%s[%s : %s]", span, colField(sg, u.v, u.c), lo, hi)
		} else {
			g.p("%s := k.%s[%s : %s][:len(%s)]", span, colField(sg, u.v, u.c), lo, hi, first)
		}
		key := from.Name + "." + u.c.Name
		if !us.write {
			sg.env["col:"+key] = span + "[i]"
			continue
		}
		l := loc.name(from.Name + exported(u.c.Name))
		sg.env["col:"+key] = l
		if us.read {
			loads = append(loads, fmt.Sprintf("%s := %s[i]", l, span))
		} else {
			// Never read: every path assigns it before the row's end.
			loads = append(loads, fmt.Sprintf("var %s %s", l, goType(u.c.Type)))
		}
		if us.always {
			ends = append(ends, stored{l, span})
		} else {
			sg.env["colw:"+key] = span + "[i]"
		}
	}
	if y.Access.Handle {
		tab := "k.table"
		if out, ok := sg.env["out"]; ok {
			tab = out + ".table"
		}
		sg.env["handle:"+from.Name] = "rowHandle(" + tab + ", " + row + ")"
	}
	switch {
	case first != "":
		g.p("for i := range %s {", first)
	case y.Access.Handle:
		g.p("for i := range (%s) - (%s) {", hi, lo)
	default: // the body names no column and no handle: i would be unused
		g.p("for range (%s) - (%s) {", hi, lo)
	}
	for _, l := range loads {
		g.p("%s", l)
	}
	sg.probes(loc, from)
	sg.body(y.Body)
	for _, e := range ends {
		g.p("%s[i] = %s", e.span, e.local)
	}
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
	g.p("func new%s(t *Tables) *%s { return &%s{t: t} }", sg.name, sg.name, sg.name)
	g.p("")
	sg.systemMethod()
	g.p("func (s *%s) declare(d *tickwork.Decl) tickwork.RunFunc {", sg.name)
	loc := newLocals(append([]string{"s", "t", "d", "ctx", "i"}, g.top...)...)
	sg.env = map[string]string{}
	g.p("t := s.t")
	cons := loc.name(y.From.Name + "Events")
	g.p("%s := tickwork.Consume(d, t.%s)", cons, exported(ev.Name))
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name + "Probe")
		pc, write := sg.probeColumn(j)
		g.p("%s := %s(d, %s)", l, accessor(write), columnRef(pc))
		sg.env["probe:"+j.Var.Name] = l
		for _, u := range sg.joinUses(j.Var) {
			s := loc.name(j.Var.Name + exported(u.c.Name) + "s")
			g.p("%s := %s(d, %s).All()", s, accessor(sg.uses[u.v][u.c].write), columnRef(u.c))
			sg.env["colspan:"+j.Var.Name+"."+u.c.Name] = s
		}
	}
	var recs []string
	for _, tb := range y.Access.Deletes {
		r := loc.name("rec" + exported(tb.Name))
		sg.env["rec:"+tb.Name] = r
		recs = append(recs, r)
		g.p("%s := tickwork.Record(d, %s)", r, tableRef(tb))
	}
	if len(recs) > 0 {
		g.p("%s.Reserve(%s) // the most records a run makes: recording never allocates", recs[0], sg.reserveTotal())
	}
	for _, e := range y.Access.Emits {
		em := loc.name("emit" + exported(e.Name))
		sg.env["emit:"+e.Name] = em
		g.p("%s := tickwork.Emit(d, t.%s)", em, exported(e.Name))
	}
	sg.declareCounters()
	g.p("return func(ctx *tickwork.Context) {")
	evs := loc.name(y.From.Name + "s")
	g.p("%s := %s.Read()", evs, cons)
	g.p("if len(%s) == 0 {", evs)
	g.p("return")
	g.p("}")
	evLocal := loc.name(y.From.Name)
	for _, f := range ev.Fields {
		sg.env["col:"+y.From.Name+"."+f.Name] = evLocal + "." + exported(f.Name)
	}
	for _, j := range y.Joins {
		l := loc.name(j.Var.Name)
		g.p("%s := %s.Lease()", l, sg.env["probe:"+j.Var.Name])
		sg.env["lease:"+j.Var.Name] = l
	}
	if y.Access.DT && sg.usesDT(schema.Float32) {
		sg.env["dt32"] = loc.name("dt32")
		g.p("%s := float32(ctx.DT())", sg.env["dt32"])
	}
	if y.Access.DT && sg.usesDT(schema.Float64) {
		sg.env["dt64"] = loc.name("dt64")
		g.p("%s := ctx.DT()", sg.env["dt64"])
	}
	if y.Access.Tick {
		sg.env["tick"] = loc.name("tick")
		g.p("%s := int64(ctx.Tick())", sg.env["tick"])
	}
	counts := make([]string, len(y.Counters))
	for i, c := range y.Counters {
		counts[i] = loc.name("n" + exported(c))
		sg.env["count:"+c] = counts[i]
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

// probes writes each join's probe of the item's handle: its row and hit
// locals, blank when the body uses neither (go vet refuses an unused
// local), so the probe still runs.
func (sg *sysGen) probes(loc *locals, from *schema.Var) {
	g, y := sg.g, sg.y
	for _, j := range y.Joins {
		r, ok := "_", "_"
		if len(sg.joinUses(j.Var)) > 0 {
			r = loc.name(j.Var.Name + "Row")
			sg.renameRow(j.Var, r)
		}
		if probed(y.Body, j.Var) {
			ok = loc.name(j.Var.Name + "OK")
			sg.env["ok:"+j.Var.Name] = ok
		}
		op := ":="
		if r == "_" && ok == "_" {
			op = "="
		}
		g.p("%s, %s %s %s.Row(%s)", r, ok, op, sg.env["lease:"+j.Var.Name], sg.env["col:"+from.Name+"."+j.Via.Name])
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

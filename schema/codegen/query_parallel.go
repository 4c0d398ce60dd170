package codegen

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// The parallel lane of a declared query (docs/schema.md, Queries,
// "Parallel lane"): a scan whose result is a concatenation of rows, or
// ungrouped aggregates that merge exactly (count, integer sum, min, max),
// runs one chunk at a time on the world's kernel workers
// (tickwork.World.RunChunks) into per-chunk partials: a row buffer, or
// the chunk's accumulators. Run merges them in chunk order, which is the
// serial walk's order, so the result is the serial one bit for bit at any
// worker count and any dealing of chunks. Float sums and averages are not
// merged (per-chunk partial sums round otherwise than the serial sum):
// such a query, and group by, order by, limit and distinct, stay serial.

// parallel: the query has a parallel lane.
func (qg *qGen) parallel() bool {
	q := qg.q
	if q.From.Kind != schema.RowVar || q.Probe != nil || q.Index != nil || q.Distinct || len(q.GroupBy) > 0 || len(q.OrderBy) > 0 || q.Limit != nil {
		return false
	}
	// unique key lookups stop at their first row; windows, keyset pages,
	// exists marks and set operations run serially
	if q.Unique != nil || len(q.Windows) > 0 || q.After != nil || len(q.Exists) > 0 || q.SetOp != nil {
		return false
	}
	if !aggregated(q) {
		return true
	}
	if qg.countOnly() {
		return false
	}
	for _, a := range q.Aggregates {
		if a.Kind == schema.Avg || a.Kind == schema.Sum && a.T.IsFloat() {
			return false
		}
	}
	return true
}

// argField is the query struct's copy of parameter p for the chunk method.
func argField(p *schema.Param) string { return "arg" + exported(p.Name) }

// parallelFields lists the lane's fields.
func (qg *qGen) parallelFields() {
	q := qg.q
	qg.fields = append(qg.fields,
		field{"w", "*tickwork.World", "set by Parallel: the world whose workers scan"},
		field{"lane", "string", "the lane of the last Run"},
		field{"minChunks", "int", "set by Parallel: the fewest used chunks for the parallel lane"},
		field{"chunkFn", "func(worker, chunk int)", "q.chunk, made once"})
	for _, p := range q.Params {
		qg.fields = append(qg.fields, field{argField(p), goType(p.Type), "Run's " + p.Name + ", for chunk"})
	}
	if aggregated(q) {
		qg.fields = append(qg.fields, field{"aggs", "[]" + qg.lower + "Part", "per-chunk accumulators"})
	} else {
		qg.fields = append(qg.fields, field{"parts", "[][]" + qg.rowType(), "per-chunk rows"})
	}
}

// parallelTypes writes the per-chunk accumulators of an aggregate query.
func (qg *qGen) parallelTypes() {
	g, q := qg.g, qg.q
	if !aggregated(q) {
		return
	}
	g.p("// %sPart is one chunk's accumulators of query %s (the parallel lane).", qg.lower, q.Name)
	g.p("type %sPart struct {", qg.lower)
	for _, a := range q.Aggregates {
		g.p("a%d %s", a.Index, goType(a.T))
		if a.Kind == schema.Min || a.Kind == schema.Max {
			g.p("ok%d bool", a.Index)
		}
	}
	g.p("}")
	g.p("")
}

// parallelBranch opens Run's lane choice: the parallel lane, then an
// else block for the serial scan (closed by the caller).
func (qg *qGen) parallelBranch() {
	g, q := qg.g, qg.q
	g.p("if nc := q.tb.UsedChunks(); q.w != nil && nc >= q.minChunks {")
	g.p("q.lane = \"parallel\"")
	for _, p := range q.Params {
		g.p("q.%s = %s", argField(p), qg.param[p])
	}
	if aggregated(q) {
		g.p("if cap(q.aggs) < nc {")
		g.p("q.aggs = make([]%sPart, nc)", qg.lower)
		g.p("}")
		g.p("q.aggs = q.aggs[:nc]")
		g.p("if !q.w.RunChunks(nc, q.chunkFn) {")
		g.p("q.lane = \"serial\" // inline: the world was closed or in a frame")
		g.p("}")
		g.p("for c := range q.aggs {")
		g.p("pt := &q.aggs[c]")
		for _, a := range q.Aggregates {
			i := a.Index
			switch a.Kind {
			case schema.Count, schema.Sum:
				g.p("a%d += pt.a%d", i, i)
			default:
				g.p("if pt.ok%d && (!ok%d || %s) {", i, i, better(a, fmt.Sprintf("pt.a%d", i), fmt.Sprintf("a%d", i)))
				g.p("a%d, ok%d = pt.a%d, true", i, i, i)
				g.p("}")
			}
		}
		g.p("}")
	} else {
		g.p("for len(q.parts) < nc {")
		g.p("q.parts = append(q.parts, nil)")
		g.p("}")
		g.p("if !q.w.RunChunks(nc, q.chunkFn) {")
		g.p("q.lane = \"serial\" // inline: the world was closed or in a frame")
		g.p("}")
		g.p("for _, p := range q.parts[:nc] {")
		g.p("dst = append(dst, p...)")
		g.p("}")
		g.p("return dst")
	}
	g.p("} else {")
	g.p("q.lane = \"serial\"")
}

// parallelMethods writes Parallel, Lane and chunk.
func (qg *qGen) parallelMethods() {
	g, q := qg.g, qg.q
	g.doc("Parallel attaches q to w, the world of its tables: from then on Run scans on w's kernel workers (World.RunChunks) when the from table has at least minChunks used chunks (minChunks <= 0: tickwork.QueryParallelChunks), with the serial result bit for bit (docs/schema.md, Queries, Parallel lane). Run must then be called between frames, from the goroutine that calls Frame. A nil w detaches it. Allocates once (the chunk function); the per-chunk partials grow once in Run.")
	g.p("func (q *%s) Parallel(w *tickwork.World, minChunks int) {", qg.name)
	g.p("if minChunks <= 0 {")
	g.p("minChunks = tickwork.QueryParallelChunks")
	g.p("}")
	g.p("q.w, q.minChunks = w, max(minChunks, 1)")
	g.p("if q.chunkFn == nil {")
	g.p("q.chunkFn = q.chunk")
	g.p("}")
	g.p("}")
	g.p("")
	g.doc("Lane is the lane the last Run took: \"parallel\", or \"serial\" (also when an attached Run fell back inline: a closed world, or during a frame; \"\" before any Run).")
	g.p("func (q *%s) Lane() string { return q.lane }", qg.name)
	g.p("")
	g.p("// chunk runs the scan over chunk c of the from table into its partial.")
	g.p("func (q *%s) chunk(_, c int) {", qg.name)
	for _, p := range q.Params {
		// a parameter the scan does not read (the where may not name it)
		// is still declared: the blank use keeps the chunk building
		g.p("%s := q.%s", qg.param[p], argField(p))
		g.p("_ = %s", qg.param[p])
	}
	if aggregated(q) {
		for _, a := range q.Aggregates {
			qg.aggLocals(a)
		}
	} else {
		g.p("dst := q.parts[c][:0]")
	}
	qg.closers = 0
	qg.oneChunk = true
	qg.leaseLocals()
	qg.source()
	qg.oneChunk = false
	early, late := qg.splitWhere(q.Where)
	if early != nil {
		g.p("if %s {", qg.filterCode(early))
		qg.closers++
	}
	qg.joins()
	if late != nil {
		g.p("if %s {", qg.filterCode(late))
		qg.closers++
	}
	qg.sink()
	for ; qg.closers > 0; qg.closers-- {
		g.p("}")
	}
	if aggregated(q) {
		var parts []string
		for _, a := range q.Aggregates {
			parts = append(parts, fmt.Sprintf("a%d: a%d", a.Index, a.Index))
			if a.Kind == schema.Min || a.Kind == schema.Max {
				parts = append(parts, fmt.Sprintf("ok%d: ok%d", a.Index, a.Index))
			}
		}
		g.p("q.aggs[c] = %sPart{%s}", qg.lower, strings.Join(parts, ", "))
	} else {
		g.p("q.parts[c] = dst")
	}
	g.p("}")
	g.p("")
}

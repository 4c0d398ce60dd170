package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// queryCalls is how many timed calls -queries makes of each query, after
// one call that grows its buffer.
const queryCalls = 101

// boxRadius is BodiesInBox's half side, around the arena's centre.
const boxRadius = 50

// weakest is WeakestUnits' n.
const weakest = 10

// queryReport is one declared query's entry with -queries: the p50 of
// queryCalls timed calls, the bytes allocated per call, the result's
// rows and its plan (the generated Plan: an index's walk or a scan); with
// -json also the rows themselves.
type queryReport struct {
	Query        string  `json:"query"`
	Plan         string  `json:"plan"`
	P50US        float64 `json:"p50_us"`
	BytesPerCall float64 `json:"bytes_per_call"`
	Rows         int     `json:"rows"`
	Result       any     `json:"result"`
}

// handleJSON is a handle in -json: its entity index and generation.
type handleJSON struct {
	Index      uint32 `json:"index"`
	Generation uint32 `json:"generation"`
}

func handleOf(h tickwork.Handle) handleJSON { return handleJSON{h.Index(), h.Generation()} }

type countRow struct {
	Count int64 `json:"count"`
}

type weakRow struct {
	Unit   handleJSON `json:"unit"`
	Health int32      `json:"health"`
}

type boxRow struct {
	Body handleJSON `json:"body"`
	X    float32    `json:"x"`
	Y    float32    `json:"y"`
}

type hitRow struct {
	Target handleJSON `json:"target"`
	Total  int64      `json:"total"`
	Hits   int64      `json:"hits"`
}

// runQueries runs the arena's four declared queries (arena.tw) on s, each
// queryCalls times, and returns their reports: CountUnits,
// WeakestUnits(10), BodiesInBox(±50 around the centre) and
// HitTotalsByTarget.
func runQueries(s *arena.Sim) []queryReport {
	q := arena.NewQueries(s.Tables())
	c := rules.W / 2
	x0, y0, x1, y1 := c-boxRadius, c-boxRadius, c+boxRadius, c+boxRadius
	var (
		count arena.CountUnitsRow
		weak  []arena.WeakestUnitsRow
		in    []arena.BodiesInBoxRow
		hits  []arena.HitTotalsByTargetRow
	)
	type query struct {
		name string
		call func()
		rows func() int
		plan string
	}
	queries := []query{
		{"CountUnits", func() { count = q.CountUnits.Run() }, func() int { return 1 }, q.CountUnits.Plan()},
		{"WeakestUnits", func() { weak = q.WeakestUnits.Run(weak, weakest) }, func() int { return len(weak) }, q.WeakestUnits.Plan()},
		{"BodiesInBox", func() { in = q.BodiesInBox.Run(in, x0, y0, x1, y1) }, func() int { return len(in) }, q.BodiesInBox.Plan()},
		{"HitTotalsByTarget", func() { hits = q.HitTotalsByTarget.Run(hits) }, func() int { return len(hits) }, q.HitTotalsByTarget.Plan()},
	}
	ns := make([]int64, queryCalls)
	var before, after runtime.MemStats
	var out []queryReport
	for _, qq := range queries {
		qq.call() // grows the buffer
		runtime.ReadMemStats(&before)
		for i := range ns {
			t0 := time.Now()
			qq.call()
			ns[i] = time.Since(t0).Nanoseconds()
		}
		runtime.ReadMemStats(&after)
		slices.Sort(ns)
		out = append(out, queryReport{Query: qq.name, Plan: qq.plan, P50US: round3(micros(ns[len(ns)/2])),
			BytesPerCall: round3(float64(after.TotalAlloc-before.TotalAlloc) / queryCalls), Rows: qq.rows()})
	}
	out[0].Result = []countRow{{count.Count}}
	var w []weakRow
	for _, r := range weak {
		w = append(w, weakRow{handleOf(r.Unit), r.Health})
	}
	out[1].Result = nonNil(w)
	var b []boxRow
	for _, r := range in {
		b = append(b, boxRow{handleOf(r.Body), r.X, r.Y})
	}
	out[2].Result = nonNil(b)
	var h []hitRow
	for _, r := range hits {
		h = append(h, hitRow{handleOf(r.Target), r.Total, r.Hits})
	}
	out[3].Result = nonNil(h)
	return out
}

// nonNil is rows, or an empty slice (JSON [] rather than null).
func nonNil[T any](rows []T) []T {
	if rows == nil {
		return []T{}
	}
	return rows
}

// writeQueries writes the -queries table of the human report, each
// query's plan on the line below it.
func writeQueries(w io.Writer, qs []queryReport) {
	fmt.Fprintf(w, "queries   %-18s %10s %12s %6s\n", "query", "p50 µs", "bytes/call", "rows")
	for _, q := range qs {
		fmt.Fprintf(w, "          %-18s %10.1f %12.1f %6d\n", q.Query, q.P50US, q.BytesPerCall, q.Rows)
		fmt.Fprintf(w, "            plan: %s\n", q.Plan)
	}
}

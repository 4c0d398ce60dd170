package corpus

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Ways are the sub-benchmarks of a case, in table order.
var Ways = []string{"generated", "parallel", "scan", "hand", "sqlite", "sqlite_index"}

// Result is one BenchmarkCorpus line: one case run one way.
type Result struct {
	Case, Way   string  // "weakest_units", "hand"
	NsPerOp     float64 // ns per call, full result read
	BytesPerOp  float64 // B/op; -1 when absent
	AllocsPerOp float64 // allocs/op; -1 when absent
	Rows        float64 // the result's rows (the "rows" metric); -1 when absent
}

// ErrBadLine is matched (errors.Is) by ParseResults' error for a
// BenchmarkCorpus line it cannot read.
var ErrBadLine = errors.New("corpus: bad BenchmarkCorpus line")

// ParseResults reads `go test -bench` output from r and returns its
// BenchmarkCorpus/<case>/<way>[-<procs>] result lines in input order,
// skipping every other line. It returns an error matching [ErrBadLine]
// (with the line number) for such a line it cannot read, or r's error.
// Safe for concurrent use on distinct readers.
func ParseResults(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[0], "BenchmarkCorpus/") {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%w %d: %s: %q", ErrBadLine, line, why, sc.Text()) }
		parts := strings.Split(f[0], "/")
		if len(parts) != 3 {
			return nil, bad("want BenchmarkCorpus/<case>/<way>")
		}
		res := Result{Case: parts[1], Way: trimProcs(parts[2]), NsPerOp: -1, BytesPerOp: -1, AllocsPerOp: -1, Rows: -1}
		if _, err := strconv.Atoi(f[1]); err != nil || len(f)%2 != 0 {
			return nil, bad("want <iterations> then value-unit pairs")
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, bad(fmt.Sprintf("%q is not a number", f[i]))
			}
			switch f[i+1] {
			case "ns/op":
				res.NsPerOp = v
			case "B/op":
				res.BytesPerOp = v
			case "allocs/op":
				res.AllocsPerOp = v
			case "rows":
				res.Rows = v
			}
		}
		if res.NsPerOp < 0 {
			return nil, bad("no ns/op")
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

// trimProcs drops go test's "-<GOMAXPROCS>" suffix: "hand-2" -> "hand".
func trimProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// Summary is one case's figures over its results: the median ns/op of
// each way (0 when the way did not run) and the hand loop's B/op.
type Summary struct {
	Case, Family string
	Index        string               // the index serving the case's generated query (Info.Index); empty on the others
	Ns           map[string]float64   // way -> median ns/op
	Lo, Hi       map[string]float64   // way -> least and greatest ns/op over the runs
	Rounds       map[string][]float64 // way -> ns/op of each run, in input order (run k of every way: round k)
	Runs         int                  // results of the hand way
	HandBytes    float64              // the hand loop's median B/op
	GenBytes     float64              // the generated query's median B/op; -1 when it did not run
	RunqBytes    float64              // the runq way's greatest B/op over its runs; -1 when it did not run
	Rows         float64              // the hand loop's result rows
}

// Ratio returns Ns[way] / Ns["hand"], or 0 when either is missing.
func (s *Summary) Ratio(way string) float64 { return s.RatioTo(way, "hand") }

// RatioTo returns Ns[way] / Ns[base], or 0 when either is missing.
func (s *Summary) RatioTo(way, base string) float64 {
	if s.Ns[way] <= 0 || s.Ns[base] <= 0 {
		return 0
	}
	return s.Ns[way] / s.Ns[base]
}

// Summarize groups results by case, in the order of Cases() (cases the
// corpus does not know follow in input order, with family "?"), and takes
// the median of several runs (go test -count).
func Summarize(results []Result) []Summary {
	family, index := map[string]string{}, map[string]string{}
	var order []string
	for _, c := range Cases() {
		family[c.Info().Name] = c.Info().Family
		index[c.Info().Name] = c.Info().Index
		order = append(order, c.Info().Name)
	}
	byCase := map[string]map[string][]Result{}
	for _, r := range results {
		if byCase[r.Case] == nil {
			byCase[r.Case] = map[string][]Result{}
			if _, ok := family[r.Case]; !ok {
				family[r.Case] = "?"
				order = append(order, r.Case)
			}
		}
		byCase[r.Case][r.Way] = append(byCase[r.Case][r.Way], r)
	}
	var out []Summary
	for _, name := range order {
		ways := byCase[name]
		if ways == nil {
			continue
		}
		s := Summary{Case: name, Family: family[name], Index: index[name], Ns: map[string]float64{}, Lo: map[string]float64{}, Hi: map[string]float64{},
			Rounds: map[string][]float64{}, HandBytes: -1, GenBytes: -1, RunqBytes: -1, Rows: -1}
		for way, rs := range ways {
			ns := make([]float64, len(rs))
			for i, r := range rs {
				ns[i] = r.NsPerOp
			}
			s.Rounds[way] = slices.Clone(ns)
			s.Ns[way], s.Lo[way], s.Hi[way] = median(ns), slices.Min(ns), slices.Max(ns)
			if way == "generated" {
				b := make([]float64, len(rs))
				for i, r := range rs {
					b[i] = r.BytesPerOp
				}
				s.GenBytes = median(b)
			}
			if way == "runq" {
				for _, r := range rs {
					s.RunqBytes = max(s.RunqBytes, r.BytesPerOp)
				}
			}
			if way == "hand" {
				s.Runs = len(rs)
				b := make([]float64, len(rs))
				for i, r := range rs {
					b[i] = r.BytesPerOp
				}
				s.HandBytes, s.Rows = median(b), rs[0].Rows
			}
		}
		out = append(out, s)
	}
	return out
}

// RoundRatios returns the per-round ratios Rounds[way][k] / Rounds[base][k]
// (round k: the k-th run of each way) as their median, least and
// greatest; zeros when either way did not run or their runs differ in
// number.
func (s *Summary) RoundRatios(way, base string) (med, lo, hi float64) {
	a, b := s.Rounds[way], s.Rounds[base]
	if len(a) == 0 || len(a) != len(b) {
		return 0, 0, 0
	}
	r := make([]float64, len(a))
	for i := range a {
		if a[i] <= 0 || b[i] <= 0 {
			return 0, 0, 0
		}
		r[i] = a[i] / b[i]
	}
	return median(r), slices.Min(r), slices.Max(r)
}

// median of v (not empty; sorted in place).
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// WriteTable prints one row per case: its family, the median µs of each
// way of Ways ("-" for a way that did not run), the hand loop's and the generated
// query's B/op, the rows, the ratios sqlite/hand, sqlite_index/hand,
// generated/hand, sqlite/generated (SQLite's scan over the generated
// query) and parallel/generated, the number of runs and the hand loop's
// least and greatest µs over them. It returns w's first error.
func WriteTable(w io.Writer, sums []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tfamily\tgenerated µs\tparallel µs\tscan µs\thand µs\tsqlite µs\tsqlite_index µs\thand B/op\tgen B/op\trows\tsqlite/hand\tindex/hand\tgenerated/hand\tsqlite/generated\tparallel/generated\truns\thand range µs\t")
	for _, s := range sums {
		fmt.Fprintf(tw, "%s\t%s\t", s.Case, s.Family)
		for _, way := range Ways {
			fmt.Fprintf(tw, "%s\t", us(s.Ns[way]))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s–%s\t\n", num(s.HandBytes), num(s.GenBytes), num(s.Rows),
			ratio(s.Ratio("sqlite")), ratio(s.Ratio("sqlite_index")), ratio(s.Ratio("generated")),
			ratio(s.RatioTo("sqlite", "generated")), ratio(s.RatioTo("parallel", "generated")), s.Runs, us(s.Lo["hand"]), us(s.Hi["hand"]))
	}
	return tw.Flush()
}

// us formats ns as µs, "-" for 0.
func us(ns float64) string {
	switch {
	case ns <= 0:
		return "-"
	case ns < 10e3:
		return strconv.FormatFloat(ns/1e3, 'f', 3, 64)
	default:
		return strconv.FormatFloat(ns/1e3, 'f', 1, 64)
	}
}

func num(v float64) string {
	if v < 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func ratio(r float64) string {
	if r <= 0 {
		return "-"
	}
	if r >= 100 {
		return strconv.FormatFloat(r, 'f', 0, 64) + "×"
	}
	return strconv.FormatFloat(r, 'f', 2, 64) + "×"
}

// The index-served cases' targets (issue 23, Done when): the indexed
// query at least IndexTargetSQLite times faster than SQLite with the same
// index, with a geometric mean of at least IndexTargetGeoMean, and at
// least IndexTargetScan times faster than its own scan, 0 B per call.
const (
	IndexTargetSQLite  = 30
	IndexTargetGeoMean = 100
	IndexTargetScan    = 10
)

// WriteIndexTable prints one row per index-served case of sums (Index not
// empty): its family and index, the indexed (generated) query's median
// ns/op, the ratios sqlite_index/indexed, scan/indexed and hand/indexed
// (medians of the per-round ratios, their least and greatest in
// brackets), the indexed query's B/op and the rows, each ratio marked "!"
// when it misses its target; then the geometric means of the median
// ratios over the cases that ran both ways. It returns w's first error.
func WriteIndexTable(w io.Writer, sums []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tfamily\tindex\tindexed ns/op\tsqlite_index/indexed\tscan/indexed\thand/indexed\tindexed B/op\trows\t")
	var logSQL, logScan []float64
	for _, s := range sums {
		if s.Index == "" {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t", s.Case, s.Family, s.Index, num(round(s.Ns["generated"])))
		for _, c := range []struct {
			way    string
			target float64
			logs   *[]float64
		}{{"sqlite_index", IndexTargetSQLite, &logSQL}, {"scan", IndexTargetScan, &logScan}, {"hand", 0, nil}} {
			med, lo, hi := s.RoundRatios(c.way, "generated")
			if med <= 0 {
				fmt.Fprint(tw, "-\t")
				continue
			}
			mark := ""
			if med < c.target {
				mark = " !"
			}
			if c.logs != nil {
				*c.logs = append(*c.logs, math.Log(med))
			}
			fmt.Fprintf(tw, "%s (%s–%s)%s\t", ratio(med), strings.TrimSuffix(ratio(lo), "×"), strings.TrimSuffix(ratio(hi), "×"), mark)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", num(s.GenBytes), num(s.Rows))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "geometric mean: sqlite_index/indexed %s over %d cases (target %d×), scan/indexed %s over %d\n",
		ratio(geoMean(logSQL)), len(logSQL), IndexTargetGeoMean, ratio(geoMean(logScan)), len(logScan))
	return err
}

// The runq lane's targets (issue 25, Done when): the run-time query at
// least RunqTargetSQLite times faster than SQLite's scan and within
// RunqTargetCompiled times the generated query, at 0 B per call on a
// point lookup and at most RunqTargetBytes on the others.
const (
	RunqTargetSQLite   = 5
	RunqTargetCompiled = 3
	RunqTargetBytes    = 64
)

// WriteRunqTable prints one row per case of sums that ran its runq way
// (Case.Runq): its family, the median ns/op of runq, generated and
// sqlite, the ratios runq/generated and sqlite/runq (medians of the
// per-round ratios, their least and greatest in brackets; "!" marks a
// ratio whose worst round misses its target) and runq's greatest B/op
// ("!" past its target); then how many cases meet each target. Cases
// without a runq way (refused) are listed by name at the end. It
// returns w's first error.
func WriteRunqTable(w io.Writer, sums []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tfamily\trunq ns/op\tgenerated ns/op\tsqlite ns/op\trunq/generated\tsqlite/runq\trunq B/op\t")
	var ran, fast, near, small int
	var refused []string
	for _, s := range sums {
		if s.Ns["runq"] <= 0 {
			refused = append(refused, s.Case)
			continue
		}
		ran++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t", s.Case, s.Family, num(round(s.Ns["runq"])), num(round(s.Ns["generated"])), num(round(s.Ns["sqlite"])))
		okNear, okFast := true, true
		for _, c := range []struct {
			way, base string
			ok        func(lo, hi float64) bool
			pass      *bool
		}{
			{"runq", "generated", func(_, hi float64) bool { return hi <= RunqTargetCompiled }, &okNear},
			{"sqlite", "runq", func(lo, _ float64) bool { return lo >= RunqTargetSQLite }, &okFast},
		} {
			med, lo, hi := s.RoundRatios(c.way, c.base)
			if med <= 0 {
				fmt.Fprint(tw, "-\t")
				continue
			}
			mark := ""
			if !c.ok(lo, hi) {
				mark, *c.pass = " !", false
			}
			fmt.Fprintf(tw, "%s (%s–%s)%s\t", ratio(med), strings.TrimSuffix(ratio(lo), "×"), strings.TrimSuffix(ratio(hi), "×"), mark)
		}
		limit := float64(RunqTargetBytes)
		if strings.HasPrefix(s.Family, "point lookup") {
			limit = 0
		}
		mark := ""
		if s.RunqBytes > limit {
			mark = " !"
		} else {
			small++
		}
		fmt.Fprintf(tw, "%s%s\t\n", num(s.RunqBytes), mark)
		if okNear {
			near++
		}
		if okFast {
			fast++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d cases ran runq: %d at least %d× faster than sqlite, %d within %d× of generated, %d within their bytes (0 B point lookups, %d B the others) in every round; refused: %s\n",
		ran, fast, RunqTargetSQLite, near, RunqTargetCompiled, small, RunqTargetBytes, strings.Join(refused, ", "))
	return err
}

// geoMean returns exp of the mean of logs, 0 for none.
func geoMean(logs []float64) float64 {
	if len(logs) == 0 {
		return 0
	}
	var t float64
	for _, l := range logs {
		t += l
	}
	return math.Exp(t / float64(len(logs)))
}

// round rounds ns to a whole ns past 100 and to 3 digits below; -1 stays.
func round(ns float64) float64 {
	switch {
	case ns < 0:
		return -1
	case ns >= 100:
		return math.Round(ns)
	}
	return math.Round(ns*100) / 100
}

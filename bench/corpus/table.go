package corpus

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
	Ns           map[string]float64 // way -> median ns/op
	Lo, Hi       map[string]float64 // way -> least and greatest ns/op over the runs
	Runs         int                // results of the hand way
	HandBytes    float64            // the hand loop's median B/op
	GenBytes     float64            // the generated query's median B/op; -1 when it did not run
	Rows         float64            // the hand loop's result rows
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
	family := map[string]string{}
	var order []string
	for _, c := range Cases() {
		family[c.Info().Name] = c.Info().Family
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
		s := Summary{Case: name, Family: family[name], Ns: map[string]float64{}, Lo: map[string]float64{}, Hi: map[string]float64{}, HandBytes: -1, GenBytes: -1, Rows: -1}
		for way, rs := range ways {
			ns := make([]float64, len(rs))
			for i, r := range rs {
				ns[i] = r.NsPerOp
			}
			s.Ns[way], s.Lo[way], s.Hi[way] = median(ns), slices.Min(ns), slices.Max(ns)
			if way == "generated" {
				b := make([]float64, len(rs))
				for i, r := range rs {
					b[i] = r.BytesPerOp
				}
				s.GenBytes = median(b)
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
// way ("-" for a way that did not run), the hand loop's and the generated
// query's B/op, the rows, the ratios sqlite/hand, sqlite_index/hand,
// generated/hand, sqlite/generated (SQLite's scan over the generated
// query) and parallel/generated, the number of runs and the hand loop's
// least and greatest µs over them. It returns w's first error.
func WriteTable(w io.Writer, sums []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tfamily\tgenerated µs\tparallel µs\thand µs\tsqlite µs\tsqlite_index µs\thand B/op\tgen B/op\trows\tsqlite/hand\tindex/hand\tgenerated/hand\tsqlite/generated\tparallel/generated\truns\thand range µs\t")
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

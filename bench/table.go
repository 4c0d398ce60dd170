package bench

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

// Result is one line of BenchmarkArena's `go test -bench` output: one
// implementation at one unit count.
type Result struct {
	Units       int     // the units=N of the sub-benchmark's name
	Impl        string  // the implementation's name (Impl.Name)
	NsPerOp     float64 // mean frame time, ns (ns/op)
	P50, P99    float64 // frame time quantiles, ns (p50-ns/frame, p99-ns/frame); 0 when absent
	BytesPerOp  float64 // B/op, bytes allocated per frame; -1 when absent
	AllocsPerOp float64 // allocs/op; -1 when absent
}

// ErrBadLine is matched (errors.Is) by every [*LineError].
var ErrBadLine = errors.New("bench: bad BenchmarkArena line")

// LineError is a BenchmarkArena line that [ParseResults] could not read.
type LineError struct {
	Line   int    // 1-based line number in the input
	Text   string // the line
	Reason string // what is wrong with it
}

// Error returns "bench: bad BenchmarkArena line <Line>: <Reason>: <Text>".
func (e *LineError) Error() string {
	return fmt.Sprintf("bench: bad BenchmarkArena line %d: %s: %q", e.Line, e.Reason, e.Text)
}

// Unwrap returns [ErrBadLine].
func (e *LineError) Unwrap() error { return ErrBadLine }

// ParseResults reads `go test -bench` output from r and returns the
// BenchmarkArena lines as Results, in input order; every other line is
// skipped. A line is "BenchmarkArena/units=<N>/<impl>[-<GOMAXPROCS>]
// <iterations> <value> <unit>...". It returns a [*LineError] (matching
// [ErrBadLine]) for a BenchmarkArena result line it cannot read, or r's
// error. Safe for concurrent use on distinct readers.
func ParseResults(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		f := strings.Fields(text)
		if len(f) == 0 || !strings.HasPrefix(f[0], "BenchmarkArena/") {
			continue
		}
		if len(f) < 2 {
			continue // a bare name: a sub-benchmark's header or a log line
		}
		bad := func(reason string) error { return &LineError{Line: line, Text: text, Reason: reason} }
		parts := strings.Split(f[0], "/")
		if len(parts) != 3 || !strings.HasPrefix(parts[1], "units=") {
			return nil, bad("want BenchmarkArena/units=<N>/<impl>")
		}
		units, err := strconv.Atoi(strings.TrimPrefix(parts[1], "units="))
		if err != nil || units <= 0 {
			return nil, bad("units is not a positive integer")
		}
		res := Result{Units: units, Impl: trimProcs(parts[2]), BytesPerOp: -1, AllocsPerOp: -1}
		if _, err := strconv.Atoi(f[1]); err != nil {
			return nil, bad("iterations is not an integer")
		}
		if len(f)%2 != 0 {
			return nil, bad("values and units do not pair up")
		}
		seen := false
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, bad(fmt.Sprintf("%q is not a number", f[i]))
			}
			switch f[i+1] {
			case "ns/op":
				res.NsPerOp, seen = v, true
			case "p50-ns/frame":
				res.P50 = v
			case "p99-ns/frame":
				res.P99 = v
			case "B/op":
				res.BytesPerOp = v
			case "allocs/op":
				res.AllocsPerOp = v
			}
		}
		if !seen {
			return nil, bad("no ns/op")
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

// trimProcs drops the "-<GOMAXPROCS>" suffix that go test appends to a
// benchmark's name: "tickwork-w2-2" → "tickwork-w2"; "ark" stays "ark".
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// WriteTable prints results side by side, one row per unit count and
// implementation, in the order they first appear: the frame's p50, p99 and
// mean in µs, B and allocs per frame, and the p50 over soa's at the same
// unit count ("-" without a soa row). Several results of one pair (go test
// -count) print their median per column, and the p50's range over them. It
// returns w's first error.
func WriteTable(w io.Writer, results []Result) error {
	type key struct {
		units int
		impl  string
	}
	var order []key
	groups := map[key][]Result{}
	for _, r := range results {
		k := key{r.Units, r.Impl}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "units\timpl\tp50 µs\tp99 µs\tmean µs\tB/frame\tallocs/frame\tp50/soa\truns\tp50 range µs\t")
	for _, k := range order {
		g := groups[k]
		p50 := median(g, func(r Result) float64 { return r.P50 })
		ratio := "-"
		if soa, ok := groups[key{k.units, "soa"}]; ok {
			if base := median(soa, func(r Result) float64 { return r.P50 }); base > 0 {
				ratio = strconv.FormatFloat(p50/base, 'f', 2, 64)
			}
		}
		lo, hi := g[0].P50, g[0].P50
		for _, r := range g {
			lo, hi = min(lo, r.P50), max(hi, r.P50)
		}
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%.1f\t%.1f\t%s\t%s\t%s\t%d\t%.1f–%.1f\t\n",
			k.units, k.impl, p50/1e3,
			median(g, func(r Result) float64 { return r.P99 })/1e3,
			median(g, func(r Result) float64 { return r.NsPerOp })/1e3,
			count(median(g, func(r Result) float64 { return r.BytesPerOp })),
			count(median(g, func(r Result) float64 { return r.AllocsPerOp })),
			ratio, len(g), lo/1e3, hi/1e3)
	}
	return tw.Flush()
}

// median returns the median of field over g (the mean of the middle two
// for an even count); g is not empty.
func median(g []Result, field func(Result) float64) float64 {
	v := make([]float64, len(g))
	for i, r := range g {
		v[i] = field(r)
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// count formats a per-frame count, "-" when absent (negative).
func count(v float64) string {
	if v < 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

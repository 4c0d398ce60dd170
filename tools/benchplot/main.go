// Command benchplot draws the kernel scaling plot of docs/benchmarks.md
// from the output of arena-headless: one -json report per unit count, each
// made with a -workers list (1,2,...) and -impl both. It writes a PNG with
// one panel per report (the runtime's frame p50 and its main systems' mean
// times by worker count, and the hand-written baseline's frame p50 as a
// dashed line: one worker, it has no kernels), and with -table prints the
// same figures as a Markdown table. `make plot` runs arena-headless and
// then this.
//
// Usage:
//
//	benchplot [-o scaling.png] [-table] report.json...
//
// It lives in its own module so that the plotting library
// (gonum.org/v1/plot) stays out of Tickwork's module graph.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: it returns the exit status (0 ok, 1 failure, 2 usage).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchplot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "scaling.png", "PNG to write")
	table := fs.Bool("table", false, "also print the figures as a Markdown table")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "benchplot: want one or more arena-headless -json reports")
		return 2
	}
	var reps []*scaling
	for _, name := range fs.Args() {
		r, err := load(name)
		if err != nil {
			fmt.Fprintf(stderr, "benchplot: %v\n", err)
			return 1
		}
		reps = append(reps, r)
	}
	if err := writePNG(*out, reps); err != nil {
		fmt.Fprintf(stderr, "benchplot: %v\n", err)
		return 1
	}
	if *table {
		writeTable(stdout, reps)
	}
	return 0
}

// report is the part of arena-headless's -json object that benchplot reads.
type report struct {
	Units        int          `json:"units"`
	Impls        []implReport `json:"impls"`
	DigestMatch  bool         `json:"digest_match"`
	WorkerCounts []int        `json:"worker_counts"`
}

type implReport struct {
	Name       string  `json:"name"`
	FrameP50US float64 `json:"frame_p50_us"`
	AllocBytes float64 `json:"alloc_bytes_per_frame"`
	Systems    []struct {
		Name   string  `json:"name"`
		MeanUS float64 `json:"mean_us"`
	} `json:"systems"`
}

// scaling is one report arranged by worker count.
type scaling struct {
	units    int
	workers  []int
	runtime  []implReport // by worker count
	baseline *implReport  // soa, nil when it did not run
}

// load reads and checks one report.
func load(name string) (*scaling, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return arrange(name, r)
}

// arrange checks r and sorts its entries by worker count.
func arrange(name string, r report) (*scaling, error) {
	if !r.DigestMatch {
		return nil, fmt.Errorf("%s: the digests differ: not plotting a broken run", name)
	}
	if len(r.WorkerCounts) < 2 {
		return nil, fmt.Errorf("%s: made without a -workers list (such as -workers 1,2): nothing to scale", name)
	}
	s := &scaling{units: r.Units, workers: r.WorkerCounts}
	for _, w := range r.WorkerCounts {
		want := fmt.Sprintf("runtime-w%d", w)
		i := indexOf(r.Impls, want)
		if i < 0 {
			return nil, fmt.Errorf("%s: no %q entry", name, want)
		}
		s.runtime = append(s.runtime, r.Impls[i])
	}
	if i := indexOf(r.Impls, "soa"); i >= 0 {
		s.baseline = &r.Impls[i]
	}
	return s, nil
}

func indexOf(impls []implReport, name string) int {
	for i := range impls {
		if impls[i].Name == name {
			return i
		}
	}
	return -1
}

// plotted are the systems drawn and tabled, the ones with kernels (the
// others take a few µs).
var plotted = []string{"IntegrateBodies", "Collision", "PresentationSync", "IntegrateProjectiles", "Fire"}

// systemMean is the mean µs of system name in ir, or an error when absent.
func systemMean(ir *implReport, name string) (float64, error) {
	for _, s := range ir.Systems {
		if s.Name == name {
			return s.MeanUS, nil
		}
	}
	return 0, errors.New("no system " + name + " in " + ir.Name)
}

// writeTable prints one row per unit count and figure: the baseline, each
// worker count, and the last count's speed-up over the first.
func writeTable(w io.Writer, reps []*scaling) {
	for _, s := range reps {
		head := []string{"units", "µs", "soa (hand-written, 1 worker)"}
		for _, n := range s.workers {
			head = append(head, fmt.Sprintf("%d worker(s)", n))
		}
		head = append(head, fmt.Sprintf("speed-up %d/%d", s.workers[len(s.workers)-1], s.workers[0]))
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		row := func(label string, base float64, vals []float64) {
			cells := []string{fmt.Sprint(s.units), label, num(base)}
			for _, v := range vals {
				cells = append(cells, num(v))
			}
			sp := "—"
			if last := vals[len(vals)-1]; last > 0 {
				sp = fmt.Sprintf("%.2f×", vals[0]/last)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(append(cells, sp), " | "))
		}
		var vals []float64
		for i := range s.runtime {
			vals = append(vals, s.runtime[i].FrameP50US)
		}
		base := 0.0
		if s.baseline != nil {
			base = s.baseline.FrameP50US
		}
		row("frame p50", base, vals)
		for _, name := range plotted {
			vals = vals[:0]
			for i := range s.runtime {
				v, _ := systemMean(&s.runtime[i], name)
				vals = append(vals, v)
			}
			base = 0
			if s.baseline != nil {
				base, _ = systemMean(s.baseline, name)
			}
			row(name+" mean", base, vals)
		}
		fmt.Fprintln(w)
	}
}

func num(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", v)
}

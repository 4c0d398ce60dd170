package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// blockFrames is the number of measured frames an implementation runs before
// the other one takes its turn.
const blockFrames = 60

// maxFrames bounds -frames and -warmup, each: 10 000 000 frames is about 43
// hours of simulated time at rules.DT, and the frame times of -frames take
// 8 bytes a frame (80 MB at the bound) per implementation.
const maxFrames = 10_000_000

// implNames are the implementations -impl both runs, in report order.
var implNames = []string{"runtime", "soa"}

// options are the parsed flags.
type options struct {
	units, shots, warmup, frames int
	workers                      []int // -workers: one count, or several to compare
	seed                         uint64
	impl                         string
	lane                         string // "" = the best available
	json                         bool
	queries                      bool      // -queries: run the arena's declared queries after the measured frames
	texts                        []string  // -query: run-time query texts, run after the measured frames
	state                        stateOpts // -rollback, -save, -load
}

// runSpec is one configuration a run measures: an implementation under a
// name, with its config (the runtime once per -workers count).
type runSpec struct {
	name, impl string
	cfg        rules.Config
}

// specs lists the configurations of a run in report order: for each
// implementation of names, the runtime once per worker count (named
// "runtime-w<n>" when there are several), the baseline once (it ignores
// the worker count; it gets the first).
func specs(base rules.Config, names []string, workers []int) []runSpec {
	var out []runSpec
	for _, impl := range names {
		counts := workers
		if impl != "runtime" {
			counts = workers[:1]
		}
		for _, w := range counts {
			cfg := base
			cfg.Workers = w
			name := impl
			if len(counts) > 1 {
				name = impl + "-w" + strconv.Itoa(w)
			}
			out = append(out, runSpec{name: name, impl: impl, cfg: cfg})
		}
	}
	return out
}

// defaultWorkers is -workers' default: GOMAXPROCS, within 1..MaxWorkers.
func defaultWorkers() int { return max(1, min(goruntime.GOMAXPROCS(0), rules.MaxWorkers)) }

// workersFlag is -workers: a comma-separated list of counts.
type workersFlag struct{ counts *[]int }

func (f workersFlag) String() string {
	if f.counts == nil {
		return ""
	}
	var parts []string
	for _, n := range *f.counts {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ",")
}

func (f workersFlag) Set(v string) error {
	var counts []int
	for _, part := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return fmt.Errorf("want a count or a comma-separated list of counts, such as 1,2: %q", part)
		}
		if n < 1 || n > rules.MaxWorkers {
			return &usageError{fmt.Sprintf("-workers must be between 1 and %d, got %d", rules.MaxWorkers, n)}
		}
		if slices.Contains(counts, n) {
			return fmt.Errorf("count %d given twice", n)
		}
		counts = append(counts, n)
	}
	*f.counts = counts
	return nil
}

// usageError is a bad command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// run is the whole command: it parses args, runs the selected implementations
// and writes the report to stdout and diagnostics to stderr. It returns the
// exit status: 0 ok, 1 failed check or implementation error, 2 bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		}
		// Otherwise the flag package has already printed the error and usage.
		return 2
	}
	names, err := selectImpls(opts.impl)
	if err != nil {
		fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		return 2
	}
	cfg := rules.Config{Units: opts.units, Shots: opts.shots, Seed: opts.seed, Workers: opts.workers[0], Lane: opts.lane}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		return 2
	}

	if (opts.state.load != "" || opts.state.save != "" || opts.state.rollback > 0) && !slices.Contains(names, "runtime") {
		fmt.Fprintf(stderr, "arena-headless: -load, -save and -rollback need the runtime (-impl runtime or both)\n")
		return 2
	}
	if err := checkPaths(opts.state); err != nil {
		fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		return 1
	}
	if opts.queries && !slices.Contains(names, "runtime") {
		fmt.Fprintf(stderr, "arena-headless: -queries needs the runtime (-impl runtime or both)\n")
		return 2
	}
	if len(opts.texts) > 0 && !slices.Contains(names, "runtime") {
		fmt.Fprintf(stderr, "arena-headless: -query needs the runtime (-impl runtime or both)\n")
		return 2
	}
	if err := checkTexts(opts.texts); err != nil {
		fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		return 2
	}
	results, err := measure(specs(cfg, names, opts.workers), opts.warmup, opts.frames, opts.state, opts.queries, opts.texts)
	if err != nil {
		fmt.Fprintf(stderr, "arena-headless: %v\n", err)
		return 1
	}
	rep := newReport(opts, results)
	if opts.json {
		err = writeJSON(stdout, rep)
	} else {
		err = writeHuman(stdout, rep, results)
	}
	if err != nil {
		fmt.Fprintf(stderr, "arena-headless: writing report: %v\n", err)
		return 1
	}
	return check(rep, results, opts, stderr)
}

// parseFlags parses and checks the command line.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("arena-headless", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.units, "units", rules.DefaultUnits, fmt.Sprintf("roster slots N, one unit per slot (1..%d)", rules.MaxUnits))
	fs.IntVar(&o.shots, "shots", rules.DefaultShots, fmt.Sprintf("shots S drawn per fixed tick (0..%d)", rules.MaxShots))
	fs.Uint64Var(&o.seed, "seed", rules.DefaultSeed, "seed of the PCG stream")
	fs.IntVar(&o.warmup, "warmup", rules.DefaultWarmup, fmt.Sprintf("warm-up frames per implementation, not measured (0..%d)", maxFrames))
	fs.IntVar(&o.frames, "frames", rules.DefaultFrames, fmt.Sprintf("measured frames per implementation (1..%d)", maxFrames))
	o.workers = []int{defaultWorkers()}
	fs.Var(workersFlag{&o.workers}, "workers", fmt.Sprintf("goroutines for parallel kernels of the runtime (1..%d; the baseline ignores it),\n"+
		"GOMAXPROCS by default. A comma-separated list, such as 1,2, runs the runtime once\n"+
		"per count, alternating blocks, and prints each count's speed-up over the first", rules.MaxWorkers))
	fs.StringVar(&o.impl, "impl", "both", "implementation to run: runtime, soa or both")
	fs.StringVar(&o.lane, "lane", "", "lane of the runtime's streaming kernels: scalar, avx2 or avx512, in any case\n"+
		"(default: the best this build and CPU run; the SIMD lanes need a\n"+
		"GOEXPERIMENT=simd build on amd64; the baseline ignores it)")
	fs.IntVar(&o.state.rollback, "rollback", 0, fmt.Sprintf("SyncTest: after every measured frame, roll the runtime back this many frames and\n"+
		"re-simulate them, comparing each frame's snapshot checksum with its first one;\n"+
		"exit 1 on a difference, report the cost of snapshot, restore and re-simulation (0..%d;\n"+
		"-frames must be at least this many, or nothing would be compared)", maxRollback))
	fs.StringVar(&o.state.save, "save", "", "write the runtime's snapshot to this file after the measured frames; the previous\n"+
		"file stays whole until the new one replaces it. Checked before any frame runs")
	fs.StringVar(&o.state.load, "load", "", "start the runtime from this snapshot file (from -save of the same -units and\n"+
		"-shots, any -workers); the baseline runs its frames as extra warm-up. The digest counts them")
	fs.BoolVar(&o.json, "json", false, "print one JSON object (arena rules v1) instead of the human report.\n"+
		"With one implementation (-impl runtime or soa), \"digest_match\" is true because\n"+
		"no two digests differ, though nothing was compared (\"impls\" has one entry),\n"+
		"and \"ratio_p50\" is 0")
	fs.BoolVar(&o.queries, "queries", false, "after the measured frames, run the arena's declared queries (arena.tw: CountUnits,\n"+
		"WeakestUnits(10), BodiesInBox(±50 around the centre), HitTotalsByTarget) on each runtime\n"+
		"Sim, 101 timed calls each, and print a table: query, µs p50, bytes per call, result rows;\n"+
		"with -json each runtime entry's \"queries\" also carries the rows (handles as index and generation)")
	fs.Var(queryTexts{&o.texts}, "query", "after the measured frames, prepare this run-time query (runq; docs/schema.md, Queries)\n"+
		"against each runtime Sim's tables and print its plan, the median of 11 runs and its\n"+
		"rows (the first 20 and a count); repeatable. A declaration `query Q() { ... }` without\n"+
		"parameters, or its body alone: 'from Unit u where u.Health < 10 select u, u.Health'.\n"+
		"A bad text stops the command before any frame (exit status 2, its position in the message)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: arena-headless [flags]\n\nRuns the arena (arena rules v1) headless and measures it.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, &usageError{fmt.Sprintf("unexpected argument %q (all options are flags)", fs.Arg(0))}
	}
	for _, f := range []struct {
		name          string
		value, lo, hi int
	}{
		{"-units", o.units, 1, rules.MaxUnits},
		{"-shots", o.shots, 0, rules.MaxShots},
		{"-frames", o.frames, 1, maxFrames},
		{"-warmup", o.warmup, 0, maxFrames},
		{"-rollback", o.state.rollback, 0, maxRollback},
	} {
		if f.value < f.lo || f.value > f.hi {
			return o, &usageError{fmt.Sprintf("%s must be between %d and %d, got %d", f.name, f.lo, f.hi, f.value)}
		}
	}
	var empty error
	fs.Visit(func(f *flag.Flag) {
		if (f.Name == "load" || f.Name == "save") && f.Value.String() == "" && empty == nil {
			empty = &usageError{fmt.Sprintf("-%s needs a file name, got an empty one", f.Name)}
		}
	})
	if empty != nil {
		return o, empty
	}
	if n := o.state.rollback; n > 0 && o.frames < n {
		return o, &usageError{fmt.Sprintf("-rollback %d compares nothing in %d measured frames: the SyncTest rolls back once it holds %d frames; "+
			"give -frames %d or more", n, o.frames, n, n)}
	}
	if o.lane != "" {
		l, err := tickwork.ParseLane(o.lane)
		if err == nil {
			_, err = tickwork.SelectLane(l)
		}
		if err != nil {
			return o, &usageError{fmt.Sprintf("-lane: %v", err)}
		}
	}
	return o, nil
}

// selectImpls maps -impl to the implementations to run and checks that this
// build has them.
func selectImpls(impl string) ([]string, error) {
	var names []string
	switch impl {
	case "both":
		names = implNames
	case "runtime", "soa":
		names = []string{impl}
	default:
		return nil, fmt.Errorf("unknown -impl %q: want runtime, soa or both", impl)
	}
	for _, name := range names {
		if _, ok := factories[name]; !ok {
			return nil, fmt.Errorf("%s implementation not available in this build (have: %s)", name, available())
		}
	}
	return names, nil
}

// available lists the implementations in factories, in report order.
func available() string {
	var have []string
	for _, name := range implNames {
		if _, ok := factories[name]; ok {
			have = append(have, name)
		}
	}
	if len(have) == 0 {
		return "none"
	}
	return strings.Join(have, ", ")
}

// check applies the rules' checks to the results, says on stderr what failed,
// and returns the exit status.
func check(rep report, results []*result, opts options, stderr io.Writer) int {
	status := 0
	for _, r := range results {
		c := r.counters
		if c.ShotsFired != c.Hits+c.Lost+c.Expired+c.LiveProjectiles {
			fmt.Fprintf(stderr, "arena-headless: %s breaks the counter invariant: shots_fired %d != hits %d + lost %d + expired %d + live_projectiles %d\n",
				r.name, c.ShotsFired, c.Hits, c.Lost, c.Expired, c.LiveProjectiles)
			status = 1
		}
		if r.sync != nil && r.sync.compared == 0 {
			fmt.Fprintf(stderr, "arena-headless: %s: the SyncTest (-rollback %d) compared no frame\n", r.name, r.sync.n)
			status = 1
		}
		if want := r.loaded + int64(opts.warmup+opts.frames); r.frames != want {
			fmt.Fprintf(stderr, "arena-headless: %s reports %d frames, want %d\n", r.name, r.frames, want)
			status = 1
		}
	}
	for _, ir := range rep.Impls {
		for _, m := range ir.CounterMismatches {
			fmt.Fprintf(stderr, "arena-headless: %s: %s\n", ir.Name, m)
			status = 1
		}
	}
	if !rep.DigestMatch {
		var ds []string
		for _, r := range results {
			ds = append(ds, r.name+" "+rules.FormatDigest(r.digest))
		}
		fmt.Fprintf(stderr, "arena-headless: digests differ: %s\n", strings.Join(ds, ", "))
		status = 1
	}
	return status
}

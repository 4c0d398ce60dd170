package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-spin" {
		spin(os.Stdin)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// spin keeps one core busy until r reaches EOF (the campaign closes the
// pipe, or dies): GOMAXPROCS is 1 in the spinner's environment, so the
// loop takes one core and the reader waits in a system call.
func spin(r io.Reader) {
	runtime.GOMAXPROCS(1)
	go func() {
		_, _ = io.Copy(io.Discard, r)
		os.Exit(0)
	}()
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1442695040888963407
		if x == 0 {
			fmt.Println(x) // never: keeps the loop from being removed
		}
	}
}

// options are the parsed flags.
type options struct {
	runs, frames, warmup int
	units                []int
	busy                 bool
	mode                 string // "joint" or "pair"
	bin                  string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("campaign", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.runs, "runs", 7, "runs per unit count (1..1000)")
	fs.IntVar(&o.frames, "frames", 1200, "measured frames per worker count and run")
	fs.IntVar(&o.warmup, "warmup", 120, "warm-up frames")
	units := fs.String("units", "100000,1000000", "comma-separated unit counts")
	fs.BoolVar(&o.busy, "busy", false, "keep one core busy with a spinning process during the runs")
	fs.StringVar(&o.mode, "mode", "joint", "joint: one -workers 1,2 process per run; pair: a -workers 1 and a -workers 2 process")
	fs.StringVar(&o.bin, "bin", "", "an arena-headless binary to run instead of building one")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.runs < 1 || o.runs > 1000 {
		return o, fmt.Errorf("-runs must be between 1 and 1000, got %d", o.runs)
	}
	if o.mode != "joint" && o.mode != "pair" {
		return o, fmt.Errorf("-mode must be joint or pair, got %q", o.mode)
	}
	for _, s := range strings.Split(*units, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-units: want positive counts such as 100000,1000000, got %q", s)
		}
		o.units = append(o.units, n)
	}
	return o, nil
}

// figures are one run's frame times in µs at 1 and at 2 workers.
type figures struct {
	p50, p99 [2]float64 // [0]: 1 worker, [1]: 2 workers
	load     string     // 1-minute load average before the run
}

// ratio50 and ratio99 are the 1-worker time over the 2-worker time.
func (f figures) ratio50() float64 { return f.p50[0] / f.p50[1] }
func (f figures) ratio99() float64 { return f.p99[0] / f.p99[1] }

// report is the part of arena-headless -json that the campaign reads.
type report struct {
	DigestMatch bool `json:"digest_match"`
	Impls       []struct {
		Name   string  `json:"name"`
		P50    float64 `json:"frame_p50_us"`
		P99    float64 `json:"frame_p99_us"`
		Digest string  `json:"digest"`
	} `json:"impls"`
}

// parseReport returns the p50 and p99 of each runtime entry of an
// arena-headless -json report, in report order, and its digests.
func parseReport(b []byte) (p50, p99 []float64, digests []string, err error) {
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, nil, nil, fmt.Errorf("arena-headless report: %w", err)
	}
	if !r.DigestMatch {
		return nil, nil, nil, errors.New("arena-headless report: digests differ")
	}
	for _, im := range r.Impls {
		if !strings.HasPrefix(im.Name, "runtime") {
			continue
		}
		p50, p99, digests = append(p50, im.P50), append(p99, im.P99), append(digests, im.Digest)
	}
	if len(p50) == 0 {
		return nil, nil, nil, errors.New("arena-headless report: no runtime entry")
	}
	return p50, p99, digests, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "campaign:", err)
		return 2
	}
	bin := o.bin
	if bin == "" {
		dir, err := os.MkdirTemp("", "campaign")
		if err != nil {
			fmt.Fprintln(stderr, "campaign:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "arena-headless")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/arena-headless")
		build.Stdout, build.Stderr = stderr, stderr
		fmt.Fprintln(stdout, "build     go build -o", filepath.Base(bin), "./cmd/arena-headless")
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "campaign: build (run from the module's root):", err)
			return 1
		}
	}
	if o.busy {
		kill, err := startSpinner(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "campaign: spinner:", err)
			return 1
		}
		defer kill()
	}
	fmt.Fprintf(stdout, "campaign  mode %s, %d runs per unit count, %d frames (+%d warm-up), busy core: %v, GOMAXPROCS %d, NumCPU %d\n",
		o.mode, o.runs, o.frames, o.warmup, o.busy, runtime.GOMAXPROCS(0), runtime.NumCPU())
	for _, u := range o.units {
		fmt.Fprintf(stdout, "\n== %d units ==\n", u)
		fmt.Fprintf(stdout, "%-4s %-6s %10s %10s %10s %10s %8s %8s\n", "run", "load", "p50 w1", "p50 w2", "p99 w1", "p99 w2", "x p50", "x p99")
		var all []figures
		for i := range o.runs {
			f, err := measure(ctx, bin, o, u, i)
			if err != nil {
				fmt.Fprintln(stderr, "campaign:", err)
				return 1
			}
			all = append(all, f)
			fmt.Fprintf(stdout, "%-4d %-6s %10.1f %10.1f %10.1f %10.1f %8.3f %8.3f\n",
				i+1, f.load, f.p50[0], f.p50[1], f.p99[0], f.p99[1], f.ratio50(), f.ratio99())
		}
		s := summarize(all)
		fmt.Fprintf(stdout, "%-4s %-6s %10.1f %10.1f %10.1f %10.1f %8.3f %8.3f\n",
			"med", "", s.p50[0], s.p50[1], s.p99[0], s.p99[1], s.r50, s.r99)
		fmt.Fprintf(stdout, "range     x p50 %.3f-%.3f, x p99 %.3f-%.3f; 2 workers slower than 1 in %d of %d runs at p50, %d at p99\n",
			s.min50, s.max50, s.min99, s.max99, s.slower50, len(all), s.slower99)
	}
	return 0
}

// summary is the medians of a campaign's columns, the ratios' ranges and
// how many runs had 2 workers slower than 1.
type summary struct {
	p50, p99                   [2]float64
	r50, r99                   float64
	min50, max50, min99, max99 float64
	slower50, slower99         int
}

func summarize(all []figures) summary {
	var s summary
	col := func(get func(figures) float64) []float64 {
		v := make([]float64, len(all))
		for i, f := range all {
			v[i] = get(f)
		}
		slices.Sort(v)
		return v
	}
	for w := range 2 {
		s.p50[w] = median(col(func(f figures) float64 { return f.p50[w] }))
		s.p99[w] = median(col(func(f figures) float64 { return f.p99[w] }))
	}
	r50, r99 := col(figures.ratio50), col(figures.ratio99)
	s.r50, s.r99 = median(r50), median(r99)
	s.min50, s.max50 = r50[0], r50[len(r50)-1]
	s.min99, s.max99 = r99[0], r99[len(r99)-1]
	for _, f := range all {
		if f.ratio50() < 1 {
			s.slower50++
		}
		if f.ratio99() < 1 {
			s.slower99++
		}
	}
	return s
}

// median of sorted values: the middle one, or the mean of the two middle
// ones.
func median(v []float64) float64 {
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// measure is run i of a campaign at u units.
func measure(ctx context.Context, bin string, o options, u, i int) (figures, error) {
	f := figures{load: loadAvg()}
	common := []string{"-impl", "runtime", "-units", strconv.Itoa(u),
		"-frames", strconv.Itoa(o.frames), "-warmup", strconv.Itoa(o.warmup), "-json"}
	if o.mode == "joint" {
		p50, p99, _, err := headless(ctx, bin, append([]string{"-workers", "1,2"}, common...))
		if err != nil {
			return f, err
		}
		if len(p50) != 2 {
			return f, fmt.Errorf("arena-headless -workers 1,2: %d runtime entries, want 2", len(p50))
		}
		copy(f.p50[:], p50)
		copy(f.p99[:], p99)
		return f, nil
	}
	order := []int{1, 2}
	if i%2 == 1 {
		order = []int{2, 1}
	}
	var digest string
	for _, w := range order {
		p50, p99, d, err := headless(ctx, bin, append([]string{"-workers", strconv.Itoa(w)}, common...))
		if err != nil {
			return f, err
		}
		if digest != "" && d[0] != digest {
			return f, fmt.Errorf("digest at %d workers %s differs from the other count's %s", w, d[0], digest)
		}
		digest = d[0]
		f.p50[w-1], f.p99[w-1] = p50[0], p99[0]
	}
	return f, nil
}

// headless runs bin with args and parses its -json report.
func headless(ctx context.Context, bin string, args []string) (p50, p99 []float64, digests []string, err error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, nil, nil, fmt.Errorf("arena-headless %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return parseReport(out.Bytes())
}

// startSpinner starts this binary again with -spin and GOMAXPROCS=1 and
// returns the func that stops it (closing its stdin, then killing it and
// waiting for it). A spinner whose campaign dies sees its stdin close and
// exits too.
func startSpinner(ctx context.Context) (stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "-spin")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}, nil
}

// loadAvg is the 1-minute load average from /proc/loadavg, or "-".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "-"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "-"
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/tickwork/tickwork/arena/rules"
)

// defaultTPS is the viewer's tick rate: one fixed tick of rules.DT = 1/64 s
// per Update, so the arena runs in real time.
const defaultTPS = 64

// options are the parsed flags.
type options struct {
	impl          string
	cfg           rules.Config
	frames        int64  // run exactly this many frames, then exit; 0: until the window closes
	screenshot    string // PNG written after frames
	width, height int    // initial window size
	tps           int
	cpuProfile    string // pprof CPU profile of the whole run
}

// parseFlags parses args into options. Errors are written to stderr (with the
// usage); the error returned is flag.ErrHelp for -h.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("arena-viewer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: arena-viewer [flags]\n\nShows the arena in a window; see the package documentation for the keys.\n\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.impl, "impl", "runtime", "arena implementation: "+strings.Join(implNames(), " or "))
	fs.IntVar(&o.cfg.Units, "units", rules.DefaultUnits, "units (roster slots)")
	fs.IntVar(&o.cfg.Shots, "shots", rules.DefaultShots, "shots drawn per fixed tick")
	fs.Uint64Var(&o.cfg.Seed, "seed", rules.DefaultSeed, "seed of the random stream")
	fs.IntVar(&o.cfg.Workers, "workers", 1, "goroutines for parallel kernels (runtime only)")
	fs.Int64Var(&o.frames, "frames", 0, "run exactly `N` frames, print the digest and exit (0: run until the window closes)")
	fs.StringVar(&o.screenshot, "screenshot", "", "with -frames, save the window as a PNG `file` after the last frame")
	fs.IntVar(&o.width, "width", 1280, "initial window width in pixels")
	fs.IntVar(&o.height, "height", 960, "initial window height in pixels")
	fs.IntVar(&o.tps, "tps", defaultTPS, "ticks (frames of the sim) per second")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `file`")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	fail := func(format string, a ...any) (options, error) {
		err := fmt.Errorf(format, a...)
		fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return fail("unexpected arguments %q", fs.Args())
	case o.frames < 0:
		return fail("-frames %d: want >= 0", o.frames)
	case o.screenshot != "" && o.frames == 0:
		return fail("-screenshot needs -frames N")
	case o.width < 1 || o.height < 1:
		return fail("window %dx%d: want at least 1x1", o.width, o.height)
	case o.tps < 1:
		return fail("-tps %d: want >= 1", o.tps)
	}
	if err := o.cfg.Validate(); err != nil {
		return fail("%v", err)
	}
	return o, nil
}

func implNames() []string {
	var names []string
	for name := range impls {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// run is the viewer's main: it parses args, opens the window and runs the
// arena until the window closes or -frames is reached. It prints
// "digest <16 hex>" to stdout after a -frames run, and a summary (frames,
// FPS) to stderr on exit. It returns the exit status: 0 success, 1 failure,
// 2 bad usage or an implementation not available yet. It must run on the
// main goroutine (ebiten.RunGame), once per process.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	newSim, ok := impls[o.impl]
	if !ok {
		fmt.Fprintf(stderr, "arena-viewer: -impl %q: want %s\n", o.impl, strings.Join(implNames(), " or "))
		return 2
	}
	if newSim == nil {
		fmt.Fprintf(stderr, "arena-viewer: -impl %s: not available yet\n", o.impl)
		return 2
	}
	sim, err := newSim(o.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
		return 1
	}
	defer sim.Close()

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}

	g := newGame(sim, o)
	ebiten.SetWindowTitle(fmt.Sprintf("Tickwork arena: %s, %d units", sim.Name(), o.cfg.Units))
	ebiten.SetWindowSize(o.width, o.height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(o.tps)
	// Draw writes every pixel of the screen: clearing it first would be one
	// more full-screen pass for a software GL.
	ebiten.SetScreenClearedEveryFrame(false)
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
		return 1
	}
	elapsed := time.Since(g.started).Seconds()
	fmt.Fprintf(stderr, "arena-viewer: %s, %d units: %d frames, frame p50 %.2f ms; %d draws in %.1f s: FPS %.1f (ActualFPS) %.1f (mean), TPS %.1f\n",
		sim.Name(), o.cfg.Units, sim.Frames(), float64(g.ring.P50())/float64(time.Millisecond),
		g.draws, elapsed, ebiten.ActualFPS(), float64(g.draws)/max(elapsed, 1e-9), ebiten.ActualTPS())
	if o.frames > 0 {
		if sim.Frames() != o.frames {
			fmt.Fprintf(stderr, "arena-viewer: window closed after %d of %d frames\n", sim.Frames(), o.frames)
			return 1
		}
		d := rules.Digest(sim.Presentation(), sim.Frames(), sim.Counters(), sim.ProjectileChecksum())
		fmt.Fprintf(stdout, "digest %s\n", rules.FormatDigest(d))
	}
	return 0
}

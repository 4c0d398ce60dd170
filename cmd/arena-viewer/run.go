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
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/cli"
)

// defaultTPS is the viewer's tick rate: one fixed tick of rules.DT = 1/64 s
// per Update, so the arena runs in real time.
const defaultTPS = cli.DefaultTPS

// options are the parsed flags (cli.Options, as the game uses them).
type options struct {
	impl          string
	cfg           rules.Config
	frames        int64  // run exactly this many frames, then exit; 0: until the window closes
	screenshot    string // PNG written after frames
	width, height int    // initial window size
	tps           int
	cpuProfile    string // pprof CPU profile of the whole run
}

// parseFlags parses and checks args with cli.Parse. Errors are written to
// stderr (with the usage); the error returned is flag.ErrHelp for -h.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	o, err := cli.Parse(args, stderr)
	if err != nil {
		return options{}, err
	}
	return options{
		impl: o.Impl, cfg: o.Cfg, frames: o.Frames, screenshot: o.Screenshot,
		width: o.Width, height: o.Height, tps: o.TPS, cpuProfile: o.CPUProfile,
	}, nil
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
// FPS) to stderr on exit. It returns the exit status: 0 success (and -h),
// 1 failure (including no window), 2 bad usage or an implementation not
// available yet. Every flag, the -screenshot path included, is checked
// before the sim is built or a frame runs. It must run on the main
// goroutine (ebiten.RunGame), once per process.
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
		if g.started.IsZero() { // no Update ran: the window never came up
			fmt.Fprintf(stderr, "arena-viewer: cannot open a window: %v (a display is needed; run under xvfb-run -a, or use arena-headless)\n", err)
		} else {
			fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
		}
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

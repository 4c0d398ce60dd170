package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tickwork/tickwork/arena/rules"
)

// DefaultTPS is the viewer's tick rate: one fixed tick of rules.DT = 1/64 s
// per ebiten Update, so the arena runs in real time.
const DefaultTPS = 64

// MaxWindow bounds -width and -height, in pixels.
const MaxWindow = 16384

// ImplNames are the values -impl accepts, sorted. The viewer's table of
// implementations has exactly these keys (a test checks it).
var ImplNames = []string{"runtime", "soa"}

// Options are the parsed and checked flags.
type Options struct {
	Impl          string       // one of ImplNames
	Cfg           rules.Config // -units, -shots, -seed, -workers; Cfg.Validate() is nil
	Frames        int64        // run exactly this many frames, then exit; 0: until the window closes
	Screenshot    string       // PNG written after Frames frames; its directory exists and is writable
	Width, Height int          // initial window size, pixels, 1..MaxWindow
	TPS           int          // ticks (sim frames) per second, >= 1
	CPUProfile    string       // pprof CPU profile of the whole run
}

// Parse parses and checks the viewer's arguments (os.Args[1:]). For -h it
// prints the usage to stderr and returns flag.ErrHelp; for a bad flag or
// value it prints a message naming the flag (and, for an unknown flag, the
// usage) to stderr and returns a non-nil error. A -screenshot path is
// checked as CheckScreenshot does. It opens no window and needs no display.
func Parse(args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("arena-viewer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: arena-viewer [flags]\n\nShows the arena in a window; see the package documentation for the keys.\nNeeds a display (X11 on Linux and BSD): without one, run it under xvfb-run -a\nor use arena-headless.\n\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.Impl, "impl", "runtime", "arena implementation: "+strings.Join(ImplNames, " or "))
	fs.IntVar(&o.Cfg.Units, "units", rules.DefaultUnits, fmt.Sprintf("units (roster slots), 1..%d", rules.MaxUnits))
	fs.IntVar(&o.Cfg.Shots, "shots", rules.DefaultShots, fmt.Sprintf("shots drawn per fixed tick, 0..%d", rules.MaxShots))
	fs.Uint64Var(&o.Cfg.Seed, "seed", rules.DefaultSeed, "seed of the random stream")
	fs.IntVar(&o.Cfg.Workers, "workers", 1, fmt.Sprintf("goroutines for parallel kernels (runtime only), 1..%d", rules.MaxWorkers))
	fs.Int64Var(&o.Frames, "frames", 0, "run exactly `N` frames, print the digest and exit (0: run until the window closes)")
	fs.StringVar(&o.Screenshot, "screenshot", "", "with -frames, save the window as a PNG `file` after the last frame\n(its directory must exist and be writable)")
	fs.IntVar(&o.Width, "width", 1280, fmt.Sprintf("initial window width in pixels, 1..%d", MaxWindow))
	fs.IntVar(&o.Height, "height", 960, fmt.Sprintf("initial window height in pixels, 1..%d", MaxWindow))
	fs.IntVar(&o.TPS, "tps", DefaultTPS, "ticks (frames of the sim) per second, >= 1")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to `file`")
	if err := fs.Parse(args); err != nil {
		return o, err // the flag package has printed it, with the usage
	}
	fail := func(format string, a ...any) (Options, error) {
		err := fmt.Errorf(format, a...)
		fmt.Fprintf(stderr, "arena-viewer: %v\n", err)
		return o, err
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments %q (all options are flags)", fs.Args())
	}
	if !slices.Contains(ImplNames, o.Impl) {
		return fail("-impl %q: want %s", o.Impl, strings.Join(ImplNames, " or "))
	}
	for _, f := range []struct {
		name          string
		value, lo, hi int
	}{
		{"-units", o.Cfg.Units, 1, rules.MaxUnits},
		{"-shots", o.Cfg.Shots, 0, rules.MaxShots},
		{"-workers", o.Cfg.Workers, 1, rules.MaxWorkers},
		{"-width", o.Width, 1, MaxWindow},
		{"-height", o.Height, 1, MaxWindow},
	} {
		if f.value < f.lo || f.value > f.hi {
			return fail("%s must be between %d and %d, got %d", f.name, f.lo, f.hi, f.value)
		}
	}
	switch {
	case o.Frames < 0:
		return fail("-frames must be >= 0, got %d", o.Frames)
	case o.TPS < 1:
		return fail("-tps must be >= 1, got %d", o.TPS)
	case o.Screenshot != "" && o.Frames == 0:
		return fail("-screenshot needs -frames N")
	}
	if err := o.Cfg.Validate(); err != nil { // the checks above cover it; kept as a backstop
		return fail("%v", err)
	}
	if o.Screenshot != "" {
		if err := CheckScreenshot(o.Screenshot); err != nil {
			return fail("%v", err)
		}
	}
	return o, nil
}

// CheckScreenshot reports whether a PNG can be written at path later: its
// directory exists and accepts a new file, and path is not a directory nor
// a file that cannot be opened for writing. It leaves the file system as it
// found it: an existing file is opened without truncating, and a file it
// creates to try is removed. The error names -screenshot and the path.
func CheckScreenshot(path string) error {
	fail := func(why string) error { return fmt.Errorf("-screenshot %s: %s", path, why) }
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail(fmt.Sprintf("directory %s does not exist", dir))
	case err != nil:
		return fail(err.Error())
	case !st.IsDir():
		return fail(fmt.Sprintf("%s is not a directory", dir))
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fail("is a directory")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fail(fmt.Sprintf("cannot write it: %v", err))
		}
		return f.Close()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fail(fmt.Sprintf("cannot create a file in %s: %v", dir, err))
	}
	f.Close()
	if err := os.Remove(path); err != nil {
		return fail(err.Error())
	}
	return nil
}

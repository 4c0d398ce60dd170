package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/cli"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/raster"
)

// asMainEnv makes the test binary run the viewer's main instead of the
// tests: ebiten.RunGame can run once per process, so each viewer run is a
// subprocess of the test binary.
const asMainEnv = "ARENA_VIEWER_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runViewer runs the viewer with args in a subprocess and returns its exit
// code, stdout and stderr.
func runViewer(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runViewerEnv(t, os.Environ(), args...)
}

// runViewerEnv is runViewer with the environment env (plus the variable
// that makes the test binary the viewer).
func runViewerEnv(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(slices.Clone(env), asMainEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatalf("arena-viewer %v: %v\nstderr:\n%s", args, err, errb.String())
	}
	return 0, out.String(), errb.String()
}

func TestRunUsage(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"help", []string{"-h"}, 0, "usage: arena-viewer"},
		{"unknown impl", []string{"-impl", "ecs"}, 2, `-impl "ecs": want runtime or soa`},
		{"screenshot needs frames", []string{"-screenshot", "x.png"}, 2, "-screenshot needs -frames N"},
		{"bad units", []string{"-units", "0"}, 2, "-units must be between 1 and 16777216, got 0"},
		{"negative frames", []string{"-frames", "-1"}, 2, "-frames must be >= 0, got -1"},
		{"stray argument", []string{"now"}, 2, "unexpected arguments"},
		{"bad flag", []string{"-fast"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// These all return before ebiten.RunGame, so they run in-process.
			var stdout, stderr bytes.Buffer
			if got := run(tt.args, &stdout, &stderr); got != tt.wantCode {
				t.Errorf("run(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tt.args, stderr.String(), tt.wantStderr)
			}
			if stdout.Len() != 0 {
				t.Errorf("run(%q) printed %q to stdout, want nothing", tt.args, stdout.String())
			}
		})
	}
}

// TestImplNamesMatchCLI: the -impl values the command line accepts, checked
// before ebiten starts, are exactly the implementations the viewer has.
func TestImplNamesMatchCLI(t *testing.T) {
	assert.Equal(t, cli.ImplNames, implNames())
}

// noDisplayEnv is the test's environment without DISPLAY.
func noDisplayEnv() []string {
	return slices.DeleteFunc(slices.Clone(os.Environ()), func(kv string) bool { return strings.HasPrefix(kv, "DISPLAY=") })
}

// TestWithoutDisplay runs the viewer binary with no display, where ebiten's
// package initialization would panic: the command line is still parsed and
// answered, and a run that needs the window fails with a message and
// status 1, not a panic. Bad values that would otherwise open a window
// (-workers 0, a -screenshot path that cannot be written) are checked here,
// in a subprocess without a display, so that a regression fails at once
// instead of starting ebiten inside the test process.
func TestWithoutDisplay(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		display  string // "" = unset
		args     []string
		wantCode int
		want     string // in stderr
	}{
		{"help", "", []string{"-h"}, 0, "usage: arena-viewer"},
		{"bad flag", "", []string{"-fast"}, 2, "flag provided but not defined: -fast"},
		{"zero workers", "", []string{"-workers", "0"}, 2, "arena-viewer: -workers must be between 1 and 256, got 0"},
		{"workers past MaxWorkers", "", []string{"-workers", "257"}, 2, "arena-viewer: -workers must be between 1 and 256, got 257"},
		{"bad screenshot path", "", []string{"-frames", "3", "-screenshot", filepath.Join(dir, "missing", "x.png")}, 2,
			"arena-viewer: -screenshot " + filepath.Join(dir, "missing", "x.png") + ": directory " + filepath.Join(dir, "missing") + " does not exist"},
		{"run, DISPLAY unset", "", nil, 1, "arena-viewer: no display: DISPLAY is not set"},
		{"run, no server on DISPLAY", ":4242", []string{"-impl", "soa", "-frames", "3"}, 1,
			`arena-viewer: no display: cannot connect to X display ":4242"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := noDisplayEnv()
			if tt.display != "" {
				// Not preflight.CheckDisplay: importing preflight here would
				// link it into the test binary even if main stopped importing it.
				if _, err := os.Stat("/tmp/.X11-unix/X" + strings.TrimPrefix(tt.display, ":")); err == nil {
					t.Skipf("an X server may listen on %s", tt.display)
				}
				env = append(env, "DISPLAY="+tt.display)
			}
			code, stdout, stderr := runViewerEnv(t, env, tt.args...)
			assert.Equal(t, tt.wantCode, code, "exit status; stderr:\n%s", stderr)
			assert.Contains(t, stderr, tt.want)
			assert.NotContains(t, stderr, "panic")
			assert.Empty(t, stdout)
		})
	}
}

// TestScreenshot runs the viewer in a window for 30 frames of a 20 000-unit
// arena and checks what it saved and printed.
func TestScreenshot(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display: run the tests under xvfb-run -a")
	}
	const (
		units, shots, seed = 20000, 256, 42
		frames             = 30
		width, height      = 640, 480
	)
	shot := filepath.Join(t.TempDir(), "shot.png")
	code, stdout, stderr := runViewer(t,
		"-units", fmt.Sprint(units), "-shots", fmt.Sprint(shots), "-seed", fmt.Sprint(seed),
		"-frames", fmt.Sprint(frames), "-screenshot", shot,
		"-width", fmt.Sprint(width), "-height", fmt.Sprint(height))
	if code != 0 {
		t.Fatalf("arena-viewer exited %d; stderr:\n%s", code, stderr)
	}
	t.Logf("stderr: %s", strings.TrimSpace(stderr))

	// The digest is that of the baseline run directly for the same frames,
	// as arena-headless computes it (warm-up plus measured frames = 30).
	sim, err := soa.New(rules.Config{Units: units, Shots: shots, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for range frames {
		if err := sim.Frame(); err != nil {
			t.Fatal(err)
		}
	}
	want := "digest " + rules.FormatDigest(rules.Digest(sim.Presentation(), sim.Frames(), sim.Counters(), sim.ProjectileChecksum())) + "\n"
	if stdout != want {
		t.Errorf("stdout = %q, want %q", stdout, want)
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if got := img.Bounds().Size(); got != image.Pt(width, height) {
		t.Fatalf("screenshot is %v, want %dx%d", got, width, height)
	}
	n := countColours(img)
	unitPixels := n[raster.Health3] + n[raster.Health2] + n[raster.Health1]
	t.Logf("unit pixels %d (green %d, yellow %d, red %d), projectile pixels %d, white (text) %d",
		unitPixels, n[raster.Health3], n[raster.Health2], n[raster.Health1], n[raster.Projectile], n[color.RGBA{0xff, 0xff, 0xff, 0xff}])

	// Expected unit pixels. The arena fits in 464×464 = 215 296 pixels
	// (480 less 8 pixels of margin top and bottom), one pixel a unit at this
	// scale. 20 000 uniform units cover A(1-e^(-n/A)) ≈ 19 100 distinct
	// pixels; the overlay's dimmed panel (about 340×135 pixels at the top
	// left, of which about 250×127 over the arena) hides some 15% of them,
	// and the ≤ 7 680 projectiles (256 a tick for 30 ticks) each hide a unit
	// pixel with probability ≈ 0.09: about 15 600 left. Half the units,
	// 10 000, is far below that and far above what a broken plot shows (no
	// units, wrong colours or channel order, wrong mapping: ≈ 0). A unit is one
	// pixel, so there can never be more than the units.
	if unitPixels < units/2 || unitPixels > units {
		t.Errorf("%d pixels in unit colours, want between %d and %d", unitPixels, units/2, units)
	}
	// About 7 000 projectiles are in flight after 30 ticks (most expire after
	// 96 ticks, few hit); 1 000 is a loose floor.
	if n[raster.Projectile] < 1000 {
		t.Errorf("%d projectile pixels, want at least 1000", n[raster.Projectile])
	}
	// The overlay text is white.
	if white := n[color.RGBA{0xff, 0xff, 0xff, 0xff}]; white < 500 {
		t.Errorf("%d white pixels, want the overlay's text (at least 500)", white)
	}
}

// countColours counts the pixels of img by colour.
func countColours(img image.Image) map[color.RGBA]int {
	n := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			n[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	return n
}

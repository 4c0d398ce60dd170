package main

import (
	"bytes"
	"errors"
	"image/color"
	"strings"
	"testing"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/raster"
)

func testOptions(frames int64) options {
	return options{
		impl:   "soa",
		cfg:    rules.Config{Units: 100, Shots: 8, Seed: 1},
		frames: frames,
		width:  320, height: 240,
		tps: defaultTPS,
	}
}

func fakeUnits(n int) []rules.Slot {
	pres := make([]rules.Slot, n)
	for i := range pres {
		pres[i] = rules.Slot{X: float32(i * 10), Y: float32(i * 10), Health: 3, Alive: 1}
	}
	return pres
}

func mustTick(t *testing.T, g *game) {
	t.Helper()
	if err := g.tick(); err != nil {
		t.Fatalf("tick: %v", err)
	}
}

func TestGamePauseAndStep(t *testing.T) {
	sim := newFakeSim(fakeUnits(4), nil)
	g := newGame(sim, testOptions(0))
	steps := []struct {
		name string
		c    controls
		want int64 // frames after the tick
	}{
		{"runs", controls{}, 1},
		{"pause", controls{pause: true}, 1},
		{"paused", controls{}, 1},
		{"step", controls{step: true}, 2},
		{"step is once", controls{}, 2},
		{"step again", controls{step: true}, 3},
		{"resume", controls{pause: true}, 4},
		{"step while running does nothing extra", controls{step: true}, 5},
		{"runs on", controls{}, 6},
	}
	for _, s := range steps {
		g.apply(s.c)
		mustTick(t, g)
		if got := sim.Frames(); got != s.want {
			t.Fatalf("%s: Frames() = %d, want %d", s.name, got, s.want)
		}
	}
}

func TestGameRunsExactlyFrames(t *testing.T) {
	sim := newFakeSim(fakeUnits(4), nil)
	g := newGame(sim, testOptions(3))
	for range 5 {
		g.apply(controls{pause: true}) // ignored in a -frames run
		mustTick(t, g)
	}
	if got := sim.Frames(); got != 3 {
		t.Errorf("Frames() = %d, want 3", got)
	}
	if !g.finished() {
		t.Errorf("finished() = false after 3 of 3 frames")
	}
}

func TestGameTickError(t *testing.T) {
	sim := newFakeSim(fakeUnits(1), nil)
	sim.fail = true
	g := newGame(sim, testOptions(0))
	if err := g.tick(); !errors.Is(err, errFake) {
		t.Errorf("tick() = %v, want %v", err, errFake)
	}
}

func TestGameViewControls(t *testing.T) {
	g := newGame(newFakeSim(fakeUnits(1), nil), testOptions(0))
	g.resize(320, 240)
	if g.view != raster.FitView(320, 240) || !g.fitted {
		t.Fatalf("initial view %+v, want FitView(320, 240)", g.view)
	}
	g.resize(640, 480)
	if g.view != raster.FitView(640, 480) {
		t.Errorf("fitted view after resize = %+v, want FitView(640, 480)", g.view)
	}

	g.apply(controls{zoom: 2, zoomX: 10, zoomY: 20})
	if g.fitted || g.view.Scale != 2*raster.FitView(640, 480).Scale {
		t.Errorf("after zoom ×2: fitted %v, view %+v", g.fitted, g.view)
	}
	zoomed := g.view
	g.resize(800, 600)
	if g.view.Scale != zoomed.Scale || g.view.CX != zoomed.CX || g.view.W != 800 {
		t.Errorf("zoomed view after resize = %+v, want the scale and centre of %+v", g.view, zoomed)
	}
	g.apply(controls{panX: 5})
	if g.view.CX == zoomed.CX {
		t.Errorf("pan did not move the view")
	}
	g.apply(controls{resetView: true})
	if g.view != raster.FitView(800, 600) || !g.fitted {
		t.Errorf("after reset, view %+v, want FitView(800, 600)", g.view)
	}
	g.apply(controls{toggleProj: true})
	if !g.hideProj {
		t.Errorf("P did not hide projectiles")
	}
}

func TestGameRenderShowsUnits(t *testing.T) {
	// Every mark lies in the lower part of the arena, clear of the overlay.
	pres := []rules.Slot{
		{X: 1024, Y: 1800, Health: 3, Alive: 1},
		{X: 1800, Y: 1800, Health: 2, Alive: 1},
		{X: 1500, Y: 1500, Health: 1, Alive: 0}, // dead
	}
	g := newGame(newFakeSim(pres, []float32{1024, 1500}), testOptions(0))
	g.resize(800, 600)
	g.render(60, 64)
	counts := map[color.RGBA]int{}
	for i := 0; i < len(g.canvas.Pix); i += 4 {
		p := g.canvas.Pix[i : i+4]
		counts[color.RGBA{p[0], p[1], p[2], p[3]}]++
	}
	for _, tt := range []struct {
		name string
		col  color.RGBA
		want int
	}{
		{"Health3", raster.Health3, 1},
		{"Health2", raster.Health2, 1},
		{"Health1", raster.Health1, 0},
		{"Projectile", raster.Projectile, 1},
	} {
		if got := counts[tt.col]; got != tt.want {
			t.Errorf("%s pixels = %d, want %d", tt.name, got, tt.want)
		}
	}
	if !strings.Contains(string(g.text), "digest ") {
		t.Errorf("overlay text lacks the digest: %q", g.text)
	}
	g.apply(controls{toggleProj: true})
	g.render(60, 64)
	if n := bytes.Count(g.canvas.Pix, []byte{raster.Projectile.R, raster.Projectile.G, raster.Projectile.B, 0xff}); n != 0 {
		t.Errorf("projectiles hidden, yet %d projectile pixels", n)
	}
}

func TestGameDigest(t *testing.T) {
	sim, err := soa.New(rules.Config{Units: 500, Shots: 16, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(sim, testOptions(0))
	for range 5 {
		mustTick(t, g)
	}
	want := rules.Digest(sim.Presentation(), 5, sim.Counters(), sim.ProjectileChecksum())
	if got := g.currentDigest(); got != want {
		t.Errorf("currentDigest() = %016x, want %016x", got, want)
	}
}

// TestGameAllocatesNothing runs ticks and draws of the real baseline at a
// fixed window size: the viewer's own per-frame path must not allocate.
func TestGameAllocatesNothing(t *testing.T) {
	sim, err := soa.New(rules.Config{Units: 5000, Shots: 64, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(sim, testOptions(0))
	g.resize(640, 480)
	for range 20 { // let the projectile count settle below its capacity
		mustTick(t, g)
		g.render(60, 64)
	}
	allocs := testing.AllocsPerRun(20, func() {
		g.apply(controls{zoom: 1.01, zoomX: 5, zoomY: 5, panX: 1})
		if err := g.tick(); err != nil {
			t.Fatal(err)
		}
		g.render(60, 64)
		_ = bytesString(g.text)
	})
	if allocs != 0 {
		t.Errorf("tick and render: %v allocations a frame, want 0", allocs)
	}
}

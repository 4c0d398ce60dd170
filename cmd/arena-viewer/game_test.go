package main

import (
	"bytes"
	"errors"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/tickwork/tickwork/arena"
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

// highlightPixels counts the canvas's pixels in raster.Highlight.
func highlightPixels(c *raster.Canvas) int {
	return bytes.Count(c.Pix, []byte{raster.Highlight.R, raster.Highlight.G, raster.Highlight.B, raster.Highlight.A})
}

// TestGameRingsWeakest: on the runtime, after each frame the overlay
// rings the ten units the declared WeakestUnits query returns, each ring
// centred on its unit (the ring's top-left corner is Highlight); the soa
// baseline has no query and shows no ring.
func TestGameRingsWeakest(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 3000, Shots: 64, Seed: 11, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	g := newGame(sim, testOptions(0))
	g.resize(800, 800)
	for frame := range 10 {
		mustTick(t, g)
		g.render(60, 64)
		rows := g.weakest.Rows()
		if len(rows) != 10 {
			t.Fatalf("frame %d: %d weakest rows, want 10", frame, len(rows))
		}
		pres := sim.Presentation()
		side := max(raster.HighlightSide, g.view.UnitSide()+4)
		for _, r := range rows {
			p := pres[r.Unit.Index()]
			if p.Health != r.Health || p.Alive == 0 {
				t.Fatalf("frame %d: row %+v, presentation %+v", frame, r, p)
			}
			sx, sy := g.view.ToScreen(float64(p.X), float64(p.Y))
			x, y := int(math.Floor(sx))-side/2, int(math.Floor(sy))-side/2
			if x < 0 || y < 0 || x >= g.canvas.W || y >= g.canvas.H {
				continue
			}
			off := 4 * (y*g.canvas.W + x)
			if got := (color.RGBA{g.canvas.Pix[off], g.canvas.Pix[off+1], g.canvas.Pix[off+2], g.canvas.Pix[off+3]}); got != raster.Highlight {
				t.Fatalf("frame %d: ring corner of unit %d at (%d, %d) is %v, want Highlight", frame, r.Unit.Index(), x, y, got)
			}
		}
		if n := highlightPixels(g.canvas); n == 0 || n > 10*4*(side-1) {
			t.Fatalf("frame %d: %d Highlight pixels, want 1..%d", frame, n, 10*4*(side-1))
		}
	}
	soaSim, err := soa.New(rules.Config{Units: 3000, Shots: 64, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	gs := newGame(soaSim, testOptions(0))
	gs.resize(800, 800)
	mustTick(t, gs)
	gs.render(60, 64)
	if gs.weakest != nil || highlightPixels(gs.canvas) != 0 {
		t.Errorf("soa: weakest %v, %d Highlight pixels, want none", gs.weakest, highlightPixels(gs.canvas))
	}
}

// TestGameRuntimeAllocatesNothing: on the runtime, with the weakest-units
// query run after every frame, a tick and a draw allocate nothing.
func TestGameRuntimeAllocatesNothing(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 3000, Shots: 64, Seed: 11, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	g := newGame(sim, testOptions(0))
	g.resize(640, 480)
	for range 20 {
		mustTick(t, g)
		g.render(60, 64)
	}
	if allocs := testing.AllocsPerRun(20, func() {
		if err := g.tick(); err != nil {
			t.Fatal(err)
		}
		g.render(60, 64)
	}); allocs != 0 {
		t.Errorf("tick and render on the runtime: %v allocations a frame, want 0", allocs)
	}
}

package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"time"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/hud"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/marks"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/raster"
)

// Overlay placement on the screen, in pixels.
const (
	overlayX   = 4
	overlayY   = 2
	overlayPad = 4
	ringSize   = 256 // frames behind the overlay's frame p50
)

// game is the viewer: an ebiten.Game over one rules.Sim. Update runs exactly
// one sim.Frame (one fixed tick) unless paused; Draw plots the last frame's
// presentation buffer into a [raster.Canvas] and uploads it to the screen
// with one WritePixels. Neither allocates in steady state, except when the
// window size changes.
type game struct {
	opts options
	sim  rules.Sim

	view   raster.View
	fitted bool // the view follows the window: no zoom or pan since the last reset

	canvas *raster.Canvas

	// weakest runs the declared query WeakestUnits after every frame and
	// rings its ten units; nil for a sim without tables (the soa baseline).
	weakest *marks.Weakest

	proj        []float32 // projectile positions, reused
	ring        *hud.FrameRing
	sys         []rules.SystemTime // last frame's system times, reused
	top         [3]rules.SystemTime
	ntop        int
	digest      uint64 // rules.Digest as of frame digestFrame
	digestFrame int64  // -1: digest not computed yet
	text        []byte // overlay text, reused

	paused, stepOnce, hideProj bool
	drag                       dragState

	draws   int64     // Draw calls, for the mean FPS printed on exit
	started time.Time // first Update
	done    bool      // -frames reached and the screenshot, if any, saved
	err     error     // ends RunGame at the next Update
}

func newGame(sim rules.Sim, opts options) *game {
	g := &game{
		opts:   opts,
		sim:    sim,
		view:   raster.FitView(opts.width, opts.height),
		fitted: true,
		ring:   hud.NewFrameRing(ringSize),
		sys:    make([]rules.SystemTime, 0, 32),
		proj:   make([]float32, 0, 2*opts.cfg.Shots*(int(rules.TTL)+2)),
		text:   make([]byte, 0, 1024),

		digestFrame: -1,
	}
	g.sys = sim.SystemTimes(g.sys[:0])
	g.ntop = hud.TopSystems(g.sys, &g.top)
	if t, ok := sim.(tabled); ok {
		g.weakest = marks.New(t.Tables())
		g.weakest.Update()
	}
	return g
}

// tabled is a sim whose tables the declared queries read (arena.Sim).
type tabled interface{ Tables() *arena.Tables }

// finished reports whether a -frames run has run all its frames.
func (g *game) finished() bool {
	return g.opts.frames > 0 && g.sim.Frames() >= g.opts.frames
}

// apply carries out one tick's controls. In a -frames run pause and step are
// ignored, so that it runs its frames at TPS whatever is pressed.
func (g *game) apply(c controls) {
	if g.opts.frames == 0 {
		if c.pause {
			g.paused = !g.paused
		}
		if c.step && g.paused {
			g.stepOnce = true
		}
	}
	if c.toggleProj {
		g.hideProj = !g.hideProj
	}
	if c.resetView {
		g.view = raster.FitView(g.view.W, g.view.H)
		g.fitted = true
	}
	if c.zoom != 0 && c.zoom != 1 {
		g.view.ZoomAt(c.zoomX, c.zoomY, c.zoom)
		g.fitted = false
	}
	if c.panX != 0 || c.panY != 0 {
		g.view.Pan(c.panX, c.panY)
		g.fitted = false
	}
}

// tick runs one frame of the sim, unless paused (and no single step is due)
// or a -frames run is complete, and records its wall time and system times.
func (g *game) tick() error {
	if g.finished() || (g.paused && !g.stepOnce) {
		return nil
	}
	g.stepOnce = false
	t0 := time.Now()
	if err := g.sim.Frame(); err != nil {
		return err
	}
	g.ring.Add(time.Since(t0))
	if g.weakest != nil {
		g.weakest.Update() // between frames: Frame has returned
	}
	g.sys = g.sim.SystemTimes(g.sys[:0])
	g.ntop = hud.TopSystems(g.sys, &g.top)
	return nil
}

// currentDigest returns rules.Digest of the sim's current frame. It hashes
// the presentation buffer at most once a frame: in Draw, not in every tick.
func (g *game) currentDigest() uint64 {
	if f := g.sim.Frames(); f != g.digestFrame {
		g.digest = rules.Digest(g.sim.Presentation(), f, g.sim.Counters(), g.sim.ProjectileChecksum())
		g.digestFrame = f
	}
	return g.digest
}

// resize adapts the view and the canvas to a w×h screen. It allocates only
// when the size changed.
func (g *game) resize(w, h int) {
	if g.canvas != nil && g.canvas.W == w && g.canvas.H == h {
		return
	}
	if g.fitted {
		g.view = raster.FitView(w, h)
	} else {
		g.view.Resize(w, h)
	}
	g.canvas = raster.NewCanvas(w, h)
}

// render draws the current frame into the canvas and the overlay text into
// g.text; fps and tps are shown in the overlay. It needs no window and
// allocates nothing.
func (g *game) render(fps, tps float64) {
	c := g.canvas
	c.Begin(g.view)
	c.PlotUnits(g.view, g.sim.Presentation())
	if !g.hideProj {
		g.proj = g.sim.Projectiles(g.proj[:0])
		c.PlotProjectiles(g.view, g.proj)
	}
	if g.weakest != nil {
		g.weakest.Draw(c, g.view, g.sim.Presentation())
	}
	st := hud.Status{
		Impl:     g.sim.Name(),
		Cfg:      g.opts.cfg,
		Frames:   g.sim.Frames(),
		Paused:   g.paused,
		HideProj: g.hideProj,
		FPS:      fps,
		TPS:      tps,
		P50:      g.ring.P50(),
		Window:   g.ring.Len(),
		Top:      g.top[:g.ntop],
		Counters: g.sim.Counters(),
		Digest:   g.currentDigest(),
		Scale:    g.view.Scale,
	}
	g.text = hud.AppendOverlay(g.text[:0], &st)
	tw, th := hud.TextSize(g.text)
	c.Dim(0, 0, overlayX+tw+overlayPad, overlayY+th+overlayPad)
}

// Update implements ebiten.Game: one tick of input and exactly one
// sim.Frame, unless paused or done.
func (g *game) Update() error {
	if g.err != nil {
		return g.err
	}
	if g.started.IsZero() {
		g.started = time.Now()
	}
	if g.done {
		return ebiten.Termination
	}
	g.apply(readControls(&g.drag, g.view.W, g.view.H))
	if err := g.tick(); err != nil {
		return err
	}
	if g.finished() && g.opts.screenshot == "" {
		g.done = true
		return ebiten.Termination
	}
	return nil
}

// Draw implements ebiten.Game: one WritePixels of the whole canvas straight
// into the screen image, then the overlay text. The screen is never cleared
// by ebiten (see run), since every pixel is written. In a -frames
// -screenshot run, the first Draw after the last frame also reads the screen
// back and saves it.
func (g *game) Draw(screen *ebiten.Image) {
	b := screen.Bounds()
	g.resize(b.Dx(), b.Dy())
	g.render(ebiten.ActualFPS(), ebiten.ActualTPS())
	screen.WritePixels(g.canvas.Pix)
	ebitenutil.DebugPrintAt(screen, bytesString(g.text), overlayX, overlayY)
	g.draws++
	if g.opts.screenshot != "" && g.finished() && !g.done {
		g.err = savePNG(g.opts.screenshot, screen)
		g.done = true
	}
}

// Layout implements ebiten.Game: one screen pixel per window pixel.
func (g *game) Layout(outsideW, outsideH int) (int, int) {
	return max(outsideW, 1), max(outsideH, 1)
}

// bytesString views b as a string without copying, so that the overlay text
// reaches ebitenutil.DebugPrint without an allocation a frame; the caller
// must not change b while the string is in use.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// savePNG writes the pixels of img to a PNG file at path. It must run inside
// ebiten's main loop (ReadPixels).
func savePNG(path string, img *ebiten.Image) error {
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	img.ReadPixels(rgba.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, rgba); err != nil {
		f.Close()
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return nil
}

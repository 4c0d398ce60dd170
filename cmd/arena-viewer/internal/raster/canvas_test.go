package raster

import (
	"encoding/binary"
	"image/color"
	"math"
	"testing"

	"github.com/tickwork/tickwork/arena/rules"
)

// at returns the colour of pixel (x, y) of c.
func at(c *Canvas, x, y int) color.RGBA {
	o := 4 * (y*c.W + x)
	return color.RGBA{c.Pix[o], c.Pix[o+1], c.Pix[o+2], c.Pix[o+3]}
}

// count returns how many pixels of c have colour col.
func count(c *Canvas, col color.RGBA) int {
	n := 0
	for y := range c.H {
		for x := range c.W {
			if at(c, x, y) == col {
				n++
			}
		}
	}
	return n
}

// identity is a view of a w×h screen with one pixel per world unit and world
// (0, 0) at pixel (0, 0).
func identity(w, h int) View {
	return View{W: w, H: h, Scale: 1, CX: float64(w) / 2, CY: float64(h) / 2}
}

func TestHealthColour(t *testing.T) {
	tests := []struct {
		health int32
		want   color.RGBA
	}{
		{4, Health3}, {3, Health3}, {2, Health2}, {1, Health1}, {0, Health1}, {-2, Health1},
	}
	for _, tt := range tests {
		if got := HealthColour(tt.health); got != tt.want {
			t.Errorf("HealthColour(%d) = %v, want %v", tt.health, got, tt.want)
		}
		if got, want := healthPacked(tt.health), pack(tt.want); got != want {
			t.Errorf("healthPacked(%d) = %#x, want %#x", tt.health, got, want)
		}
	}
}

func TestPlotUnitsOnePixel(t *testing.T) {
	c := NewCanvas(64, 48)
	v := identity(64, 48)
	v.Scale = 0.5 // a unit is one pixel below Scale 0.75
	v.CX, v.CY = 64, 48
	pres := []rules.Slot{
		{X: 10, Y: 20, Health: 3, Alive: 1},   // pixel (5, 10)
		{X: 11, Y: 21, Health: 2, Alive: 1},   // the same pixel: drawn later, wins
		{X: 40.9, Y: 0, Health: 1, Alive: 1},  // (20, 0): truncated, not rounded
		{X: 30, Y: 30, Health: 3, Alive: 0},   // dead: not drawn
		{X: -0.5, Y: 10, Health: 3, Alive: 1}, // left of the screen: ToScreen gives -0.25
		{X: 128, Y: 10, Health: 3, Alive: 1},  // right of the screen: x = 64
		{X: 10, Y: 96, Health: 3, Alive: 1},   // below the screen
		{X: float32(math.NaN()), Y: 10, Health: 3, Alive: 1},
		{X: 127.9, Y: 95.9, Health: 1, Alive: 1}, // the last pixel (63, 47)
	}
	c.Begin(v)
	if got := c.PlotUnits(v, pres); got != 4 {
		t.Errorf("PlotUnits = %d units on screen, want 4", got)
	}
	for _, p := range []struct {
		x, y int
		want color.RGBA
	}{
		{5, 10, Health2}, {20, 0, Health1}, {63, 47, Health1}, {15, 15, Floor}, {0, 5, Floor},
	} {
		if got := at(c, p.x, p.y); got != p.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", p.x, p.y, got, p.want)
		}
	}
	if n := count(c, Health3); n != 0 {
		t.Errorf("%d pixels in Health3, want 0", n)
	}
}

func TestPlotUnitsSquares(t *testing.T) {
	c := NewCanvas(40, 40)
	v := identity(40, 40)
	v.Scale = 2 // UnitSide 4: a square from (x-2, y-2) to (x+2, y+2)
	v.CX, v.CY = 10, 10
	pres := []rules.Slot{
		{X: 5, Y: 5, Health: 3, Alive: 1},    // centre (10, 10): pixels 8..11
		{X: 0, Y: 0, Health: 2, Alive: 1},    // centre (0, 0): clipped to 0..1
		{X: -1.5, Y: 3, Health: 1, Alive: 1}, // centre (-3, 6): wholly off screen
	}
	c.Begin(v)
	if got := c.PlotUnits(v, pres); got != 2 {
		t.Errorf("PlotUnits = %d, want 2", got)
	}
	if got, want := count(c, Health3), 16; got != want {
		t.Errorf("%d pixels in Health3, want %d", got, want)
	}
	if got, want := count(c, Health2), 4; got != want {
		t.Errorf("%d pixels in Health2, want %d", got, want)
	}
	if got := at(c, 8, 8); got != Health3 {
		t.Errorf("corner (8, 8) = %v, want Health3", got)
	}
	if got := at(c, 12, 12); got == Health3 {
		t.Errorf("(12, 12) is outside the square but drawn")
	}
}

func TestPlotProjectiles(t *testing.T) {
	c := NewCanvas(32, 32)
	v := identity(32, 32)
	c.Begin(v)
	xy := []float32{1, 1, 31.5, 31.5, 40, 3, 5, -0.1, 7}
	if got := c.PlotProjectiles(v, xy); got != 2 {
		t.Errorf("PlotProjectiles = %d, want 2 (one odd trailing value ignored)", got)
	}
	if got := count(c, Projectile); got != 2 {
		t.Errorf("%d projectile pixels, want 2", got)
	}
	if at(c, 1, 1) != Projectile || at(c, 31, 31) != Projectile {
		t.Errorf("projectiles not at (1, 1) and (31, 31)")
	}
}

func TestBeginBackground(t *testing.T) {
	c := NewCanvas(100, 80)
	v := FitView(100, 80) // arena 64 px square from (18, 8) to (82, 72)
	c.Begin(v)
	tests := []struct {
		x, y int
		want color.RGBA
	}{
		{0, 0, Outside}, {99, 79, Outside}, {50, 40, Floor}, {18, 8, Floor},
		{17, 40, Border}, {50, 7, Border}, {83, 40, Border}, {50, 73, Border},
	}
	for _, tt := range tests {
		if got := at(c, tt.x, tt.y); got != tt.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
	// Begin wipes the last frame's plots.
	c.PlotUnits(v, []rules.Slot{{X: 1024, Y: 1024, Health: 3, Alive: 1}})
	c.Begin(v)
	if n := count(c, Health3); n != 0 {
		t.Errorf("after Begin, %d unit pixels left", n)
	}
	// A new view redraws the background.
	v.Pan(30, 0)
	c.Begin(v)
	if got := at(c, 18, 40); got != Outside {
		t.Errorf("after panning, pixel (18, 40) = %v, want Outside", got)
	}
}

func TestDim(t *testing.T) {
	c := NewCanvas(8, 8)
	fillRect(c.Pix, c.W, c.H, 0, 0, 8, 8, pack(color.RGBA{0xff, 0x80, 0x07, 0xff}))
	c.Dim(-3, 2, 4, 100)
	if got, want := at(c, 0, 2), (color.RGBA{0x3f, 0x20, 0x01, 0xff}); got != want {
		t.Errorf("dimmed pixel = %v, want %v", got, want)
	}
	if got, want := at(c, 4, 2), (color.RGBA{0xff, 0x80, 0x07, 0xff}); got != want {
		t.Errorf("pixel right of the rectangle = %v, want %v", got, want)
	}
	if got, want := at(c, 3, 1), (color.RGBA{0xff, 0x80, 0x07, 0xff}); got != want {
		t.Errorf("pixel above the rectangle = %v, want %v", got, want)
	}
}

func TestCanvasAllocatesNothing(t *testing.T) {
	const n = 10000
	pres := make([]rules.Slot, n)
	xy := make([]float32, 0, 2*n)
	for i := range pres {
		x, y := float32(i%100)*20, float32(i/100)*20
		pres[i] = rules.Slot{X: x, Y: y, Health: int32(i % 4), Alive: uint8(i % 5 % 2)}
		xy = append(xy, y, x)
	}
	for _, scale := range []float64{0.3, 4} {
		c := NewCanvas(320, 240)
		v := FitView(320, 240)
		v.ZoomAt(100, 100, scale/v.Scale)
		allocs := testing.AllocsPerRun(10, func() {
			c.Begin(v)
			c.PlotUnits(v, pres)
			c.PlotProjectiles(v, xy)
			c.Dim(0, 0, 100, 50)
		})
		if allocs != 0 {
			t.Errorf("Scale %v: %v allocations a frame, want 0", scale, allocs)
		}
	}
}

// BenchmarkFrame100k draws 100 000 units and 25 000 projectiles into a
// 1280×960 canvas: the viewer's CPU share of one frame.
func BenchmarkFrame100k(b *testing.B) {
	const n = 100000
	pres := make([]rules.Slot, n)
	xy := make([]float32, 0, 50000)
	for i := range pres {
		x := float32(i*7919%2048) + 0.5
		y := float32(i*104729%2048) + 0.25
		pres[i] = rules.Slot{X: x, Y: y, Health: 3, Alive: 1}
		if i%4 == 0 {
			xy = append(xy, y, x)
		}
	}
	c := NewCanvas(1280, 960)
	v := FitView(1280, 960)
	b.ReportAllocs()
	for b.Loop() {
		c.Begin(v)
		c.PlotUnits(v, pres)
		c.PlotProjectiles(v, xy)
		c.Dim(0, 0, 420, 140)
	}
}

// TestHighlight: the ring is HighlightSide wide, one pixel thick, centred
// on the unit's pixel, hollow; off the canvas it draws nothing.
func TestHighlight(t *testing.T) {
	v := FitView(400, 400)
	c := NewCanvas(400, 400)
	c.Begin(v)
	hl := pack(Highlight)
	px := func(x, y int) uint32 { return binary.LittleEndian.Uint32(c.Pix[4*(y*c.W+x):]) }
	if !c.Highlight(v, 1024, 1024) {
		t.Fatal("Highlight of the centre: not on the canvas")
	}
	sx, sy := v.ToScreen(1024, 1024)
	cx, cy := int(math.Floor(sx)), int(math.Floor(sy))
	x0, y0 := cx-HighlightSide/2, cy-HighlightSide/2
	n := 0
	for i := 0; i < len(c.Pix); i += 4 {
		if binary.LittleEndian.Uint32(c.Pix[i:]) == hl {
			n++
		}
	}
	if want := 4 * (HighlightSide - 1); n != want {
		t.Errorf("%d Highlight pixels, want %d", n, want)
	}
	for _, p := range [][2]int{{x0, y0}, {x0 + HighlightSide - 1, y0 + HighlightSide - 1}, {x0, cy}, {cx, y0 + HighlightSide - 1}} {
		if px(p[0], p[1]) != hl {
			t.Errorf("ring pixel (%d, %d) is not Highlight", p[0], p[1])
		}
	}
	if px(cx, cy) == hl {
		t.Error("the ring is not hollow")
	}
	if c.Highlight(v, -1e6, 0) {
		t.Error("a ring far off the canvas reported as drawn")
	}
}

package raster

import (
	"encoding/binary"
	"image/color"
	"math"

	"github.com/tickwork/tickwork/arena/rules"
)

// Colours of the picture, all opaque.
var (
	Outside    = color.RGBA{0x08, 0x09, 0x0c, 0xff} // beyond the arena
	Floor      = color.RGBA{0x15, 0x18, 0x20, 0xff} // the arena floor
	Border     = color.RGBA{0x50, 0x58, 0x6a, 0xff} // the arena's edge
	Health3    = color.RGBA{0x3c, 0xdc, 0x50, 0xff} // a unit at full health (3): green
	Health2    = color.RGBA{0xf0, 0xd2, 0x28, 0xff} // a unit with 2 health left: yellow
	Health1    = color.RGBA{0xf0, 0x3c, 0x32, 0xff} // a unit with 1 health left: red
	Projectile = color.RGBA{0xa0, 0xf8, 0xff, 0xff} // a projectile: pale cyan
	Highlight  = color.RGBA{0xff, 0x3c, 0xff, 0xff} // the ring around a highlighted unit: magenta
)

// The colours packed the way [Canvas.Pix] stores them: R in the low byte,
// then G, B, A, so that one little-endian uint32 store writes one pixel.
var (
	pkOutside    = pack(Outside)
	pkFloor      = pack(Floor)
	pkBorder     = pack(Border)
	pkHealth3    = pack(Health3)
	pkHealth2    = pack(Health2)
	pkHealth1    = pack(Health1)
	pkProjectile = pack(Projectile)
	pkHighlight  = pack(Highlight)
)

// HighlightSide is the side in pixels of the square ring [Canvas.Highlight]
// draws around a unit, at least this and always more than the unit's mark.
const HighlightSide = 9

func pack(c color.RGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

// HealthColour is the colour of a live unit with health h: 3 or more
// [Health3], 2 [Health2], 1 or less [Health1].
func HealthColour(h int32) color.RGBA {
	switch {
	case h >= 3:
		return Health3
	case h == 2:
		return Health2
	default:
		return Health1
	}
}

// healthPacked is [HealthColour], packed.
func healthPacked(h int32) uint32 {
	switch {
	case h >= 3:
		return pkHealth3
	case h == 2:
		return pkHealth2
	default:
		return pkHealth1
	}
}

// Canvas is a W×H RGBA picture in main memory, drawn a frame at a time and
// uploaded whole with one WritePixels: plotting 100 000 units costs one
// store each, never a draw call each. A Canvas allocates only in
// [NewCanvas]; its methods allocate nothing.
type Canvas struct {
	W, H int
	// Pix holds the rows top to bottom, 4 bytes R, G, B, A a pixel
	// (non-premultiplied equals premultiplied: every colour is opaque).
	Pix []byte

	bg     []byte // the background drawn for bgView
	bgView View
}

// NewCanvas returns a w×h canvas; w and h are clamped to at least 1.
func NewCanvas(w, h int) *Canvas {
	w, h = max(w, 1), max(h, 1)
	return &Canvas{W: w, H: h, Pix: make([]byte, 4*w*h), bg: make([]byte, 4*w*h)}
}

// Begin starts a picture through view v: it fills Pix with the background,
// the arena square with its border on a darker outside. The background is
// redrawn only when v differs from the last call's; otherwise Begin is one
// copy.
func (c *Canvas) Begin(v View) {
	if v != c.bgView {
		c.drawBackground(v)
		c.bgView = v
	}
	copy(c.Pix, c.bg)
}

func (c *Canvas) drawBackground(v View) {
	fillRect(c.bg, c.W, c.H, 0, 0, c.W, c.H, pkOutside)
	x0, y0 := v.ToScreen(0, 0)
	x1, y1 := v.ToScreen(float64(rules.W), float64(rules.W))
	ix0, iy0 := int(math.Floor(x0)), int(math.Floor(y0))
	ix1, iy1 := int(math.Floor(x1))+1, int(math.Floor(y1))+1
	fillRect(c.bg, c.W, c.H, ix0-1, iy0-1, ix1+1, iy1+1, pkBorder)
	fillRect(c.bg, c.W, c.H, ix0, iy0, ix1, iy1, pkFloor)
}

// PlotUnits draws every live slot of pres as a square of side
// v.UnitSide() centred on its position, coloured by health
// ([HealthColour]), and returns how many were on screen.
func (c *Canvas) PlotUnits(v View, pres []rules.Slot) int {
	side := v.UnitSide()
	ox, oy := v.origin()
	s := v.Scale
	fw, fh := float64(c.W), float64(c.H)
	n := 0
	if side == 1 {
		// The common case, zoomed out: one pixel, one store.
		for i := range pres {
			p := &pres[i]
			if p.Alive == 0 {
				continue
			}
			sx := float64(p.X)*s + ox
			sy := float64(p.Y)*s + oy
			if !(sx >= 0 && sx < fw && sy >= 0 && sy < fh) { // NaN too
				continue
			}
			off := 4 * (int(sy)*c.W + int(sx))
			binary.LittleEndian.PutUint32(c.Pix[off:off+4], healthPacked(p.Health))
			n++
		}
		return n
	}
	half := float64(side) / 2
	for i := range pres {
		p := &pres[i]
		if p.Alive == 0 {
			continue
		}
		if c.square(float64(p.X)*s+ox-half, float64(p.Y)*s+oy-half, side, healthPacked(p.Health)) {
			n++
		}
	}
	return n
}

// PlotProjectiles draws the projectiles xy (x, y pairs as returned by
// rules.Sim.Projectiles) as squares of side v.ProjectileSide() in
// [Projectile], and returns how many were on screen.
func (c *Canvas) PlotProjectiles(v View, xy []float32) int {
	side := v.ProjectileSide()
	ox, oy := v.origin()
	s := v.Scale
	half := float64(side) / 2
	if side == 1 {
		half = 0
	}
	n := 0
	for i := 0; i+1 < len(xy); i += 2 {
		if c.square(float64(xy[i])*s+ox-half, float64(xy[i+1])*s+oy-half, side, pkProjectile) {
			n++
		}
	}
	return n
}

// Highlight draws a one-pixel square ring in [Highlight] around the unit at
// world position (x, y): side max(HighlightSide, v.UnitSide()+4), centred on
// the unit's mark (the pixel PlotUnits writes when zoomed out), clipped to
// the canvas. It reports whether any of the ring was on the canvas.
func (c *Canvas) Highlight(v View, x, y float32) bool {
	side := max(HighlightSide, v.UnitSide()+4)
	sx, sy := v.ToScreen(float64(x), float64(y))
	if !(sx == sx && sy == sy) { // NaN
		return false
	}
	ix, iy := int(math.Floor(sx))-side/2, int(math.Floor(sy))-side/2
	if ix >= c.W || iy >= c.H || ix+side <= 0 || iy+side <= 0 {
		return false
	}
	fillRect(c.Pix, c.W, c.H, ix, iy, ix+side, iy+1, pkHighlight)
	fillRect(c.Pix, c.W, c.H, ix, iy+side-1, ix+side, iy+side, pkHighlight)
	fillRect(c.Pix, c.W, c.H, ix, iy+1, ix+1, iy+side-1, pkHighlight)
	fillRect(c.Pix, c.W, c.H, ix+side-1, iy+1, ix+side, iy+side-1, pkHighlight)
	return true
}

// square fills the side×side square whose top-left corner is at screen
// position (x, y) rounded down, clipped to the canvas, and reports whether
// any of it was on the canvas.
func (c *Canvas) square(x, y float64, side int, col uint32) bool {
	ix, iy := int(math.Floor(x)), int(math.Floor(y))
	if ix >= c.W || iy >= c.H || ix+side <= 0 || iy+side <= 0 {
		return false
	}
	fillRect(c.Pix, c.W, c.H, ix, iy, ix+side, iy+side, col)
	return true
}

// Dim darkens the rectangle [x0, x1)×[y0, y1), clipped to the canvas, to a
// quarter of its brightness, so that overlay text on it stays legible.
func (c *Canvas) Dim(x0, y0, x1, y1 int) {
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, c.W), min(y1, c.H)
	for y := y0; y < y1; y++ {
		row := c.Pix[4*(y*c.W+x0) : 4*(y*c.W+x1)]
		for i := 0; i+4 <= len(row); i += 4 {
			p := binary.LittleEndian.Uint32(row[i:])
			binary.LittleEndian.PutUint32(row[i:], p>>2&0x003f3f3f|0xff<<24)
		}
	}
}

// fillRect fills [x0, x1)×[y0, y1), clipped to the w×h picture pix, with col.
func fillRect(pix []byte, w, h, x0, y0, x1, y1 int, col uint32) {
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, w), min(y1, h)
	if x0 >= x1 {
		return
	}
	for y := y0; y < y1; y++ {
		row := pix[4*(y*w+x0) : 4*(y*w+x1)]
		for i := 0; i+4 <= len(row); i += 4 {
			binary.LittleEndian.PutUint32(row[i:], col)
		}
	}
}

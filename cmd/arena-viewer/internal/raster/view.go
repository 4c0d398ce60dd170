package raster

import "github.com/tickwork/tickwork/arena/rules"

// Zoom limits of a [View], in screen pixels per world unit.
const (
	minScale = 1.0 / 64
	maxScale = 64
)

// fitMargin is the gap in pixels that [FitView] leaves around the arena, so
// that its border shows.
const fitMargin = 8

// View maps world coordinates (the arena square [0, rules.W]², y down) to the
// pixels of a W×H screen: a world point p lands on pixel
// (p - C)·Scale + (W/2, H/2). The zero View maps nothing; build one with
// [FitView].
type View struct {
	W, H   int     // screen size in pixels
	Scale  float64 // screen pixels per world unit
	CX, CY float64 // world point shown at the centre of the screen
}

// FitView returns the view of a w×h screen that shows the whole arena,
// centred, as large as fits with fitMargin pixels to spare on each side.
func FitView(w, h int) View {
	side := max(min(w, h)-2*fitMargin, 1)
	half := float64(rules.W) / 2
	return View{W: w, H: h, Scale: float64(side) / float64(rules.W), CX: half, CY: half}
}

// origin returns the screen position of world point (0, 0).
func (v View) origin() (ox, oy float64) {
	return float64(v.W)/2 - v.CX*v.Scale, float64(v.H)/2 - v.CY*v.Scale
}

// ToScreen returns the screen position of world point (x, y), in pixels with
// fractions; pixel (i, j) covers [i, i+1)×[j, j+1).
func (v View) ToScreen(x, y float64) (sx, sy float64) {
	ox, oy := v.origin()
	return x*v.Scale + ox, y*v.Scale + oy
}

// ToWorld is the inverse of [View.ToScreen].
func (v View) ToWorld(sx, sy float64) (x, y float64) {
	ox, oy := v.origin()
	return (sx - ox) / v.Scale, (sy - oy) / v.Scale
}

// ZoomAt multiplies the scale by factor, clamped to [minScale, maxScale],
// keeping the world point under screen position (sx, sy) where it is.
func (v *View) ZoomAt(sx, sy, factor float64) {
	wx, wy := v.ToWorld(sx, sy)
	v.Scale = min(max(v.Scale*factor, minScale), maxScale)
	// Solve sx = (wx - CX)·Scale + W/2 for CX, and the same for y.
	v.CX = wx - (sx-float64(v.W)/2)/v.Scale
	v.CY = wy - (sy-float64(v.H)/2)/v.Scale
}

// Pan moves the picture by (dx, dy) screen pixels: what was at pixel p is
// then at p + (dx, dy).
func (v *View) Pan(dx, dy float64) {
	v.CX -= dx / v.Scale
	v.CY -= dy / v.Scale
}

// Resize changes the screen size to w×h, keeping the centre and the scale.
func (v *View) Resize(w, h int) {
	v.W, v.H = w, h
}

// UnitSide is the side, in pixels, of the square that marks a unit: about two
// world units, at least one pixel.
func (v View) UnitSide() int { return markSide(2 * v.Scale) }

// ProjectileSide is the side, in pixels, of the square that marks a
// projectile: about one world unit, at least one pixel.
func (v View) ProjectileSide() int { return markSide(v.Scale) }

// markSide rounds a size in pixels to a square side in [1, 32].
func markSide(px float64) int {
	return min(max(int(px+0.5), 1), 32)
}

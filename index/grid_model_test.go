package index

import (
	"fmt"
	"math"
)

// Grid is a spatial index over two float32 columns: rows by the square
// cell of side Size their point falls in.
type scanGrid struct {
	f    filing[Cell]
	size float32
	inv  float64
}

// NewGrid returns an empty grid of cells of side size (world units) for
// rows 0..capacity-1, or ErrCapacity, or ErrCellSize when size is not a
// positive finite number.
func newScanGrid(capacity int, size float32) (*scanGrid, error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	if !(size > 0) || math.IsInf(float64(size), 1) {
		return nil, fmt.Errorf("%w: %v", ErrCellSize, size)
	}
	return &scanGrid{f: newFiling[Cell](capacity), size: size, inv: 1 / float64(size)}, nil
}

// Size returns the cell side.
func (g *scanGrid) Size() float32 { return g.size }

// CellOf returns the cell of point (x, y).
func (g *scanGrid) CellOf(x, y float32) Cell {
	if !finite(x) || !finite(y) {
		return Outside
	}
	return Cell{g.coord(x), g.coord(y)}
}

func (g *scanGrid) coord(v float32) int32 {
	c := math.Floor(float64(v) * g.inv)
	switch {
	case c < math.MinInt32+1:
		return math.MinInt32 + 1
	case c > math.MaxInt32:
		return math.MaxInt32
	}
	return int32(c)
}

// Insert files row at (x, y). It panics when row is filed already.
func (g *scanGrid) Insert(row int32, x, y float32) { g.f.file("Insert", row, g.CellOf(x, y)) }

// Remove unfiles row; false when it was not filed.
func (g *scanGrid) Remove(row int32) bool { return g.f.unfile(row) }

// Update files row at (x, y); it reports whether row changed cell (an
// unfiled row is filed).
func (g *scanGrid) Update(row int32, x, y float32) bool {
	c := g.CellOf(x, y)
	old, ok := g.f.key(row)
	if ok && old == c {
		return false
	}
	if ok {
		g.f.unfile(row)
	}
	g.f.file("Update", row, c)
	return true
}

// Key returns row's cell and whether row is filed.
func (g *scanGrid) Key(row int32) (Cell, bool) { return g.f.key(row) }

// Len returns the number of filed rows.
func (g *scanGrid) Len() int { return g.f.n }

// Clear unfiles every row.
func (g *scanGrid) Clear() { g.f.clear() }

// AppendBox appends to dst, in ascending row order, every filed row whose
// cell the box [x0, x1] × [y0, y1] touches, and every row in Outside: a
// superset of the rows whose point is in the box, which the caller tests
// exactly. A box with a NaN bound, or with x1 < x0 or y1 < y0, touches no
// cell (its Outside rows are still appended). It allocates only when dst
// must grow.
func (g *scanGrid) AppendBox(dst []int32, x0, y0, x1, y1 float32) []int32 {
	lo, hi, any := g.span(x0, y0, x1, y1)
	for r := int32(0); int(r) < len(g.f.keys); r++ {
		if !g.f.isFiled(r) {
			continue
		}
		c := g.f.keys[r]
		if c == Outside || any && c.X >= lo.X && c.X <= hi.X && c.Y >= lo.Y && c.Y <= hi.Y {
			dst = append(dst, r)
		}
	}
	return dst
}

// AppendRadius appends the candidates of the disc of centre (x, y) and
// radius r as AppendBox does for its bounding box.
func (g *scanGrid) AppendRadius(dst []int32, x, y, r float32) []int32 {
	return g.AppendBox(dst, x-r, y-r, x+r, y+r)
}

// span returns the cells of the box's corners, clamped; false when it
// touches none.
func (g *scanGrid) span(x0, y0, x1, y1 float32) (lo, hi Cell, ok bool) {
	if x0 != x0 || y0 != y0 || x1 != x1 || y1 != y1 || x1 < x0 || y1 < y0 {
		return lo, hi, false
	}
	return Cell{g.clampCoord(x0), g.clampCoord(y0)}, Cell{g.clampCoord(x1), g.clampCoord(y1)}, true
}

func (g *scanGrid) clampCoord(v float32) int32 {
	switch {
	case math.IsInf(float64(v), -1):
		return math.MinInt32 + 1
	case math.IsInf(float64(v), 1):
		return math.MaxInt32
	}
	return g.coord(v)
}

package indexkit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/index"
)

// TestCellMovedRule: the fused upkeep's test of a grid coordinate
// (indexCellMoved, docs/schema.md, Indexes) reports every move that
// changes the cell by index.Grid's CellOf, over the edges (NaN, ±0, ±Inf,
// cell borders, subnormals, huge values, random bits): a missed crossing
// would leave the grid stale. And it is not every move: the point of the
// marks.
func TestCellMovedRule(t *testing.T) {
	const cell = 8
	g, err := index.NewGrid(1, cell)
	require.NoError(t, err)
	vals := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)),
		7.9999995, 8, 8.000001, 15.999999, 16, -8, -7.9999995, -1e-40, 1e-40, 3e38, -3e38, 1.7e10, -1.7e10, 1.5, 100}
	r := rand.New(rand.NewPCG(5, 5))
	for range 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()), float32(r.NormFloat64()*100))
	}
	for i := 0; i+3 < len(vals); i++ {
		ox, oy, nx, ny := vals[i], vals[i+1], vals[i+2], vals[i+3]
		moved := indexCellMoved(ox, nx, 1.0/cell) || indexCellMoved(oy, ny, 1.0/cell)
		if !moved {
			require.Equal(t, g.CellOf(ox, oy), g.CellOf(nx, ny), "(%v, %v) -> (%v, %v) crosses a cell unmarked", ox, oy, nx, ny)
		}
	}
	require.True(t, indexCellMoved(7.9999995, 8, 1.0/cell))
	require.False(t, indexCellMoved(8, 15.999999, 1.0/cell), "a move inside a cell is not marked")
	require.False(t, indexCellMoved(100, 100.5, 1.0/cell))
}

// TestCellLeftRule: the fused upkeep's test of a point against the cell
// its row is filed in (the generated !box[rec[row]].Holds(x, y),
// index.Grid.Filing, for a cell of any size) reports exactly the points
// that are not in that cell by index.Grid's CellOf, over the same edges
// and random bits, and every point of a row filed Outside; a move inside
// the cell is not reported, and a point on a cell's border is.
func TestCellLeftRule(t *testing.T) {
	vals := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)),
		7.9999995, 8, 8.000001, 15.999999, 16, -8, -7.9999995, -1e-40, 1e-40, 3e38, -3e38, 1.7e10, -1.7e10, 1.5, 100, 2.9999998, 3, 6}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()), float32(r.NormFloat64()*100))
	}
	for _, cell := range []float32{8, 3, 1.0 / 3, 64} {
		g, err := index.NewGrid(1, cell)
		require.NoError(t, err)
		rec, box := g.Filing()
		left := func(x, y float32) bool { return !box[rec[0]].Holds(x, y) }
		for i := 0; i+3 < len(vals); i++ {
			g.Update(0, vals[i], vals[i+1])
			c, _ := g.Key(0)
			nx, ny := vals[i+2], vals[i+3]
			if want := c == index.Outside || g.CellOf(nx, ny) != c; left(nx, ny) != want {
				require.Failf(t, "moved point", "cell %v: (%v, %v) -> (%v, %v), filed in %v: reported %v, want %v", cell, vals[i], vals[i+1], nx, ny, c, !want, want)
			}
			if left(vals[i], vals[i+1]) != (c == index.Outside) {
				require.Failf(t, "filed point", "cell %v: (%v, %v) in its own cell %v: reported %v", cell, vals[i], vals[i+1], c, left(vals[i], vals[i+1]))
			}
		}
		g.Update(0, 1.25*cell, 1.25*cell)
		require.False(t, left(1.5*cell, 1.75*cell), "a move inside a cell is not reported")
		edge := 2 * cell // a cell border: the point just below it is in the cell before
		g.Update(0, math.Nextafter32(edge, 0), 1)
		require.True(t, left(edge, 1) || g.CellOf(edge, 1) == g.CellOf(math.Nextafter32(edge, 0), 1))
	}
}

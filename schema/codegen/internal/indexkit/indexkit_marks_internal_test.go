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
// its row is filed in (indexCellLeft32 for a power-of-two cell,
// indexCellLeft64 for any) reports every point that is not in that cell
// by index.Grid's CellOf, over the same edges and random bits; and a
// move inside the cell is not reported.
func TestCellLeftRule(t *testing.T) {
	vals := []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)),
		7.9999995, 8, 8.000001, 15.999999, 16, -8, -7.9999995, -1e-40, 1e-40, 3e38, -3e38, 1.7e10, -1.7e10, 1.5, 100, 2.9999998, 3, 6}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()), float32(r.NormFloat64()*100))
	}
	for _, cell := range []float32{8, 3} {
		g, err := index.NewGrid(1, cell)
		require.NoError(t, err)
		left := func(x, y float32, c index.Cell) bool {
			if cell == 8 {
				return indexCellLeft32(x, y, c, 0.125)
			}
			return indexCellLeft64(x, y, c, 1.0/3)
		}
		for i := 0; i+3 < len(vals); i++ {
			c := g.CellOf(vals[i], vals[i+1])
			nx, ny := vals[i+2], vals[i+3]
			if !left(nx, ny, c) {
				require.Equal(t, c, g.CellOf(nx, ny), "cell %v: (%v, %v) left %v unreported", cell, nx, ny, c)
			}
			fx, fy := float64(vals[i])/float64(cell), float64(vals[i+1])/float64(cell)
			if !left(vals[i], vals[i+1], c) != (fx >= 0 && fy >= 0 && fx < 1<<31 && fy < 1<<31) {
				require.Failf(t, "filed point", "cell %v: (%v, %v) in its own cell %v: reported %v", cell, vals[i], vals[i+1], c, left(vals[i], vals[i+1], c))
			}
		}
		require.False(t, left(9, 9.5, g.CellOf(8.5, 8.5)) && cell == 8, "a move inside a cell is not reported")
		require.False(t, left(4, 5, g.CellOf(3.5, 3.5)) && cell == 3, "a move inside a cell is not reported")
		edge := 2 * cell // a cell border: the point just below it is in the cell before
		require.True(t, left(edge, 1, g.CellOf(math.Nextafter32(edge, 0), 1)))
	}
}

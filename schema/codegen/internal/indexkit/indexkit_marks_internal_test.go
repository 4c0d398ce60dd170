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

package index_test

import (
	"fmt"

	"github.com/tickwork/tickwork/index"
)

// A kernel that moves rows tests each new point against the bounds of
// the cell its row is filed in (Grid.Filing) and marks only the rows
// that left it; the sync refiles those.
func ExampleGrid_Filing() {
	g, _ := index.NewGrid(3, 64)
	xs, ys := []float32{10, 100, 63.9}, []float32{10, 10, 10}
	for r := range xs {
		g.Insert(int32(r), xs[r], ys[r])
	}
	rec, box := g.Filing()
	xs[0], xs[1], xs[2] = 20, 90, 64 // row 2 crosses x = 64
	for r := range xs {
		if !box[rec[r]].Holds(xs[r], ys[r]) {
			fmt.Println("row", r, "left cell", box[rec[r]])
			g.Update(int32(r), xs[r], ys[r])
		}
	}
	c, _ := g.Key(2)
	fmt.Println("row 2 now in", c, g.CellBounds(c))
	// Output:
	// row 2 left cell {0 0 64 64}
	// row 2 now in {1 0} {64 0 128 64}
}

package tickwork

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/index"
)

// The diff's inline cell (cellOf) is index.Grid.CellOf's, for every kind
// of coordinate: near cell edges, negative, huge, subnormal, ±0, NaN, ±Inf.
func TestCellOfIsGridCellOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []float32{64, 1, 0.3, 1e-3, 7e5} {
		g, err := index.NewGrid(1, size)
		if err != nil {
			t.Fatal(err)
		}
		inv := 1 / float64(size)
		vals := []float32{0, float32(math.Copysign(0, -1)), size, -size, size * (1 - 1e-7), -size * (1 + 1e-7), 1e-40, -1e-40,
			math.MaxFloat32, -math.MaxFloat32, 1 << 40, -(1 << 40), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
		for range 20000 {
			vals = append(vals, float32(rng.NormFloat64()*float64(size)*float64(rng.IntN(1<<uint(rng.IntN(40))))))
			vals = append(vals, math.Float32frombits(rng.Uint32()))
		}
		for i, x := range vals {
			y := vals[(i*7+3)%len(vals)]
			if got, want := cellOf(g, x, y, inv), g.CellOf(x, y); got != want {
				t.Fatalf("size %v: cellOf(%v, %v) = %v, want %v", size, x, y, got, want)
			}
		}
	}
}

// BenchmarkGridDiff is the diff of a grid index after a writer that
// moved every one of 100 000 rows a little (about 1 % cross a cell),
// against rebuilding the grid, and the writes alone (write), at 2
// workers.
func BenchmarkGridDiff(b *testing.B) {
	const n = 100_000
	bl := NewBuilder(WithWorkers(2))
	tt := bl.Table(TableSpec{Name: "Body", Capacity: n})
	xc, yc := AddColumn[float32](bl, tt, "X"), AddColumn[float32](bl, tt, "Y")
	ix := AddGridIndex(bl, "BodiesByPos", xc, yc, 64)
	w, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	hs := make([]Handle, n)
	if err := tt.InsertN(hs); err != nil {
		b.Fatal(err)
	}
	xs, ys := xc.All(), yc.All()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		xs[i], ys[i] = float32(rng.IntN(10000)), float32(rng.IntN(10000))
	}
	if err := w.Reindex(); err != nil {
		b.Fatal(err)
	}
	step := func() {
		for i := range xs {
			xs[i] += 0.5
			ys[i] -= 0.25
		}
	}
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			step()
			_ = ix.x.SyncAll("bench")
		}
	})
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			step()
		}
	})
	b.Run("rebuild", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			step()
			_ = ix.x.Rebuild("bench")
		}
	})
}

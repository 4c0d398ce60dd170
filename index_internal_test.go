package tickwork

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/index"
)

// The diff marks exactly the live rows whose new point CellOf puts in
// another cell than the filed one, and the rows of Outside (its test is the filed cell's bounds,
// index.Grid.Filing), for points near cell edges, negative, huge,
// subnormal, ±0, NaN and ±Inf, and for cell sizes that are and are not
// powers of two.
func TestGridDiffMarksTheRowsThatLeft(t *testing.T) {
	for _, size := range []float32{64, 1, 0.3, 1e-3, 7e5} {
		const n = 4096
		rng := rand.New(rand.NewPCG(1, uint64(size*1000)))
		bl := NewBuilder(WithWorkers(1))
		tt := bl.Table(TableSpec{Name: "Body", Capacity: n})
		xc, yc := AddColumn[float32](bl, tt, "X"), AddColumn[float32](bl, tt, "Y")
		ix := AddGridIndex(bl, "BodiesByPos", xc, yc, size)
		w, err := bl.Build()
		if err != nil {
			t.Fatal(err)
		}
		hs := make([]Handle, n)
		if err := tt.InsertN(hs); err != nil {
			t.Fatal(err)
		}
		vals := []float32{0, float32(math.Copysign(0, -1)), size, -size, size * (1 - 1e-7), -size * (1 + 1e-7), 1e-40, -1e-40,
			math.MaxFloat32, -math.MaxFloat32, 1 << 40, -(1 << 40), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
		pick := func() float32 {
			switch rng.IntN(3) {
			case 0:
				return vals[rng.IntN(len(vals))]
			case 1:
				return math.Float32frombits(rng.Uint32())
			}
			return float32(rng.NormFloat64() * float64(size) * 4)
		}
		xs, ys := xc.All(), yc.All()
		for i := range n {
			xs[i], ys[i] = pick(), pick()
		}
		if err := w.Reindex(); err != nil {
			t.Fatal(err)
		}
		g := ix.Grid()
		for round := range 20 {
			for i := range n {
				if rng.IntN(2) == 0 {
					xs[i] = pick()
				} else {
					xs[i] = math.Nextafter32(xs[i], float32(math.Inf(1)))
				}
				if rng.IntN(2) == 0 {
					ys[i] = pick()
				}
			}
			for c := range ix.x.table.UsedChunks() {
				ix.x.diffChunk(0, c)
			}
			for i := range n {
				filed, _ := g.Key(int32(i))
				want := g.CellOf(xs[i], ys[i]) != filed || filed == index.Outside // Outside holds no point: always refiled
				if got := ix.x.marks[i/64]>>(i%64)&1 == 1; got != want {
					t.Fatalf("size %v, round %d: row %d at (%v, %v), filed in %v, marked %v, want %v", size, round, i, xs[i], ys[i], filed, got, want)
				}
			}
			walkMarked(ix.x.marks, nil, true, ix.x.syncRow)
		}
		w.Close()
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

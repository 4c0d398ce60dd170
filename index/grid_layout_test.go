package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkLayout checks the grid's runs against its per-row filing: every
// filed row sits at its canonical place start[rec]+slot inside its
// record's run, runs hold their cn rows within their room, below the
// free end and without overlap, and the counts add up.
func checkLayout(t *testing.T, step int, g *Grid) {
	t.Helper()
	owner := make([]int32, len(g.runs))
	for i := range owner {
		owner[i] = -1
	}
	recs := append(slices.Clone(g.order[:g.nc]), g.outRec)
	rows := 0
	for _, id := range recs {
		st, n, room := g.start[id], g.cn[id], g.room[id]
		if n > room || (id != g.outRec && n == 0) {
			t.Fatalf("step %d: record %d holds %d rows in a room of %d", step, id, n, room)
		}
		if room > 0 && st+room > g.tail {
			t.Fatalf("step %d: record %d's run %d..%d passes the free end %d", step, id, st, st+room, g.tail)
		}
		for p := st; p < st+room; p++ {
			if owner[p] != -1 {
				t.Fatalf("step %d: place %d in the runs of records %d and %d", step, p, owner[p], id)
			}
			owner[p] = id
		}
		for s, r := range g.run(id) {
			if g.rec[r] != id || g.slot[r] != int32(s) {
				t.Fatalf("step %d: row %d at place %d of record %d, but filed in %d at %d", step, r, s, id, g.rec[r], g.slot[r])
			}
		}
		rows += int(n)
		if id != g.outRec && g.find(g.cc[id]) != id {
			t.Fatalf("step %d: cell %v of record %d not found in the table", step, g.cc[id], id)
		}
	}
	if 2*uint64(g.nc) > g.mask+1 {
		t.Fatalf("step %d: %d cells in a table of %d", step, g.nc, g.mask+1)
	}
	if rows != g.n {
		t.Fatalf("step %d: runs hold %d rows, Len %d", step, rows, g.n)
	}
	for r, id := range g.rec {
		if id != g.unRec && g.runs[g.start[id]+g.slot[r]] != int32(r) {
			t.Fatalf("step %d: row %d not at its place", step, r)
		}
	}
}

// rebuiltGrid files every point of live again into a new grid.
func rebuiltGrid(t *testing.T, capacity int, size float32, live []bool, px, py []float32) *Grid {
	t.Helper()
	g, err := NewGrid(capacity, size)
	if err != nil {
		t.Fatal(err)
	}
	for r, ok := range live {
		if ok {
			g.Insert(int32(r), px[r], py[r])
		}
	}
	return g
}

// TestGridRunsMatchRebuild moves, deletes and refiles rows of a crowded
// grid at random (rows reused after deletes, a few points Outside, cells
// filling and emptying so that runs move to the free end and the runs are
// compacted many times), and after every step checks the layout and that
// every row's cell and a box's and a disc's candidates equal those of a
// grid rebuilt from the points; Clear and refiling everything (a
// restore) are among the steps.
func TestGridRunsMatchRebuild(t *testing.T) {
	for _, tc := range []struct {
		name     string
		capacity int
		cells    int // the world's side in cells
		size     float32
		compacts bool // the steps must compact the runs
	}{{"few cells", 64, 2, 8, true}, {"many cells", 300, 40, 8, true}, {"one row", 1, 3, 1, false}, {"third", 120, 3, 1.0 / 3, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tc.capacity)))
			g, err := NewGrid(tc.capacity, tc.size)
			if err != nil {
				t.Fatal(err)
			}
			live := make([]bool, tc.capacity)
			px, py := make([]float32, tc.capacity), make([]float32, tc.capacity)
			side := float32(tc.cells) * tc.size
			point := func() (float32, float32) {
				if rng.IntN(50) == 0 {
					return float32(math.NaN()), 1
				}
				return rng.Float32() * side, rng.Float32() * side
			}
			for step := range 3000 {
				r := int32(rng.IntN(tc.capacity))
				switch op := rng.IntN(100); {
				case op < 60: // a move, mostly small (a body's step)
					if !live[r] {
						continue
					}
					x, y := px[r]+(rng.Float32()-0.5)*tc.size, py[r]+(rng.Float32()-0.5)*tc.size
					if rng.IntN(4) == 0 {
						x, y = point()
					}
					px[r], py[r] = x, y
					g.Update(r, x, y)
				case op < 80: // a delete
					if g.Remove(r) != live[r] {
						t.Fatalf("step %d: Remove(%d) disagrees with live %v", step, r, live[r])
					}
					live[r] = false
				case op < 99: // a create, reusing a free row
					if live[r] {
						continue
					}
					px[r], py[r] = point()
					g.Insert(r, px[r], py[r])
					live[r] = true
				default: // a restore: everything filed again
					g.Clear()
					for q := range live {
						if live[q] {
							g.Insert(int32(q), px[q], py[q])
						}
					}
				}
				checkLayout(t, step, g)
				want := rebuiltGrid(t, tc.capacity, tc.size, live, px, py)
				for q := range int32(tc.capacity) {
					a, aok := g.Key(q)
					b, bok := want.Key(q)
					if a != b || aok != bok {
						t.Fatalf("step %d: Key(%d) = %v %v, rebuilt %v %v", step, q, a, aok, b, bok)
					}
				}
				x0, y0 := rng.Float32()*side, rng.Float32()*side
				got := g.AppendBox(nil, x0, y0, x0+side/3, y0+side/4)
				if w := want.AppendBox(nil, x0, y0, x0+side/3, y0+side/4); !slices.Equal(got, w) {
					t.Fatalf("step %d: AppendBox = %v, rebuilt %v", step, got, w)
				}
				got = g.AppendRadius(got[:0], x0, y0, side/5)
				if w := want.AppendRadius(nil, x0, y0, side/5); !slices.Equal(got, w) {
					t.Fatalf("step %d: AppendRadius = %v, rebuilt %v", step, got, w)
				}
			}
			if tc.compacts && g.compactions == 0 {
				t.Fatal("the runs were never compacted: the test does not reach compact")
			}
		})
	}
}

// TestGridCompacts fills the runs' free end on purpose (rows moving
// between two cells whose runs keep outgrowing their room) and checks
// that the runs were compacted and stay right.
func TestGridCompacts(t *testing.T) {
	const capacity = 100
	g, _ := NewGrid(capacity, 1)
	for round := range 200 {
		for r := range int32(capacity) {
			g.Update(r, float32((int(r)+round)%(2+round%5)), 0.5)
		}
		checkLayout(t, round, g)
		for r := range int32(capacity) {
			c, _ := g.Key(r)
			if want := g.CellOf(float32((int(r)+round)%(2+round%5)), 0.5); c != want {
				t.Fatalf("round %d: row %d in %v, want %v", round, r, c, want)
			}
		}
	}
	if g.compactions == 0 {
		t.Fatal("the runs were never compacted: the test does not reach compact")
	}
}

// TestGridAllocatesNothing: moves across cells, removes and inserts
// (runs moved and compacted) allocate nothing once the grid is made.
func TestGridAllocatesNothing(t *testing.T) {
	const capacity = 1000
	g, _ := NewGrid(capacity, 4)
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, 4096)
	for i := range xs {
		xs[i] = rng.Float32() * 64
	}
	i := 0
	allocs := testing.AllocsPerRun(2000, func() {
		for range 50 {
			r := int32(i % capacity)
			g.Update(r, xs[i%len(xs)], xs[(i*7)%len(xs)])
			if i%13 == 0 {
				g.Remove(int32((i * 31) % capacity))
			}
			i++
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a run, want 0", allocs)
	}
}

// TestFilingMatchesCellOf: for cells of several sizes (a power of two,
// fractions, MinCell, huge), for points at the edges (±0, denormals,
// ±MaxFloat32, the clamped edge cells) and at random bits, the filed
// cell's CellBounds hold exactly the points CellOf puts in that cell:
// the point itself, each side's float and the float below it, and random
// others; Outside's and an unfiled row's boxes (Filing) hold none and
// every point.
func TestFilingMatchesCellOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	below := func(v float32) float32 { return math.Nextafter32(v, float32(math.Inf(-1))) }
	for _, size := range []float32{64, 0.75, 1.0 / 3, 3, MinCell, 1e30, 0x1p100} {
		g, _ := NewGrid(4, size)
		points := slices.Clone(gridCoords)
		for range 300 {
			points = append(points, math.Float32frombits(rng.Uint32()), float32(rng.IntN(4000)-2000)*size/7)
		}
		for i, x := range points {
			y := points[(i*7+3)%len(points)]
			c := g.CellOf(x, y)
			b := g.CellBounds(c)
			if c == Outside {
				if b.Holds(x, y) || b.Holds(0, 0) {
					t.Fatalf("size %v: Outside's bounds %v hold a point", size, b)
				}
				continue
			}
			tries := [][2]float32{{x, y}, {b.X0, y}, {below(b.X0), y}, {b.X1, y}, {below(b.X1), y},
				{x, b.Y0}, {x, below(b.Y0)}, {x, b.Y1}, {x, below(b.Y1)}, {float32(math.Inf(1)), y}, {x, float32(math.NaN())}}
			for range 8 {
				tries = append(tries, [2]float32{points[rng.IntN(len(points))], y}, [2]float32{x, points[rng.IntN(len(points))]})
			}
			for _, q := range tries {
				if got, want := b.Holds(q[0], q[1]), g.CellOf(q[0], q[1]) == c; got != want {
					t.Fatalf("size %v: cell %v of (%v, %v), bounds %v: Holds(%v, %v) = %v, CellOf gives %v", size, c, x, y, b, q[0], q[1], got, g.CellOf(q[0], q[1]))
				}
			}
			if !b.Holds(x, y) {
				t.Fatalf("size %v: bounds %v of cell %v miss (%v, %v)", size, b, c, x, y)
			}
		}
		rec, box := g.Filing()
		g.Insert(1, float32(math.NaN()), 0)
		if box[rec[0]] != (Bounds{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.Inf(1))}) {
			t.Fatalf("size %v: an unfiled row's bounds %v, want every point", size, box[rec[0]])
		}
		if box[rec[1]].Holds(0, 0) || box[rec[1]].Holds(float32(math.NaN()), 0) {
			t.Fatalf("size %v: an Outside row's bounds %v hold a point", size, box[rec[1]])
		}
	}
}

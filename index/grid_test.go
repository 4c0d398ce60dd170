package index

import (
	"errors"
	"math"
	"slices"
	"testing"
)

var gridCoords = []float32{-130, -64, -63.99, 0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 63.99, 64, 100, 1e30, -1e30,
	math.MaxFloat32, -math.MaxFloat32, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}

func pickCoord(s src) float32 {
	if s.n(3) == 0 {
		return gridCoords[s.n(len(gridCoords))]
	}
	return float32(s.n(6000)-3000) / 10
}

// gridOps drives g and the scan model m with the same calls, comparing
// Key, Len and the candidates of random boxes after each, and checking
// AppendRadius's candidates: ascending, filed, every Outside row, and a
// superset of the rows inside the disc (in float64 and in float32).
func gridOps(t *testing.T, s src, capacity int, size float32) {
	t.Helper()
	g, err := NewGrid(capacity, size)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newScanGrid(capacity, size)
	px := make([]float32, capacity)
	py := make([]float32, capacity)
	var got, want []int32
	for step := 0; !s.done(); step++ {
		row := pickRow(s, capacity)
		x, y := pickCoord(s), pickCoord(s)
		switch op := s.n(20); {
		case op < 6:
			if _, ok := m.Key(row); ok {
				mustPanic(t, "filed already", func() { g.Insert(row, x, y) })
				continue
			}
			g.Insert(row, x, y)
			m.Insert(row, x, y)
			px[row], py[row] = x, y
		case op < 9:
			if a, b := g.Remove(row), m.Remove(row); a != b {
				t.Fatalf("step %d: Remove(%d) = %v, model %v", step, row, a, b)
			}
		case op < 19:
			if a, b := g.Update(row, x, y), m.Update(row, x, y); a != b {
				t.Fatalf("step %d: Update(%d, %v, %v) = %v, model %v", step, row, x, y, a, b)
			}
			px[row], py[row] = x, y
		default:
			if s.n(4) == 0 {
				g.Clear()
				m.Clear()
			}
		}
		if g.Len() != m.Len() {
			t.Fatalf("step %d: Len %d, model %d", step, g.Len(), m.Len())
		}
		for r := int32(0); int(r) < capacity; r++ {
			a, aok := g.Key(r)
			b, bok := m.Key(r)
			if aok != bok || a != b {
				t.Fatalf("step %d: Key(%d) = %v %v, model %v %v", step, r, a, aok, b, bok)
			}
		}
		for q := 0; q < 4; q++ {
			x0, y0 := pickCoord(s), pickCoord(s)
			x1, y1 := x0+float32(s.n(300)), y0+float32(s.n(300))
			if s.n(3) == 0 {
				x1, y1 = pickCoord(s), pickCoord(s)
			}
			got = g.AppendBox(got[:0], x0, y0, x1, y1)
			want = m.AppendBox(want[:0], x0, y0, x1, y1)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: AppendBox(%v, %v, %v, %v) = %v, model %v", step, x0, y0, x1, y1, got, want)
			}
			cx, cy, r := pickCoord(s), pickCoord(s), float32(s.n(200))
			if s.n(4) == 0 {
				r = pickCoord(s)
			}
			got = g.AppendRadius(got[:0], cx, cy, r)
			checkRadius(t, step, g, m, got, px, py, cx, cy, r)
		}
	}
}

func checkRadius(t *testing.T, step int, g *Grid, m *scanGrid, got []int32, px, py []float32, cx, cy, r float32) {
	t.Helper()
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Fatalf("step %d: AppendRadius(%v, %v, %v) = %v: not strictly ascending", step, cx, cy, r, got)
	}
	for _, row := range got {
		if _, ok := m.Key(row); !ok {
			t.Fatalf("step %d: AppendRadius gave unfiled row %d", step, row)
		}
	}
	for row := int32(0); int(row) < len(px); row++ {
		c, ok := m.Key(row)
		if !ok {
			continue
		}
		x, y := px[row], py[row]
		dx, dy := float64(x)-float64(cx), float64(y)-float64(cy)
		fx, fy := x-cx, y-cy
		in := c == Outside || r >= 0 && (dx*dx+dy*dy <= float64(r)*float64(r) ||
			float32(fx*fx)+float32(fy*fy) <= float32(r*r))
		if in && !slices.Contains(got, row) {
			t.Fatalf("step %d: AppendRadius(%v, %v, %v) = %v misses row %d at (%v, %v), cell %v", step, cx, cy, r, got, row, x, y, c)
		}
	}
}

// TestGridModel: cell sizes of a simulation, of a fraction, and tiny
// (MinCell: most coordinates clamp); NaN, ±Inf, ±0, denormal, huge coordinates;
// rows at 0 and capacity-1.
func TestGridModel(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		gridOps(t, newRandSrc(seed, 1200), 50, 64)
		gridOps(t, newRandSrc(seed, 800), 50, 0.75)
		gridOps(t, newRandSrc(seed, 400), 30, MinCell)
		gridOps(t, newRandSrc(seed, 200), 1, 64)
	}
}

func FuzzGrid(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		gridOps(t, &byteSrc{b: b}, 19, 64)
	})
}

// TestGridRadiusPrunes: the disc visits fewer cells than its bounding
// box: the box's corner cells are not candidates.
func TestGridRadiusPrunes(t *testing.T) {
	g, _ := NewGrid(64, 10)
	g.Insert(0, 5, 5)     // the centre's cell
	g.Insert(1, 95, 95)   // the box's corner, 127 from the centre
	g.Insert(2, 95, 5)    // on the disc's axis, 90 away
	g.Insert(3, 5, -1000) // far
	got := g.AppendRadius(nil, 5, 5, 91)
	if !slices.Equal(got, []int32{0, 2}) {
		t.Fatalf("AppendRadius = %v, want [0 2]", got)
	}
	if got := g.AppendBox(nil, 5-91, 5-91, 5+91, 5+91); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Fatalf("AppendBox = %v, want [0 1 2]", got)
	}
}

// TestGridRadiusBoundary: points exactly r from the centre, on cell
// bounds, are candidates both when the disc's cells are visited (many
// occupied cells) and when the occupied cells are walked (few).
func TestGridRadiusBoundary(t *testing.T) {
	rim := [][2]float32{{30, 40}, {40, 30}, {50, 0}, {0, -50}, {-30, -40}, {-50, 0}, {0, 50}}
	for _, filler := range []int{0, 300} {
		g, _ := NewGrid(400, 10)
		var want []int32
		for i, p := range rim {
			g.Insert(int32(i), p[0], p[1])
			want = append(want, int32(i))
		}
		for i := 0; i < filler; i++ {
			g.Insert(int32(len(rim)+i), 1000+float32(i%20)*10, 1000+float32(i/20)*10)
		}
		if got := g.AppendRadius(nil, 0, 0, 50); !slices.Equal(got, want) {
			t.Fatalf("%d occupied cells: AppendRadius(0, 0, 50) = %v, want %v", g.Cells(), got, want)
		}
		// The cells of the rim's points on the positive side begin 50 from
		// the centre: a disc of 49 touches only the negative side's cells
		// (which end at -40, or at (-30, -40)'s corner, 36 away).
		if got := g.AppendRadius(nil, 0, 0, 49); !slices.Equal(got, []int32{3, 4, 5}) {
			t.Fatalf("%d occupied cells: AppendRadius(0, 0, 49) = %v, want [3 4 5]", g.Cells(), got)
		}
	}
}

// TestGridSortCandidates: the candidates' sort against slices.Sort, at
// capacities of one to four radix passes, with and without spare
// capacity in dst, and behind a prefix it must leave alone.
func TestGridSortCandidates(t *testing.T) {
	for _, capacity := range []int{1, 64, 1000, 70000, 1 << 25, MaxCapacity} {
		o := newRandSrc(uint64(capacity), 0)
		for _, n := range []int{0, 1, 5, 24, 25, 200, 999} {
			n = min(n, capacity)
			seen := map[int32]bool{}
			a := []int32{-7, 3}
			for len(a) < n+2 {
				r := int32(o.n(capacity))
				if o.n(5) == 0 {
					r = int32(capacity - 1)
				}
				if !seen[r] {
					seen[r] = true
					a = append(a, r)
				}
			}
			want := append([]int32{-7, 3}, slices.Sorted(slices.Values(a[2:]))...)
			for _, spare := range []int{0, 2 * n} {
				b := append(make([]int32, 0, len(a)+spare), a...)
				if b = sortCandidates(b, 2, capacity); !slices.Equal(b, want) {
					t.Fatalf("capacity %d, %d rows, spare %d: %v, want %v", capacity, n, spare, b, want)
				}
			}
		}
	}
}

func TestGridAllocs(t *testing.T) {
	const capacity = 1000
	g, _ := NewGrid(capacity, 64)
	for r := int32(0); r < capacity; r++ {
		g.Insert(r, float32(r%40)*25, float32(r/40)*25)
	}
	dst := make([]int32, 0, capacity)
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		i++
		r := int32(i*37) % capacity
		g.Update(r, float32(i%1000), float32(i%700))
		g.Update(r, float32(i%1000), float32(i%700))
		g.Remove((r + 1) % capacity)
		g.Insert((r+1)%capacity, float32(math.NaN()), 0)
		dst = g.AppendBox(dst[:0], 100, 100, 200, 200)
		dst = g.AppendBox(dst[:0], -1e30, -1e30, 1e30, 1e30)
		dst = g.AppendRadius(dst[:0], 500, 300, 120)
		g.Key(r)
		g.Cells()
		if i%90 == 0 {
			g.Clear()
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a run, want 0", allocs)
	}
}

func TestGridPanics(t *testing.T) {
	if _, err := NewGrid(0, 1); !errors.Is(err, ErrCapacity) {
		t.Fatalf("NewGrid(0, 1): %v, want ErrCapacity", err)
	}
	for _, size := range []float32{0, -1, float32(math.NaN()), float32(math.Inf(1)), 1e-40, MinCell / 2} {
		if _, err := NewGrid(4, size); !errors.Is(err, ErrCellSize) {
			t.Fatalf("NewGrid(4, %v): %v, want ErrCellSize", size, err)
		}
	}
	if _, err := NewGrid(4, MinCell); err != nil {
		t.Fatalf("NewGrid(4, MinCell): %v", err)
	}
	g, _ := NewGrid(4, 1)
	g.Insert(1, 0, 0)
	mustPanic(t, "Insert of row 1, which is filed already", func() { g.Insert(1, 0, 0) })
	mustPanic(t, "Insert of row 4 out of range 0..3", func() { g.Insert(4, 0, 0) })
	mustPanic(t, "Remove of row -1 out of range", func() { g.Remove(-1) })
	mustPanic(t, "Update of row 4 out of range", func() { g.Update(4, 1, 1) })
	mustPanic(t, "Key of row 5 out of range", func() { g.Key(5) })
}

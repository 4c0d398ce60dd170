package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The index benchmarks: each kind's operations at 100 000 rows against a
// baseline in the same run (docs/benchmarks.md, Indexes).

const benchRows = 100_000

var benchSink int64

// BenchmarkHashWalk: First and a walk of one key's rows, against a
// map[K][]int32 of the same rows: high cardinality (2 rows a key, as
// projectiles by target) and low (10 keys, 10 000 rows a key).
func BenchmarkHashWalk(b *testing.B) {
	for _, shape := range []struct {
		name string
		keys int32
	}{{"rows2", benchRows / 2}, {"rows10000", 10}} {
		h, _ := NewHash[int32](benchRows)
		m := map[int32][]int32{}
		rng := rand.New(rand.NewPCG(1, 2))
		rows := rng.Perm(benchRows) // filed in random order
		for _, r := range rows {
			k := int32(r) % shape.keys
			h.Insert(int32(r), k)
			m[k] = append(m[k], int32(r))
		}
		for _, v := range m {
			slices.Sort(v)
		}
		b.Run(shape.name+"/tickwork", func(b *testing.B) {
			b.ReportAllocs()
			var s int64
			for i := 0; b.Loop(); i++ {
				k := int32(i) % shape.keys
				for r := h.First(k); r != NoRow; r = h.Next(r) {
					s += int64(r)
				}
			}
			benchSink = s
		})
		b.Run(shape.name+"/map", func(b *testing.B) {
			b.ReportAllocs()
			var s int64
			for i := 0; b.Loop(); i++ {
				for _, r := range m[int32(i)%shape.keys] {
					s += int64(r)
				}
			}
			benchSink = s
		})
	}
}

// BenchmarkHashUpdate: moving a row to another key (a status change)
// at 10 keys, rows picked at random.
func BenchmarkHashUpdate(b *testing.B) {
	h, _ := NewHash[int32](benchRows)
	for r := int32(0); r < benchRows; r++ {
		h.Insert(r, r%10)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	b.ReportAllocs()
	for b.Loop() {
		h.Update(int32(rng.IntN(benchRows)), int32(rng.IntN(10)))
	}
}

type keyRow struct {
	k float32
	r int32
}

func cmpKeyRow(a, b keyRow) int {
	if c := Compare(a.k, b.k); c != 0 {
		return c
	}
	return int(a.r - b.r)
}

// BenchmarkSorted: the first 10 rows in (key, row) order, and Update of
// a random row to a random key, against a sorted slice of (key, row).
func BenchmarkSorted(b *testing.B) {
	s, _ := NewSorted[float32](benchRows)
	keys := make([]float32, benchRows)
	rng := rand.New(rand.NewPCG(5, 6))
	var sl []keyRow
	for r := int32(0); r < benchRows; r++ {
		keys[r] = float32(rng.IntN(1000))
		s.Insert(r, keys[r])
		sl = append(sl, keyRow{keys[r], r})
	}
	slices.SortFunc(sl, cmpKeyRow)
	b.Run("top10/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		var t int64
		for b.Loop() {
			for r, n := s.First(), 0; r != NoRow && n < 10; r, n = s.Next(r), n+1 {
				t += int64(r)
			}
		}
		benchSink = t
	})
	b.Run("top10/sort", func(b *testing.B) {
		b.ReportAllocs()
		var t int64
		for b.Loop() {
			for _, e := range sl[:10] {
				t += int64(e.r)
			}
		}
		benchSink = t
	})
	b.Run("update/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := int32(rng.IntN(benchRows))
			keys[r] = float32(rng.IntN(1000))
			s.Update(r, keys[r])
		}
	})
	b.Run("update/sort", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := int32(rng.IntN(benchRows))
			i, _ := slices.BinarySearchFunc(sl, keyRow{keys[r], r}, cmpKeyRow)
			sl = slices.Delete(sl, i, i+1)
			keys[r] = float32(rng.IntN(1000))
			j, _ := slices.BinarySearchFunc(sl, keyRow{keys[r], r}, cmpKeyRow)
			sl = slices.Insert(sl, j, keyRow{keys[r], r})
		}
	})
}

// benchWorld is 100 000 points uniform on a 2048² world, on a grid of
// cell 64.
func benchWorld(b *testing.B) (*Grid, []float32, []float32) {
	g, _ := NewGrid(benchRows, 64)
	xs, ys := make([]float32, benchRows), make([]float32, benchRows)
	rng := rand.New(rand.NewPCG(7, 8))
	for r := int32(0); r < benchRows; r++ {
		xs[r], ys[r] = rng.Float32()*2048, rng.Float32()*2048
		g.Insert(r, xs[r], ys[r])
	}
	return g, xs, ys
}

// BenchmarkGrid: Update in the same cell and across cells, and the
// candidates of a box of ±50 and of a disc of radius 50 against a scan
// of the 100 000 points.
func BenchmarkGrid(b *testing.B) {
	g, xs, ys := benchWorld(b)
	rng := rand.New(rand.NewPCG(9, 10))
	b.Run("update-same-cell/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r := int32(i) % benchRows
			g.Update(r, xs[r], ys[r])
		}
	})
	b.Run("update-crossing/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r := int32(i) % benchRows
			xs[r] = float32(int(xs[r]+64) % 2048)
			g.Update(r, xs[r], ys[r])
		}
	})
	dst := make([]int32, 0, benchRows)
	var boxes [64][2]float32
	for i := range boxes {
		boxes[i] = [2]float32{50 + rng.Float32()*1948, 50 + rng.Float32()*1948}
	}
	n := 0
	b.Run("box50/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c := boxes[i%len(boxes)]
			dst = g.AppendBox(dst[:0], c[0]-50, c[1]-50, c[0]+50, c[1]+50)
			n += len(dst)
		}
		b.ReportMetric(float64(n)/float64(b.N), "candidates/op")
		n = 0
	})
	b.Run("box50/scan", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c := boxes[i%len(boxes)]
			dst = dst[:0]
			x0, y0, x1, y1 := c[0]-50, c[1]-50, c[0]+50, c[1]+50
			for r := range xs {
				if x, y := xs[r], ys[r]; x >= x0 && x <= x1 && y >= y0 && y <= y1 {
					dst = append(dst, int32(r))
				}
			}
			n += len(dst)
		}
		b.ReportMetric(float64(n)/float64(b.N), "rows/op")
		n = 0
	})
	b.Run("radius50/tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c := boxes[i%len(boxes)]
			dst = g.AppendRadius(dst[:0], c[0], c[1], 50)
			n += len(dst)
		}
		b.ReportMetric(float64(n)/float64(b.N), "candidates/op")
		n = 0
	})
	b.Run("radius50/scan", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			c := boxes[i%len(boxes)]
			dst = dst[:0]
			for r := range xs {
				dx, dy := xs[r]-c[0], ys[r]-c[1]
				if float32(dx*dx)+float32(dy*dy) <= 50*50 {
					dst = append(dst, int32(r))
				}
			}
			n += len(dst)
		}
		b.ReportMetric(float64(n)/float64(b.N), "rows/op")
		n = 0
	})
}

// BenchmarkGridSort: the candidates' sort (sortCandidates) on the rows
// of a box of ±50 at 100 000 rows, against pdqsort (slices.Sort) and an
// insertion sort.
func BenchmarkGridSort(b *testing.B) {
	g, _, _ := benchWorld(b)
	cand := g.AppendBox(nil, 974, 974, 1074, 1074)
	rng := rand.New(rand.NewPCG(11, 12))
	rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	work := make([]int32, len(cand), 2*len(cand))
	b.Logf("%d candidates", len(cand))
	for _, c := range []struct {
		name string
		sort func([]int32)
	}{
		{"tickwork", func(a []int32) { sortCandidates(a, 0, benchRows) }},
		{"pdq", slices.Sort[[]int32]},
		{"insertion", insertionSort},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(work, cand)
				c.sort(work)
			}
		})
	}
}

// BenchmarkSortedRebuild: a rebuild from scratch (Rebuild; and Clear
// then Insert of every row in row order) against sorting a slice of
// (key, row).
func BenchmarkSortedRebuild(b *testing.B) {
	s, _ := NewSorted[float32](benchRows)
	keys := make([]float32, benchRows)
	rng := rand.New(rand.NewPCG(13, 14))
	for r := range keys {
		keys[r] = float32(rng.IntN(1000))
	}
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Rebuild(func(r int32) (float32, bool) { return keys[r], true })
		}
	})
	b.Run("inserts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Clear()
			for r, k := range keys {
				s.Insert(int32(r), k)
			}
		}
	})
	sl := make([]keyRow, benchRows)
	b.Run("sort", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r, k := range keys {
				sl[r] = keyRow{k, int32(r)}
			}
			slices.SortFunc(sl, cmpKeyRow)
		}
	})
}

// BenchmarkSortedMark: a range of 1/30 of 50 000 rows (keys 1..60, the
// range [59, 60]) marked in a row bitmap by MarkTo (`tickwork`, the
// bitmap cleared after) against the Seek/Next walk of the same rows that
// only counts them (`walk`: the chain of loads MarkTo's segments overlap).
func BenchmarkSortedMark(b *testing.B) {
	const rows, capacity = 50_000, 53_248
	s, _ := NewSorted[int32](capacity)
	rng := rand.New(rand.NewPCG(1, 2))
	for r := range int32(rows) {
		s.Insert(r, int32(rng.IntN(60)+1))
	}
	mark := make([]uint64, capacity/64)
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lo, hi := s.MarkTo(mark, s.Seek(59), 60)
			clear(mark[lo : hi+1])
		}
	})
	b.Run("walk", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			for r := s.Seek(59); r != NoRow && s.keys[r] <= 60; r = s.next[r] {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no rows")
		}
	})
}

// BenchmarkGridRefile is the refile of the rows that cross a cell in a
// tick of a crowded world, the arena's shape: 100 000 rows over 32 × 32
// cells of side 64, 750 rows a tick (rows in a random order, as a
// sync's marks give them, ascending within the batch) each moving to a
// neighbouring cell, on this layout (tickwork: runs with swap-remove)
// and on the intrusive linked lists it replaced (linked). ns/op is one
// tick's 750 refiles; 0 B/op.
func BenchmarkGridRefile(b *testing.B) {
	const n, crossings, side = 100_000, 750, 2048
	rng := rand.New(rand.NewPCG(9, 9))
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		xs[i], ys[i] = rng.Float32()*side, rng.Float32()*side
	}
	const ticks = 64
	batches := make([][]int32, ticks)
	for t := range batches {
		seen := map[int32]bool{}
		for len(seen) < crossings {
			seen[int32(rng.IntN(n))] = true
		}
		for r := range seen {
			batches[t] = append(batches[t], r)
		}
		slices.Sort(batches[t])
	}
	step := func(r int32, tick int) (float32, float32) {
		d := float32(64)
		if (int(r)+tick)&1 == 1 {
			d = -64
		}
		x := xs[r] + d
		if x < 0 || x >= side {
			x = xs[r] - d
		}
		xs[r] = x
		return x, ys[r]
	}
	b.Run("tickwork", func(b *testing.B) {
		g, _ := NewGrid(n, 64)
		for i := range int32(n) {
			g.Insert(i, xs[i], ys[i])
		}
		b.ReportAllocs()
		tick := 0
		for b.Loop() {
			for _, r := range batches[tick%ticks] {
				x, y := step(r, tick)
				g.Update(r, x, y)
			}
			tick++
		}
	})
	b.Run("linked", func(b *testing.B) {
		g, _ := newLinkedGrid(n, 64)
		for i := range int32(n) {
			g.Insert(i, xs[i], ys[i])
		}
		b.ReportAllocs()
		tick := 0
		for b.Loop() {
			for _, r := range batches[tick%ticks] {
				x, y := step(r, tick)
				g.Update(r, x, y)
			}
			tick++
		}
	})
}

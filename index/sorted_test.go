package index

import (
	"errors"
	"math"
	"testing"
)

// sortedOps drives s and the scan model m with the same calls, comparing
// every walk after each: ascending (First/Next), descending by runs
// (LastRun/PrevRun), Prev/Last, Seek and SeekAfter for every key of the
// universe and every row.
func sortedOps[K Ordered](t *testing.T, o src, capacity int, keys []K) {
	t.Helper()
	s, err := NewSorted[K](capacity)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newScanSorted[K](capacity)
	for step := 0; !o.done(); step++ {
		row := pickRow(o, capacity)
		k := keys[o.n(len(keys))]
		switch op := o.n(20); {
		case op < 8:
			if _, ok := m.Key(row); ok {
				mustPanic(t, "filed already", func() { s.Insert(row, k) })
				continue
			}
			s.Insert(row, k)
			m.Insert(row, k)
		case op < 12:
			if a, b := s.Remove(row), m.Remove(row); a != b {
				t.Fatalf("step %d: Remove(%d) = %v, model %v", step, row, a, b)
			}
		case op < 19:
			if a, b := s.Update(row, k), m.Update(row, k); a != b {
				t.Fatalf("step %d: Update(%d, %v) = %v, model %v", step, row, k, a, b)
			}
		default:
			if o.n(4) == 0 {
				s.Clear()
				m.Clear()
			} else {
				s.Rebuild(m.Key) // the model's rows, from scratch
			}
		}
		checkSorted(t, step, s, m, keys)
	}
}

func checkSorted[K Ordered](t *testing.T, step int, s *Sorted[K], m *scanSorted[K], keys []K) {
	t.Helper()
	if s.Len() != m.Len() {
		t.Fatalf("step %d: Len %d, model %d", step, s.Len(), m.Len())
	}
	capacity := len(m.f.keys)
	for r := int32(0); int(r) < capacity; r++ {
		a, aok := s.Key(r)
		b, bok := m.Key(r)
		if aok != bok || !same(a, b) {
			t.Fatalf("step %d: Key(%d) = %v %v, model %v %v", step, r, a, aok, b, bok)
		}
	}
	// Ascending, with Prev and Last checked against it.
	var walk []int32
	x, y := s.First(), m.First()
	for {
		if x != y {
			t.Fatalf("step %d: ascending walk %v then %d, model %d", step, walk, x, y)
		}
		if x == NoRow {
			break
		}
		if len(walk) > capacity {
			t.Fatalf("step %d: ascending walk longer than the capacity: %v", step, walk)
		}
		walk = append(walk, x)
		x, y = s.Next(x), m.Next(y)
	}
	if len(walk) != m.Len() {
		t.Fatalf("step %d: walk of %d rows, %d filed", step, len(walk), m.Len())
	}
	last := NoRow
	for i, r := range walk {
		want := NoRow
		if i > 0 {
			want = walk[i-1]
		}
		if p := s.Prev(r); p != want {
			t.Fatalf("step %d: Prev(%d) = %d, want %d", step, r, p, want)
		}
		last = r
	}
	if s.Last() != last {
		t.Fatalf("step %d: Last %d, want %d", step, s.Last(), last)
	}
	// Descending by runs.
	x, y = s.LastRun(), m.LastRun()
	for n := 0; ; n++ {
		if x != y || n > capacity {
			t.Fatalf("step %d: descending run %d: %d, model %d", step, n, x, y)
		}
		if x == NoRow {
			break
		}
		x, y = s.PrevRun(x), m.PrevRun(y)
	}
	for _, r := range walk {
		if a, b := s.PrevRun(r), m.PrevRun(r); a != b {
			t.Fatalf("step %d: PrevRun(%d) = %d, model %d", step, r, a, b)
		}
	}
	for _, k := range keys {
		if a, b := s.Seek(k), m.Seek(k); a != b {
			t.Fatalf("step %d: Seek(%v) = %d, model %d", step, k, a, b)
		}
		for r := int32(-1); int(r) <= capacity; r++ {
			if a, b := s.SeekAfter(k, r), m.SeekAfter(k, r); a != b {
				t.Fatalf("step %d: SeekAfter(%v, %d) = %d, model %d", step, k, r, a, b)
			}
		}
	}
}

func floatKeys() []float32 {
	return append([]float32{2, 3, -7, 1e-40, -1e30}, specialF32...)
}

func int8Keys() []int8 { return []int8{math.MinInt8, -1, 0, 1, 2, 3, math.MaxInt8} }

// TestSortedModel: ties (few keys), NaN, ±0, ±Inf, tiny and huge keys,
// integer extremes, rows at 0 and capacity-1.
func TestSortedModel(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		sortedOps(t, newRandSrc(seed, 1200), 40, floatKeys())
		sortedOps(t, newRandSrc(seed, 1200), 40, int8Keys())
		sortedOps(t, newRandSrc(seed, 200), 1, []uint64{0, math.MaxUint64})
	}
}

// TestSortedLarge: long runs of one key (the run search past runSteps)
// and a skiplist of several levels.
func TestSortedLarge(t *testing.T) {
	const capacity = 3000
	s, _ := NewSorted[float64](capacity)
	m, _ := newScanSorted[float64](capacity)
	o := newRandSrc(11, 0)
	for i := 0; i < 3*capacity; i++ {
		row := int32(o.n(capacity))
		k := float64(o.n(4))
		if i%3 == 0 {
			k = float64(o.n(1000)) / 7
		}
		s.Update(row, k)
		m.Update(row, k)
		if i%4 == 0 {
			r := int32(o.n(capacity))
			s.Remove(r)
			m.Remove(r)
		}
	}
	x, y := s.LastRun(), m.LastRun()
	for n := 0; x != NoRow || y != NoRow; n++ {
		if x != y || n > capacity {
			t.Fatalf("descending runs: %d, model %d", x, y)
		}
		x, y = s.PrevRun(x), m.PrevRun(y)
	}
	x, y = s.First(), m.First()
	for n := 0; x != NoRow || y != NoRow; n++ {
		if x != y || n > capacity {
			t.Fatalf("ascending walk: %d, model %d", x, y)
		}
		if a, b := s.PrevRun(x), m.PrevRun(y); a != b {
			t.Fatalf("PrevRun(%d) = %d, model %d", x, a, b)
		}
		x, y = s.Next(x), m.Next(y)
	}
	for _, k := range []float64{-1, 0, 1, 2, 3, 4, 10, 142.71, math.NaN()} {
		if a, b := s.Seek(k), m.Seek(k); a != b {
			t.Fatalf("Seek(%v) = %d, model %d", k, a, b)
		}
	}
}

func FuzzSorted(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		sortedOps(t, &byteSrc{b: b}, 13, floatKeys())
	})
}

func TestSortedUpdateTie(t *testing.T) {
	s, _ := NewSorted[float32](8)
	s.Insert(1, 0)
	s.Insert(2, 0)
	s.Insert(3, 5)
	if s.Update(1, float32(math.Copysign(0, -1))) {
		t.Fatal("Update of +0 to -0 moved the row")
	}
	if k, _ := s.Key(1); !math.Signbit(float64(k)) {
		t.Fatal("Update of +0 to -0 did not store -0")
	}
	if !s.Update(1, 1) || s.First() != 2 || s.Next(2) != 1 {
		t.Fatalf("Update(1, 1): walk %d %d, want 2 1", s.First(), s.Next(2))
	}
}

func TestSortedAllocs(t *testing.T) {
	const capacity = 1000
	s, _ := NewSorted[float32](capacity)
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		i++
		r := int32(i*37) % capacity
		s.Update(r, float32(i%17))
		s.Remove((r + 1) % capacity)
		s.Insert((r+1)%capacity, float32(i%5))
		for w, n := s.First(), 0; w != NoRow && n < 10; w, n = s.Next(w), n+1 {
		}
		for w, n := s.LastRun(), 0; w != NoRow && n < 10; w, n = s.PrevRun(w), n+1 {
		}
		s.Seek(3)
		s.SeekAfter(3, r)
		if i%50 == 0 {
			s.Rebuild(func(r int32) (float32, bool) { return float32(r % 9), r%3 != 0 })
		}
		s.Key(r)
		s.Prev(r)
		s.Last()
		if i%70 == 0 {
			s.Clear()
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a run, want 0", allocs)
	}
}

func TestSortedPanics(t *testing.T) {
	if _, err := NewSorted[int32](0); !errors.Is(err, ErrCapacity) {
		t.Fatalf("NewSorted(0): %v, want ErrCapacity", err)
	}
	s, _ := NewSorted[int32](4)
	s.Insert(1, 5)
	mustPanic(t, "Insert of row 1, which is filed already", func() { s.Insert(1, 6) })
	mustPanic(t, "Insert of row 4 out of range 0..3", func() { s.Insert(4, 6) })
	mustPanic(t, "Remove of row -1 out of range", func() { s.Remove(-1) })
	mustPanic(t, "Update of row 4 out of range", func() { s.Update(4, 1) })
	mustPanic(t, "Sorted.Next of an unfiled row", func() { s.Next(2) })
	mustPanic(t, "Sorted.Prev of an unfiled row", func() { s.Prev(2) })
	mustPanic(t, "Sorted.PrevRun of an unfiled row", func() { s.PrevRun(2) })
}

package index

import (
	"math"
	"math/rand/v2"
	"testing"
)

// markWalk is MarkTo's model: the rows from from to the last of key <= hi
// (every row when !bounded) by Next, as a bitmap, with the least and
// greatest word set.
func markWalk[K Ordered](s *Sorted[K], words int, from int32, hi K, bounded bool) ([]uint64, int32, int32) {
	want, lo, hiw := make([]uint64, words), int32(words), int32(-1)
	for r := from; r != NoRow; r = s.Next(r) {
		if k, _ := s.Key(r); bounded && Compare(k, hi) > 0 {
			break
		}
		want[r>>6] |= 1 << (uint32(r) & 63)
		lo, hiw = min(lo, r>>6), max(hiw, r>>6)
	}
	return want, lo, hiw
}

// checkMarks compares MarkTo (or MarkToEnd) from every Seek of the keys
// in ks to every upper bound in ks with its model, and that each call
// sets only the bits of its rows in a clear bitmap.
func checkMarks[K Ordered](t *testing.T, s *Sorted[K], capacity int, ks []K) {
	t.Helper()
	words := (capacity + 63) / 64
	mark := make([]uint64, words)
	for _, a := range ks {
		from := s.Seek(a)
		for j := 0; j <= len(ks); j++ {
			var lo, hi int32
			var want []uint64
			var wlo, whi int32
			if j == len(ks) {
				lo, hi = s.MarkToEnd(mark, from)
				want, wlo, whi = markWalk(s, words, from, a, false)
			} else {
				lo, hi = s.MarkTo(mark, from, ks[j])
				want, wlo, whi = markWalk(s, words, from, ks[j], true)
			}
			if lo != wlo || hi != whi {
				t.Fatalf("from Seek(%v), bound %d: words [%d, %d], want [%d, %d]", a, j, lo, hi, wlo, whi)
			}
			for w := range mark {
				if mark[w] != want[w] {
					t.Fatalf("from Seek(%v), bound %d: word %d = %#x, want %#x", a, j, w, mark[w], want[w])
				}
			}
			clear(mark)
		}
	}
}

// TestSortedMarkToMatchesWalk: MarkTo and MarkToEnd set exactly the bits
// of the rows a Seek/Next walk passes up to the bound, over ranges of
// a few rows to many fence batches (runs of 2 000 rows a key), after
// removes and updates, with NaN, ±0 and ±Inf keys.
func TestSortedMarkToMatchesWalk(t *testing.T) {
	const capacity = 20_000 + 37 // not a whole word
	rng := rand.New(rand.NewPCG(7, 11))
	s, err := NewSorted[int32](capacity)
	if err != nil {
		t.Fatal(err)
	}
	for r := range int32(capacity) {
		if rng.IntN(20) != 0 {
			s.Insert(r, int32(rng.IntN(10)))
		}
	}
	ks := []int32{-1, 0, 1, 3, 4, 8, 9, 10}
	checkMarks(t, s, capacity, ks)
	for range 3000 {
		r := int32(rng.IntN(capacity))
		if rng.IntN(3) == 0 {
			s.Remove(r)
		} else {
			s.Update(r, int32(rng.IntN(10)))
		}
	}
	checkMarks(t, s, capacity, ks)

	f, err := NewSorted[float32](300)
	if err != nil {
		t.Fatal(err)
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	fk := []float32{nan, -inf, inf, 0, float32(math.Copysign(0, -1)), 1, -1, 2.5}
	for r := range int32(300) {
		f.Insert(r, fk[rng.IntN(len(fk))])
	}
	checkMarks(t, f, 300, fk)
}

// TestSortedMarkToEdges: a walk from NoRow sets nothing, a short bitmap
// or an unfiled start panics with the fix.
func TestSortedMarkToEdges(t *testing.T) {
	s, _ := NewSorted[int32](130)
	s.Insert(5, 1)
	mark := make([]uint64, 3)
	if lo, hi := s.MarkTo(mark, NoRow, 9); lo != 3 || hi != -1 {
		t.Fatalf("from NoRow: words [%d, %d], want [3, -1]", lo, hi)
	}
	if lo, hi := s.MarkTo(mark, s.First(), 0); lo != 3 || hi != -1 || mark[0] != 0 {
		t.Fatalf("a bound below the first key: words [%d, %d], mark %#x", lo, hi, mark[0])
	}
	mustPanic(t, "size mark (capacity+63)/64", func() { s.MarkTo(mark[:2], s.First(), 9) })
	mustPanic(t, "start at First or Seek", func() { s.MarkToEnd(mark, 6) })
}

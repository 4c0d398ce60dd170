package index

import (
	"slices"
	"sync"
	"testing"
)

// TestConcurrentReads: readers of every kind at once, while none writes
// (package doc, Contract); run with -race. Each reader's results equal
// the ones taken alone.
func TestConcurrentReads(t *testing.T) {
	const capacity = 5000
	h, _ := NewHash[int32](capacity)
	s, _ := NewSorted[float32](capacity)
	g, _ := NewGrid(capacity, 16)
	u, _ := NewUnique[int32](capacity)
	for r := int32(0); r < capacity; r++ {
		h.Insert(r, r%7)
		s.Insert(r, float32(r%13))
		g.Insert(r, float32(r%71)*3, float32(r/71)*3)
		_ = u.Insert(r, r*3)
	}
	read := func() []int32 {
		var out []int32
		for k := int32(0); k < 7; k++ {
			for r := h.First(k); r != NoRow; r = h.Next(r) {
				out = append(out, r)
			}
		}
		for r := s.LastRun(); r != NoRow; r = s.PrevRun(r) {
			out = append(out, r, s.Seek(float32(r%13)), s.SeekAfter(2, r))
		}
		out = g.AppendBox(out, 10, 10, 90, 90)
		out = g.AppendRadius(out, 50, 50, 40)
		return append(out, u.Find(300))
	}
	want := read()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := read(); !slices.Equal(got, want) {
				t.Errorf("a concurrent reader's results differ from a lone reader's")
			}
		})
	}
	wg.Wait()
}

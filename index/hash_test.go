package index

import (
	"errors"
	"math"
	"slices"
	"testing"
)

type pairKey struct {
	A int8
	F float32
}

var specialF32 = []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, math.SmallestNonzeroFloat32}

func pairKeys() []pairKey {
	var ks []pairKey
	for a := int8(0); a < 3; a++ {
		for _, f := range specialF32 {
			ks = append(ks, pairKey{a, f})
		}
	}
	return ks
}

func intKeys(n int) []int16 {
	ks := make([]int16, n)
	for i := range ks {
		ks[i] = int16(i*7 - 3)
	}
	return ks
}

// hashOps drives h and the scan model m with the same random Insert,
// Remove, Update and Clear calls, comparing every walk after each.
func hashOps[K comparable](t *testing.T, s src, capacity int, keys []K) {
	t.Helper()
	h, err := NewHash[K](capacity)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newScanHash[K](capacity)
	for step := 0; !s.done(); step++ {
		row := pickRow(s, capacity)
		k := keys[s.n(len(keys))]
		switch op := s.n(20); {
		case op < 8:
			if _, ok := m.Key(row); ok {
				mustPanic(t, "filed already", func() { h.Insert(row, k) })
				continue
			}
			h.Insert(row, k)
			m.Insert(row, k)
		case op < 12:
			if a, b := h.Remove(row), m.Remove(row); a != b {
				t.Fatalf("step %d: Remove(%d) = %v, model %v", step, row, a, b)
			}
		case op < 19:
			if a, b := h.Update(row, k), m.Update(row, k); a != b {
				t.Fatalf("step %d: Update(%d, %v) = %v, model %v", step, row, k, a, b)
			}
		default:
			if s.n(4) == 0 {
				h.Clear()
				m.Clear()
			}
		}
		checkHash(t, step, h, m, keys)
	}
}

func checkHash[K comparable](t *testing.T, step int, h *Hash[K], m *scanHash[K], keys []K) {
	t.Helper()
	if h.Len() != m.Len() {
		t.Fatalf("step %d: Len %d, model %d", step, h.Len(), m.Len())
	}
	capacity := len(m.f.keys)
	for r := int32(0); int(r) < capacity; r++ {
		a, aok := h.Key(r)
		b, bok := m.Key(r)
		if aok != bok || !same(a, b) {
			t.Fatalf("step %d: Key(%d) = %v %v, model %v %v", step, r, a, aok, b, bok)
		}
		if aok {
			if x, y := h.Next(r), m.Next(r); x != y {
				t.Fatalf("step %d: Next(%d) = %d, model %d", step, r, x, y)
			}
		}
	}
	for _, k := range keys {
		if x, y := h.First(k), m.First(k); x != y {
			t.Fatalf("step %d: First(%v) = %d, model %d", step, k, x, y)
		}
		if x, y := h.Count(k), m.Count(k); x != y {
			t.Fatalf("step %d: Count(%v) = %d, model %d", step, k, x, y)
		}
	}
	// Groups: every filed row once, each group's first the model's lowest
	// row of its key, its length the model's count.
	var firsts []int32
	total := 0
	for i := 0; i < h.Groups(); i++ {
		k, first := h.Group(i)
		n := h.GroupLen(i)
		total += n
		firsts = append(firsts, first)
		if k == k {
			if y := m.First(k); first != y {
				t.Fatalf("step %d: Group(%d) = (%v, %d), model's first %d", step, i, k, first, y)
			}
			if y := m.Count(k); n != y {
				t.Fatalf("step %d: GroupLen(%d) = %d, model's count of %v %d", step, i, n, k, y)
			}
		} else if n != 1 {
			t.Fatalf("step %d: group %d of a key not == itself (%v) has %d rows, want 1", step, i, k, n)
		}
		rk, _ := m.Key(first)
		if k == k && rk != k {
			t.Fatalf("step %d: Group(%d)'s key %v, its first row's %v", step, i, k, rk)
		}
	}
	if total != m.Len() {
		t.Fatalf("step %d: groups hold %d rows, model %d", step, total, m.Len())
	}
	var want []int32
	for r := int32(0); int(r) < capacity; r++ {
		k, ok := m.Key(r)
		if ok && (k != k || m.First(k) == r) {
			want = append(want, r)
		}
	}
	slices.Sort(firsts)
	if !slices.Equal(firsts, want) {
		t.Fatalf("step %d: groups' first rows %v, model %v", step, firsts, want)
	}
}

// TestHashModel: colliding small integer keys (low and high cardinality),
// and struct keys holding NaN, ±0, ±Inf and tiny and huge floats.
func TestHashModel(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		hashOps(t, newRandSrc(seed, 1500), 40, intKeys(3))
		hashOps(t, newRandSrc(seed, 1500), 64, intKeys(40))
		hashOps(t, newRandSrc(seed, 1500), 33, pairKeys())
		hashOps(t, newRandSrc(seed, 200), 1, intKeys(2))
	}
}

// TestHashLarge: out-of-order inserts into long lists (the four cursors
// of pred) at a capacity where the list and row distances differ.
func TestHashLarge(t *testing.T) {
	const capacity = 3000
	h, _ := NewHash[int16](capacity)
	m, _ := newScanHash[int16](capacity)
	s := newRandSrc(7, 0)
	for i := 0; i < 4*capacity; i++ {
		row := int32(s.n(capacity))
		k := int16(s.n(3))
		if i%5 == 0 {
			k = int16(1000 + s.n(2000))
		}
		h.Update(row, k)
		m.Update(row, k)
		if i%2 == 0 {
			r := int32(s.n(capacity))
			h.Remove(r)
			m.Remove(r)
		}
	}
	checkHash(t, 0, h, m, intKeys(3))
	for r := int32(0); r < capacity; r++ {
		if k, ok := m.Key(r); ok && h.First(k) != m.First(k) {
			t.Fatalf("First(%d) = %d, model %d", k, h.First(k), m.First(k))
		}
	}
}

// TestHashGroupOrder: the groups' order is a function of the calls
// alone: two indexes (each with its own random hash seed) given the same
// calls list the same groups in the same order.
func TestHashGroupOrder(t *testing.T) {
	a, _ := NewHash[int16](500)
	b, _ := NewHash[int16](500)
	o := newRandSrc(5, 0)
	for i := 0; i < 5000; i++ {
		row, k := int32(o.n(500)), int16(o.n(60))
		if o.n(3) == 0 {
			a.Remove(row)
			b.Remove(row)
		} else {
			a.Update(row, k)
			b.Update(row, k)
		}
	}
	if a.Groups() != b.Groups() || a.Groups() < 30 {
		t.Fatalf("groups %d and %d", a.Groups(), b.Groups())
	}
	for i := 0; i < a.Groups(); i++ {
		ka, fa := a.Group(i)
		kb, fb := b.Group(i)
		if ka != kb || fa != fb {
			t.Fatalf("Group(%d) = (%d, %d) and (%d, %d)", i, ka, fa, kb, fb)
		}
	}
}

func FuzzHash(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte("insert remove update the rows of a hash index"))
	f.Fuzz(func(t *testing.T, b []byte) {
		hashOps(t, &byteSrc{b: b}, 17, pairKeys())
		hashOps(t, &byteSrc{b: b}, 9, intKeys(3))
	})
}

func TestHashAllocs(t *testing.T) {
	const capacity = 1000
	h, _ := NewHash[pairKey](capacity)
	ph, _ := NewHash[*int](capacity)
	x := new(int)
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		i++
		r := int32(i*37) % capacity
		k := pairKey{int8(i % 5), float32(i % 3)}
		h.Update(r, k)
		h.Remove((r + 1) % capacity)
		h.Insert((r+1)%capacity, k)
		for w := h.First(k); w != NoRow; w = h.Next(w) {
		}
		h.Count(k)
		h.Key(r)
		for g := 0; g < h.Groups(); g++ {
			h.Group(g)
			h.GroupLen(g)
		}
		h.Remove((r + 1) % capacity)
		h.Remove((r + 500) % capacity)
		ph.Update(r, x)
		ph.First(x)
		ph.Remove(r)
		if i%50 == 0 {
			ph.Clear()
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a run, want 0", allocs)
	}
}

func TestHashPanics(t *testing.T) {
	if _, err := NewHash[int](0); !errors.Is(err, ErrCapacity) {
		t.Fatalf("NewHash(0): %v, want ErrCapacity", err)
	}
	h, _ := NewHash[int](4)
	h.Insert(1, 5)
	mustPanic(t, "Insert of row 1, which is filed already", func() { h.Insert(1, 6) })
	mustPanic(t, "Insert of row 4 out of range 0..3", func() { h.Insert(4, 6) })
	mustPanic(t, "Remove of row -1 out of range", func() { h.Remove(-1) })
	mustPanic(t, "Update of row 4 out of range", func() { h.Update(4, 1) })
	mustPanic(t, "Key of row 9 out of range", func() { h.Key(9) })
	mustPanic(t, "Hash.Next of an unfiled row", func() { h.Next(2) })
	mustPanic(t, "Hash.Group(1) out of range 0..0", func() { h.Group(1) })
	mustPanic(t, "Hash.GroupLen(-1) out of range", func() { h.GroupLen(-1) })
}

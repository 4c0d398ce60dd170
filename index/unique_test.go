package index

import (
	"errors"
	"testing"
)

func sameErr(a, b error) bool {
	var da, db *DuplicateError
	if errors.As(a, &da) != errors.As(b, &db) {
		return false
	}
	if da == nil {
		return a == nil && b == nil
	}
	return da.Row == db.Row && da.Held == db.Held && same(da.Key, db.Key) && a.Error() == b.Error()
}

// uniqueOps drives u and the scan model m with the same calls, comparing
// every result, error and lookup after each.
func uniqueOps[K comparable](t *testing.T, s src, capacity int, keys []K) {
	t.Helper()
	u, err := NewUnique[K](capacity)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newScanUnique[K](capacity)
	for step := 0; !s.done(); step++ {
		row := pickRow(s, capacity)
		k := keys[s.n(len(keys))]
		switch op := s.n(20); {
		case op < 8:
			if _, ok := m.Key(row); ok {
				if m.Find(k) == NoRow {
					mustPanic(t, "filed already", func() { _ = u.Insert(row, k) })
					continue
				}
			}
			if a, b := u.Insert(row, k), m.Insert(row, k); !sameErr(a, b) {
				t.Fatalf("step %d: Insert(%d, %v) = %v, model %v", step, row, k, a, b)
			}
		case op < 12:
			if a, b := u.Remove(row), m.Remove(row); a != b {
				t.Fatalf("step %d: Remove(%d) = %v, model %v", step, row, a, b)
			}
		case op < 19:
			if a, b := u.Update(row, k), m.Update(row, k); !sameErr(a, b) {
				t.Fatalf("step %d: Update(%d, %v) = %v, model %v", step, row, k, a, b)
			}
		default:
			u.Clear()
			m.Clear()
		}
		if u.Len() != m.Len() {
			t.Fatalf("step %d: Len %d, model %d", step, u.Len(), m.Len())
		}
		for r := int32(0); int(r) < capacity; r++ {
			a, aok := u.Key(r)
			b, bok := m.Key(r)
			if aok != bok || !same(a, b) {
				t.Fatalf("step %d: Key(%d) = %v %v, model %v %v", step, r, a, aok, b, bok)
			}
		}
		for _, k := range keys {
			if a, b := u.Find(k), m.Find(k); a != b {
				t.Fatalf("step %d: Find(%v) = %d, model %d", step, k, a, b)
			}
		}
	}
}

func TestUniqueModel(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		uniqueOps(t, newRandSrc(seed, 1500), 30, intKeys(12))
		uniqueOps(t, newRandSrc(seed, 1500), 30, pairKeys())
	}
}

func FuzzUnique(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		uniqueOps(t, &byteSrc{b: b}, 11, pairKeys())
	})
}

func TestUniqueDuplicate(t *testing.T) {
	u, _ := NewUnique[string](8)
	if err := u.Insert(3, "ada"); err != nil {
		t.Fatal(err)
	}
	err := u.Insert(5, "ada")
	var d *DuplicateError
	if !errors.Is(err, ErrDuplicateKey) || !errors.As(err, &d) || d.Row != 5 || d.Held != 3 || d.Key != "ada" {
		t.Fatalf("Insert of a held key: %#v, want *DuplicateError{Row: 5, Held: 3, Key: ada}", err)
	}
	if _, ok := u.Key(5); ok {
		t.Fatal("a refused Insert filed the row")
	}
	if err := u.Insert(5, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := u.Update(5, "ada"); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("Update to a held key: %v", err)
	}
	if k, _ := u.Key(5); k != "bob" || u.Find("bob") != 5 || u.Find("ada") != 3 {
		t.Fatalf("a refused Update moved the row: Key(5) = %q", k)
	}
	if err := u.Update(3, "ada"); err != nil {
		t.Fatalf("Update of a row to its own key: %v", err)
	}
	if _, err := NewUnique[int](-1); !errors.Is(err, ErrCapacity) {
		t.Fatalf("NewUnique(-1): %v", err)
	}
	mustPanic(t, "Insert of row 8 out of range 0..7", func() { _ = u.Insert(8, "eve") })
	mustPanic(t, "Insert of row 3, which is filed already", func() { _ = u.Insert(3, "eve") })
}

func TestUniqueAllocs(t *testing.T) {
	u, _ := NewUnique[int64](1000)
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		i++
		r := int32(i % 1000)
		u.Remove(r)
		_ = u.Insert(r, int64(2*i))
		_ = u.Update(r, int64(2*i+1))
		u.Find(int64(i))
		u.Key(r)
		if i%70 == 0 {
			u.Clear()
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations a run, want 0", allocs)
	}
}

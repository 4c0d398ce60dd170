package index

// Sorted is an ordered index: rows in (key, row) order.
type scanSorted[K Ordered] struct {
	f filing[K]
}

// newScanSorted returns an empty sorted index for rows 0..capacity-1, or
// ErrCapacity.
func newScanSorted[K Ordered](capacity int) (*scanSorted[K], error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	return &scanSorted[K]{f: newFiling[K](capacity)}, nil
}

// Insert files row under k. It panics when row is filed already.
func (s *scanSorted[K]) Insert(row int32, k K) { s.f.file("Insert", row, k) }

// Remove unfiles row; false when it was not filed.
func (s *scanSorted[K]) Remove(row int32) bool { return s.f.unfile(row) }

// Update files row under k; it reports whether row moved (a key that
// compares equal, -0 for +0, does not move it, but is stored).
func (s *scanSorted[K]) Update(row int32, k K) bool {
	old, ok := s.f.key(row)
	if ok && Compare(old, k) == 0 {
		s.f.keys[row] = k
		return false
	}
	if ok {
		s.f.unfile(row)
	}
	s.f.file("Update", row, k)
	return true
}

// Key returns row's key and whether row is filed.
func (s *scanSorted[K]) Key(row int32) (K, bool) { return s.f.key(row) }

// Len returns the number of filed rows.
func (s *scanSorted[K]) Len() int { return s.f.n }

// Clear unfiles every row.
func (s *scanSorted[K]) Clear() { s.f.clear() }

// First returns the first row in (key, row) order, or NoRow.
func (s *scanSorted[K]) First() int32 { return s.best(func(K, int32) bool { return true }) }

// Next returns the row after row in (key, row) order, or NoRow; row must
// be filed.
func (s *scanSorted[K]) Next(row int32) int32 {
	k, ok := s.f.key(row)
	if !ok {
		panic("index: Sorted.Next of an unfiled row: walk from First or Seek")
	}
	return s.SeekAfter(k, row)
}

// Seek returns the first row whose key is >= k, or NoRow.
func (s *scanSorted[K]) Seek(k K) int32 {
	return s.best(func(rk K, _ int32) bool { return Compare(rk, k) >= 0 })
}

// SeekAfter returns the first row strictly after (k, row) in (key, row)
// order, or NoRow: the start of a keyset page. row need not be filed.
func (s *scanSorted[K]) SeekAfter(k K, row int32) int32 {
	return s.best(func(rk K, r int32) bool {
		c := Compare(rk, k)
		return c > 0 || c == 0 && r > row
	})
}

// LastRun returns the lowest row of the greatest key, or NoRow: with
// PrevRun and Next, a descending walk whose ties stay in ascending row
// (the query order rule).
func (s *scanSorted[K]) LastRun() int32 {
	r := s.lastBelow(nil)
	if r == NoRow {
		return NoRow
	}
	return s.Seek(s.f.keys[r])
}

// PrevRun returns the lowest row of the key before row's key, or NoRow;
// row must be filed.
func (s *scanSorted[K]) PrevRun(row int32) int32 {
	k, ok := s.f.key(row)
	if !ok {
		panic("index: Sorted.PrevRun of an unfiled row: walk from LastRun")
	}
	r := s.lastBelow(&k)
	if r == NoRow {
		return NoRow
	}
	return s.Seek(s.f.keys[r])
}

// best returns the least (key, row) among filed rows that pass ok.
func (s *scanSorted[K]) best(ok func(K, int32) bool) int32 {
	b := NoRow
	for r := int32(0); int(r) < len(s.f.keys); r++ {
		if !s.f.isFiled(r) || !ok(s.f.keys[r], r) {
			continue
		}
		if b == NoRow || Compare(s.f.keys[r], s.f.keys[b]) < 0 {
			b = r
		}
	}
	return b
}

// lastBelow returns a row of the greatest key < *k (any key when k is nil).
func (s *scanSorted[K]) lastBelow(k *K) int32 {
	b := NoRow
	for r := int32(0); int(r) < len(s.f.keys); r++ {
		if !s.f.isFiled(r) || k != nil && Compare(s.f.keys[r], *k) >= 0 {
			continue
		}
		if b == NoRow || Compare(s.f.keys[r], s.f.keys[b]) > 0 {
			b = r
		}
	}
	return b
}

package index

// Hash is an equality index: rows by key, many rows per key. Contract
// version: the walk is a scan; the kinds' real structures replace it
// behind the same methods.
type scanHash[K comparable] struct {
	f filing[K]
}

// newScanHash returns an empty hash index for rows 0..capacity-1, or
// ErrCapacity. It allocates everything the index will use.
func newScanHash[K comparable](capacity int) (*scanHash[K], error) {
	if err := checkCap(capacity); err != nil {
		return nil, err
	}
	return &scanHash[K]{f: newFiling[K](capacity)}, nil
}

// Insert files row under k. It panics when row is filed already.
func (h *scanHash[K]) Insert(row int32, k K) { h.f.file("Insert", row, k) }

// Remove unfiles row; false when it was not filed.
func (h *scanHash[K]) Remove(row int32) bool { return h.f.unfile(row) }

// Update files row under k, moving it from its old key; it reports
// whether anything changed (an unfiled row is filed).
func (h *scanHash[K]) Update(row int32, k K) bool {
	if old, ok := h.f.key(row); ok {
		if old == k {
			return false
		}
		h.f.unfile(row)
	}
	h.f.file("Update", row, k)
	return true
}

// Key returns row's key and whether row is filed.
func (h *scanHash[K]) Key(row int32) (K, bool) { return h.f.key(row) }

// Len returns the number of filed rows.
func (h *scanHash[K]) Len() int { return h.f.n }

// Clear unfiles every row.
func (h *scanHash[K]) Clear() { h.f.clear() }

// First returns the lowest row filed under k, or NoRow.
func (h *scanHash[K]) First(k K) int32 { return h.from(0, k) }

// Next returns the next higher row filed under row's key, or NoRow. row
// must be filed.
func (h *scanHash[K]) Next(row int32) int32 {
	k, ok := h.f.key(row)
	if !ok {
		panic("index: Hash.Next of an unfiled row: walk from First")
	}
	return h.from(row+1, k)
}

// Count returns the number of rows filed under k.
func (h *scanHash[K]) Count(k K) int {
	n := 0
	for r := h.First(k); r != NoRow; r = h.Next(r) {
		n++
	}
	return n
}

func (h *scanHash[K]) from(lo int32, k K) int32 {
	for r := lo; int(r) < len(h.f.keys); r++ {
		if h.f.isFiled(r) && h.f.keys[r] == k {
			return r
		}
	}
	return NoRow
}

package index

// Unique is a unique key index: at most one row per key.
type scanUnique[K comparable] struct {
	h *scanHash[K]
}

// newScanUnique returns an empty unique index for rows 0..capacity-1, or
// ErrCapacity.
func newScanUnique[K comparable](capacity int) (*scanUnique[K], error) {
	h, err := newScanHash[K](capacity)
	if err != nil {
		return nil, err
	}
	return &scanUnique[K]{h: h}, nil
}

// Insert files row under k, or returns a *DuplicateError (ErrDuplicateKey)
// and files nothing when another row holds k. It panics when row is filed.
func (u *scanUnique[K]) Insert(row int32, k K) error {
	if held := u.h.First(k); held != NoRow {
		u.h.f.check("Insert", row)
		return &DuplicateError{Row: row, Held: held, Key: k}
	}
	u.h.Insert(row, k)
	return nil
}

// Update files row under k, or returns a *DuplicateError and leaves row
// where it was when another row holds k.
func (u *scanUnique[K]) Update(row int32, k K) error {
	if held := u.h.First(k); held != NoRow && held != row {
		return &DuplicateError{Row: row, Held: held, Key: k}
	}
	u.h.Update(row, k)
	return nil
}

// Remove unfiles row; false when it was not filed.
func (u *scanUnique[K]) Remove(row int32) bool { return u.h.Remove(row) }

// Find returns the row holding k, or NoRow.
func (u *scanUnique[K]) Find(k K) int32 { return u.h.First(k) }

// Key returns row's key and whether row is filed.
func (u *scanUnique[K]) Key(row int32) (K, bool) { return u.h.Key(row) }

// Len returns the number of filed rows.
func (u *scanUnique[K]) Len() int { return u.h.Len() }

// Clear unfiles every row.
func (u *scanUnique[K]) Clear() { u.h.Clear() }

package index

// Unique is a unique key index: at most one row per key.
type Unique[K comparable] struct {
	h *Hash[K]
}

// NewUnique returns an empty unique index for rows 0..capacity-1, or
// ErrCapacity.
func NewUnique[K comparable](capacity int) (*Unique[K], error) {
	h, err := NewHash[K](capacity)
	if err != nil {
		return nil, err
	}
	return &Unique[K]{h: h}, nil
}

// Insert files row under k, or returns a *DuplicateError (ErrDuplicateKey)
// and files nothing when another row holds k. It panics when row is filed.
func (u *Unique[K]) Insert(row int32, k K) error {
	if held := u.h.First(k); held != NoRow {
		u.h.check("Insert", row)
		return &DuplicateError{Row: row, Held: held, Key: k}
	}
	u.h.Insert(row, k)
	return nil
}

// Update files row under k, or returns a *DuplicateError and leaves row
// where it was when another row holds k.
func (u *Unique[K]) Update(row int32, k K) error {
	if held := u.h.First(k); held != NoRow && held != row {
		return &DuplicateError{Row: row, Held: held, Key: k}
	}
	u.h.Update(row, k)
	return nil
}

// Remove unfiles row; false when it was not filed.
func (u *Unique[K]) Remove(row int32) bool { return u.h.Remove(row) }

// Find returns the row holding k, or NoRow.
func (u *Unique[K]) Find(k K) int32 { return u.h.First(k) }

// Key returns row's key and whether row is filed.
func (u *Unique[K]) Key(row int32) (K, bool) { return u.h.Key(row) }

// Len returns the number of filed rows.
func (u *Unique[K]) Len() int { return u.h.Len() }

// Clear unfiles every row.
func (u *Unique[K]) Clear() { u.h.Clear() }

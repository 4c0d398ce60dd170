package index

import (
	"errors"
	"fmt"
)

var (
	// ErrCapacity: a capacity below 1 or above MaxCapacity.
	ErrCapacity = errors.New("index: capacity out of range")
	// ErrCellSize: a grid cell size that is not finite or is below MinCell.
	ErrCellSize = errors.New("index: grid cell size must be finite and at least 2^-31")
	// ErrDuplicateKey: a unique index already holds the key on another row.
	ErrDuplicateKey = errors.New("index: duplicate key")
)

// MaxCapacity is the largest capacity an index takes: rows are int32.
const MaxCapacity = 1<<31 - 1

// NoRow is the row a walk returns at its end or when nothing matches.
const NoRow int32 = -1

// DuplicateError reports a key already held by another row of a unique
// index. errors.Is(err, ErrDuplicateKey) is true.
type DuplicateError struct {
	Row  int32 // the row refused
	Held int32 // the row that holds the key
	Key  any   // the key (boxed only when the error is made)
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("index: duplicate key %v: row %d holds it, row %d refused", e.Key, e.Held, e.Row)
}

// Is reports ErrDuplicateKey.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicateKey }

func checkCap(capacity int) error {
	if capacity < 1 || capacity > MaxCapacity {
		return fmt.Errorf("%w: %d (want 1..%d)", ErrCapacity, capacity, MaxCapacity)
	}
	return nil
}

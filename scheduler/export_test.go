package scheduler

// Sealed reports whether Seal succeeded (a test hook).
func (s *Scheduler) Sealed() bool { return s.sealed }

// The errors of calls out of order and of a nil event table (errors.go).
var (
	ErrSealed    = errSealed
	ErrNotSealed = errNotSealed
	ErrNilEvents = errNilEvents
)

package scheduler

// Sealed reports whether Seal succeeded (a test hook).
func (s *Scheduler) Sealed() bool { return s.sealed }

// The errors of calls out of order and of a nil event table (errors.go).
var (
	ErrSealed    = errSealed
	ErrNotSealed = errNotSealed
	ErrNilEvents = errNilEvents
)

// The report look-ups, for the tests (the face's FrameReport has its own).

// Counter returns the value in the last frame of the counter name of the
// system named system, and true; 0 and false when the system or its
// counter does not exist. A linear scan; allocates nothing.
func (r *FrameReport) Counter(system, name string) (int64, bool) {
	if s := r.System(system); s != nil {
		return s.Counter(name)
	}
	return 0, false
}

// Counter returns the value in the last frame of the system's counter
// name, and true; 0 and false when it has no such counter. A linear scan;
// allocates nothing.
func (s *SystemReport) Counter(name string) (int64, bool) {
	for i := range s.Counters {
		if s.Counters[i].Name == name {
			return s.Counters[i].Value, true
		}
	}
	return 0, false
}

// System returns the report of the system named name, or nil. A linear
// scan; allocates nothing.
func (r *FrameReport) System(name string) *SystemReport {
	for i := range r.Systems {
		if r.Systems[i].Name == name {
			return &r.Systems[i]
		}
	}
	return nil
}

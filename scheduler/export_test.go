package scheduler

// Sealed reports whether Seal succeeded (a test hook).
func (s *Scheduler) Sealed() bool { return s.sealed }

package scheduler

import (
	"slices"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
)

// bindChanges wires change detection at seal (the rule:
// docs/architecture.md, Change detection): every tracked column or
// added-row state a manifest names gets the world's change clock, and
// every system that writes a tracked column without stamping its rows
// (frame.Run.Stamps) bumps it after each run (frame.Run.Bumps).
func (s *Scheduler) bindChanges() {
	clock := s.env.ChangeClock()
	add := func(v *ephemeral.Versions) {
		if v != nil && !slices.Contains(s.versions, v) {
			s.versions = append(s.versions, v)
			v.SetClock(clock)
		}
	}
	for p := range s.phases {
		s.bindPhaseChanges(p, add)
	}
	for _, sub := range s.subs {
		for _, v := range sub.SubscribedVersions() {
			add(v)
		}
	}
}

func (s *Scheduler) bindPhaseChanges(p int, add func(*ephemeral.Versions)) {
	for _, e := range s.phases[p] {
		for _, r := range slices.Concat(e.man.Reads, e.man.Writes) {
			add(r.Table.ColumnVersions(r.Column))
		}
		for _, t := range e.man.Tables() {
			add(t.Added())
		}
		for _, r := range e.man.Writes {
			if v := r.Table.ColumnVersions(r.Column); v != nil && (!slices.Contains(e.run.Stamps, r) || slices.Contains(e.run.Bulk, r)) {
				e.run.Bumps = append(e.run.Bumps, frame.Bumper(v))
			}
		}
	}
}

// MarkAllChanged records a change of every live row of every tracked
// column and the addition of every live row of every table whose added
// rows are tracked, at the change clock's current value: what the runtime
// calls after restoring a snapshot or rewinding (docs/architecture.md,
// Change detection). Between frames only; allocates nothing.
func (s *Scheduler) MarkAllChanged() {
	for _, v := range s.versions {
		v.MarkAll()
	}
	for _, sub := range s.subs {
		sub.Reset()
	}
}

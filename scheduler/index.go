package scheduler

import (
	"slices"

	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/systems"
)

// indexSync is one sync a system's run owes an index: ix's key columns
// were written (marked: by a system that marks its rows), or its event
// table emitted into or consumed.
type indexSync struct {
	ix     systems.Index
	marked bool
	events bool
}

// SetIndexUpkeep gives the scheduler the world's indexes: after each
// system that writes a key column (or emits into or consumes an indexed
// event table) Frame syncs the index, after each playback and at frame
// start it calls u.Changed, and at the frame's event boundary
// u.Changed(..., true) (the rule: docs/architecture.md, Indexes). It
// returns an error after Seal. Set-up only.
func (s *Scheduler) SetIndexUpkeep(u systems.IndexUpkeep) error {
	if s.sealed {
		return errSealed
	}
	s.upkeep = u
	return nil
}

// indexSyncs returns the syncs e's runs owe, in index declaration order.
func (s *Scheduler) indexSyncs(e *entry) []indexSync {
	if s.upkeep == nil {
		return nil
	}
	var out []indexSync
	for _, ix := range s.upkeep.Indexes() {
		if ev := ix.IndexEvents(); ev != nil {
			if slices.Contains(e.man.Emits, ev) || slices.Contains(e.man.Consumes, ev) {
				out = append(out, indexSync{ix: ix, events: true})
			}
			continue
		}
		for _, c := range frame.KeyRefs(ix) {
			if slices.Contains(e.man.Writes, c) {
				out = append(out, indexSync{ix: ix, marked: slices.Contains(e.run.Maintains, frame.Index(ix))})
				break
			}
		}
	}
	return out
}

// syncAfter runs the syncs e owes after a run; the first error.
func (s *Scheduler) syncAfter(e *entry) error {
	var first error
	for _, y := range e.syncs {
		var err error
		switch {
		case y.events:
			err = y.ix.SyncEvents(e.sys.Name, false) // appended in place, or moved: SyncEvents tells
		case y.marked:
			err = y.ix.SyncMarked(e.sys.Name)
			if debugChecks && err == nil {
				err = e.debugMarks(y.ix) // docs/architecture.md, Debug build
			}
		default:
			err = y.ix.SyncAll(e.sys.Name)
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// changed runs the upkeep's Changed and keeps the frame's first index
// error.
func (s *Scheduler) changed(who string, boundary bool) {
	if s.upkeep == nil {
		return
	}
	if err := s.upkeep.Changed(who, boundary); err != nil && s.idxErr == nil {
		s.idxErr = err
	}
}

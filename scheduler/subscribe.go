package scheduler

import "github.com/tickwork/tickwork/systems"

// AddSubscriber adds a subscription that Frame syncs at its end, after
// FrameEnd's playback and the event frame, in the order added (the rule:
// docs/architecture.md, Subscriptions). It returns an error after Seal.
// Set-up only.
func (s *Scheduler) AddSubscriber(sub systems.Subscriber) error {
	if s.sealed {
		return errSealed
	}
	s.subs = append(s.subs, sub)
	return nil
}

// syncSubscribers syncs every subscription, each at a version of its own
// taken from the change clock, then moves the clock on once more, so
// that what the host stamps before the next frame is newer than every
// sync. Allocates nothing.
func (s *Scheduler) syncSubscribers() {
	if len(s.subs) == 0 {
		return
	}
	for _, sub := range s.subs {
		s.env.Change++
		sub.Sync(s.env.Change)
	}
	s.env.Change++
}

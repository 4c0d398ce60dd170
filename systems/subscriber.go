package systems

import "github.com/tickwork/tickwork/ephemeral"

// Subscriber is a world's side of one subscription (package tickwork's
// SubscribeFilter, SubscribeCount, SubscribeGroupSum, SubscribeTopN;
// scheduler.Scheduler.AddSubscriber takes it): a kept query result that
// the scheduler tells, at the end of every frame, after FrameEnd's
// playback, on the frame's goroutine, which rows the frame's bulk
// writers changed (the rule: docs/architecture.md, Subscriptions).
type Subscriber interface {
	// SubscribedVersions lists the change-detection state of the columns
	// the subscription reads (ephemeral.Column.Track): the seal gives
	// them the world's change clock, as for a change reader's.
	SubscribedVersions() []*ephemeral.Versions
	// Sync marks, for the subscription's next Read, the rows of the
	// chunks bumped whole since the previous Sync (every row before the
	// first); now is the sync's own change version: what was stamped
	// before it is older, what the host stamps after it newer. It
	// allocates nothing.
	Sync(now uint64)
	// Reset makes the next Sync mark every row of the table: what
	// a restore of a snapshot calls, since a restore replaces rows
	// without structural events.
	Reset()
}

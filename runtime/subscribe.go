package runtime

import "github.com/tickwork/tickwork/systems"

// Subscribe adds a subscription that the world syncs at the end of every
// frame (scheduler.Scheduler.AddSubscriber; the rule:
// docs/architecture.md, Subscriptions). The caller checks sub's table
// against b (OwnsTable) first. It records ErrBuilt after Build. Set-up
// only.
func (b *Builder) Subscribe(sub systems.Subscriber) {
	if b.usable() {
		b.subs = append(b.subs, sub)
	}
}

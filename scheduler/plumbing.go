package scheduler

import (
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
)

// ops is the snapshot side of a Scheduler (plumb.Scheduler): its clock,
// counters and playback, which only the runtime's snapshots call, through
// plumb.SchedulerOf.
type ops Scheduler

func init() {
	plumb.RegisterScheduler(func(s any) plumb.Scheduler { return (*ops)(s.(*Scheduler)) })
	frame.RegisterHookManifest(func(h any, name string) (*frame.Manifest, bool) { return h.(*Hook).manifest(name) })
}

func (o *ops) s() *Scheduler                          { return (*Scheduler)(o) }
func (o *ops) AppendState(dst []byte) ([]byte, error) { return o.s().appendState(dst) }
func (o *ops) CheckState(src []byte) error            { return o.s().checkState(src) }
func (o *ops) LoadState(src []byte)                   { o.s().loadState(src) }
func (o *ops) Describe(dst []byte) []byte             { return o.s().describe(dst) }

func (o *ops) StateSize() int        { return o.s().stateSize() }
func (o *ops) StateMax() (int, bool) { return o.s().stateFixed(), false }

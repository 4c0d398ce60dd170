package events

import "github.com/tickwork/tickwork/internal/plumb"

// ops is the engine's side of a Table (plumb.Events): the boundaries, the
// report's drop count and the snapshot state, which only the scheduler and
// the runtime call, through plumb.EventsOf.
type ops[T any] Table[T]

func (t *Table[T]) plumbing() plumb.Events { return (*ops[T])(t) }

func init() {
	plumb.RegisterEvents(func(b any) (plumb.Events, bool) {
		if t, ok := b.(Buffer); ok {
			return t.plumbing(), true
		}
		return nil, false
	})
}

func (o *ops[T]) t() *Table[T]                           { return (*Table[T])(o) }
func (o *ops[T]) BeginFrame()                            { o.t().beginFrame() }
func (o *ops[T]) BeginTick()                             { o.t().beginTick() }
func (o *ops[T]) EndFrame()                              { o.t().endFrame() }
func (o *ops[T]) TakeDropped() int64                     { return o.t().takeDropped() }
func (o *ops[T]) TakeUnread() int64                      { return o.t().takeUnread() }
func (o *ops[T]) Overflowed() error                      { return o.t().overflowed() }
func (o *ops[T]) AppendState(dst []byte) ([]byte, error) { return o.t().appendState(dst) }
func (o *ops[T]) CheckState(src []byte) error            { return o.t().checkState(src) }
func (o *ops[T]) LoadState(src []byte)                   { o.t().loadState(src) }
func (o *ops[T]) Describe(dst []byte) []byte             { return o.t().describe(dst) }
func (o *ops[T]) StateCap() int                          { return o.t().stateCap() }
func (o *ops[T]) Snapshottable() error                   { return o.t().snapshottable() }

func (o *ops[T]) StateSize() int        { return o.t().stateSize() }
func (o *ops[T]) StateMax() (int, bool) { return o.t().stateCap(), true }

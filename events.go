package tickwork

import (
	"strconv"

	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/systems"
)

// EventSpec declares an event table (AddEvents).
type EventSpec struct {
	Name     string   // non-empty, unique among the builder's event tables
	Capacity int      // the most events the table holds at once, 1..MaxEvents
	Lifetime Lifetime // NextFrame (the zero value) or ThisFrame
	// MayGoUnread lets a ThisFrame table's events end their frame with no
	// consumer: Build accepts systems that emit into it while none
	// consumes it (otherwise an *UnreadEventsError, ErrUnreadEvents), and
	// the frame report counts such events (FrameReport.EventsUnread).
	// Ignored for NextFrame (docs/architecture.md, Retention and capacity).
	MayGoUnread bool
}

// MaxEvents is the largest capacity of an event table.
const MaxEvents = events.MaxCapacity

// Lifetime says when an event is readable and how long it is kept: the
// delivery rule is stated once, in docs/architecture.md (Delivery rule).
type Lifetime uint8

// The event lifetimes.
const (
	// NextFrame events are read by their consumers from the next frame
	// (or fixed tick) on, whatever the order of emitter and consumer.
	NextFrame = Lifetime(events.NextFrame)
	// ThisFrame events are read in the frame they are emitted, by
	// consumers ordered after every emitter; the frame's end retires them.
	ThisFrame = Lifetime(events.ThisFrame)
)

// String returns "NextFrame" or "ThisFrame".
func (l Lifetime) String() string { return events.Lifetime(l).String() }

// Events is a typed event table, made by AddEvents (or Lifecycle): a log of at most Cap
// events of type T in emission order. In a frame, systems emit (Emit,
// EmitParallel) and consume (Consume) its events; between frames the host
// may emit and read them. A full table refuses an emit and counts it
// (Dropped); the frame that refused events returns an error matching
// ErrOverflow. Used from the goroutine that calls World.Frame.
type Events[T any] events.Table[T]

func (t *Events[T]) e() *events.Table[T] { return (*events.Table[T])(t) }

// Name is the table's name.
func (t *Events[T]) Name() string { return t.e().Name() }

// Cap is the capacity: the most events the table holds at once.
func (t *Events[T]) Cap() int { return t.e().Cap() }

// Lifetime is the table's lifetime.
func (t *Events[T]) Lifetime() Lifetime { return Lifetime(t.e().Lifetime()) }

// Emit appends v, from the host between frames. A full table drops v,
// counts it in Dropped and returns an *OverflowError (ErrOverflow).
// Allocates nothing.
func (t *Events[T]) Emit(v T) error { return t.e().Emit(v) }

// Read returns, without consuming them, the events a host sees: for
// NextFrame those of the last frame, for ThisFrame those emitted so far
// in this frame. The slice is the table's own, valid until the next
// frame: do not modify it. Allocates nothing.
func (t *Events[T]) Read() []T { return t.e().Read() }

// Len is the number of events Read returns.
func (t *Events[T]) Len() int { return t.e().Len() }

// Held is the number of events the table holds (read by every consumer
// or not).
func (t *Events[T]) Held() int { return t.e().Held() }

// Pending is the number of NextFrame events emitted since the last frame
// ended, not yet readable; 0 for ThisFrame.
func (t *Events[T]) Pending() int { return t.e().Pending() }

// Dropped is the number of events lost since the last frame's report:
// emits refused by overflow, and ThisFrame events a consumer had not read
// when the frame ended (once per such consumer).
func (t *Events[T]) Dropped() int64 { return t.e().Dropped() }

// Observe calls fn with each event of ev once, in delivery order, at the
// end of every frame: the events a consumer of phase FrameEnd reads that
// frame (the delivery rule: docs/architecture.md, Delivery rule), so
// NextFrame events of a frame's fixed ticks come the frame after, and
// ThisFrame events the same frame; a frame of no fixed tick or of several
// delivers each event once all the same. It is Ark's observer, and the
// short form of a consumer system that counts: fn updates the host's own
// state (a counter, a log), never the world's tables or resources, which
// a system declares. Observe adds the system "observe " + ev.Name() of
// phase FrameEnd, which consumes ev (the world's order and report show
// it; one observer per event table, ErrDuplicateSystem otherwise). fn
// runs on the frame's goroutine; *e is the table's, valid during the
// call: do not modify it. A nil ev fails Build with ErrBadDeclaration, a
// nil fn with ErrNoDeclare, each a *SystemDefinitionError naming the call
// (`Observe(b, nil, fn)`, `Observe(b, "E", nil)`) and adding no system.
// Allocates nothing per frame.
func Observe[T any](b *Builder, ev *Events[T], fn func(e *T)) {
	switch {
	case ev == nil:
		b.e().Fail(&systems.DefinitionError{Err: ErrBadDeclaration,
			Detail: "Observe(b, nil, fn): nil event table (the AddEvents or Lifecycle call that made it failed: its error comes first)"})
		return
	case fn == nil:
		b.e().Fail(&systems.DefinitionError{Err: ErrNoDeclare,
			Detail: "Observe(b, " + strconv.Quote(ev.Name()) + ", nil): nil fn; pass the function to call with each event"})
		return
	}
	b.Add(System{Name: "observe " + ev.Name(), Phase: FrameEnd, Declare: func(d *Decl) RunFunc {
		in := Consume(d, ev)
		return func(*Context) {
			evs := in.Read()
			for i := range evs {
				fn(&evs[i])
			}
		}
	}})
}

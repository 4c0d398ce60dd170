package events

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/internal/wire"
	"github.com/tickwork/tickwork/memory"
)

// MaxCapacity is the largest Spec.Capacity, in events.
const MaxCapacity = 1 << 30

// Lifetime says when an event is readable and how long it is kept; the
// delivery rule is stated once, in docs/architecture.md (Events).
type Lifetime uint8

const (
	// NextFrame: readable from the consumer's next boundary, held until
	// every reader has read it (see Lifetime). The zero Lifetime.
	NextFrame Lifetime = iota
	// ThisFrame: readable in the frame of the emit, gone at EndFrame (see
	// Lifetime).
	ThisFrame
)

// String returns "NextFrame", "ThisFrame" or "Lifetime(n)".
func (l Lifetime) String() string {
	switch l {
	case NextFrame:
		return "NextFrame"
	case ThisFrame:
		return "ThisFrame"
	}
	return "Lifetime(" + strconv.Itoa(int(l)) + ")"
}

// Cadence says how often a Reader's consumer runs, which sets the boundary
// at which NextFrame events become readable to it (docs/architecture.md,
// Events). It does not matter for ThisFrame tables.
// Exported as the argument of Table.NewReader.
type Cadence uint8

const (
	// PerFrame: the consumer runs once a frame (FrameStart, Update,
	// LateUpdate, FrameEnd); NextFrame events become readable at
	// BeginFrame.
	PerFrame Cadence = iota
	// PerTick: the consumer runs once per fixed tick (FixedUpdate);
	// NextFrame events become readable at BeginTick.
	PerTick
)

// String returns "PerFrame", "PerTick" or "Cadence(n)".
func (c Cadence) String() string {
	switch c {
	case PerFrame:
		return "PerFrame"
	case PerTick:
		return "PerTick"
	}
	return "Cadence(" + strconv.Itoa(int(c)) + ")"
}

// Spec declares an event table.
type Spec struct {
	Name     string   // non-empty; names the table in errors and reports
	Capacity int      // the most events the table holds at once (see Table), 1..MaxCapacity
	Lifetime Lifetime // NextFrame (the zero value) or ThisFrame
	// MayGoUnread says that a ThisFrame table's events may end their frame
	// with no consumer at all: a scheduler's Seal then accepts emitting
	// systems with no consuming one (otherwise an *UnreadEventsError;
	// docs/architecture.md, Retention and capacity). Such events are
	// counted in Unread either way. Ignored for NextFrame, whose events a
	// host reads (Read) when no system consumes them.
	MayGoUnread bool
	// Budget is charged with the table's buffers (New) and its per-worker
	// staging (Parallel); nil gives the table a private budget of
	// memory.DefaultBudget bytes. A runtime.Builder sets its world's.
	Budget *memory.Budget
}

// Buffer is the untyped face of a *Table[T]: manifests (package systems)
// name event tables by it, and a host that drives a scheduler directly
// hands its tables over as Buffers (scheduler.Scheduler.AddEvents). Its
// methods are the Table's; see there. Comparable: two Buffers are equal
// when they hold the same *Table[T]. Only *Table[T] implements it.
type Buffer interface {
	Name() string
	Lifetime() Lifetime
	// MayGoUnread is Spec.MayGoUnread.
	MayGoUnread() bool
	// Cap is the capacity: the most events the table holds at once.
	Cap() int
	// Len is the number of events Read returns.
	Len() int
	plumbing() plumb.Events
}

// Table is an event table of element type T: a log of the events emitted
// and not yet retired, in emission order, of at most Capacity events.
//
// What it holds, and so what Capacity bounds: docs/architecture.md,
// Retention and capacity (a full table refuses emits: see Emit).
//
// T may be any type. Events usually hold handles (ephemeral.Handle) and
// numbers; prefer pointer-free types. When T holds pointers, the table
// zeroes the events it retires so that the garbage collector can reclaim
// what they point to, which costs a clear of the retired events.
//
// Concurrency: see the package documentation. In short, one goroutine emits
// (parallel kernels use Parallel); readers and Read of a NextFrame table may
// run alongside emits; boundaries (Reader.Done, BeginFrame, BeginTick,
// EndFrame) need exclusive access.
type Table[T any] struct {
	name     string
	capacity int // kept apart so that Cap never reads what Emit writes
	life     Lifetime
	unreadOK bool // Spec.MayGoUnread
	pointers bool // T holds pointers: zero retired events
	buf      []T  // storage: 2*Capacity events (NextFrame) or Capacity (ThisFrame); never resliced
	readers  []*Reader[T]
	overflow *OverflowError

	// Events are numbered in emission order from 0. The table holds events
	// lo..head-1, event s at buf[s-base] (uint64 arithmetic wraps, so base
	// may lie "below" 0). A NextFrame table without readers is a double
	// buffer: the view (Read: the previous frame's events) sits at
	// buf[s-vbase] in one half of buf, and this frame's events are written
	// from the start of the other half; otherwise vbase == base. Emit
	// writes head and buf only; readers read the marks, lo, the bases and
	// buf, which only boundaries move.
	base, vbase, lo, head uint64
	floor                 uint64 // Emit refuses when head-floor == capacity: lo, or frame for a NextFrame table without readers
	frame                 uint64 // head at the last EndFrame: where Read ends (NextFrame)
	prev                  uint64 // frame before the last EndFrame: where Read starts (NextFrame)
	start                 uint64 // head at the last BeginFrame: the limit of PerFrame readers (NextFrame)
	tick                  uint64 // head at the last BeginTick: the limit of PerTick readers (NextFrame)
	dropped               int64
	unread                int64          // ThisFrame events retired by EndFrame with no reader, since TakeUnread
	refused               bool           // an emit or merge was refused since TakeDropped
	budget                *memory.Budget // charged by New and Parallel
	bools                 []uintptr      // byte offsets of T's bools (snapshot check)
}

var _ Buffer = (*Table[int])(nil)

// New declares an event table. It allocates its storage once (Capacity
// events for ThisFrame, twice that for NextFrame: Bytes), after charging it
// to spec.Budget; nothing is allocated later but Parallel's staging and a
// reader per NewReader. It returns a *DefinitionError (errors.Is
// ErrDefinition) for an empty name, a capacity outside
// 1..MaxCapacity (ErrCapacityRange) or an unknown lifetime (ErrLifetime),
// and a *memory.BudgetError (errors.Is memory.ErrBudget) when the storage
// does not fit in what is left of the budget; nothing is allocated then.
func New[T any](spec Spec) (*Table[T], error) {
	if spec.Name == "" {
		return nil, &DefinitionError{Err: errEmptyName}
	}
	if spec.Capacity <= 0 || spec.Capacity > MaxCapacity {
		return nil, &DefinitionError{Table: spec.Name, Err: ErrCapacityRange, Detail: "got " + strconv.Itoa(spec.Capacity)}
	}
	if spec.Lifetime > ThisFrame {
		return nil, &DefinitionError{Table: spec.Name, Err: ErrLifetime, Detail: spec.Lifetime.String()}
	}
	budget := spec.Budget
	if budget == nil {
		budget = memory.NewOwnedBudget(memory.DefaultBudget, memory.OwnerPrivate)
	}
	if err := budget.Charge(memory.Definition{Kind: "event table", Name: spec.Name}, Bytes[T](spec)); err != nil {
		return nil, err
	}
	n := spec.Capacity
	if spec.Lifetime == NextFrame {
		// Twice the capacity, so that the held events move to the front
		// only after Capacity events have been retired (see retire).
		n *= 2
	}
	return &Table[T]{
		name:     spec.Name,
		capacity: spec.Capacity,
		life:     spec.Lifetime,
		unreadOK: spec.MayGoUnread,
		pointers: hasPointers(reflect.TypeFor[T]()),
		buf:      make([]T, n),
		overflow: &OverflowError{Table: spec.Name, Capacity: spec.Capacity},
		budget:   budget,
		bools:    wire.BoolOffsets(reflect.TypeFor[T]()),
	}, nil
}

// Bytes is what New allocates and charges for spec's buffers: Capacity
// events of sizeof(T) bytes, twice for NextFrame (see docs/architecture.md,
// memory budget). It saturates at math.MaxInt64 rather than wrap, and is 0
// for a spec New refuses. Allocates nothing. Exported for a host sizing a
// memory budget (tickwork.WithMemoryBudget, memory.NewBudget) and for the
// tests that check what a world charges.
func Bytes[T any](spec Spec) int64 {
	if spec.Capacity <= 0 || spec.Capacity > MaxCapacity || spec.Lifetime > ThisFrame {
		return 0
	}
	buffers := int64(1)
	if spec.Lifetime == NextFrame {
		buffers = 2
	}
	return memory.Size(buffers, memory.SizeOf[T](int64(spec.Capacity)))
}

// StagingBytes is what Table.Parallel(workers) allocates and charges for a
// table of capacity events of T: capacity events per worker. It saturates
// at math.MaxInt64 rather than wrap, and is 0 when capacity or workers is
// not positive. Allocates nothing. Exported with Bytes, for the same
// callers (a world charges it per parallel emitter).
func StagingBytes[T any](capacity, workers int) int64 {
	if capacity <= 0 || workers <= 0 {
		return 0
	}
	return memory.Size(int64(workers), memory.SizeOf[T](int64(capacity)))
}

// Name is the table's name. Fixed at New; safe from any goroutine.
func (t *Table[T]) Name() string { return t.name }

// Lifetime is the table's lifetime. Fixed at New; safe from any goroutine.
// Exported as Buffer's.
func (t *Table[T]) Lifetime() Lifetime { return t.life }

// MayGoUnread is Spec.MayGoUnread. Fixed at New; safe from any goroutine.
// Exported as Buffer's.
func (t *Table[T]) MayGoUnread() bool { return t.unreadOK }

// Cap is the capacity: the most events the table holds at once (see
// Table). Fixed at New; safe from any goroutine.
func (t *Table[T]) Cap() int { return t.capacity }

// Emit appends v to the table's events. When the table already holds
// Capacity events (see Table: unread by a reader, or emitted this frame) it
// drops v, counts it in Dropped and returns the table's *OverflowError
// (errors.Is ErrOverflow); the events it holds are kept.
//
// Not safe for concurrent use: one goroutine emits at a time; parallel
// kernels emit through Parallel. Allocates nothing.
func (t *Table[T]) Emit(v T) error {
	if t.head-t.floor >= uint64(t.capacity) {
		t.dropped++
		t.refused = true
		return t.overflow
	}
	t.buf[t.head-t.base] = v
	t.head++
	return nil
}

// room is the number of events Emit would still accept.
func (t *Table[T]) room() int {
	return max(0, t.capacity-int(t.head-t.floor))
}

// Read returns, without consuming them, the events a host or test sees in
// the table: for NextFrame, those emitted between the last two EndFrames
// and not yet retired (for a table without readers, exactly the previous
// frame's events); for ThisFrame, those emitted so far in this frame.
// Consumers read through a Reader instead, which delivers each event once.
// The slice is the table's own (capacity clipped, so an append copies): do
// not modify it. It stays valid until the next boundary (Reader.Done,
// BeginFrame, BeginTick, EndFrame).
//
// For NextFrame, Read may run concurrently with Emit, Merge and readers'
// Read; for ThisFrame it must not run with Emit or Merge. Allocates nothing.
func (t *Table[T]) Read() []T {
	lo, hi := t.view()
	return t.slice(t.vbase, lo, hi)
}

// view is the window of Read.
func (t *Table[T]) view() (lo, hi uint64) {
	if t.life == ThisFrame {
		return t.lo, t.head
	}
	return max(t.lo, t.prev), t.frame
}

// slice returns events lo..hi-1 where event s is at buf[s-base], clipped;
// empty when hi <= lo.
func (t *Table[T]) slice(base, lo, hi uint64) []T {
	if hi <= lo {
		return t.buf[:0:0]
	}
	i, j := lo-base, hi-base
	return t.buf[i:j:j]
}

// Len is the number of events Read returns. It may run concurrently with
// the same calls as Read. Allocates nothing.
func (t *Table[T]) Len() int {
	lo, hi := t.view()
	if hi <= lo {
		return 0
	}
	return int(hi - lo)
}

// Held is the number of events the table holds (see Table), at most Cap
// plus, for a NextFrame table without readers, the previous frame's
// events. Not concurrently with Emit or Merge.
func (t *Table[T]) Held() int { return int(t.head - t.lo) }

// Pending is the number of events emitted since the last EndFrame
// (NextFrame: Read shows them after the next EndFrame; PerFrame readers
// read them after the next BeginFrame, PerTick readers after the next
// BeginTick); always 0 for ThisFrame. Not concurrently with Emit, Merge or
// EndFrame.
// Exported for hosts and tests that inspect a table between frames.
func (t *Table[T]) Pending() int {
	if t.life == ThisFrame {
		return 0
	}
	return int(t.head - t.frame)
}

// beginFrame is the start of a frame: the events emitted so far (in the
// previous frames, and by the host since the last EndFrame) become
// readable to PerFrame readers of a NextFrame table (no-op for
// ThisFrame). Called by the scheduler once per frame, before FrameStart's
// systems, with exclusive access to the table. Allocates nothing.
func (t *Table[T]) beginFrame() { t.start = t.head }

// beginTick is the start of a fixed tick: the events emitted so far become
// readable to PerTick readers of a NextFrame table (no-op for ThisFrame).
// Called by the scheduler before each fixed tick's systems, with exclusive
// access to the table. Allocates nothing.
func (t *Table[T]) beginTick() { t.tick = t.head }

// endFrame is the end of a frame. NextFrame: the events of this frame
// become Read's view (readers read them from the next BeginFrame or
// BeginTick); a table without readers retires the previous frame's.
// ThisFrame: every event is retired,
// and each one a reader has not read counts in Dropped (once per such
// reader). Called by the scheduler once per frame, after FrameEnd's command
// playback, with exclusive access to the table. Slices returned before are
// stale afterwards. Allocates nothing.
func (t *Table[T]) endFrame() {
	switch {
	case t.life == ThisFrame:
		if len(t.readers) == 0 {
			t.unread += int64(t.head - t.lo)
		}
		for _, r := range t.readers {
			t.dropped += int64(t.head - r.next)
			r.next, r.end, r.read = t.head, t.head, false
		}
		t.retire(t.head)
	case len(t.readers) > 0:
		t.prev, t.frame = t.frame, t.head // readers retire (Done)
	default:
		// A double buffer: the previous frame's events retire, this
		// frame's (written from buf[0] or buf[Capacity]) become the view,
		// and the next frame writes from the start of the other half.
		if t.pointers {
			clear(t.buf[t.lo-t.vbase : t.frame-t.vbase])
		}
		if debugChecks {
			t.poison(t.buf[t.lo-t.vbase : t.frame-t.vbase]) // docs/architecture.md, Debug build
		}
		w := t.frame - t.base // 0 or Capacity
		t.prev, t.frame = t.frame, t.head
		t.lo, t.floor, t.vbase = t.prev, t.frame, t.base
		t.base = t.head - (uint64(t.capacity) - w)
	}
}

// retire drops the events before event to (to >= lo; zeroing them when T
// holds pointers) of a table with readers or of a ThisFrame table, and
// restores the storage invariant: the events Emit may accept before the
// next boundary fit after head, i.e. floor-base <= len(buf)-capacity.
// When that fails, the held events move to the front of the storage; with
// twice the capacity (NextFrame) that happens only after Capacity events
// were retired since the last move, so each retired event costs at most
// one copy. Boundaries only.
func (t *Table[T]) retire(to uint64) {
	if to > t.lo {
		if t.pointers {
			clear(t.buf[t.lo-t.base : to-t.base])
		}
		if debugChecks {
			t.poison(t.buf[t.lo-t.base : to-t.base]) // docs/architecture.md, Debug build
		}
		t.lo = to
	}
	t.floor = t.lo
	switch {
	case t.lo == t.head:
		t.base = t.head // nothing held: start over at buf[0]
	case t.floor-t.base > uint64(len(t.buf)-t.capacity):
		n := copy(t.buf, t.buf[t.lo-t.base:t.head-t.base])
		if t.pointers {
			clear(t.buf[n : t.head-t.base])
		}
		if debugChecks {
			t.poison(t.buf[n : t.head-t.base]) // the moved events' old slots
		}
		t.base = t.lo
	}
	t.vbase = t.base
}

// Dropped is the number of events lost since the table was made or last
// TakeDropped: emits refused by overflow (through Emit or Merge), and
// ThisFrame events a reader had not read at EndFrame (once per reader). Not
// concurrently with Emit, Merge, EndFrame or TakeDropped.
// Exported for hosts and tests that inspect a table between frames (a world
// reports drops in its frame report).
func (t *Table[T]) Dropped() int64 { return t.dropped }

// Unread is the number of events of a ThisFrame table that ended their
// frame with no reader at all (no system consumes the table), since the
// table was made or last TakeUnread; 0 for NextFrame, and for a table
// with readers, whose unread events count in Dropped. Not concurrently
// with Emit, Merge, EndFrame or TakeUnread. A world reports them in its
// frame report (scheduler.FrameReport.EventsUnread).
func (t *Table[T]) Unread() int64 { return t.unread }

// takeUnread returns Unread and resets the count to zero; the scheduler
// calls it once per frame for its report, just after EndFrame. Needs
// exclusive access.
func (t *Table[T]) takeUnread() int64 {
	n := t.unread
	t.unread = 0
	return n
}

// takeDropped returns Dropped and resets the count to zero; the scheduler
// calls it once per frame for its report, just after EndFrame. Needs
// exclusive access.
func (t *Table[T]) takeDropped() int64 {
	n := t.dropped
	t.dropped, t.refused = 0, false
	return n
}

// Reader is one consumer's read position in a table: it reads each event
// once, in emission order, and keeps the table from retiring the events it
// has not passed. Make it once per consumer with Table.NewReader (a world
// makes one per consuming system at seal).
type Reader[T any] struct {
	t       *Table[T]
	cadence Cadence
	next    uint64 // first event not passed yet
	end     uint64 // end of what Read returned since the last Done (>= next)
	read    bool   // Read was called since the last Done
}

// NewReader registers a reader of the given cadence with t and returns it.
// It starts at the oldest event t holds (so it reads what Read shows, and
// everything emitted later). From then on t holds every event until all
// its readers have passed it. It allocates: call it at set-up. It panics
// for a cadence other than PerFrame and PerTick.
func (t *Table[T]) NewReader(c Cadence) *Reader[T] {
	if c > PerTick {
		panic("events: NewReader(" + c.String() + ") on table " + strconv.Quote(t.name) + ": the cadence must be PerFrame or PerTick")
	}
	if len(t.readers) == 0 && t.life == NextFrame {
		t.linearize()
	}
	r := &Reader[T]{t: t, cadence: c, next: t.lo, end: t.lo}
	t.readers = append(t.readers, r)
	t.retire(t.lo) // floor: now what the readers hold
	return r
}

// linearize turns the double buffer of a NextFrame table without readers
// (the view in one half, this frame's events from the start of the other)
// into one run, the view first, at the front of buf.
func (t *Table[T]) linearize() {
	p, q := int(t.frame-t.lo), int(t.head-t.frame) // the view's events, this frame's
	switch {
	case p == 0:
		copy(t.buf, t.buf[t.frame-t.base:t.head-t.base])
	case t.lo-t.vbase == 0: // the view in the first half, this frame's in the second
		copy(t.buf[p:], t.buf[t.capacity:t.capacity+q])
	default: // the reverse: rotate buf[:Capacity+p] left by Capacity
		slices.Reverse(t.buf[:t.capacity])
		slices.Reverse(t.buf[t.capacity : t.capacity+p])
		slices.Reverse(t.buf[:t.capacity+p])
	}
	if t.pointers {
		clear(t.buf[p+q:])
	}
	t.base, t.vbase = t.lo, t.lo
}

// Read returns the events readable to r that it has not passed, in
// emission order: from its position to the limit of its cadence (NextFrame:
// the events emitted before the last BeginFrame for PerFrame, before the
// last BeginTick for PerTick; ThisFrame: every event emitted so far). Every
// later Read before Done returns the same events, whatever was emitted
// since (so a consumer never reads its own run's emits). Done passes them.
// The slice is the table's own: do not modify it. It stays valid until the
// table's next boundary (Done of any of its readers, BeginFrame,
// BeginTick, EndFrame); in a world, until the consuming system's
// run ends.
//
// Call Read and Done of one reader from one goroutine; kernels may use the
// slice. For NextFrame, Read may run concurrently with Emit, Merge and
// other readers' Read; for ThisFrame not with Emit or Merge. Allocates
// nothing.
func (r *Reader[T]) Read() []T {
	t := r.t
	if r.read { // the same events as the first Read since Done
		return t.slice(t.base, r.next, r.end)
	}
	var hi uint64 // the limit; only a ThisFrame reader reads head
	switch {
	case t.life == ThisFrame:
		hi = t.head
	case r.cadence == PerTick:
		hi = t.tick
	default:
		hi = t.start
	}
	r.end, r.read = max(r.next, hi), true
	return t.slice(t.base, r.next, hi)
}

// Done passes the events the reader's Reads returned since the last Done:
// they are not returned again, and a NextFrame table retires the events
// every reader has passed. For a ThisFrame table it also passes what was
// emitted since the first Read: in a world that can only be the consuming
// system's own emits of the run, which it does not read. Without a Read
// since the last Done it does nothing. The scheduler calls it when the
// consuming system's run ends. A boundary: it needs exclusive access to
// the table. Allocates nothing.
// Exported for a host or test that reads a table through a Reader of its own.
func (r *Reader[T]) Done() {
	if !r.read {
		return
	}
	r.read = false
	t := r.t
	if t.life == ThisFrame {
		r.next = t.head // held until EndFrame
		return
	}
	if r.end == r.next {
		return
	}
	r.next = r.end
	lo := r.next
	for _, o := range t.readers {
		lo = min(lo, o.next)
	}
	if lo > t.lo {
		t.retire(lo)
	}
}

// Unread forgets the Reads since the last Done without passing them: the
// next Read returns those events again, with what may be read by then.
// The scheduler calls it when a run condition that read the table skips
// its system's run (docs/architecture.md, Run conditions). Allocates
// nothing.
func (r *Reader[T]) Unread() { r.read = false }

// overflowed returns the table's *OverflowError (errors.Is ErrOverflow),
// the error Emit returns for a refused event, when an emit or a merge was
// refused for lack of room since the last TakeDropped, and nil otherwise
// (ThisFrame events left unread count in Dropped, not here). The
// scheduler returns it from a frame that refused events of this table.
// Preallocated: it allocates nothing. Not concurrently with Emit, Merge or
// TakeDropped.
func (t *Table[T]) overflowed() error {
	if t.refused {
		return t.overflow
	}
	return nil
}

// hasPointers reports whether values of typ hold pointers the garbage
// collector traces.
func hasPointers(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return typ.Len() > 0 && hasPointers(typ.Elem())
	case reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			if hasPointers(typ.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

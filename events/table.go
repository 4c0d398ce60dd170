package events

import (
	"reflect"
	"strconv"

	"github.com/tickwork/tickwork/memory"
)

// MaxCapacity is the largest Spec.Capacity, in events per frame.
const MaxCapacity = 1 << 30

// Lifetime says how long an event stays readable.
type Lifetime uint8

const (
	// NextFrame: events emitted in frame t are readable throughout frame t+1,
	// then gone. The table is double-buffered; this is the zero Lifetime.
	NextFrame Lifetime = iota
	// ThisFrame: events are readable, in the frame they were emitted in, by
	// systems that run after the emitter, and cleared at the frame boundary.
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

// Spec declares an event table.
type Spec struct {
	Name     string   // non-empty; names the table in errors and reports
	Capacity int      // events per frame, 1..MaxCapacity
	Lifetime Lifetime // NextFrame (the zero value) or ThisFrame
	// Budget is charged with the table's buffers (New) and its per-worker
	// staging (Parallel); nil gives the table a private budget of
	// memory.DefaultBudget bytes. A runtime.Builder sets its world's.
	Budget *memory.Budget
}

// Buffer is the untyped face of a *Table[T]: the scheduler keeps every
// event table of a world in one []Buffer, and manifests name event tables by
// it. Its methods are the Table's; see there. Comparable: two Buffers are
// equal when they hold the same *Table[T].
type Buffer interface {
	Name() string
	Lifetime() Lifetime
	// Cap is the capacity in events per frame.
	Cap() int
	// Len is the number of readable events (len of Read).
	Len() int
	// Pending is the number of events emitted this frame that are not
	// readable yet (NextFrame); always 0 for ThisFrame.
	Pending() int
	// EndFrame swaps (NextFrame) or clears (ThisFrame) at the frame boundary.
	EndFrame()
	// Dropped is the number of events dropped by overflow since the last
	// TakeDropped.
	Dropped() int64
	// TakeDropped returns Dropped and resets it to zero.
	TakeDropped() int64
	// Reset forgets every event, readable or pending, and the drop count.
	Reset()
}

// Table is an event table of element type T with a fixed capacity per frame.
//
// T may be any type. Events usually hold handles (ephemeral.Handle) and
// numbers; prefer pointer-free types. When T holds pointers, EndFrame zeroes
// the events it retires so that the garbage collector can reclaim what they
// point to, which costs a clear of the retired events.
//
// Concurrency: see the package documentation. In short, one goroutine emits
// (parallel kernels use Parallel), and EndFrame needs exclusive access.
type Table[T any] struct {
	name     string
	capacity int // = cap(back), kept apart so that Cap never reads a header Emit writes
	life     Lifetime
	pointers bool // T holds pointers: zero retired events
	front    []T  // NextFrame: readable events; ThisFrame: unused
	back     []T  // NextFrame: events of this frame; ThisFrame: readable events
	dropped  int64
	overflow *OverflowError
	budget   *memory.Budget // charged by New and Parallel
}

var _ Buffer = (*Table[int])(nil)

// New declares an event table. It allocates the buffers (Capacity events for
// ThisFrame, twice that for NextFrame: Bytes) once, after charging them to
// spec.Budget; nothing is allocated later but Parallel's staging.
// It returns a *DefinitionError (errors.Is ErrDefinition) for an empty name
// (ErrEmptyName), a capacity outside 1..MaxCapacity (ErrCapacityRange) or an
// unknown lifetime (ErrLifetime), and a *memory.BudgetError (errors.Is
// ErrMemoryBudget) when the buffers do not fit in what is left of the
// budget; nothing is allocated then.
func New[T any](spec Spec) (*Table[T], error) {
	if spec.Name == "" {
		return nil, &DefinitionError{Err: ErrEmptyName}
	}
	if spec.Capacity <= 0 || spec.Capacity > MaxCapacity {
		return nil, &DefinitionError{Table: spec.Name, Err: ErrCapacityRange, Detail: strconv.Itoa(spec.Capacity)}
	}
	if spec.Lifetime > ThisFrame {
		return nil, &DefinitionError{Table: spec.Name, Err: ErrLifetime, Detail: spec.Lifetime.String()}
	}
	budget := spec.Budget
	if budget == nil {
		budget = memory.NewBudget(memory.DefaultBudget)
	}
	if err := budget.Charge(memory.Definition{Kind: "event table", Name: spec.Name}, Bytes[T](spec)); err != nil {
		return nil, err
	}
	t := &Table[T]{
		name:     spec.Name,
		capacity: spec.Capacity,
		life:     spec.Lifetime,
		pointers: hasPointers(reflect.TypeFor[T]()),
		back:     make([]T, 0, spec.Capacity),
		overflow: &OverflowError{Table: spec.Name, Capacity: spec.Capacity},
		budget:   budget,
	}
	if spec.Lifetime == NextFrame {
		t.front = make([]T, 0, spec.Capacity)
	}
	return t, nil
}

// Bytes is what New allocates and charges for spec's buffers: Capacity
// events of sizeof(T) bytes, twice for NextFrame (see docs/architecture.md,
// memory budget). It saturates at math.MaxInt64 rather than wrap, and is 0
// for a spec New refuses. Allocates nothing.
func Bytes[T any](spec Spec) int64 {
	if spec.Capacity <= 0 || spec.Capacity > MaxCapacity || spec.Lifetime > ThisFrame {
		return 0
	}
	buffers := int64(1)
	if spec.Lifetime == NextFrame {
		buffers = 2
	}
	return memory.Size(buffers, memory.Size(int64(spec.Capacity), int64(reflect.TypeFor[T]().Size())))
}

// StagingBytes is what Table.Parallel(workers) allocates and charges for a
// table of capacity events of T: capacity events per worker. It saturates
// at math.MaxInt64 rather than wrap, and is 0 when capacity or workers is
// not positive. Allocates nothing.
func StagingBytes[T any](capacity, workers int) int64 {
	if capacity <= 0 || workers <= 0 {
		return 0
	}
	return memory.Size(int64(workers), memory.Size(int64(capacity), int64(reflect.TypeFor[T]().Size())))
}

// Name is the table's name. Fixed at New; safe from any goroutine.
func (t *Table[T]) Name() string { return t.name }

// Lifetime is the table's lifetime. Fixed at New; safe from any goroutine.
func (t *Table[T]) Lifetime() Lifetime { return t.life }

// Cap is the capacity in events per frame (the capacity of each buffer).
// Fixed at New; safe from any goroutine.
func (t *Table[T]) Cap() int { return t.capacity }

// Emit appends v to the events of this frame (the back buffer of a
// NextFrame table). When the table already holds Capacity events for this
// frame it drops v, counts it in Dropped and returns the table's
// *OverflowError (errors.Is ErrOverflow); earlier events are kept. For a
// ThisFrame table the event is readable at once.
//
// Not safe for concurrent use: one goroutine emits at a time; parallel
// kernels emit through Parallel. Allocates nothing.
func (t *Table[T]) Emit(v T) error {
	if len(t.back) == cap(t.back) {
		t.dropped++
		return t.overflow
	}
	t.back = append(t.back, v)
	return nil
}

// Read returns the readable events in emission order: for NextFrame, the
// events emitted in the previous frame; for ThisFrame, the events emitted so
// far in this frame. The slice is the table's own (capacity clipped, so an
// append copies): do not modify it. It stays valid until the next EndFrame.
//
// For NextFrame, Read may run concurrently with Emit and Merge; for
// ThisFrame it must not. Allocates nothing.
func (t *Table[T]) Read() []T {
	if t.life == ThisFrame {
		return t.back[:len(t.back):len(t.back)]
	}
	return t.front[:len(t.front):len(t.front)]
}

// Len is the number of readable events: len(t.Read()). It may run
// concurrently with the same calls as Read. Allocates nothing.
func (t *Table[T]) Len() int {
	if t.life == ThisFrame {
		return len(t.back)
	}
	return len(t.front)
}

// Pending is the number of events emitted in this frame that become readable
// after the next EndFrame (NextFrame); always 0 for ThisFrame. Not
// concurrently with Emit, Merge or EndFrame.
func (t *Table[T]) Pending() int {
	if t.life == ThisFrame {
		return 0
	}
	return len(t.back)
}

// EndFrame is the frame boundary. NextFrame: the events of this frame become
// the readable ones and the previous readable events are gone. ThisFrame:
// every event is gone. Called by the scheduler once per frame, after
// FrameEnd's command playback, with exclusive access to the table. Slices
// returned by Read before it are stale afterwards. Allocates nothing.
func (t *Table[T]) EndFrame() {
	if t.life == ThisFrame {
		t.retire(t.back)
		t.back = t.back[:0]
		return
	}
	t.retire(t.front)
	t.front, t.back = t.back, t.front[:0]
}

// Reset forgets every event, readable or pending, and the drop count, as
// when the table was new. It needs exclusive access. Allocates nothing;
// staging of a Parallel is not touched (Merge empties it).
func (t *Table[T]) Reset() {
	t.retire(t.front)
	t.retire(t.back)
	t.front = t.front[:0]
	t.back = t.back[:0]
	t.dropped = 0
}

func (t *Table[T]) retire(s []T) {
	if t.pointers {
		clear(s)
	}
}

// Dropped is the number of events dropped by overflow (through Emit or
// Merge) since the table was made or last TakeDropped. Not concurrently with
// Emit, Merge, TakeDropped or Reset.
func (t *Table[T]) Dropped() int64 { return t.dropped }

// TakeDropped returns Dropped and resets the count to zero; the scheduler
// calls it once per frame for its report, just before EndFrame. Needs
// exclusive access.
func (t *Table[T]) TakeDropped() int64 {
	n := t.dropped
	t.dropped = 0
	return n
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

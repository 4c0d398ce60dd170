package journal

import (
	"encoding/binary"
	"reflect"

	"github.com/tickwork/tickwork"
)

// MaxValueSize is the largest input value, in bytes of its binary
// encoding (encoding/binary.Size).
const MaxValueSize = 4096

// InputSpec declares an input table (AddInputs).
type InputSpec struct {
	// Name names the input table and its event table: non-empty, unique
	// among the builder's event tables.
	Name string
	// Capacity is the most inputs of the table one frame takes (its
	// event table's capacity), 1..tickwork.MaxEvents. Inputs past it wait
	// for the next frame, in order (docs/journal.md, Frame inputs).
	Capacity int
	// Backlog is the most inputs appended and not yet taken by a frame;
	// an Append past it waits for a frame (backpressure). 0: 8×Capacity.
	Backlog int
}

// Input is one input as a frame's systems read it: the value, the frame
// that took it (World.Frames when it began) and its journal position.
type Input[V any] struct {
	Frame    uint64
	Position Position
	Value    V
}

// Inputs is an input table: typed records of V that the host appends from
// any goroutine (Append, Send) and that enter the frames as the events of
// Events, in journal order, each in the first frame that begins after it
// is durable (docs/journal.md, Frame inputs). Made by AddInputs, bound to
// a journal by Open. Append, Send and Name are safe for concurrent use.
type Inputs[V any] struct {
	name    string
	ev      *tickwork.Events[Input[V]]
	size    int
	j       *Journal
	id      uint16
	ring    []entry[V]
	head, n int // guarded by j.mu
}

type entry[V any] struct {
	pos Position
	v   V
}

// AddInputs declares an input table of V on b: a NextFrame event table of
// Input[V] named spec.Name, which systems consume as any event table
// (tickwork.Consume, tickwork.Observe on Events). V must have a fixed
// binary size of at most MaxValueSize bytes (fixed-size numbers, bools,
// arrays and structs of them), journalled little-endian. A bad spec
// (*DefinitionError, ErrDefinition) or V (*InputTypeError, ErrInputType)
// fails Build and AddInputs returns nil. Set-up only, before Build.
func AddInputs[V any](b *tickwork.Builder, spec InputSpec) *Inputs[V] {
	var zero V
	size := binary.Size(zero)
	var err error
	switch {
	case size < 0 || size > MaxValueSize:
		err = &InputTypeError{Table: spec.Name, Type: reflect.TypeOf(&zero).Elem().String(), Size: size}
	case spec.Capacity < 1 || spec.Capacity > tickwork.MaxEvents:
		err = &DefinitionError{Table: spec.Name, Reason: "capacity outside 1..tickwork.MaxEvents"}
	case spec.Backlog < 0:
		err = &DefinitionError{Table: spec.Name, Reason: "negative backlog"}
	}
	if err != nil {
		b.Hook(func(*tickwork.Hook) error { return err })
		return nil
	}
	backlog := spec.Backlog
	if backlog == 0 {
		backlog = 8 * spec.Capacity
	}
	ev := tickwork.AddEvents[Input[V]](b, tickwork.EventSpec{Name: spec.Name, Capacity: spec.Capacity})
	return &Inputs[V]{name: spec.Name, ev: ev, size: size, ring: make([]entry[V], backlog)}
}

// Name is the table's name.
func (in *Inputs[V]) Name() string { return in.name }

// Events is the event table the frames' inputs arrive in. Systems
// consume it; the host does not emit into it (its own emits would not be
// journalled).
func (in *Inputs[V]) Events() *tickwork.Events[Input[V]] { return in.ev }

// Append appends v to the journal and returns once it is durable, with
// its position: the first frame that begins afterwards takes it. It
// waits while the backlog is full. Errors: ErrNotOpen, ErrClosed, the
// journal's *StoreError (ErrStore), in which case v is not stored. Safe
// for concurrent use; never call it from a system (it waits on frames).
func (in *Inputs[V]) Append(v V) (Position, error) {
	p, err := in.Send(v)
	if err != nil {
		return p, err
	}
	return p, in.j.Wait(p)
}

// Send appends v without waiting for it to be durable and returns its
// position, for a producer that pipelines (Journal.Wait(p) waits for it;
// Journal.Durable says how far the store is). It waits only while the
// backlog is full. Errors: ErrNotOpen, ErrClosed, the journal's
// *StoreError. Safe for concurrent use.
func (in *Inputs[V]) Send(v V) (Position, error) {
	if in == nil || in.j == nil {
		return 0, ErrNotOpen
	}
	j := in.j
	j.mu.Lock()
	defer j.mu.Unlock()
	for in.n == len(in.ring) || j.queued() >= j.inputRoom {
		if err := j.refusal(); err != nil {
			return 0, err
		}
		j.space.Wait()
	}
	if err := j.refusal(); err != nil {
		return 0, err
	}
	p := j.next
	buf := j.slot(p)[:3+in.size]
	buf[0], buf[1], buf[2] = kindInput, byte(in.id), byte(in.id>>8)
	if _, err := binary.Encode(buf[3:], binary.LittleEndian, v); err != nil {
		return 0, &InputTypeError{Table: in.name, Type: reflect.TypeOf(v).String(), Size: -1}
	}
	j.setSlot(p, buf)
	j.next++
	in.push(p, v)
	j.work.Signal()
	return p, nil
}

// push queues v at p (under j.mu, room checked).
func (in *Inputs[V]) push(p Position, v V) {
	in.ring[(in.head+in.n)%len(in.ring)] = entry[V]{p, v}
	in.n++
}

func (in *Inputs[V]) tableName() string { return in.name }

func (in *Inputs[V]) isNil() bool { return in == nil }

func (in *Inputs[V]) bind(j *Journal, id uint16) error {
	if in.j != nil {
		return &DefinitionError{Table: in.name, Reason: "already bound to a journal: open each input table with one journal"}
	}
	in.j, in.id = j, id
	return nil
}

func (in *Inputs[V]) valueSize() int { return in.size }

func (in *Inputs[V]) headPos() (Position, bool) {
	if in.n == 0 {
		return 0, false
	}
	return in.ring[in.head].pos, true
}

// room is how many more events the event table surely accepts now
// (Cap - Held: Held counts every event a reader still holds).
func (in *Inputs[V]) room() int { return in.ev.Cap() - in.ev.Held() }

func (in *Inputs[V]) emitHead(frame uint64) {
	e := &in.ring[in.head]
	_ = in.ev.Emit(Input[V]{Frame: frame, Position: e.pos, Value: e.v})
	e.v = *new(V)
	in.head = (in.head + 1) % len(in.ring)
	in.n--
}

// queue decodes a journalled value and queues it (recovery: the ring
// grows when the journal holds more than the backlog).
func (in *Inputs[V]) queue(p Position, data []byte) error {
	var v V
	if len(data) != in.size {
		return &CorruptError{Position: p, Reason: "input of table " + in.name + " of the wrong size"}
	}
	if _, err := binary.Decode(data, binary.LittleEndian, &v); err != nil {
		return &CorruptError{Position: p, Reason: "input of table " + in.name + ": " + err.Error()}
	}
	if in.n == len(in.ring) {
		r := make([]entry[V], 2*len(in.ring))
		for i := range in.n {
			r[i] = in.ring[(in.head+i)%len(in.ring)]
		}
		in.ring, in.head = r, 0
	}
	in.push(p, v)
	return nil
}

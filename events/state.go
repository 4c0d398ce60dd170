package events

import (
	"errors"
	"reflect"
	"strconv"

	"github.com/tickwork/tickwork/internal/wire"
)

// ErrState: an event table's state (Table.CheckState) that the table cannot
// hold, or a table whose events hold pointers (no snapshot of it can be
// taken). Returned as a *StateError naming the table.
var ErrState = errors.New("events: bad event table state")

// StateError reports why an event table refused to take or check a state.
// errors.Is(err, ErrState) is true.
type StateError struct {
	Table  string
	Detail string
}

func (e *StateError) Error() string {
	return "events: state of table " + strconv.Quote(e.Table) + ": " + e.Detail
}

// Is reports whether target is ErrState.
func (e *StateError) Is(target error) bool { return target == ErrState }

// stateHead is the fixed part of a table's state: nine marks and the
// refused flag, then three words per reader.
const stateHead = 8 * 9

// stateCap is the largest state AppendState appends: the marks, the
// readers' positions and Capacity events (twice that for a NextFrame table
// without readers, whose view and pending frame are both held). Fixed once
// the readers are registered (at seal in a world). Allocates nothing.
func (t *Table[T]) stateCap() int {
	n := t.capacity
	if t.life == NextFrame && len(t.readers) == 0 {
		n *= 2
	}
	return stateHead + 24*len(t.readers) + n*int(reflect.TypeFor[T]().Size())
}

// stateSize is the length appendState appends now: the marks, the
// readers' positions and the held events. Allocates nothing.
func (t *Table[T]) stateSize() int {
	return stateHead + 24*len(t.readers) + int(t.head-t.lo)*int(reflect.TypeFor[T]().Size())
}

// appendState appends t's state to dst (docs/state.md): the event marks
// (oldest held, next emitted, the frame, tick and view boundaries), the
// drop count, each reader's position in registration order, then the held
// events as raw bytes, oldest first. It returns a *StateError (errors.Is
// ErrState), appending nothing, when T holds pointers. Between frames only
// (no Parallel staging may hold events); allocates only when dst grows.
func (t *Table[T]) appendState(dst []byte) ([]byte, error) {
	if err := t.snapshottable(); err != nil {
		return dst, err
	}
	for _, v := range [...]uint64{t.lo, t.head, t.prev, t.frame, t.start, t.tick, t.floor, uint64(t.dropped), b2u(t.refused)} {
		dst = wire.U64(dst, v)
	}
	for _, r := range t.readers {
		dst = wire.U64(dst, r.next)
		dst = wire.U64(dst, r.end)
		dst = wire.U64(dst, b2u(r.read))
	}
	if t.life == NextFrame && len(t.readers) == 0 {
		dst = append(dst, wire.Bytes(t.slice(t.vbase, t.lo, t.frame))...)
		return append(dst, wire.Bytes(t.slice(t.base, t.frame, t.head))...), nil
	}
	return append(dst, wire.Bytes(t.slice(t.base, t.lo, t.head))...), nil
}

// snapshottable returns nil when a snapshot can hold t (T is pointer-free),
// else the *StateError AppendState would return. Allocates only the error.
func (t *Table[T]) snapshottable() error {
	if t.pointers {
		return &StateError{Table: t.name, Detail: "its event type holds pointers; a snapshot copies events as bytes, so use a pointer-free type (handles, numbers)"}
	}
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// marks are the decoded marks of a state.
type marks struct {
	lo, head, prev, frame, start, tick, floor, dropped, refused uint64
}

func readMarks(r *wire.Reader) marks {
	return marks{r.U64(), r.U64(), r.U64(), r.U64(), r.U64(), r.U64(), r.U64(), r.U64(), r.U64()}
}

// checkState reports whether src is a state t can take (LoadState): a
// *StateError (errors.Is ErrState) for a pointer-holding T, the wrong
// size, marks out of order, more events than t holds, reader positions
// outside the held events, or an event whose bool bytes are neither 0 nor 1.
// It reads src only, so t is untouched whatever src holds; it allocates only
// its error.
func (t *Table[T]) checkState(src []byte) error {
	if t.pointers {
		return &StateError{Table: t.name, Detail: "its event type holds pointers"}
	}
	bad := func(d string) error { return &StateError{Table: t.name, Detail: d} }
	r := wire.Reader{B: src}
	m := readMarks(&r)
	if r.Bad {
		return bad("section shorter than its marks")
	}
	if !(m.lo <= m.head && m.prev <= m.frame && m.frame <= m.head && m.start <= m.head && m.tick <= m.head &&
		m.floor >= m.lo && m.floor <= m.head && m.refused <= 1 && m.dropped <= 1<<62) {
		return bad("marks out of order")
	}
	cap64 := uint64(t.capacity)
	if t.life == NextFrame && len(t.readers) == 0 {
		if m.lo > m.frame || m.frame-m.lo > cap64 || m.head-m.frame > cap64 || m.floor != m.frame {
			return bad("more events than the table holds")
		}
	} else if m.head-m.lo > cap64 || m.floor != m.lo {
		return bad("more events than the table holds")
	}
	for range t.readers {
		next, end, read := r.U64(), r.U64(), r.U64()
		if r.Bad {
			return bad("section shorter than its readers")
		}
		if !(m.lo <= next && next <= end && end <= m.head && read <= 1) {
			return bad("a reader's position outside the held events")
		}
	}
	size := uint64(reflect.TypeFor[T]().Size())
	ev := r.Next((m.head - m.lo) * size)
	if r.Bad || len(r.B) != 0 {
		return bad("section of " + strconv.Itoa(len(src)) + " bytes does not hold its " + strconv.FormatUint(m.head-m.lo, 10) + " events")
	}
	if len(t.bools) > 0 && !wire.CheckBools(ev, uintptr(size), t.bools) {
		return bad("an event holds a bool that is neither 0 nor 1")
	}
	return nil
}

// loadState makes t hold src, a state CheckState accepted: the same events,
// marks and reader positions, so every reader reads next what it would
// have read when the state was taken. The events are laid out afresh at
// the front of the storage (the view, then the pending frame, in their
// halves for a NextFrame table without readers). It panics on a src that
// checkState refuses (call it first). Allocates nothing; needs exclusive
// access (a boundary). CheckState, StateCap and Describe read t only:
// safe with readers' Read, not with Emit or a boundary.
func (t *Table[T]) loadState(src []byte) {
	if err := t.checkState(src); err != nil {
		panic("events: LoadState without CheckState: " + err.Error())
	}
	r := wire.Reader{B: src}
	m := readMarks(&r)
	for _, rd := range t.readers {
		rd.next, rd.end, rd.read = r.U64(), r.U64(), r.U64() == 1
	}
	t.lo, t.head, t.prev, t.frame, t.start, t.tick, t.floor = m.lo, m.head, m.prev, m.frame, m.start, m.tick, m.floor
	t.dropped, t.refused = int64(m.dropped), m.refused == 1
	ev := r.B
	if t.life == NextFrame && len(t.readers) == 0 {
		p := m.frame - m.lo
		view := wire.Bytes(t.buf[:p])
		copy(view, ev)
		copy(wire.Bytes(t.buf[t.capacity:t.capacity+int(m.head-m.frame)]), ev[len(view):])
		t.vbase, t.base = m.lo, m.frame-uint64(t.capacity)
		return
	}
	copy(wire.Bytes(t.buf[:m.head-m.lo]), ev)
	t.base, t.vbase = m.lo, m.lo
}

// describe appends a line describing t (name, lifetime, capacity, event
// type and size, readers' cadences) for a world's fingerprint. It
// allocates; call it at set-up.
func (t *Table[T]) describe(dst []byte) []byte {
	typ := reflect.TypeFor[T]()
	dst = append(dst, "events "+strconv.Quote(t.name)+" "+t.life.String()+" capacity "+strconv.Itoa(t.capacity)+" "+
		wire.Layout(typ)+" "+strconv.FormatUint(uint64(typ.Size()), 10)...)
	for _, r := range t.readers {
		dst = append(dst, " "+r.cadence.String()...)
	}
	return append(dst, '\n')
}

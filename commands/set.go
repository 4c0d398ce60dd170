package commands

import (
	"strconv"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
)

// colStore is the untyped face of a store[T]: the values of the deferred
// writes a buffer recorded for one column.
type colStore interface {
	apply(h ephemeral.Handle, val uint32) bool
	// applyN applies the n writes of a SetN record whose values start at
	// val and handles at hs, resolving each handle; it returns how many it
	// wrote, how many it dropped for a handle of another domain and how
	// many for a live entity with no row in the column's table.
	applyN(p *Playback, val, hs uint32, n int) (wrote, foreign, rowless int)
	reset()
}

type store[T any] struct {
	col  *ephemeral.Column[T]
	vals []T
	hs   []ephemeral.Handle // handles of SetN writes, in record order
}

func (s *store[T]) apply(h ephemeral.Handle, val uint32) bool { return s.col.Set(h, s.vals[val]) }

func (s *store[T]) applyN(p *Playback, val, h0 uint32, n int) (wrote, foreign, rowless int) {
	hs := s.hs[h0 : int(h0)+n]
	vs := s.vals[val : int(val)+n]
	col := s.col
	d := col.Table().Domain()
	for i, h := range hs {
		r := p.resolve(h)
		switch {
		case col.Set(r, vs[i]):
			wrote++
		case r != 0 && !d.Owns(r):
			foreign++
		case d.IsAlive(r):
			rowless++
		}
	}
	return wrote, foreign, rowless
}

func (s *store[T]) reset() {
	s.vals = s.vals[:0]
	s.hs = s.hs[:0]
}

// storeOf returns the buffer's store of col and its index, registering col
// the first time (the only allocation).
func storeOf[T any](r Recorder, col *ephemeral.Column[T]) (*store[T], uint32) {
	b := r.b
	if col.Table() != r.t {
		wrongRecorder(col.Table().Name(), col.Name(), r.t.Name())
	}
	if i := b.lastCol; i < len(b.cols) {
		if s, ok := b.cols[i].(*store[T]); ok && s.col == col {
			return s, uint32(i)
		}
	}
	for i, c := range b.cols {
		if s, ok := c.(*store[T]); ok && s.col == col {
			b.lastCol = i
			return s, uint32(i)
		}
	}
	if len(b.cols) > refMask {
		panic("commands: a buffer can record for at most 2^28 tables and columns")
	}
	s := &store[T]{col: col}
	b.cols = append(b.cols, s)
	b.colTab = append(b.colTab, r.ti)
	b.lastCol = len(b.cols) - 1
	return s, uint32(b.lastCol)
}

// Set records a deferred write of v to h's value in column col, applied at
// playback in record order. h may be real or provisional (typically the
// handle Create just returned: Create then Set is how a new row gets its
// initial values). At playback the write is dropped, and counted in
// Stats.DroppedSets, when h has no live row in col's table (deleted by an
// earlier record, stale, or a create that failed), or in
// Stats.ForeignHandles when h is another domain's.
//
// col must be a column of r's table: Set panics otherwise (a programmer
// error). Allocates nothing in steady state; the first Set of a column in a
// buffer registers the column.
func Set[T any](r Recorder, col *ephemeral.Column[T], h ephemeral.Handle, v T) {
	NewSetter(r, col).Set(h, v)
}

// SetN records the deferred writes of vs[i] to hs[i]'s value in column col,
// for every i, as len(hs) Set calls would, in one record: the values and
// handles are copied, and playback applies them in a typed loop. It is the
// way to give a batch of new rows their initial values (Create them, then
// one SetN per column). Each write is dropped and counted in
// Stats.DroppedSets when its handle has no live row at playback, in
// Stats.ForeignHandles when it is another domain's.
//
// col must be a column of r's table, and len(vs) must equal len(hs): SetN
// panics otherwise (a programmer error). Allocates nothing in steady state.
func SetN[T any](r Recorder, col *ephemeral.Column[T], hs []ephemeral.Handle, vs []T) {
	if len(hs) != len(vs) {
		panic("commands: SetN with " + strconv.Itoa(len(hs)) + " handles and " + strconv.Itoa(len(vs)) + " values: pass one value per handle")
	}
	if len(hs) == 0 {
		return
	}
	s, i := storeOf(r, col)
	if !s.room(r.b, opSetN, len(hs)) {
		return
	}
	val, h0 := uint32(len(s.vals)), uint64(len(s.hs))
	n := len(hs)
	if r.b.refused > 0 { // writes naming a refused create's handle are not recorded
		if n = keepRecorded(r.b, s, hs, vs); n == 0 {
			return
		}
	} else {
		s.vals = append(s.vals, vs...)
		s.hs = append(s.hs, hs...)
	}
	// The record's handle field carries where its handles start and how
	// many there are.
	r.b.recs = append(r.b.recs, record{h: ephemeral.Handle(h0<<32 | uint64(n)), ref: uint32(opSetN)<<opShift | i, val: val})
}

// keepRecorded appends to s the writes of hs and vs whose handle is not
// refusedHandle, counts the others in b.dropped (b has a refusal record
// that counts them at playback) and returns how many it appended.
func keepRecorded[T any](b *Buffer, s *store[T], hs []ephemeral.Handle, vs []T) int {
	n := 0
	for k, h := range hs {
		if h == refusedHandle {
			b.dropped++
			continue
		}
		s.hs = append(s.hs, h)
		s.vals = append(s.vals, vs[k])
		n++
	}
	return n
}

// Reserve makes room in r's buffer for n deferred values of column col
// (recorded with Set, SetN or a setter), for the n handles SetN stores with
// them, and, like Buffer.Reserve, for n records, so that recording up to that many per playback never allocates.
// Call it once, in a system's first run or at set-up: a system whose
// per-frame record count keeps reaching new highs (deaths in a bad frame)
// would otherwise grow its buffers, and allocate, at those frames. col must
// be a column of r's table (Reserve panics otherwise, as Set does); n at or
// below what is already reserved does nothing. Not safe for concurrent use:
// see Buffer.
//
// Room past what the store holds is charged to the playback's memory
// budget, as Buffer.Reserve's is; when it does not fit, Reserve reserves
// nothing, returns the budget's error (as Buffer.Reserve) and the writes
// that would need the room are refused when recorded (Memory in the
// package doc).
func Reserve[T any](r Recorder, col *ephemeral.Column[T], n int) error {
	s, _ := storeOf(r, col)
	bytes := memory.Sum(memory.Size(int64(max(n-cap(s.vals), 0)), int64(unsafe.Sizeof(*new(T)))),
		memory.Size(int64(max(n-cap(s.hs), 0)), int64(unsafe.Sizeof(ephemeral.Handle(0)))))
	if bytes > 0 {
		if err := r.b.charge(opReserve, r.t, bytes); err != nil {
			return err
		}
	}
	if n > cap(s.vals) {
		s.vals = growTo(s.vals, n)
	}
	if n > cap(s.hs) {
		s.hs = growTo(s.hs, n)
	}
	return r.b.Reserve(n)
}

// Setter records deferred writes to one column, as Set does, without
// looking the column up on every write: the generated spawners of package
// systems write each column through one, made at seal. Make one with
// NewSetter; it stays valid for its buffer's lifetime. A small value: copy
// it freely. Not safe for concurrent use: see Buffer.
type Setter[T any] struct {
	b   *Buffer
	s   *store[T]
	ref uint32
}

// NewSetter returns a Setter of column col for r's buffer. It panics when
// col is not a column of r's table.
func NewSetter[T any](r Recorder, col *ephemeral.Column[T]) Setter[T] {
	s, i := storeOf(r, col)
	return Setter[T]{b: r.b, s: s, ref: uint32(opSet)<<opShift | i}
}

// Set records a deferred write of v to h's value in the setter's column;
// see the function Set.
func (w Setter[T]) Set(h ephemeral.Handle, v T) {
	if h == refusedHandle && w.b.refused > 0 { // a refused create's: counted by the buffer's refusal record
		w.b.dropped++
		return
	}
	b := w.b
	if (len(b.recs) == cap(b.recs) || len(w.s.vals) == cap(w.s.vals)) && !w.s.room(b, opSet, 1) {
		return
	}
	w.s.vals = append(w.s.vals, v)
	b.recs = append(b.recs, record{h: h, ref: w.ref, val: uint32(len(w.s.vals) - 1)})
}

// room makes room in b for one record of op o and in s for n more values
// (and, for a SetN, their n handles), growing what is full and charging
// the growth to the playback's memory budget; when the budget refuses,
// the write is refused: counted (Memory in the package doc) and false.
// Out of line: Set stays small.
//
//go:noinline
func (s *store[T]) room(b *Buffer, o op, n int) bool {
	t := s.col.Table()
	if !b.grow(o, t) {
		return false
	}
	hs := 0
	if o == opSetN {
		hs = n
	}
	grow := func(have, want int) int { // the new capacity, or have when it fits
		if want <= have {
			return have
		}
		return max(2*have, want, 64)
	}
	nv, nh := grow(cap(s.vals), len(s.vals)+n), grow(cap(s.hs), len(s.hs)+hs)
	if nv == cap(s.vals) && nh == cap(s.hs) {
		return true
	}
	bytes := memory.Sum(memory.Size(int64(nv-cap(s.vals)), int64(unsafe.Sizeof(*new(T)))),
		memory.Size(int64(nh-cap(s.hs)), int64(unsafe.Sizeof(ephemeral.Handle(0)))))
	if b.charge(o, t, bytes) != nil {
		b.over.records++
		return false
	}
	s.vals = growTo(s.vals, nv)
	s.hs = growTo(s.hs, nh)
	return true
}

// wrongRecorder reports a Set or SetN of a column through the recorder of
// another table (programmer misuse); out of line so that storeOf stays
// small.
//
//go:noinline
func wrongRecorder(table, column, through string) {
	panic("tickwork: Set of column " + strconv.Quote(table+"."+column) + " through the recorder of table " + strconv.Quote(through) +
		": record a write through the recorder of the column's table, tickwork.Record(d, table) for table " + strconv.Quote(table) +
		" (declared in the same DeclareFunc)")
}

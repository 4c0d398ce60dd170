package commands

import (
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/segment"
)

// MaxBufferID is the largest buffer id (2^20-1). A Playback keeps a small
// slot per id up to the largest it has played, so number buffers densely
// from 0.
const MaxBufferID = 1<<20 - 1

// op is a record's kind; it sits in the top bits of record.ref.
type op uint32

const (
	opCreate op = iota + 1
	opAttach
	opDelete
	opRemove
	opSet
	opSetN
)

const (
	opShift = 28
	refMask = 1<<opShift - 1 // index into Buffer.tabs or Buffer.cols
)

var opNames = [...]string{opCreate: "create", opAttach: "attach", opDelete: "delete", opRemove: "remove", opSet: "set", opSetN: "set"}

// record is one recorded command, 16 bytes.
type record struct {
	h   ephemeral.Handle // target; for a create, its provisional handle
	ref uint32           // op<<opShift | index of the table (b.tabs) or column store (b.cols)
	val uint32           // set: index of the value in its column store
}

// Buffer is one record stream: the structural changes and deferred writes a
// system (or one worker of a parallel kernel) records during a run, replayed
// in order by a Playback at the next boundary. Its Recorders, one per table,
// all append to this one stream, so a system's records keep their order
// across tables.
//
// Memory: records, values and segment marks live in slices that grow while
// the buffer warms up and are reused after every playback: in steady state
// recording allocates nothing. The tables and columns a buffer has seen are
// remembered for its lifetime (a system touches a fixed set).
//
// Concurrency: a Buffer and its Recorders are used by one goroutine at a
// time; give each worker of a parallel kernel its own Buffer.
type Buffer struct {
	id      int
	next    uint32 // sequence number of the next create
	first   uint32 // sequence number of the first unplayed create
	recs    []record
	segs    segment.Marks
	tabs    []*ephemeral.Table
	cols    []colStore
	colTab  []uint32 // index in tabs of cols[i]'s table
	lastCol int      // cols index of the last Set, tried first
	playing bool     // given to the running playback
}

// NewBuffer makes a buffer with id id, unique among the buffers of one world
// (and of one Playback), 0 <= id <= MaxBufferID, and room for records
// records before it first grows. Provisional handles carry the id, so two
// buffers played by one Playback must never share it (Play panics if they
// do). NewBuffer panics on an id out of range or a negative records.
func NewBuffer(id int, records int) *Buffer {
	if id < 0 || id > MaxBufferID {
		panic("commands: NewBuffer(" + strconv.Itoa(id) + ", ...): the id must be between 0 and MaxBufferID; number buffers densely from 0")
	}
	if records < 0 {
		panic("commands: NewBuffer(..., " + strconv.Itoa(records) + "): the record capacity must not be negative")
	}
	return &Buffer{
		id:   id,
		recs: make([]record, 0, records),
		segs: make(segment.Marks, 0, 16),
	}
}

// ID is the buffer's id, as given to NewBuffer. Fixed; safe from any
// goroutine.
func (b *Buffer) ID() int { return b.id }

// Len is the number of records waiting for playback (a SetN counts as
// one). Only from the goroutine that owns the buffer, or the playback's.
func (b *Buffer) Len() int { return len(b.recs) }

// Begin starts a keyed segment: the records from now until the next Begin
// are played, by Playback.PlayMerged, at the place of key (a parallel
// kernel's chunk index). Records before the first Begin have key 0.
// Playback.PlayAll ignores keys and plays the buffers in record order.
//
// Keys should be unique among the buffers merged together (each chunk is
// processed by one worker): then the merged order, and so the final handles
// and table state, do not depend on the worker count. Allocates only while
// warming up.
func (b *Buffer) Begin(key int) {
	b.segs.Begin(key, len(b.recs))
}

// Reserve makes room for n records waiting for playback (it grows the
// capacity to at least n), so that recording up to n records per playback
// never allocates, nor does resolving up to n creates of a playback (the
// Playback sizes its resolutions of this buffer to the record capacity).
// n <= 0 does nothing.
func (b *Buffer) Reserve(n int) {
	if n > cap(b.recs) {
		b.recs = slices.Grow(b.recs, n-len(b.recs))
	}
}

// Reset discards the records waiting for playback, as if they had never been
// recorded; their provisional handles will never resolve (create sequence
// numbers are not reused). Allocates nothing. Not while a playback runs.
func (b *Buffer) Reset() {
	b.recs = b.recs[:0]
	b.segs = b.segs[:0]
	for _, c := range b.cols {
		c.reset()
	}
	b.first = b.next
}

// Recorder returns the buffer's recording view of table t. The system's
// context (package systems) calls it once per system run, for the tables
// the system's manifest lets it create in, delete from or write columns of;
// recording is then unchecked. The first call for a table allocates a
// little; later calls allocate nothing. Recorder panics when t is nil.
func (b *Buffer) Recorder(t *ephemeral.Table) Recorder {
	if t == nil {
		panic("commands: Buffer.Recorder(nil): pass the *ephemeral.Table the system records changes to")
	}
	return Recorder{b: b, t: t, ti: b.tabIndex(t)}
}

func (b *Buffer) tabIndex(t *ephemeral.Table) uint32 {
	for i, x := range b.tabs {
		if x == t {
			return uint32(i)
		}
	}
	if len(b.tabs) > refMask {
		panic("commands: a buffer can record for at most 2^28 tables and columns")
	}
	b.tabs = append(b.tabs, t)
	return uint32(len(b.tabs) - 1)
}

// Recorder records commands for one table into its Buffer. It is a small
// value (copy it freely) and stays valid for the buffer's lifetime; the zero
// Recorder is not usable (get one from Buffer.Recorder). It does
// no authorization check: the scheduler hands out Recorders only for the
// tables a system may change.
//
// Recording allocates nothing in steady state (the buffer's slices grow
// while warming up) and is not safe for concurrent use: see Buffer.
//
// Handles given to a Recorder may be real (from ephemeral) or provisional
// (from Create of any buffer played by the same Playback, before it or in the
// same playback, earlier in play order). They are checked at playback, not
// when recorded.
type Recorder struct {
	b  *Buffer
	t  *ephemeral.Table
	ti uint32
}

// Table is the table r records for. Safe from any goroutine.
func (r Recorder) Table() *ephemeral.Table { return r.t }

// Buffer is the buffer r records into. Safe from any goroutine.
func (r Recorder) Buffer() *Buffer { return r.b }

// Create records the creation of a new entity with a row in r's table (every
// column zero; give initial values with Set or SetN) and returns its
// provisional handle: generation 2*(id+1) of the buffer id, index the
// buffer's create sequence number. The handle is not a real ephemeral
// handle: ephemeral lookups of it fail (IsAlive is false). Use it in later
// records of this or later buffers, and turn it into the real handle with
// Playback.Resolve after playback. At playback the entity takes the lowest
// free slot of the table's domain; a create that does not fit fails alone
// (Stats.CapacityErrors, Stats.Err) and its handle never resolves.
// Allocates nothing in steady state.
func (r Recorder) Create() ephemeral.Handle {
	b := r.b
	h := ephemeral.MakeHandle(b.next, uint32(b.id+1)<<1) // even, nonzero generation
	b.next++
	r.add(opCreate, h)
	return h
}

// add appends a record of op o on h for r's table.
func (r Recorder) add(o op, h ephemeral.Handle) {
	r.b.recs = append(r.b.recs, record{h: h, ref: uint32(o)<<opShift | r.ti})
}

// Attach records the addition of a row (every column zero) in r's table for
// the existing entity h (real or provisional) of the table's domain, such as
// the Body row of a unit created through the Unit table. At playback an
// attach of a dead entity is counted in Stats.FailedAttaches; of an entity
// that already has a row, counted there too and reported in Stats.Err
// (ephemeral.ErrRowExists); of another domain's handle, counted in
// Stats.ForeignHandles and reported in Stats.Err
// (ephemeral.ErrForeignHandle). Allocates nothing in steady state; not safe for
// concurrent use (see Buffer).
func (r Recorder) Attach(h ephemeral.Handle) {
	r.add(opAttach, h)
}

// Delete records the deletion of the entity h (real or provisional): its
// row in r's table and its rows in every other table of the domain, as
// ephemeral.Table.Delete. At playback h must have a live row in r's table;
// otherwise the delete is a no-op counted in Stats.StaleDeletes (or in
// Stats.ForeignHandles for another domain's handle). Allocates nothing in
// steady state; not safe for concurrent use (see Buffer).
func (r Recorder) Delete(h ephemeral.Handle) {
	r.add(opDelete, h)
}

// Remove records the removal of h's row in r's table only, as
// ephemeral.Table.Detach: the entity and its other rows live on, unless
// that was its last row, when the entity is deleted with it (its slot
// freed; Stats.Removed and Stats.Emptied). A no-op counted in
// Stats.StaleDeletes when h has no live row in the table at playback (in
// Stats.ForeignHandles for another domain's handle). Allocates nothing in
// steady state; not safe for concurrent use (see Buffer).
func (r Recorder) Remove(h ephemeral.Handle) {
	r.add(opRemove, h)
}

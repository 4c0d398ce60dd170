package commands

import (
	"math"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/segment"
	"github.com/tickwork/tickwork/memory"
)

// Provisional handles: the widths of their fields, laid out in
// docs/architecture.md, Provisional handles.
const (
	seqBits = 27 // create sequence number, modulo 2^seqBits
	idBits  = 16 // buffer id
	tagBits = 10 // playback tag
	seqMask = 1<<seqBits - 1
)

// The fields fill the 53 bits of a handle's index and generation that an
// untagged, even-generation handle leaves free (a compile-time check).
const _ = uint(32+ephemeral.HandleGenerationBits-1-(seqBits+idBits+tagBits)) +
	uint((seqBits+idBits+tagBits)-(32+ephemeral.HandleGenerationBits-1))

// maxBufferID is the largest buffer id (2^16-1): a Playback makes at most
// maxBufferID+1 buffers (Playback.NewBuffer), numbered densely from 0;
// past them NewBuffer returns ErrTooManyBuffers.
const maxBufferID = 1<<idBits - 1

// MaxCreates is the most creates one buffer may have resolvable at once
// (2^27): those recorded since the last Playback.Release (one frame in a
// world), played or not. A Create past it is refused (see Recorder.Create).
// Exported as the limit behind ErrTooManyCreates (tickwork.ErrTooManyCreates
// at the face): a host that records many creates per frame into one buffer
// reads it to split them.
const MaxCreates = 1 << seqBits

// maxPlaybackTag is the largest playback tag (1023), the tag a provisional
// handle carries (docs/architecture.md, "Handle layout").
const maxPlaybackTag = 1<<tagBits - 1

// op is a record's kind; it sits in the top bits of record.ref.
type op uint32

const (
	opCreate op = iota + 1
	opAttach
	opDelete
	opRemove
	opSet
	opSetN
	opRefused // the buffer's creates refused at recording (MaxCreates, or past what the table could hold): fail at playback
	opMove    // a row moved from tabs[ref] to tabs[val]
	opReserve // never recorded: names a Reserve the memory budget refused (Buffer.over)
)

const (
	opShift = 28
	refMask = 1<<opShift - 1 // index into Buffer.tabs or Buffer.cols
)

var opNames = [...]string{opCreate: "create", opAttach: "attach", opDelete: "delete", opRemove: "remove", opSet: "set", opSetN: "set", opRefused: "create", opMove: "move", opReserve: "reserve"}

// record is one recorded command, 16 bytes.
type record struct {
	h   ephemeral.Handle // target; for a create, its provisional handle
	ref uint32           // op<<opShift | index of the table (b.tabs) or column store (b.cols)
	val uint32           // set: index of the value in its column store; move: index of the destination table; remove: emptiedMark once it left its entity rowless
}

// emptiedMark is the val of a played remove record that left its entity
// with no row: the entity is deleted at the end of the buffer's playback
// if it is still rowless then (Playback.sweep).
const emptiedMark = 1

// refusedHandle is what a refused create returns: provisional(0,
// maxBufferID, seqMask), of playback tag 0, which no playback has, so it
// never resolves. Writes naming it are not recorded (Setter.Set, SetN). A
// constant, so that the checks compare with an immediate.
const refusedHandle = ephemeral.Handle(refusedBits>>32<<33 | refusedBits&(1<<32-1))

const refusedBits = seqMask | maxBufferID<<seqBits // its payload (see provisional), tag 0

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
	p       *Playback        // the playback that made it, and plays it
	name    string           // its owner (a system), for a budget refusal and a PlaybackError
	id      int              // dense per playback
	set     int              // buffers of its NewBuffers set (a kernel's, one per worker); 0 from NewBuffer
	hbase   ephemeral.Handle // provisional handle bits of the playback tag and the id (sequence 0)
	next    uint32           // sequence number of the next create (uint32 counter; handles carry it modulo MaxCreates)
	lo      uint32           // sequence number of the first create not released (the playback's slot.lo)
	window  uint32           // MaxCreates (tests lower it): creates past lo+window are refused
	recs    []record
	segs    segment.Marks
	tabs    []*ephemeral.Table
	cols    []colStore
	colTab  []uint32 // index in tabs of cols[i]'s table
	lastCol int      // cols index of the last Set, tried first
	playing bool     // given to the running playback
	// Bounded recording (Recorder.TryCreate): creates and deletes recorded
	// since the last playback, per domain of tabs, and the creates refused
	// since then, which one opRefused record stands for.
	doms    []domRoom
	tabDom  []uint32 // index in doms of tabs[i]'s domain
	refused int      // creates refused since the last playback
	dropped int      // writes naming refusedHandle, not recorded
	refusal error    // the first refusal's error, returned by every refused TryCreate until playback
	// Growth past the reservation is charged to the playback's budget
	// (Buffer.grow); over is the first refused growth since the last
	// playback, reported by it.
	over overflow
	// plays is the most playbacks of the buffer between two Releases
	// (SetPlays).
	plays int
	// The buffer's first failure since the last Release (PlaybackError,
	// Memory): failed says perr (and capErr, when it is perr's cause)
	// holds it.
	failed bool
	perr   PlaybackError
	capErr ephemeral.CapacityError
	refErr ephemeral.CapacityError // the refusal of a create at recording (slowCreate)
}

// overflow is a buffer's first record refused since its last playback
// because growing the buffer did not fit in the memory budget, and how
// many records (and values) were refused since.
type overflow struct {
	err     error // the *memory.BudgetError; nil: none refused
	rec     int   // index the first refused record would have had
	op      op
	t       *ephemeral.Table
	records int // records refused
}

// domRoom is how many more creates a buffer may record into one domain:
// room is the domain's free slots when the buffer's first create since its
// last playback was recorded, plus the deletes and minus the creates
// recorded since; before that first create, unknownRoom plus the deletes
// recorded so far.
type domRoom struct {
	d    *ephemeral.Domain
	room int
}

// unknownRoom marks a domRoom whose free slots are not read yet: far below
// any count of deletes above it.
const unknownRoom = math.MinInt64 / 2

// ID is the buffer's id: its playback's buffers are numbered 0, 1, ... in
// the order Playback.NewBuffer made them. Fixed; safe from any goroutine.
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
// never allocates, nor does playing them or resolving up to n creates
// between two Releases (it grows the playback's resolutions of this buffer
// too). n <= 0 does nothing. It allocates; call it from the buffer's
// goroutine while no playback runs and nothing resolves concurrently (in a
// world: from the system's Run, outside its kernels).
//
// Room past the buffer's reservation (NewBuffer's records) is charged to
// the playback's memory budget, BufferBytes of the records added; when it
// does not fit, Reserve reserves nothing, returns the budget's
// *memory.BudgetError (errors.Is memory.ErrBudget), and the records that
// would need the room are refused when recorded (Memory in the package
// doc). It returns nil otherwise.
func (b *Buffer) Reserve(n int) error {
	if n > cap(b.recs) {
		if err := b.charge(opReserve, nil, BufferBytes(n-cap(b.recs))); err != nil {
			return err
		}
		b.recs = growTo(b.recs, n)
	}
	b.p.reserve(b, n)
	return nil
}

// SetPlays tells the buffer that it is played up to n times between two
// Playback.Releases (a world: MaxTicksPerFrame for a FixedUpdate
// system's buffers, whose creates resolve until the frame's end; 1, the
// default, for the others). The first playback whose creates need more
// resolution room than the buffer has then grows it for n such playbacks
// at once, charged to the budget, so that a frame of more playbacks than
// the warm-up frames had (a long or capped delta) allocates nothing. It
// panics on n < 1. Allocates nothing; call it at set-up.
func (b *Buffer) SetPlays(n int) {
	if n < 1 {
		panic("commands: Buffer.SetPlays(" + strconv.Itoa(n) + "): want at least 1 playback between releases")
	}
	b.plays = n
}

// charge charges bytes of growth to the playback's budget, or notes the
// refusal (the first since the last playback, for o in table t; t nil for
// a Reserve) and returns it.
func (b *Buffer) charge(o op, t *ephemeral.Table, bytes int64) error {
	if b.over.err != nil {
		return b.over.err
	}
	what := memory.Definition{Kind: "command buffer", Name: b.name}
	err := b.p.budget.Charge(what, bytes)
	if err != nil {
		b.over = overflow{err: err, rec: len(b.recs), op: o, t: t}
	}
	return err
}

// grow makes room for one more record, op o in table t, when the records
// are at capacity: it doubles the capacity (at least 64 records) and
// charges the records added, BufferBytes of them, to the budget. When
// the budget refuses it, the record is refused: grow counts it and
// returns false. Out of line: the recording paths stay small.
//
//go:noinline
func (b *Buffer) grow(o op, t *ephemeral.Table) bool {
	if len(b.recs) < cap(b.recs) {
		return true
	}
	if b.over.err == nil {
		n := max(2*cap(b.recs), 64)
		if b.charge(o, t, BufferBytes(n-cap(b.recs))) == nil {
			b.recs = growTo(b.recs, n)
			b.p.reserve(b, n)
			return true
		}
	}
	b.over.records++
	return false
}

// Reset discards the records waiting for playback, as if they had never been
// recorded; their provisional handles will never resolve (create sequence
// numbers are not reused). Allocates nothing. Not while a playback runs.
// For a host that records into its own buffers and drops a frame's records
// unplayed (a world's scheduler never discards: it plays every buffer).
func (b *Buffer) Reset() {
	b.recs = b.recs[:0]
	b.segs = b.segs[:0]
	for _, c := range b.cols {
		c.reset()
	}
	for i := range b.doms {
		b.doms[i].room = unknownRoom
	}
	b.refused, b.dropped, b.refusal = 0, 0, nil
	b.over = overflow{}
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
	ti := b.tabIndex(t)
	return Recorder{b: b, t: t, ti: ti, di: b.tabDom[ti]}
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
	d := t.Domain()
	di := len(b.doms)
	for i := range b.doms {
		if b.doms[i].d == d {
			di = i
		}
	}
	if di == len(b.doms) {
		b.doms = append(b.doms, domRoom{d: d, room: unknownRoom})
	}
	b.tabDom = append(b.tabDom, uint32(di))
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
// (which ones: docs/architecture.md, Provisional handles). They are checked
// at playback, not when recorded.
type Recorder struct {
	b  *Buffer
	t  *ephemeral.Table
	ti uint32 // index of t in b.tabs
	di uint32 // index of t's domain in b.doms
}

// Buffer is the buffer r records into. Safe from any goroutine.
func (r Recorder) Buffer() *Buffer { return r.b }

// Create records the creation of a new entity with a row in r's table (every
// column zero; give initial values with Set or SetN) and returns its
// provisional handle, for later records and Playback.Resolve (the rule:
// docs/architecture.md, Provisional handles). At playback the entity
// takes the lowest free slot of the table's domain; a create that does
// not fit then fails alone (Stats.CapacityErrors, Stats.Err) and its
// handle never resolves.
//
// Create is TryCreate without the error: a create TryCreate refuses is
// refused here too, and reported by the playback (Stats.CapacityErrors,
// Stats.Err). Allocates nothing in steady state.
func (r Recorder) Create() ephemeral.Handle {
	b := r.b
	dr := &b.doms[r.di]
	if dr.room <= 0 || b.next-b.lo >= b.window {
		h, _ := r.slowCreate(dr)
		return h
	}
	dr.room--
	h, _ := r.create()
	return h
}

// TryCreate is Create that reports a refusal at the call. Which creates a
// recorder refuses, and what it records for them: Bounded recording in the
// package doc's Policies. The error is an *ephemeral.CapacityError
// (errors.Is ephemeral.ErrCapacity) naming the table, its capacity and, as
// Live, the entities the domain would hold after playback; or
// ErrTooManyCreates past the buffer's MaxCreates (the window:
// docs/architecture.md, Provisional handles). The returned handle never
// resolves. At playback the refusals are counted in Stats.CapacityErrors
// and the first is reported in Stats.Err, a *PlaybackError wrapping the
// same error (so a world's Frame returns it). Every refused call until
// that playback returns the same error value: only the first allocates.
// Allocates nothing otherwise, in steady state.
func (r Recorder) TryCreate() (ephemeral.Handle, error) {
	b := r.b
	dr := &b.doms[r.di]
	if dr.room <= 0 || b.next-b.lo >= b.window {
		return r.slowCreate(dr)
	}
	dr.room--
	return r.create()
}

// create records a create that fits and returns its provisional handle;
// when the buffer cannot grow for its record (the memory budget), it
// returns refusedHandle and the budget's error.
func (r Recorder) create() (ephemeral.Handle, error) {
	b := r.b
	if len(b.recs) == cap(b.recs) && !b.grow(opCreate, r.t) {
		b.doms[r.di].room++
		return refusedHandle, b.over.err
	}
	h := b.hbase | ephemeral.Handle(b.next&seqMask)
	b.next++
	b.recs = append(b.recs, record{h: h, ref: uint32(opCreate)<<opShift | r.ti})
	return h, nil
}

// slowCreate is TryCreate when dr's room is unknown (the buffer's first
// create into the domain since its last playback: it reads the domain's
// free slots) or used up, or the window is: it creates, or refuses the
// create and returns refusedHandle and the refusal. The first refusal since
// the last playback makes the error and records the one opRefused record.
// Out of line: TryCreate stays small.
//
//go:noinline
func (r Recorder) slowCreate(dr *domRoom) (ephemeral.Handle, error) {
	b := r.b
	if dr.room < unknownRoom/2 {
		dr.room += dr.d.Cap() - dr.d.Len() - unknownRoom
	}
	window := b.next-b.lo < b.window
	if dr.room > 0 && window {
		dr.room--
		return r.create()
	}
	if b.refused == 0 {
		if !window {
			b.refusal = ErrTooManyCreates
		} else {
			// The buffer's own error (PlaybackError, Memory), unless a
			// kept PlaybackError still names it.
			if !b.failed || b.perr.Err != error(&b.refErr) {
				b.refErr = ephemeral.CapacityError{Table: r.t.Name(), Capacity: dr.d.Cap(),
					Live: dr.d.Cap() - dr.room, Requested: 1}
			}
			b.refusal = &b.refErr
		}
		r.add(opRefused, refusedHandle)
	}
	b.refused++
	return refusedHandle, b.refusal
}

// add appends a record of op o on h for r's table.
// A record the buffer cannot grow for (the memory budget) is refused:
// counted, and reported by the playback.
func (r Recorder) add(o op, h ephemeral.Handle) {
	b := r.b
	if len(b.recs) == cap(b.recs) && !b.grow(o, r.t) {
		return
	}
	b.recs = append(b.recs, record{h: h, ref: uint32(o)<<opShift | r.ti})
}

// Attach records the addition of a row (every column zero) in r's table for
// the existing entity h (real or provisional) of the table's domain, such as
// the Body row of a unit created through the Unit table, or of an entity a
// Remove earlier in the buffer left with no row (it is still alive: see
// Policies in the package doc). An attach that fails at playback (a dead
// entity, one that already has a row, another domain's handle) is counted
// and reported in Stats.Err: Policies in the package doc. Allocates nothing
// in steady state; not safe for concurrent use (see Buffer).
func (r Recorder) Attach(h ephemeral.Handle) {
	r.add(opAttach, h)
}

// Delete records the deletion of the entity h (real or provisional): its
// rows in every table of r's table's domain, as ephemeral.Domain.Delete,
// wherever they are when it plays (none, after a Remove; another table,
// after a Move: Playback order in the package doc). At playback h must
// name a live entity of the domain; otherwise the delete is a no-op
// counted in Stats.StaleDeletes (or in Stats.ForeignHandles for another
// domain's handle). Allocates nothing in
// steady state; not safe for concurrent use (see Buffer).
func (r Recorder) Delete(h ephemeral.Handle) {
	if h != refusedHandle { // a refused create's handle frees nothing
		r.b.doms[r.di].room++
	}
	r.add(opDelete, h)
}

// Remove records the removal of h's row in r's table only: the entity and
// its other rows live on. When that was its last row the entity passes
// through having no row: it is deleted only if it still has none when its
// buffer's playback ends, so a Remove then an Attach to another table of
// the domain (or the Attach first) moves it (Policies in the package doc;
// Move does it in one record). A no-op counted in Stats.StaleDeletes when
// h has no live row in the table at playback (in Stats.ForeignHandles for
// another domain's handle). Allocates nothing in steady state; not safe for
// concurrent use (see Buffer).
func (r Recorder) Remove(h ephemeral.Handle) {
	r.add(opRemove, h)
}

// Move records the move of the entity h's row from from's table to to's, in
// one record, as ephemeral.Table.Move at playback: the columns the two
// tables share by name and element type carry h's values, the other
// columns of to's table start at zero and the rest of from's row is
// dropped (Ark's Exchange, Bevy's insert and remove of components on one
// entity); h's rows in other tables live on and it never passes through
// having no row. h may be real or provisional (a create recorded earlier,
// even in the same playback). A move that fails at playback (h has no live
// row in from's table, already has a row in to's, or is another domain's)
// changes nothing, is counted (Stats.FailedMoves, or Stats.ForeignHandles)
// and reported in Stats.Err: Policies in the package doc.
//
// from and to must record into one buffer, for two tables of one domain:
// Move panics otherwise (programmer misuse). Allocates nothing in steady
// state; not safe for concurrent use (see Buffer).
func Move(h ephemeral.Handle, from, to Recorder) {
	if from.b == nil || from.b != to.b || from.t == to.t || from.t.Domain() != to.t.Domain() {
		movePanic(from, to)
	}
	b := from.b
	if len(b.recs) == cap(b.recs) && !b.grow(opMove, from.t) {
		return
	}
	b.recs = append(b.recs, record{h: h, ref: uint32(opMove)<<opShift | from.ti, val: to.ti})
}

// movePanic reports a bad Move; out of line so that Move stays small.
//
//go:noinline
func movePanic(from, to Recorder) {
	switch {
	case from.b == nil || to.b == nil:
		panic("commands: Move with a zero Recorder: get both from Buffer.Recorder")
	case from.b != to.b:
		panic("commands: Move from table " + from.t.Name() + " to table " + to.t.Name() +
			" through recorders of two buffers: take both recorders from one Buffer")
	case from.t == to.t:
		panic("commands: Move within table " + from.t.Name() + ": move to another table of its domain")
	default:
		panic("commands: Move from table " + from.t.Name() + " to table " + to.t.Name() +
			" of another domain: a row moves only between tables of one domain")
	}
}

// growTo returns s with a capacity of exactly n when it has less (what
// was charged to the budget is what is made), else s.
func growTo[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s
	}
	t := make([]T, len(s), n)
	copy(t, s)
	return t
}

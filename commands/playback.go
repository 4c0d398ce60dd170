package commands

import (
	"slices"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/segment"
	"github.com/tickwork/tickwork/memory"
)

// Stats counts what a playback did, in records or entities (a SetN record
// counts once in Played and once per write in Sets or DroppedSets). Every
// record is played or counted; which outcomes are no-ops and which are
// failures, also reported in Err: Policies in the package doc. The
// scheduler sums the Stats of a frame's playbacks into
// scheduler.FrameReport.Commands.
type Stats struct {
	Played         int   // records played (all kinds)
	Created        int   // rows created by Create (each a new entity)
	Attached       int   // rows added by Attach
	Deleted        int   // entities deleted by Delete
	Removed        int   // rows removed by Remove
	Emptied        int   // entities a Remove left with no row and that had none when their buffer's playback ended, deleted then
	Sets           int   // deferred writes applied
	StaleDeletes   int   // Deletes and Removes of a handle with no live row (stale, already deleted, failed create): no-ops
	DroppedSets    int   // writes to a handle with no live entity (deleted by an earlier record, stale, failed or refused create)
	FailedAttaches int   // Attaches of a dead entity or of one that already had a row (also set Err)
	CapacityErrors int   // Creates refused at recording or that did not fit in the table's domain at playback (also set Err)
	ForeignHandles int   // Deletes, Removes, Attaches, Moves and writes whose handle (once resolved) is another domain's, or another playback's provisional handle: no-ops (also set Err)
	Err            error // first failure, a *PlaybackError (errors.Is ErrPlayback) wrapping the storage error; nil if none
	Moved          int   // rows moved by Move
	FailedMoves    int   // Moves of a handle with no live row in the source table, or with a row in the destination already (also set Err)
	BudgetRefusals int   // records and writes refused at recording because growing their buffer past its reservation did not fit in the memory budget (also set Err)
	FailedSets     int   // writes to a live entity with no row in the column's table (ErrNoRow; also set Err)
}

// Add adds o's counts to s and keeps s.Err, or takes o.Err when s.Err is nil.
// Allocates nothing.
func (s *Stats) Add(o Stats) {
	s.Played += o.Played
	s.Created += o.Created
	s.Attached += o.Attached
	s.Deleted += o.Deleted
	s.Removed += o.Removed
	s.Emptied += o.Emptied
	s.Sets += o.Sets
	s.StaleDeletes += o.StaleDeletes
	s.DroppedSets += o.DroppedSets
	s.FailedAttaches += o.FailedAttaches
	s.CapacityErrors += o.CapacityErrors
	s.ForeignHandles += o.ForeignHandles
	s.Moved += o.Moved
	s.FailedMoves += o.FailedMoves
	s.BudgetRefusals += o.BudgetRefusals
	s.FailedSets += o.FailedSets
	if s.Err == nil {
		s.Err = o.Err
	}
}

// Playback replays buffers at a boundary and keeps the resolutions of their
// provisional handles. A world has one Playback; it makes every buffer of
// the world (NewBuffer) and plays them.
//
// Identity: a Playback takes a tag (Tag) from a process-wide sequence,
// which its buffers' provisional handles carry (another playback's:
// docs/architecture.md, Provisional handles).
//
// Concurrency: NewBuffer, Play, PlayAll, PlayMerged and Release need
// exclusive access to the Playback, the buffers played and their tables.
// Resolve is safe from many goroutines while none of those runs.
type Playback struct {
	tag    uint32         // 1..maxPlaybackTag
	budget *memory.Budget // charged with the buffers' initial reservations
	slots  []slot         // by buffer id
	spans  []segment.Span // PlayMerged scratch
	st     Stats
	// emptied counts the removes of the buffer being played that left
	// their entity with no row (marked emptiedMark): sweep deletes those
	// entities still rowless at the end of the buffer's playback.
	emptied int
	// phase and frame name the playback in PlaybackErrors (SetFrame);
	// hold keeps each buffer's first failure until Release.
	phase string
	frame uint64
	hold  bool
}

// slot keeps the resolutions of one buffer's provisional handles: res[k] is
// the real handle made by the create of sequence number lo+k (modulo
// MaxCreates), or zero when it failed or was not played.
type slot struct {
	buf *Buffer
	lo  uint32
	res []ephemeral.Handle
}

// playbackTags counts the playbacks made by the process; see NewPlayback.
var playbackTags atomic.Uint64

// NewPlayback makes a Playback with no buffers and no
// resolutions, whose buffers are charged to budget (NewBuffer; nil gives
// the playback a private budget of memory.DefaultBudget bytes; a world
// passes its own). It takes the next tag of a process-wide sequence, 1, 2,
// …, maxPlaybackTag, 1, …, so any maxPlaybackTag playbacks made one after
// another have distinct tags (the bound: docs/architecture.md, Provisional
// handles). Safe from many goroutines.
func NewPlayback(budget *memory.Budget) *Playback {
	if budget == nil {
		budget = memory.NewOwnedBudget(memory.DefaultBudget, memory.OwnerPrivate)
	}
	return &Playback{tag: uint32((playbackTags.Add(1)-1)%maxPlaybackTag) + 1, budget: budget}
}

// BufferBytes is what NewBuffer allocates and charges for a buffer of
// records records: 16 bytes per record and 8 per resolution of a create
// (records of them), 24 bytes a record, saturating at math.MaxInt64; a
// buffer's growth is charged at this rate too. Its fixed per-buffer
// overhead (segment marks and merge scratch, under 1 KiB) is not charged
// (docs/architecture.md, memory budget). Allocates nothing. Exported for
// a host sizing a memory budget (tickwork.WithMemoryBudget): a world
// charges BufferBytes(WithCommandRecords) per recording system and worker.
func BufferBytes(records int) int64 {
	return memory.Size(int64(records), int64(unsafe.Sizeof(record{})+unsafe.Sizeof(ephemeral.Handle(0))))
}

// NewBuffer makes a buffer played by p, with room for records records
// before it first grows, and the next id (0, 1, … in order; at most
// maxBufferID+1 buffers). Its provisional handles carry p's tag and its id.
// name names the buffer's owner (its system) in a budget refusal and in
// its PlaybackErrors; it may be empty.
//
// Memory: everything a playback of the buffer needs is sized here, at
// set-up, so that playing up to records records (and resolving up to
// records creates) between two Releases never allocates, the first
// non-empty playback included: the records, p's slot for the buffer's
// resolutions (records handles) and its segment marks. Buffer.Reserve
// raises both. The records and resolutions, BufferBytes(records), are
// charged to p's budget first.
//
// It returns a *memory.BudgetError (errors.Is memory.ErrBudget; kind
// "command buffer") when they do not fit in what is left of the budget,
// and ErrTooManyBuffers when p has made maxBufferID+1 buffers; nothing is
// made then. It panics on a negative records. It allocates: call it at
// set-up. Not concurrently with anything else on p.
func (p *Playback) NewBuffer(name string, records int) (*Buffer, error) {
	bufs, err := p.newBuffers(name, 1, records, 0)
	if err != nil {
		return nil, err
	}
	return bufs[0], nil
}

// NewBuffers makes the n buffers of one parallel kernel, one per worker,
// as n NewBuffer calls would (consecutive ids), and also sizes p's scratch
// for playing them together (PlayMerged), so that their first non-empty
// merged playback allocates nothing either. It makes and charges all n or
// none: it returns the *memory.BudgetError of the n buffers' bytes
// (n*BufferBytes(records), naming n workers) or ErrTooManyBuffers. It
// panics on n < 1 or a negative records. Not concurrently with anything
// else on p.
func (p *Playback) NewBuffers(name string, n, records int) ([]*Buffer, error) {
	return p.newBuffers(name, n, records, n)
}

// newBuffers makes n buffers; workers is the Definition's Workers.
func (p *Playback) newBuffers(name string, n, records, workers int) ([]*Buffer, error) {
	if n < 1 || records < 0 {
		panic("commands: NewBuffers(" + strconv.Itoa(n) + ", " + strconv.Itoa(records) +
			"): want at least 1 buffer and a record capacity of at least 0")
	}
	if len(p.slots)+n-1 > maxBufferID {
		return nil, ErrTooManyBuffers
	}
	what := memory.Definition{Kind: "command buffer", Name: name, Workers: workers}
	if err := p.budget.Charge(what, memory.Size(int64(n), BufferBytes(records))); err != nil {
		return nil, err
	}
	bufs := make([]*Buffer, n)
	room := 0
	for i := range bufs {
		id := len(p.slots)
		set := 0
		if workers > 0 {
			set = n
		}
		b := &Buffer{
			p:      p,
			name:   name,
			id:     id,
			set:    set,
			hbase:  provisional(p.tag, id, 0),
			plays:  1,
			window: MaxCreates,
			recs:   make([]record, 0, records),
			segs:   make(segment.Marks, 0, 16),
		}
		p.slots = append(p.slots, slot{buf: b, res: make([]ephemeral.Handle, 0, records)})
		room += segment.Room(b.segs)
		bufs[i] = b
	}
	if room > cap(p.spans) {
		p.spans = make([]segment.Span, 0, room)
	}
	return bufs, nil
}

// isProvisional reports whether h is a provisional handle made by
// Recorder.Create (of any playback): untagged (tag 0, no domain's) with an
// even, nonzero generation. Pure; safe from any goroutine.
func isProvisional(h ephemeral.Handle) bool {
	g := h.Generation()
	return h.Tag() == 0 && g&1 == 0 && g != 0
}

// provisional builds the provisional handle of playback tag tag, buffer id
// id and sequence number seq (modulo MaxCreates). Its 53 payload bits,
// seq | id<<27 | tag<<43, fill the handle's index and its generation above
// the generation's lowest bit, which stays 0 (even); the tag field stays 0.
// A nonzero tag makes the generation nonzero.
func provisional(tag uint32, id int, seq uint32) ephemeral.Handle {
	v := uint64(seq&seqMask) | uint64(id)<<seqBits | uint64(tag)<<(seqBits+idBits)
	return ephemeral.MakeHandle(uint32(v), uint32(v>>32)<<1)
}

// splitProvisional returns the fields of a provisional handle h (see
// provisional).
func splitProvisional(h ephemeral.Handle) (tag uint32, id int, seq uint32) {
	v := uint64(h.Index()) | uint64(h.Generation()>>1)<<32
	return uint32(v >> (seqBits + idBits)), int(v>>seqBits) & maxBufferID, uint32(v) & seqMask
}

// PlayAll plays bufs one after the other, in the order given (the scheduler
// passes the buffers of a boundary in sealed system order), each in record
// order whatever its keys, then resets them for recording. It is one
// playback: a run of creates into one table is one bulk
// ephemeral.Table.InsertN (which records may sit in a run: Playback order
// in the package doc).
//
// The result is the same as playing every record on its own, in order
// (Playback order): new entities take the lowest free slots, and the
// policies of Stats apply.
// Nothing fails as a whole; the first failure is Stats.Err.
//
// Allocates nothing in steady state, a failing record included (its
// *PlaybackError is its buffer's: PlaybackError, Memory); a buffer whose
// creates outgrow its resolution slot grows it. It panics when a buffer is given twice or two buffers share an id.
func (p *Playback) PlayAll(bufs []*Buffer) Stats {
	p.begin()
	for _, b := range bufs {
		p.prepare(b)
	}
	for _, b := range bufs {
		p.run(b, 0, len(b.recs))
		if p.emptied > 0 {
			p.sweep(b, 0, len(b.recs))
		}
	}
	return p.end(bufs)
}

// PlayMerged plays the buffers of one parallel kernel (one per worker) as a
// single stream: their keyed segments (see Buffer.Begin) in ascending key
// order, equal keys in the order of bufs, then record order; then resets the
// buffers. With chunk indexes as keys the final handles and table state are
// the same whatever the worker count and however chunks were shared.
// Otherwise as PlayAll.
func (p *Playback) PlayMerged(bufs []*Buffer) Stats {
	p.begin()
	room := 0
	for _, b := range bufs {
		room += segment.Room(b.segs)
	}
	spans := slices.Grow(p.spans[:0], room)
	for i, b := range bufs {
		p.prepare(b)
		spans = segment.AppendSpans(spans, i, b.segs, len(b.recs))
	}
	segment.Sort(spans)
	for _, s := range spans {
		p.run(bufs[s.Src], s.Lo, s.Hi)
	}
	if p.emptied > 0 { // the merged stream is one buffer's playback
		for _, s := range spans {
			p.sweep(bufs[s.Src], s.Lo, s.Hi)
		}
	}
	p.spans = spans[:0]
	return p.end(bufs)
}

// Resolve turns a provisional handle into the real handle its create made.
// It returns false when h's create has not been played, failed, or was
// played before the last Release, and for another playback's provisional
// handle. The real handle may since have been deleted (a create then
// delete in one boundary): check liveness with the table. A handle that is
// not provisional is returned as is, with true unless it is zero.
//
// Resolutions stay readable across later playbacks, empty or not, until
// Release (docs/architecture.md, Provisional handles). Safe from many
// goroutines while no playback or Release runs.
func (p *Playback) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) {
	r := p.resolve(h)
	if isProvisional(r) { // another playback's
		return 0, false
	}
	return r, r != 0
}

// Release forgets every resolution made so far, and frees each buffer's
// PlaybackError for its next failure (PlaybackError, Memory); the
// scheduler calls it once per frame (docs/architecture.md, Provisional
// handles). Provisional handles of
// records not played yet stay resolvable after their playback. Allocates
// nothing. Needs exclusive access, as a playback does.
func (p *Playback) Release() {
	for i := range p.slots {
		s := &p.slots[i]
		s.lo += uint32(len(s.res))
		s.res = s.res[:0]
		s.buf.lo = s.lo      // the buffer's MaxCreates window starts again here
		s.buf.failed = false // its PlaybackError may be reused
	}
}

// resolve returns the real handle of a provisional h of p, zero when it has
// none (yet, or a refused create's), and any other h as is: a real handle,
// or another playback's provisional handle, which names no row of any
// table (untagged), so that playback counts it as foreign.
func (p *Playback) resolve(h ephemeral.Handle) ephemeral.Handle {
	if !isProvisional(h) {
		return h
	}
	tag, id, seq := splitProvisional(h)
	if tag != p.tag {
		if tag == 0 { // a create refused by MaxCreates: never resolves
			return 0
		}
		return h
	}
	if id >= len(p.slots) {
		return 0
	}
	s := &p.slots[id]
	k := (seq - s.lo) & seqMask
	if uint64(k) >= uint64(len(s.res)) {
		return 0
	}
	return s.res[k]
}

func (p *Playback) begin() {
	p.st = Stats{}
	p.emptied = 0
}

// prepare checks that p made b and makes room for the resolutions of its
// creates.
func (p *Playback) prepare(b *Buffer) {
	if b.p != p {
		panic("commands: buffer " + strconv.Itoa(b.id) + " of another Playback: play a buffer with the Playback whose NewBuffer made it")
	}
	if b.playing {
		panic("commands: buffer " + strconv.Itoa(b.id) + " given twice to one playback: pass each buffer once")
	}
	b.playing = true
	if !p.hold {
		b.failed = false // PlaybackError, Memory
	}
	s := &p.slots[b.id]
	n := int(b.next - s.lo)
	if n > len(s.res) {
		old := len(s.res)
		if want := (n - old) * b.plays; want > cap(s.res) && b.plays > 1 {
			p.pregrow(b, s, want)
		}
		// Within the capacity NewBuffer, Reserve or pregrow gave: no
		// allocation.
		s.res = slices.Grow(s.res, n-old)[:n]
		clear(s.res[old:])
	}
}

// pregrow grows b's resolution slot s to want, the resolutions of
// b.plays playbacks like this one, so that the playbacks of a frame with
// more of them (a capped catch-up frame of fixed ticks) find room
// (Buffer.SetPlays). The growth is charged to the budget; when the budget
// refuses it, the slot grows only as far as this playback needs.
//
//go:noinline
func (p *Playback) pregrow(b *Buffer, s *slot, want int) {
	extra := int64(want - cap(s.res))
	if p.budget.Charge(memory.Definition{Kind: "command buffer", Name: b.name}, memory.Size(extra, int64(unsafe.Sizeof(ephemeral.Handle(0))))) == nil {
		s.res = growTo(s.res, want)
	}
}

// reserve makes room in b's slot for n resolutions since a Release.
func (p *Playback) reserve(b *Buffer, n int) {
	s := &p.slots[b.id]
	if n > cap(s.res) {
		s.res = growTo(s.res, n)
	}
}

func (p *Playback) end(bufs []*Buffer) Stats {
	for _, b := range bufs {
		if o := &b.over; o.err != nil {
			p.st.BudgetRefusals += o.records
			if p.st.Err == nil {
				name := ""
				if o.t != nil {
					name = o.t.Name()
				}
				p.st.Err = p.failure(b, o.rec, opNames[o.op], name, o.err)
			}
		}
		b.Reset()
		b.playing = false
	}
	return p.st
}

// run plays b.recs[lo:hi] in order.
func (p *Playback) run(b *Buffer, lo, hi int) {
	st := &p.st
	st.Played += hi - lo
	for i := lo; i < hi; {
		r := b.recs[i]
		idx := r.ref & refMask
		switch op(r.ref >> opShift) {
		case opCreate:
			i = p.creates(b, i, hi, idx)
			continue
		case opRefused: // stands for every create the buffer refused since its last playback
			st.CapacityErrors += b.refused
			st.DroppedSets += b.dropped
			p.fail(b, i, opRefused, b.tabs[idx], b.refusal)
		case opDelete:
			// The entity, wherever its rows are (none, after a Remove
			// or Move away): Policies, Playback order.
			t, h := b.tabs[idx], p.resolve(r.h)
			if t.Domain().Delete(h) {
				st.Deleted++
			} else if !p.foreign(b, i, opDelete, t, h) {
				st.StaleDeletes++
			}
		case opRemove:
			t, h := b.tabs[idx], p.resolve(r.h)
			if removed, rowless := t.RemoveRow(h); removed {
				st.Removed++
				if rowless { // its last row: deleted at the end unless it gets another
					b.recs[i].val = emptiedMark
					p.emptied++
				}
			} else if !p.foreign(b, i, opRemove, t, h) {
				st.StaleDeletes++
			}
		case opAttach:
			t := b.tabs[idx]
			switch err := t.Attach(p.resolve(r.h)); err {
			case nil:
				st.Attached++
			case ephemeral.ErrForeignHandle:
				st.ForeignHandles++
				p.fail(b, i, opAttach, t, err)
			default: // ErrStaleHandle, ErrRowExists
				st.FailedAttaches++
				p.fail(b, i, opAttach, t, err)
			}
		case opMove:
			from := b.tabs[idx]
			h := p.resolve(r.h)
			switch err := from.Move(h, b.tabs[r.val]); err {
			case nil:
				st.Moved++
			case ephemeral.ErrForeignHandle:
				st.ForeignHandles++
				p.fail(b, i, opMove, from, err)
			default: // ErrStaleHandle, ErrRowExists
				if err == ephemeral.ErrStaleHandle && from.Domain().IsAlive(h) {
					err = ErrMoveNoRow
				}
				st.FailedMoves++
				p.fail(b, i, opMove, from, err)
			}
		case opSet, opSetN:
			p.set(b, i, r, idx)
		}
		i++
	}
}

// sweep ends the playback of b.recs[lo:hi] (of a merged stream, called
// for each of its spans in order): in record order, each entity that a
// remove left with no row and that still has none is deleted (counted in
// Emptied); one that got a row again (Attach) lives on. Entities emptied
// twice are deleted once. It stops after the last marked record. Allocates
// nothing.
func (p *Playback) sweep(b *Buffer, lo, hi int) {
	for i := lo; i < hi && p.emptied > 0; i++ {
		r := &b.recs[i]
		if op(r.ref>>opShift) != opRemove || r.val != emptiedMark {
			continue
		}
		r.val = 0
		p.emptied--
		h := p.resolve(r.h)
		if b.tabs[r.ref&refMask].Domain().DeleteRowless(h) {
			p.st.Emptied++
			if testEmptied != nil {
				testEmptied(h)
			}
		}
	}
}

// testEmptied, when set (tests only), is called with each entity sweep
// deletes, in the order it deletes them.
var testEmptied func(h ephemeral.Handle)

// foreign counts, and reports in Err, the record rec of b (an op o on table
// t) whose resolved handle h failed, when h is another domain's; it returns
// whether it was. Only failed records get here.
func (p *Playback) foreign(b *Buffer, rec int, o op, t *ephemeral.Table, h ephemeral.Handle) bool {
	if h == 0 || t.Domain().Owns(h) {
		return false
	}
	p.st.ForeignHandles++
	p.fail(b, rec, o, t, ephemeral.ErrForeignHandle)
	return true
}

// set plays record rec of b, a Set or SetN record r of column store idx.
func (p *Playback) set(b *Buffer, rec int, r record, idx uint32) {
	ti := b.colTab[idx]
	st := &p.st
	if op(r.ref>>opShift) == opSetN {
		n := int(uint32(r.h))
		wrote, foreign, rowless := b.cols[idx].applyN(p, r.val, uint32(r.h>>32), n)
		st.Sets += wrote
		st.ForeignHandles += foreign
		st.FailedSets += rowless
		st.DroppedSets += n - wrote - foreign - rowless
		if foreign > 0 {
			p.fail(b, rec, opSetN, b.tabs[ti], ephemeral.ErrForeignHandle)
		} else if rowless > 0 {
			p.fail(b, rec, opSetN, b.tabs[ti], ErrNoRow)
		}
		return
	}
	h := p.resolve(r.h)
	if b.cols[idx].apply(h, r.val) {
		st.Sets++
	} else if !p.foreign(b, rec, opSet, b.tabs[ti], h) {
		if t := b.tabs[ti]; t.Domain().IsAlive(h) {
			st.FailedSets++
			p.fail(b, rec, opSet, t, ErrNoRow)
		} else {
			st.DroppedSets++
		}
	}
}

// createWindow is how many records of a create run are played at a time: a
// window is scanned, bulk-inserted and its sets applied while it is in cache.
// A variable only so that a test can play every record alone (1).
var createWindow = 1024

// creates plays the run of records from i (a create into b.tabs[ti]) up to
// the next record that is neither a create into the same table nor a set
// of an entity created earlier in the buffer: window by window, one bulk
// insert of the window's creates, then its sets in record order. Inserting
// n then m rows equals inserting n+m, and a set in the run names a create
// played before it (earlier in the window or before it), so this equals
// playing the records one by one. Any other set (a real handle, which a
// later create of the window could make live; another buffer's handle; a
// SetN, whose handles are not looked at here) ends the run and is played
// on its own (Policies, Playback order). It returns the end of the run.
func (p *Playback) creates(b *Buffer, i, hi int, ti uint32) int {
	st := &p.st
	createRef := uint32(opCreate)<<opShift | ti
	t := b.tabs[ti]
	d := t.Domain()
	s := &p.slots[b.id]
	// next is the resolution index (since the last Release) of the next
	// create: the creates of a run have consecutive sequence numbers.
	next := (b.recs[i].h.Index() - s.lo) & seqMask
	for {
		end := min(hi, i+createWindow)
		k := next // the window's first create's resolution index
		j := i
		sets := false
	scan:
		for ; j < end; j++ {
			r := &b.recs[j]
			switch {
			case r.ref == createRef:
				next++
			case op(r.ref>>opShift) == opSet && p.madeBefore(b, r.h, next):
				sets = true
			default:
				break scan
			}
		}
		if n := int(next - k); n > 0 {
			// Insert straight into the creates' resolutions.
			out := s.res[k : int(k)+n]
			fit := min(n, d.Cap()-d.Len())
			if fit > 0 {
				_ = t.InsertN(out[:fit]) // fits: checked above
			}
			st.Created += fit
			if fit < n {
				st.CapacityErrors += n - fit
				if st.Err == nil {
					p.fail(b, nthCreate(b.recs[i:j], createRef, fit)+i, opCreate, t, b.capacityError(t))
				}
			}
		}
		if sets {
			for x := i; x < j; x++ {
				if r := b.recs[x]; op(r.ref>>opShift) == opSet {
					p.set(b, x, r, r.ref&refMask)
				}
			}
		}
		if j < end || j == hi {
			return j
		}
		i = j
	}
}

// madeBefore reports whether h is the provisional handle of one of b's
// creates played (or bulk-inserted) before resolution index next since
// the last Release: a set of it may be applied after a window's bulk
// insert. Allocates nothing.
func (p *Playback) madeBefore(b *Buffer, h ephemeral.Handle, next uint32) bool {
	if !isProvisional(h) {
		return false
	}
	tag, id, seq := splitProvisional(h)
	return tag == p.tag && id == b.id && (seq-p.slots[b.id].lo)&seqMask < next
}

// nthCreate returns the index in recs of the create with ref createRef
// that comes after n others.
func nthCreate(recs []record, createRef uint32, n int) int {
	for x := range recs {
		if recs[x].ref == createRef {
			if n == 0 {
				return x
			}
			n--
		}
	}
	return len(recs)
}

func (p *Playback) fail(b *Buffer, rec int, o op, t *ephemeral.Table, err error) {
	if p.st.Err == nil {
		p.st.Err = p.failure(b, rec, opNames[o], t.Name(), err)
	}
}

// failure returns b's PlaybackError, filled with this failure when it is
// b's first since the last Release (PlaybackError, Memory). Allocates
// nothing.
func (p *Playback) failure(b *Buffer, rec int, op, table string, err error) *PlaybackError {
	if !b.failed {
		b.failed = true
		b.perr = PlaybackError{System: b.name, Phase: p.phase, Frame: p.frame,
			Buffer: b.id, Record: rec, Op: op, Table: table, Err: err}
		if op == "create" {
			b.perr.Create = createOrdinal(b.recs, rec)
		}
	}
	return &b.perr
}

// createOrdinal is the ordinal, from 1, of the create (or refused create)
// at recs[rec] among the creates of recs: what a PlaybackError names, the
// Create or Spawn call, where rec counts sets too. A loop over the records
// before it, on the failure path only; allocates nothing.
func createOrdinal(recs []record, rec int) int {
	n := 1
	for _, r := range recs[:min(rec, len(recs))] {
		if o := op(r.ref >> opShift); o == opCreate || o == opRefused {
			n++
		}
	}
	return n
}

// capacityError returns b's CapacityError of a create into t that did not
// fit, filled when b has no failure since the last Release (it may then
// become b's PlaybackError's cause). Allocates nothing.
func (b *Buffer) capacityError(t *ephemeral.Table) *ephemeral.CapacityError {
	if !b.failed {
		d := t.Domain()
		b.capErr = ephemeral.CapacityError{Table: t.Name(), Capacity: d.Cap(), Live: d.Len(), Requested: 1}
	}
	return &b.capErr
}

// SetFrame names the phase and frame number of the playbacks that follow
// in their PlaybackErrors, and from then on keeps each buffer's first
// failure until Release, across playbacks (PlaybackError, Memory; a
// world's scheduler calls it before each phase's playback). Allocates
// nothing. Needs exclusive access, as a playback does.
func (p *Playback) SetFrame(phase string, frame uint64) {
	p.phase, p.frame, p.hold = phase, frame, true
}

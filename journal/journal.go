package journal

import (
	"encoding/binary"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/tickwork/tickwork"
)

// Record kinds: the first byte of each record (docs/journal.md, Record
// format).
const (
	kindInput = 1 // [1][table id u16][value]
	kindMark  = 2 // [2][frame u64][dt f64][up to u64]
	markSize  = 25
)

// Options configure a journal (Open). The zero value is the defaults.
type Options struct {
	// CheckpointEvery is the number of frames between checkpoints (0:
	// 600, 10 s at 60 fps; negative: only Journal.Checkpoint).
	CheckpointEvery int
	// Ring is the number of records appended and not yet committed the
	// journal holds (0: 65 536); MarkReserve of them (0: 1 024) are kept
	// for frame marks, so inputs wait before a frame does.
	Ring, MarkReserve int
	// MaxBatch is the most records per store transaction (0: Ring).
	MaxBatch int
}

// table is an input table, type-erased for the journal.
type table interface {
	tableName() string
	isNil() bool
	bind(j *Journal, id uint16) error
	valueSize() int
	headPos() (Position, bool)
	room() int
	emitHead(frame uint64)
	queue(p Position, data []byte) error
}

// Table is an input table of any value type (*Inputs[V]), for Open.
type Table interface{ table }

// Stats are a journal's counts since Open.
type Stats struct {
	Durable     Position      // the last position the store committed
	Commits     int64         // store transactions of records
	Records     int64         // records committed (inputs and frame marks)
	Checkpoints int64         // checkpoints written
	Delayed     int64         // checkpoints put off a frame: the last one was still being written
	Replayed    uint64        // frames Open re-ran after the checkpoint
	CommitTime  time.Duration // total time in the store's Append
	Snapshot    time.Duration // total frame-thread time taking checkpoint snapshots
}

// Journal is a world's durable input path: the input tables' records
// committed to a Store by a committer goroutine (group commit: one
// transaction per batch), each frame's inputs assigned and journalled at
// its start, and checkpoints. Made by Open. Frame, Checkpoint and Close
// are called from the goroutine that runs the world's frames; Wait,
// Durable, Stats and the tables' Append and Send from any goroutine.
type Journal struct {
	w      *tickwork.World
	store  Store
	tables []table
	every  int

	mu        sync.Mutex
	space     *sync.Cond // producers and Wait: room or durability
	work      *sync.Cond // the committer: records or a checkpoint
	slots     [][]byte   // ring of records, position p at p % len
	inputRoom int        // records queued past which inputs wait
	maxBatch  int
	next      Position // the next position to hand out
	durable   Position
	failed    error
	closed    bool
	cpPending bool
	cp        Checkpoint
	cpNeed    Position // the record the pending checkpoint follows
	stats     Stats

	cpBuf    []byte // frame thread: the snapshot of a checkpoint
	lastUpTo Position
	lastMark Position
	since    int
	batch    [][]byte // committer
	done     chan struct{}
}

// Open binds tables to store for w, recovers and starts the committer.
// On an empty store it writes a first checkpoint, of w as it is (so the
// journal is a replay file of the whole run: docs/journal.md). Otherwise
// it restores the store's checkpoint into w and re-runs, with their
// journalled inputs and deltas, the frames after it whose marks are
// durable; the inputs durable after the last such frame wait for the
// next Frame. Errors: *DefinitionError (nil argument, a table twice or of
// another journal), *StoreError, *CorruptError, *RestoreError, or the
// fatal error of a re-run frame. w must not run frames but through the
// journal from then on. Open allocates; the frames do not.
func Open(w *tickwork.World, store Store, opt Options, tables ...Table) (*Journal, error) {
	if w == nil || store == nil {
		return nil, &DefinitionError{Reason: "Open of a nil world or store"}
	}
	j := &Journal{w: w, store: store, done: make(chan struct{})}
	j.space, j.work = sync.NewCond(&j.mu), sync.NewCond(&j.mu)
	if err := j.configure(opt, tables); err != nil {
		return nil, err
	}
	if err := j.recover(); err != nil {
		return nil, err
	}
	j.next = j.durable + 1
	go j.commit()
	return j, nil
}

func (j *Journal) configure(opt Options, tables []Table) error {
	ring, reserve := opt.Ring, opt.MarkReserve
	if ring == 0 {
		ring = 1 << 16
	}
	if reserve == 0 {
		reserve = 1024
	}
	if ring < 0 || reserve < 0 || reserve >= ring || opt.MaxBatch < 0 {
		return &DefinitionError{Reason: "Options: Ring must exceed MarkReserve, none negative"}
	}
	j.every = opt.CheckpointEvery
	if j.every == 0 {
		j.every = 600
	}
	j.inputRoom, j.maxBatch = ring-reserve, opt.MaxBatch
	if j.maxBatch == 0 || j.maxBatch > ring {
		j.maxBatch = ring
	}
	if len(tables) > math.MaxUint16 {
		return &DefinitionError{Reason: "more than 65 535 input tables"}
	}
	size := markSize
	for i, t := range tables {
		if t == nil || t.isNil() {
			return &DefinitionError{Reason: "Open of a nil input table (a failed AddInputs)"}
		}
		if err := t.bind(j, uint16(i)); err != nil {
			return err
		}
		j.tables = append(j.tables, t)
		size = max(size, 3+t.valueSize())
	}
	j.slots = make([][]byte, ring)
	for i := range j.slots {
		j.slots[i] = make([]byte, 0, size)
	}
	j.batch = make([][]byte, 0, j.maxBatch)
	return nil
}

func (j *Journal) slot(p Position) []byte       { return j.slots[int(p%Position(len(j.slots)))] }
func (j *Journal) setSlot(p Position, b []byte) { j.slots[int(p%Position(len(j.slots)))] = b }

// queued is the number of records handed out and not committed (j.mu).
func (j *Journal) queued() int { return int(j.next - 1 - j.durable) }

// refusal is the error new records get: the failure or ErrClosed (j.mu).
func (j *Journal) refusal() error {
	if j.failed != nil {
		return j.failed
	}
	if j.closed {
		return ErrClosed
	}
	return nil
}

// Frame runs one frame of the world with delta dt (tickwork.World.Frame):
// first it hands the world the inputs durable now, in journal order (at
// most each table's Capacity; the rest wait for the next frame), as
// events stamped with the frame number, and queues the frame's mark (its
// number, dt and the last input position it took) for the committer;
// then the world's frame; then, every CheckpointEvery frames, it takes a
// snapshot for the committer to write. It never waits on the store and
// allocates nothing in steady state. Errors: the world's Frame errors;
// the journal's *StoreError once the store failed and ErrClosed after
// Close (the frame is not run); ErrBacklog when the commit ring is full
// (not run, retry). A checkpoint snapshot's error is returned after the
// frame ran. Call it from the world's goroutine.
func (j *Journal) Frame(dt float64) error {
	j.mu.Lock()
	if err := j.refusal(); err != nil {
		j.mu.Unlock()
		return err
	}
	if j.queued() >= len(j.slots) {
		j.mu.Unlock()
		return ErrBacklog
	}
	frame := j.w.Frames()
	upTo := j.feed(frame, j.durable)
	p := j.next
	b := j.slot(p)[:markSize]
	b[0] = kindMark
	binary.LittleEndian.PutUint64(b[1:], frame)
	binary.LittleEndian.PutUint64(b[9:], math.Float64bits(dt))
	binary.LittleEndian.PutUint64(b[17:], uint64(upTo))
	j.setSlot(p, b)
	j.next++
	j.lastUpTo, j.lastMark = upTo, p
	j.work.Signal()
	j.space.Broadcast()
	j.mu.Unlock()
	err := j.w.Frame(dt)
	if j.every > 0 {
		if j.since++; j.since >= j.every {
			if cerr := j.Checkpoint(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}
	return err
}

// feed emits the queued inputs at positions up to limit, in position
// order across the tables, until one's event table is full, and returns
// the last position every input up to which was emitted (j.mu held, or
// Open's replay).
func (j *Journal) feed(frame uint64, limit Position) Position {
	for {
		var best table
		bp := Position(math.MaxUint64)
		for _, t := range j.tables {
			if p, ok := t.headPos(); ok && p <= limit && p < bp {
				best, bp = t, p
			}
		}
		if best == nil {
			return limit
		}
		if best.room() <= 0 {
			return bp - 1
		}
		best.emitHead(frame)
	}
}

// Checkpoint takes a snapshot of the world now and hands it to the
// committer, which writes it, with the position of the last frame's
// inputs, once that frame's mark is durable (atomically: the store's
// WriteCheckpoint). When the last checkpoint is still being written it
// does nothing and the next Frame tries again (Stats.Delayed). Frame
// calls it every CheckpointEvery frames. Errors: the world's Snapshot
// error, the journal's *StoreError, ErrClosed. Allocates nothing once
// its buffer holds the world's snapshot size. Call it between frames,
// from the world's goroutine.
func (j *Journal) Checkpoint() error {
	j.mu.Lock()
	if err := j.refusal(); err != nil {
		j.mu.Unlock()
		return err
	}
	if j.cpPending {
		j.stats.Delayed++
		j.mu.Unlock()
		return nil
	}
	j.mu.Unlock()
	t0 := time.Now()
	buf, err := j.w.Snapshot(j.cpBuf[:0])
	if err != nil {
		return err
	}
	j.cpBuf = buf
	j.mu.Lock()
	j.stats.Snapshot += time.Since(t0)
	j.cp = Checkpoint{Frame: j.w.Frames(), Position: j.lastUpTo, Snapshot: buf}
	j.cpNeed, j.cpPending, j.since = j.lastMark, true, 0
	j.work.Signal()
	j.mu.Unlock()
	return nil
}

// Wait returns once position p is durable, or the journal's *StoreError,
// or a *DefinitionError for a position not handed out. Safe for
// concurrent use.
func (j *Journal) Wait(p Position) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if p >= j.next {
		return &DefinitionError{Reason: "Wait of a position no Send handed out"}
	}
	for j.durable < p {
		if j.failed != nil {
			return j.failed
		}
		j.space.Wait()
	}
	return nil
}

// Durable is the last position the store committed. Safe for concurrent
// use.
func (j *Journal) Durable() Position {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.durable
}

// Stats returns the journal's counts. Safe for concurrent use.
func (j *Journal) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := j.stats
	s.Durable = j.durable
	return s
}

// Close refuses new inputs and frames, waits for the committer to commit
// every record handed out and the pending checkpoint, and closes the
// store. It returns the journal's *StoreError if the store failed, or
// the store's Close error. Later calls return ErrClosed. Call it from the
// world's goroutine; the world stays open (World.Close is the host's).
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return ErrClosed
	}
	j.closed = true
	j.work.Signal()
	j.space.Broadcast()
	j.mu.Unlock()
	<-j.done
	j.mu.Lock()
	failed := j.failed
	j.mu.Unlock()
	cerr := j.store.Close()
	if failed != nil {
		return failed
	}
	if cerr != nil {
		return &StoreError{Op: "close", Store: j.store.String(), Err: cerr}
	}
	return nil
}

// commit is the committer goroutine: each batch of records handed out
// is one store Append, then the pending checkpoint once its frame's mark
// is durable.
func (j *Journal) commit() {
	defer close(j.done)
	j.mu.Lock()
	defer j.mu.Unlock()
	for {
		for j.failed == nil && j.queued() == 0 && !j.cpReady() && !j.closed {
			j.work.Wait()
		}
		switch {
		case j.failed != nil:
			return
		case j.queued() > 0:
			j.commitBatch()
		case j.cpReady():
			c := j.cp
			j.mu.Unlock()
			err := j.store.WriteCheckpoint(c)
			j.mu.Lock()
			j.cpPending = false
			if err != nil {
				j.fail("checkpoint", err)
			} else {
				j.stats.Checkpoints++
			}
			j.space.Broadcast()
		default: // closed, nothing left
			return
		}
	}
}

func (j *Journal) cpReady() bool { return j.cpPending && j.cpNeed <= j.durable }

// commitBatch appends the next batch of records (j.mu held; released
// during the store's Append).
func (j *Journal) commitBatch() {
	first := j.durable + 1
	n := min(j.queued(), j.maxBatch)
	j.batch = j.batch[:0]
	for p := first; p < first+Position(n); p++ {
		j.batch = append(j.batch, j.slot(p))
	}
	j.mu.Unlock()
	t0 := time.Now()
	last, err := j.store.Append(j.batch)
	d := time.Since(t0)
	j.mu.Lock()
	switch {
	case err != nil:
		j.fail("append", err)
	case last != first+Position(n)-1:
		j.fail("append", &CorruptError{Position: last, Reason: "the store appended at other positions than the journal's (another writer?)"})
	default:
		j.durable = last
		j.stats.Commits++
		j.stats.Records += int64(n)
		j.stats.CommitTime += d
	}
	j.space.Broadcast()
}

func (j *Journal) fail(op string, err error) {
	j.failed = &StoreError{Op: op, Store: j.store.String(), Err: err}
	j.space.Broadcast()
}

var errStop = errors.New("stop")

package runtime

import (
	"errors"
	"strconv"

	"github.com/tickwork/tickwork/memory"
)

// ErrNoSnapshot: Rollback.Load of a frame the ring does not hold (never
// saved, overwritten, or dropped by an earlier Load). Returned as a
// *RollbackError.
var ErrNoSnapshot = errors.New("runtime: rollback ring holds no snapshot of that frame")

// RollbackError names the frame a Rollback could not load and the frames
// it holds. errors.Is(err, ErrNoSnapshot) is true.
//
// Back is nonzero for a Rewind(Back) past frame 0 (only Frames frames
// have run); Frame is 0 then.
type RollbackError struct {
	Frame          uint64
	Oldest, Newest uint64
	Held           int
	Back           int
	Frames         uint64
}

func (e *RollbackError) Error() string {
	if e.Back != 0 {
		return "runtime: rollback cannot rewind " + strconv.Itoa(e.Back) + " frames: the world has run " + strconv.FormatUint(e.Frames, 10)
	}
	if e.Held == 0 {
		return "runtime: rollback ring holds no snapshot of frame " + strconv.FormatUint(e.Frame, 10) + ": it is empty"
	}
	return "runtime: rollback ring holds no snapshot of frame " + strconv.FormatUint(e.Frame, 10) +
		": it holds frames " + strconv.FormatUint(e.Oldest, 10) + ".." + strconv.FormatUint(e.Newest, 10)
}

// Is reports whether target is ErrNoSnapshot.
func (e *RollbackError) Is(target error) bool { return target == ErrNoSnapshot }

// Rollback is a ring of n preallocated snapshots of one world, labelled by
// the frame they precede (World.Frames when saved), for rollback netcode:
// save every frame, load the frame a late input belongs to, re-simulate
// (docs/state.md, "Rollback"). Its snapshots are World.Snapshot's without
// the checksum pass, and Load restores them without World.Restore's
// checks: they are taken by this world and held where nothing else writes
// (Checksum computes the checksum when asked). A Rollback is used from the
// goroutine that calls the world's Frame.
//
// A refused call (ErrZeroWorld, ErrClosed, ErrRunning, ErrPoisoned after a
// panic: docs/state.md, "Not of a poisoned world"; a *RollbackError,
// an *OptionError) leaves the ring exactly as it was. A World.Restore of
// any snapshot (a save loaded) starts another history: the ring forgets
// every snapshot it held (Len 0) and fills again from the next Save.
type Rollback struct {
	w      *World
	bufs   [][]byte
	frames []uint64
	sums   []uint32 // Checksum's, computed on demand
	summed []bool
	next   int    // slot of the next Save
	held   int    // snapshots held, the newest at next-1
	epoch  uint64 // w.restores when the ring last looked: another value forgets the history
}

// NewRollback makes a ring of n snapshots of w, each preallocated to the
// size w's declarations give its snapshot (World.MaxSnapshotSize without
// the state allowance: every bounded part at its declared size, event
// tables at their capacity; the parts without a declared bound, pending
// resolutions and slice or codec resources, at their size now), computed
// without taking a snapshot, and charges n times that to w's memory
// budget (kind "snapshot ring") before it allocates anything. A snapshot
// that outgrows its room later (those unbounded parts) grows it once. It
// returns a *SnapshotError for a world a snapshot cannot hold, a
// *memory.BudgetError (errors.Is ErrMemoryBudget) when the ring does not
// fit (having allocated nothing), an *OptionError for n outside 1..1024,
// ErrZeroWorld, ErrClosed or ErrRunning (from a system). It allocates;
// call it at set-up.
func NewRollback(w *World, n int) (*Rollback, error) {
	if err := w.ready(errRunningNewRollback); err != nil {
		return nil, err
	}
	if n < 1 || n > 1024 {
		return nil, &OptionError{Option: "NewRollback", Value: itoa(n), Reason: "want 1..1024 snapshots"}
	}
	size := w.state.ringSize()
	if err := w.budget.Charge(memory.Definition{Kind: "snapshot ring", Name: "Rollback", Workers: 0}, memory.Size(int64(n), int64(size))); err != nil {
		return nil, err
	}
	r := &Rollback{w: w, bufs: make([][]byte, n), frames: make([]uint64, n), sums: make([]uint32, n), summed: make([]bool, n), epoch: w.restores}
	for i := range r.bufs {
		r.bufs[i] = make([]byte, 0, size)
	}
	return r, nil
}

// ringSize is the room of a ring's snapshot (NewRollback). Allocates
// nothing but a codec resource's encoding.
func (st *worldState) ringSize() int {
	n := SnapshotHeader + 8*len(st.sections)
	for k, p := range st.parts {
		if st.bounded[k] {
			n += st.max[k]
		} else {
			n += p.StateSize()
		}
	}
	return n
}

// Cap is the number of snapshots the ring holds at most.
func (r *Rollback) Cap() int { return len(r.bufs) }

// Len is the number of snapshots it holds.
func (r *Rollback) Len() int { r.sync(); return r.held }

// sync forgets the history when a World.Restore loaded another one since
// the ring last looked.
func (r *Rollback) sync() {
	if r.epoch != r.w.restores {
		r.epoch, r.held = r.w.restores, 0
	}
}

// Newest and Oldest are the frames of the newest and oldest snapshots
// held; ok is false when the ring is empty.
func (r *Rollback) Newest() (frame uint64, ok bool) {
	r.sync()
	if r.held == 0 {
		return 0, false
	}
	return r.frames[(r.next-1+len(r.bufs))%len(r.bufs)], true
}

// Oldest: see Newest.
func (r *Rollback) Oldest() (frame uint64, ok bool) {
	r.sync()
	if r.held == 0 {
		return 0, false
	}
	return r.frames[(r.next-r.held+len(r.bufs))%len(r.bufs)], true
}

// Save takes a snapshot of the world labelled with World.Frames (the frame
// it precedes). A snapshot of that frame already held is overwritten in
// place (re-simulation saves the frames it re-runs); otherwise the
// snapshots of later frames, a future the world left by loading an
// earlier one, are forgotten and the snapshot takes the next slot,
// overwriting the oldest when the ring is full. It allocates nothing once
// the slot has room. It returns ErrZeroWorld, ErrClosed, ErrRunning (from
// a system) or the *SnapshotError of a world a snapshot cannot hold with
// the ring unchanged. A resource codec's error while the snapshot is
// written (a *SnapshotError, errors.Is ErrUnsupported) loses what the slot
// held: the oldest snapshot (a full ring), or the later frames' (a Save
// after a Load of an earlier frame), or the one of that frame and the
// later ones (an overwrite in place); the ring is unchanged otherwise.
func (r *Rollback) Save() error {
	if err := r.w.ready(errRunningSave); err != nil {
		return err
	}
	r.sync()
	f := r.w.Frames()
	i, inPlace := r.slot(f)
	next, held := r.next, r.held
	if !inPlace {
		for held > 0 && r.frames[(next-1+len(r.bufs))%len(r.bufs)] >= f {
			next, held = (next-1+len(r.bufs))%len(r.bufs), held-1 // a later frame: forgotten
		}
		i = next
	}
	b, err := r.w.snapshot(r.bufs[i][:0], false)
	if err != nil {
		switch {
		case inPlace: // frame f's snapshot is lost, and the later ones with it
			for r.held > 0 {
				if nf, _ := r.Newest(); nf < f {
					break
				}
				r.drop()
			}
		case held < r.held: // slot i held the first of the later frames, forgotten now
			r.next, r.held = next, held
		case held == len(r.bufs): // the oldest snapshot was in slot i
			r.held--
		}
		return err
	}
	if !inPlace {
		r.next, r.held = (next+1)%len(r.bufs), min(held+1, len(r.bufs))
	}
	r.bufs[i], r.frames[i], r.summed[i] = b, f, false
	return nil
}

// slot is the slot holding the snapshot of frame, if any.
func (r *Rollback) slot(frame uint64) (int, bool) {
	for k := 1; k <= r.held; k++ {
		i := (r.next - k + len(r.bufs)) % len(r.bufs)
		if r.frames[i] == frame {
			return i, true
		}
	}
	return 0, false
}

// drop forgets the newest snapshot.
func (r *Rollback) drop() {
	r.next = (r.next - 1 + len(r.bufs)) % len(r.bufs)
	r.held--
}

// Load restores the snapshot of frame (World.Restore), so that the next
// Frame is frame again. The snapshots of later frames stay until Save
// overwrites them (as re-simulation does) or a Save of an earlier frame
// than theirs forgets them; their Checksum is what those frames held the
// first time. It returns a *RollbackError (errors.Is ErrNoSnapshot) for a
// frame it does not hold, and World.Restore's errors; the world and the
// ring are unchanged then. It allocates nothing in steady state (see
// World.Restore). From a system it returns ErrRunning.
func (r *Rollback) Load(frame uint64) error {
	if err := r.w.ready(errRunningLoad); err != nil {
		return err
	}
	return r.load(frame)
}

func (r *Rollback) load(frame uint64) error {
	r.sync()
	i, ok := r.slot(frame)
	if !ok {
		e := &RollbackError{Frame: frame, Held: r.held}
		e.Oldest, _ = r.Oldest()
		e.Newest, _ = r.Newest()
		return e
	}
	return r.w.restore(r.bufs[i], false)
}

// Checksum is the CRC-32C of the snapshot of frame, the one World.Snapshot
// would have written in its header, computed on the first call for that
// snapshot; false when the ring does not hold it. Two snapshots with the same checksum hold
// the same state, tags included (worlds that started from one snapshot
// share their tags), so comparing it between a run and its re-simulation,
// or between peers, detects a desync (docs/state.md, "Rollback").
// Allocates nothing.
func (r *Rollback) Checksum(frame uint64) (uint32, bool) {
	r.sync()
	i, ok := r.slot(frame)
	if !ok {
		return 0, false
	}
	if !r.summed[i] {
		r.sums[i], r.summed[i] = checksum(r.bufs[i]), true
	}
	return r.sums[i], true
}

// Rewind loads the snapshot of n frames back, World.Frames()-n, as Load.
// A negative n is an *OptionError (errors.Is ErrOption); n past frame 0 a
// *RollbackError (errors.Is ErrNoSnapshot) whose Back says so; the world
// and the ring are unchanged then.
func (r *Rollback) Rewind(n int) error {
	if err := r.w.ready(errRunningRewind); err != nil {
		return err
	}
	if n < 0 {
		return &OptionError{Option: "Rollback.Rewind", Value: itoa(n), Reason: "want how many frames back, 0 or more"}
	}
	f := r.w.Frames()
	if uint64(n) > f {
		r.sync()
		e := &RollbackError{Held: r.held, Back: n, Frames: f}
		e.Oldest, _ = r.Oldest()
		e.Newest, _ = r.Newest()
		return e
	}
	return r.load(f - uint64(n))
}

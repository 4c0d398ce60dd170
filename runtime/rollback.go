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
type RollbackError struct {
	Frame          uint64
	Oldest, Newest uint64
	Held           int
}

func (e *RollbackError) Error() string {
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
type Rollback struct {
	w      *World
	bufs   [][]byte
	frames []uint64
	sums   []uint32 // Checksum's, computed on demand
	summed []bool
	next   int // slot of the next Save
	held   int // snapshots held, the newest at next-1
}

// NewRollback makes a ring of n snapshots of w, each preallocated to the
// size of w's snapshot now plus room for every event table's capacity,
// and charges n times that to w's memory budget (kind "snapshot ring").
// A snapshot that outgrows its room later (slice or codec resources,
// pending resolutions) grows it once. It returns a *SnapshotError for a
// world a snapshot cannot hold, a
// *memory.BudgetError (errors.Is ErrMemoryBudget) when the ring does not
// fit, an *OptionError for n outside 1..1024, ErrZeroWorld or
// ErrClosed. It allocates; call it at set-up.
func NewRollback(w *World, n int) (*Rollback, error) {
	if w == nil || w.sched == nil {
		return nil, ErrZeroWorld
	}
	if n < 1 || n > 1024 {
		return nil, &OptionError{Option: "NewRollback", Value: itoa(n), Reason: "want 1..1024 snapshots"}
	}
	size, err := w.SnapshotSize()
	if err != nil {
		return nil, err
	}
	for _, e := range w.state.events {
		size += e.StateCap()
	}
	if err := w.budget.Charge(memory.Definition{Kind: "snapshot ring", Name: "Rollback", Workers: 0}, memory.Size(int64(n), int64(size))); err != nil {
		return nil, err
	}
	r := &Rollback{w: w, bufs: make([][]byte, n), frames: make([]uint64, n), sums: make([]uint32, n), summed: make([]bool, n)}
	for i := range r.bufs {
		r.bufs[i] = make([]byte, 0, size)
	}
	return r, nil
}

// Cap is the number of snapshots the ring holds at most.
func (r *Rollback) Cap() int { return len(r.bufs) }

// Len is the number of snapshots it holds.
func (r *Rollback) Len() int { return r.held }

// Newest and Oldest are the frames of the newest and oldest snapshots
// held; ok is false when the ring is empty.
func (r *Rollback) Newest() (frame uint64, ok bool) {
	if r.held == 0 {
		return 0, false
	}
	return r.frames[(r.next-1+len(r.bufs))%len(r.bufs)], true
}

// Oldest: see Newest.
func (r *Rollback) Oldest() (frame uint64, ok bool) {
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
// the slot has room. It returns World.Snapshot's errors; the slot's
// snapshot and every later one are forgotten then.
func (r *Rollback) Save() error {
	f := r.w.Frames()
	i, ok := r.slot(f)
	if !ok {
		for r.held > 0 {
			if nf, _ := r.Newest(); nf < f {
				break
			}
			r.drop()
		}
		i = r.next
		r.next = (r.next + 1) % len(r.bufs)
		r.held = min(r.held+1, len(r.bufs))
	}
	b, err := r.w.snapshot(r.bufs[i][:0], false)
	if err != nil {
		for r.held > 0 {
			if nf, _ := r.Newest(); nf < f {
				break
			}
			r.drop()
		}
		return err
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
// World.Restore).
func (r *Rollback) Load(frame uint64) error {
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
func (r *Rollback) Rewind(n int) error {
	f := r.w.Frames()
	if n < 0 || uint64(n) > f {
		e := &RollbackError{Held: r.held}
		e.Oldest, _ = r.Oldest()
		e.Newest, _ = r.Newest()
		return e
	}
	return r.Load(f - uint64(n))
}

package tickwork

import "github.com/tickwork/tickwork/runtime"

// Rollback is a ring of preallocated snapshots of one world, labelled by
// the frame they precede (World.Frames when saved), for rollback netcode:
// save every frame, load the frame a late input belongs to, re-simulate
// (docs/state.md, Rollback). A refused call leaves the ring as it was. A
// World.Restore starts another history: the ring forgets what it held.
// Used from the goroutine that calls the world's Frame.
type Rollback runtime.Rollback

func (r *Rollback) e() *runtime.Rollback { return (*runtime.Rollback)(r) }

// NewRollback makes a ring of n snapshots of w (1..1024), preallocated and
// charged to w's memory budget. It returns a *SnapshotError for a world a
// snapshot cannot hold, a *BudgetError, an *OptionError for a bad n,
// ErrZeroWorld, ErrClosed or ErrRunning. It allocates: call it at set-up.
func NewRollback(w *World, n int) (*Rollback, error) {
	r, err := runtime.NewRollback(w.e(), n)
	return (*Rollback)(r), err
}

// Save takes a snapshot of the world labelled World.Frames. A snapshot of
// that frame already held is overwritten in place; otherwise the
// snapshots of later frames are forgotten and the oldest is overwritten
// when the ring is full. It allocates nothing once the slot has room. It
// returns ErrZeroWorld, ErrClosed, ErrRunning or a *SnapshotError.
func (r *Rollback) Save() error { return r.e().Save() }

// Load restores the snapshot of frame, so that the next Frame is frame
// again; later snapshots stay until Save overwrites them. It returns a
// *RollbackError (ErrNoSnapshot) for a frame it does not hold and
// World.Restore's errors, the world and the ring unchanged then.
func (r *Rollback) Load(frame uint64) error { return r.e().Load(frame) }

// Rewind loads the snapshot of n frames back, World.Frames()-n, as Load. A
// negative n is an *OptionError, one past frame 0 a *RollbackError.
func (r *Rollback) Rewind(n int) error { return r.e().Rewind(n) }

// Checksum is the CRC-32C of the snapshot of frame (the one
// World.Snapshot writes in its header), false when the ring does not hold
// it: compare it between a run and its re-simulation, or between peers,
// to detect a desync. Allocates nothing.
func (r *Rollback) Checksum(frame uint64) (uint32, bool) { return r.e().Checksum(frame) }

// Cap is the number of snapshots the ring holds at most.
func (r *Rollback) Cap() int { return r.e().Cap() }

// Len is the number of snapshots it holds.
func (r *Rollback) Len() int { return r.e().Len() }

// Newest is the frame of the newest snapshot held; false when the ring is
// empty.
func (r *Rollback) Newest() (frame uint64, ok bool) { return r.e().Newest() }

// Oldest is the frame of the oldest snapshot held; false when the ring is
// empty.
func (r *Rollback) Oldest() (frame uint64, ok bool) { return r.e().Oldest() }

// SnapshotVersion is the format version of the snapshots this build
// writes and reads (docs/state.md, Version rule).
const SnapshotVersion = runtime.SnapshotVersion

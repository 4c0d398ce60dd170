package tickwork

import "github.com/tickwork/tickwork/runtime"

// Snapshots: World.Snapshot, World.Restore, World.Fingerprint (what a
// snapshot holds, the format and its version rule: docs/state.md).

// Rollback is a ring of preallocated snapshots of a world, for rollback
// netcode: [runtime.Rollback].
type Rollback = runtime.Rollback

// NewRollback makes a ring of n snapshots of w: [runtime.NewRollback].
func NewRollback(w *World, n int) (*Rollback, error) { return runtime.NewRollback(w, n) }

// SnapshotError reports a refused Snapshot or Restore:
// [runtime.SnapshotError].
type SnapshotError = runtime.SnapshotError

// RollbackError reports a frame a Rollback does not hold:
// [runtime.RollbackError].
type RollbackError = runtime.RollbackError

// The snapshot errors a host tests with errors.Is: [runtime.ErrSnapshot]
// and the sentinels after it.
var (
	ErrSnapshot    = runtime.ErrSnapshot    // any refused Snapshot or Restore
	ErrTruncated   = runtime.ErrTruncated   // the input ends early
	ErrCorrupt     = runtime.ErrCorrupt     // not a snapshot, bad checksum, or no state of this world
	ErrVersion     = runtime.ErrVersion     // another format version
	ErrOtherWorld  = runtime.ErrOtherWorld  // another world's declarations
	ErrUnsupported = runtime.ErrUnsupported // a world a snapshot cannot hold
	ErrNoSnapshot  = runtime.ErrNoSnapshot  // Rollback.Load of a frame not held
)

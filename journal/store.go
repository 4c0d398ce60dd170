package journal

// Position is a record's place in a store: the first record a store
// appends is at 1, each next one at the one before plus 1. 0 is "before
// every record".
type Position uint64

// Checkpoint is a world's snapshot with the journal position it stands
// for: Frame is the world's frame count at the snapshot (World.Frames,
// the next frame to run), Position the last input position the frames
// before Frame consumed, Snapshot the bytes of World.Snapshot. Recovery
// restores Snapshot and replays the records after Position
// (docs/journal.md, Recovery).
type Checkpoint struct {
	Frame    uint64
	Position Position
	Snapshot []byte
}

// Store is where a journal keeps its records and its checkpoint. A store
// keeps one ordered log of opaque records and one checkpoint. The journal
// calls Append and WriteCheckpoint from its committer goroutine, Read and
// LoadCheckpoint from Open, never two calls at once: a store needs no
// locking of its own. Every method either does all its work durably or
// none of it (no partial state), and returns a failure as an error
// wrapping the cause (the journal wraps it again in a *StoreError). The
// conformance suite every store passes: package
// github.com/tickwork/tickwork/stores/storetest.
type Store interface {
	// Append stores recs durably, in order, at the positions after the
	// last record's, in one transaction, and returns the last record's
	// position. recs and its byte slices are the caller's again once
	// Append returns: copy what is kept.
	Append(recs [][]byte) (last Position, err error)
	// Read calls fn with each record after position after, in position
	// order, until fn returns an error (returned as it is) or the records
	// end. rec is valid during the call only.
	Read(after Position, fn func(pos Position, rec []byte) error) error
	// WriteCheckpoint replaces the checkpoint with c, atomically: a crash
	// leaves the old checkpoint or c, whole. c.Snapshot is the caller's
	// again once it returns.
	WriteCheckpoint(c Checkpoint) error
	// LoadCheckpoint returns the checkpoint, false when none was written.
	LoadCheckpoint() (c Checkpoint, ok bool, err error)
	// String describes the store for error messages (a path, "memory").
	String() string
	// Close releases the store; calls after it fail.
	Close() error
}

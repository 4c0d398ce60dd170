package journal

import (
	"errors"
	"fmt"
)

// The errors of the journal, for errors.Is; the typed errors below carry
// the details and match these sentinels.
var (
	// ErrStore: a store's Append, Read, WriteCheckpoint, LoadCheckpoint or
	// Open failed (a full disk, a read-only file, a bad path, a dropped
	// connection): a *StoreError. After an Append or WriteCheckpoint
	// failure the journal is failed: appends and frames return it.
	ErrStore = errors.New("journal: store failed")
	// ErrCorrupt: the store's records do not make a journal (an unknown
	// record kind, a frame mark out of order, records without a
	// checkpoint, a position the store did not give in order): a
	// *CorruptError.
	ErrCorrupt = errors.New("journal: corrupt journal")
	// ErrInputType: an input table's value type has no fixed binary size
	// (encoding/binary.Size is -1: a pointer, slice, map, string, int or
	// uint field) or is past MaxValueSize: an *InputTypeError.
	ErrInputType = errors.New("journal: input type not fixed-size")
	// ErrDefinition: a bad input spec or Open argument (an empty or
	// duplicate name, a capacity outside 1..tickwork.MaxEvents, a nil
	// world, store or table, a table bound to another journal).
	ErrDefinition = errors.New("journal: bad definition")
	// ErrClosed: a call after Close.
	ErrClosed = errors.New("journal: closed")
	// ErrNotOpen: Append on an input table no journal was opened with.
	ErrNotOpen = errors.New("journal: input table not opened with a journal")
	// ErrBacklog: the commit ring has no room for a frame mark (the store
	// has not committed for Options.MarkReserve frames): Frame refuses to
	// run the frame, so that it never waits on a commit; the host retries.
	ErrBacklog = errors.New("journal: commit backlog full")
	// ErrRestore: opening the journal could not restore its checkpoint
	// into the world (another world's journal, a damaged snapshot): a
	// *RestoreError wrapping the world's *tickwork.SnapshotError.
	ErrRestore = errors.New("journal: checkpoint restore failed")
)

// StoreError is a store's failure: Op is "open", "append", "read",
// "checkpoint" or "load checkpoint", Store the store's description (a
// file path, "memory"), Err the cause (wrapped: errors.As reaches the
// driver's error). Nothing of the failed call is stored (stores commit
// all or nothing). Matches ErrStore.
type StoreError struct {
	Op, Store string
	Err       error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("journal: store %s: %s: %v (nothing of the failed call was stored; fix the store - disk space, file permissions, path, connection - and open the journal again)", e.Store, e.Op, e.Err)
}

// Unwrap returns ErrStore and the cause.
func (e *StoreError) Unwrap() []error { return []error{ErrStore, e.Err} }

// CorruptError says why a store's records do not make a journal, at
// which position. Matches ErrCorrupt.
type CorruptError struct {
	Position Position
	Reason   string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("journal: corrupt journal at position %d: %s (the store was written by something else than this journal, or by a world declared otherwise)", e.Position, e.Reason)
}

// Unwrap returns ErrCorrupt.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// InputTypeError names an input table whose value type cannot be
// journalled, and its size (-1: not fixed-size). Matches ErrInputType.
type InputTypeError struct {
	Table, Type string
	Size        int
}

func (e *InputTypeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("journal: input table %q: type %s has no fixed binary size (use fixed-size fields: int32, float32, [4]byte, ... - no int, string, slice, map or pointer)", e.Table, e.Type)
	}
	return fmt.Sprintf("journal: input table %q: type %s is %d bytes, past MaxValueSize %d (split it into several inputs)", e.Table, e.Type, e.Size, MaxValueSize)
}

// Unwrap returns ErrInputType.
func (e *InputTypeError) Unwrap() error { return ErrInputType }

// DefinitionError says what is wrong with an input spec or an Open
// argument. Matches ErrDefinition.
type DefinitionError struct {
	Table, Reason string
}

func (e *DefinitionError) Error() string {
	if e.Table == "" {
		return "journal: " + e.Reason
	}
	return fmt.Sprintf("journal: input table %q: %s", e.Table, e.Reason)
}

// Unwrap returns ErrDefinition.
func (e *DefinitionError) Unwrap() error { return ErrDefinition }

// RestoreError is a checkpoint the world refused, of frame Frame. Err is
// the world's error (a *tickwork.SnapshotError: errors.Is
// tickwork.ErrOtherWorld for a journal of a world declared otherwise).
// Matches ErrRestore.
type RestoreError struct {
	Frame uint64
	Err   error
}

func (e *RestoreError) Error() string {
	return fmt.Sprintf("journal: the checkpoint of frame %d does not restore into this world: %v (open the journal with the world that wrote it)", e.Frame, e.Err)
}

// Unwrap returns ErrRestore and the world's error.
func (e *RestoreError) Unwrap() []error { return []error{ErrRestore, e.Err} }

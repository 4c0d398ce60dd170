package commands

import (
	"errors"
	"strconv"
)

// ErrPlayback: a record failed at playback. Returned, in Stats.Err, as a
// *PlaybackError that names the system (the buffer's owner), the record
// and the table, and unwraps to the storage error (such as an
// *ephemeral.CapacityError, so errors.Is(err, ephemeral.ErrCapacity)
// holds). A world's Frame returns the same error (scheduler.ErrPlayback is
// this value).
var ErrPlayback = errors.New("tickwork: command playback failed")

// PlaybackError reports the first record of a buffer that failed at
// playback. The playback went on with the other records. errors.Is(err,
// ErrPlayback) is true, and errors.Is / errors.As reach Err. It is the one
// playback error type: a world's Frame returns it as is (scheduler.PlaybackError
// is this type), naming the system from the buffer's name, given when the
// buffer was made (Playback.NewBuffer).
//
// Memory: each buffer holds one PlaybackError (and the CapacityErrors of
// a create that did not fit at playback and of one its recorder refused,
// which Recorder.TryCreate returns), filled by its first failure of a playback and
// reused by its next failing playback, so a failing playback allocates
// nothing. A playback that names frames (Playback.SetFrame: a world's)
// keeps it for the buffer's first failure since the last Playback.Release
// (once per frame), so the error a frame returns is its first failure
// until that system's buffer fails again in a later frame. Copy the
// struct, or its Error text, to keep it longer.
type PlaybackError struct {
	System string // the buffer's owner as NewBuffer named it (in a world, the system); empty for an unnamed buffer
	Phase  string // the phase whose playback it was, in a world (Playback.SetFrame); empty otherwise
	Frame  uint64 // the frame number, in a world (Playback.SetFrame); 0 otherwise
	Buffer int    // id of the buffer that recorded the record
	Record int    // index of the record in its buffer's stream, from 0 (creates, sets and every other record)
	Create int    // for Op "create": the create's ordinal among the buffer's creates of the playback, from 1 (a Create or a spawner's Spawn is one create; its sets are other records); 0 otherwise
	Op     string // "create", "attach", "move", "delete", "remove", "set" or "reserve" (a Reserve the memory budget refused)
	Table  string // the table the record named (a move's source table); empty for a Buffer.Reserve
	Err    error  // *ephemeral.CapacityError, ephemeral.ErrStaleHandle, ephemeral.ErrRowExists, ephemeral.ErrForeignHandle, ErrTooManyCreates or a *memory.BudgetError
}

// Error returns one line:
//
//	tickwork: frame F: Phase system "S": record R: op in table "T": cause
//
// with "frame F: Phase " only when Phase is set, "buffer B" instead of
// `system "S"` for an unnamed buffer, and no table for a Reserve; a
// create reads `create C in table "T" (record R of creates and sets)`, C
// being the Create or Spawn call the buffer recorded, from 1. A kernel's worker
// buffers carry their system's name; Record and Create count in the
// worker's own buffer.
func (e *PlaybackError) Error() string {
	s := "tickwork: "
	if e.Phase != "" {
		s += "frame " + strconv.FormatUint(e.Frame, 10) + ": " + e.Phase + " "
	}
	if e.System != "" {
		s += "system " + strconv.Quote(e.System)
	} else {
		s += "buffer " + strconv.Itoa(e.Buffer)
	}
	if e.Create > 0 {
		s += ": create " + strconv.Itoa(e.Create)
	} else {
		s += ": record " + strconv.Itoa(e.Record) + ": " + e.Op
	}
	if e.Table != "" {
		s += " in table " + strconv.Quote(e.Table)
	}
	if e.Create > 0 {
		s += " (record " + strconv.Itoa(e.Record) + " of creates and sets)"
	}
	return s + ": " + e.Err.Error()
}

// Is reports whether target is ErrPlayback.
func (e *PlaybackError) Is(target error) bool { return target == ErrPlayback }

// Unwrap returns the storage error.
func (e *PlaybackError) Unwrap() error { return e.Err }

// ErrNoRow: a deferred write (Set, SetN) of a live entity that had no row
// in the column's table when it played: the entity was removed from the
// table, moved away, or never attached to it before the write. Reported
// in Stats.Err as a *PlaybackError wrapping it and counted in
// Stats.FailedSets; the write is lost and the entity lives on.
var ErrNoRow = errors.New("the entity has no row in the column's table: attach it (tickwork.Recorder.Attach, tickwork.Move) before the write, or write the table it has a row in")

// ErrMoveNoRow: a Move (tickwork.Move) of a live entity that has no row in
// the source table at that point of the playback: an earlier record of the
// playback moved it away or removed it (moving one handle twice in one
// system does this). The move changes nothing and counts in
// Stats.FailedMoves; a dead or zero handle gives ephemeral.ErrStaleHandle.
var ErrMoveNoRow = errors.New("the entity is live but has no row in the move's source table at this point of the playback " +
	"(an earlier record moved or removed it): record one tickwork.Move per entity, from the table it has a row in")

// ErrTooManyCreates: a Create recorded when its buffer already had
// MaxCreates creates since the last Release, refused (Recorder.TryCreate
// returns it): reported at playback in Stats.Err as a *PlaybackError
// wrapping it and counted in Stats.CapacityErrors; its handle never resolves.
var ErrTooManyCreates = errors.New("commands: the buffer has MaxCreates (2^27) creates since the last release; record fewer creates per frame in one buffer")

// ErrTooManyBuffers: Playback.NewBuffer when the playback has made
// 65536 buffers (2^16, the ids a provisional handle can carry) already.
// Exported for a host that makes its own buffers (a world makes one per
// recording system and worker, far below the limit).
var ErrTooManyBuffers = errors.New("commands: a Playback makes at most 65536 buffers")

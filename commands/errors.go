package commands

import (
	"errors"
	"strconv"
)

// ErrPlayback: a record failed at playback. Returned, in Stats.Err, as a
// *PlaybackError that names the buffer, the record and the table, and
// unwraps to the storage error (such as an *ephemeral.CapacityError, so
// errors.Is(err, ephemeral.ErrCapacity) holds).
var ErrPlayback = errors.New("commands: playback failed")

// PlaybackError reports the first record of a playback that failed. The
// playback went on with the other records. errors.Is(err, ErrPlayback) is
// true, and errors.Is / errors.As reach Err.
type PlaybackError struct {
	Buffer int    // id of the buffer that recorded the record
	Record int    // index of the record in its buffer's stream, from 0
	Op     string // "create", "attach", "move", "delete", "remove", "set" or "reserve" (a Reserve the memory budget refused)
	Table  string // the table the record named (a move's source table); empty for a Buffer.Reserve
	Err    error  // *ephemeral.CapacityError, ephemeral.ErrStaleHandle, ephemeral.ErrRowExists, ephemeral.ErrForeignHandle, ErrTooManyCreates or a *memory.BudgetError
}

func (e *PlaybackError) Error() string {
	in := ""
	if e.Table != "" {
		in = " in table " + strconv.Quote(e.Table)
	}
	return "commands: buffer " + strconv.Itoa(e.Buffer) + " record " + strconv.Itoa(e.Record) +
		": " + e.Op + in + ": " + e.Err.Error()
}

// Is reports whether target is ErrPlayback.
func (e *PlaybackError) Is(target error) bool { return target == ErrPlayback }

// Unwrap returns the storage error.
func (e *PlaybackError) Unwrap() error { return e.Err }

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

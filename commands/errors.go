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
	Op     string // "create", "attach", "delete", "remove" or "set"
	Table  string // the table the record named
	Err    error  // *ephemeral.CapacityError, ephemeral.ErrRowExists or ephemeral.ErrForeignHandle
}

func (e *PlaybackError) Error() string {
	return "commands: buffer " + strconv.Itoa(e.Buffer) + " record " + strconv.Itoa(e.Record) +
		": " + e.Op + " in table " + strconv.Quote(e.Table) + ": " + e.Err.Error()
}

// Is reports whether target is ErrPlayback.
func (e *PlaybackError) Is(target error) bool { return target == ErrPlayback }

// Unwrap returns the storage error.
func (e *PlaybackError) Unwrap() error { return e.Err }

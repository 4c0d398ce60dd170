package commands

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
)

// Test hooks: what the tests of package commands_test check that no
// caller needs.

// Playback is the playback that made b.
func (b *Buffer) Playback() *Playback { return b.p }

// Budget is the memory budget p's buffers are charged to.
func (p *Playback) Budget() *memory.Budget { return p.budget }

// Tag is the playback's tag, 1..MaxPlaybackTag.
func (p *Playback) Tag() uint32 { return p.tag }

// SetCreateWindow sets the records of a create run played at a time (1:
// every record alone) and returns the function that restores it.
func SetCreateWindow(n int) (restore func()) {
	old := createWindow
	createWindow = n
	return func() { createWindow = old }
}

// SetTestEmptied sets the function called with each entity a playback
// deletes for having no row left at the end of its buffer's playback, in
// that order; nil removes it.
func SetTestEmptied(fn func(h ephemeral.Handle)) { testEmptied = fn }

// The limits of the provisional handle layout (docs/architecture.md,
// Provisional handles), unexported in the package.
const (
	MaxBufferID    = maxBufferID
	MaxPlaybackTag = maxPlaybackTag
)

// IsProvisional is isProvisional: whether h is a provisional handle.
func IsProvisional(h ephemeral.Handle) bool { return isProvisional(h) }

// Table is the table r records for.
func (r Recorder) Table() *ephemeral.Table { return r.t }

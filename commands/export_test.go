package commands

import "github.com/tickwork/tickwork/memory"

// Test hooks: what the tests of package commands_test check that no
// caller needs.

// Playback is the playback that made b.
func (b *Buffer) Playback() *Playback { return b.p }

// Budget is the memory budget p's buffers are charged to.
func (p *Playback) Budget() *memory.Budget { return p.budget }

// Tag is the playback's tag, 1..MaxPlaybackTag.
func (p *Playback) Tag() uint32 { return p.tag }

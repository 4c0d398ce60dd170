package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
)

// The first non-empty playback of buffers made at set-up allocates
// nothing, serial or merged, deletes or creates with sets, when it stays
// within the records given to NewBuffer(s) or Reserve: their resolutions
// and the merge's scratch are sized when the buffers are made. Before, the
// playback grew its per-buffer slot (and resolutions) and the merge's span
// scratch on first use, inside a frame.
func TestFirstPlaybackAllocatesNothing(t *testing.T) {
	record := func(w domainWorld, b *commands.Buffer, chunk int, victim ephemeral.Handle) {
		b.Begin(chunk)
		units := b.Recorder(w.unit)
		units.Delete(victim)
		for i := range 8 {
			commands.Set(units, w.hp, units.Create(), int32(i))
		}
	}
	tests := []struct {
		name string
		make func(p *commands.Playback) []*commands.Buffer
		play func(p *commands.Playback, bufs []*commands.Buffer) commands.Stats
	}{
		{"PlayMerged of NewBuffers", func(p *commands.Playback) []*commands.Buffer {
			bufs, err := p.NewBuffers("", 2, 64)
			require.NoError(t, err)
			return bufs
		}, (*commands.Playback).PlayMerged},
		{"PlayAll of NewBuffer", func(p *commands.Playback) []*commands.Buffer {
			return []*commands.Buffer{newBuffer(t, p, 64), newBuffer(t, p, 64)}
		}, (*commands.Playback).PlayAll},
		{"PlayMerged after Reserve", func(p *commands.Playback) []*commands.Buffer {
			bufs, err := p.NewBuffers("", 2, 0)
			require.NoError(t, err)
			for _, b := range bufs {
				b.Reserve(64)
			}
			return bufs
		}, (*commands.Playback).PlayMerged},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var st commands.Stats
			var bufs []*commands.Buffer
			// A fresh world and buffers per try, the cleanest of a few
			// (allockit.FirstCall): a one-shot check the runtime's
			// background could tip once.
			allocs := allockit.FirstCall(allockit.DefaultTries, func() func() {
				w := newDomainWorld(t, 256)
				victims := make([]ephemeral.Handle, 2)
				require.NoError(t, w.unit.InsertN(victims))
				p := commands.NewPlayback(nil)
				bufs = tc.make(p)
				for i, b := range bufs {
					// Register the table and column with the buffer (the first
					// Recorder and Set of a buffer allocate, outside the playback).
					commands.Reserve(b.Recorder(w.unit), w.hp, 64)
					record(w, b, len(bufs)-i, victims[i]) // keys reversed: the merge sorts
				}
				return func() { st = tc.play(p, bufs) }
			})
			assert.Zero(t, allocs, "first non-empty playback")
			assert.Equal(t, commands.Stats{Played: 2 * 17, Created: 16, Deleted: 2, Sets: 16}, st)
			for _, b := range bufs {
				assert.Zero(t, b.Len())
			}
		})
	}
}

package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/plumb"
)

// playbackOf makes a playback with a serial buffer and a set of workers
// per-worker buffers, as a world makes for one recording system.
func playbackOf(t *testing.T, workers int) (*commands.Playback, *commands.Buffer, []*commands.Buffer) {
	t.Helper()
	p := commands.NewPlayback(nil)
	serial, err := p.NewBuffer("s", 8)
	require.NoError(t, err)
	ws, err := p.NewBuffers("s", workers, 8)
	require.NoError(t, err)
	return p, serial, ws
}

// TestPlaybackStateAcrossWorkerCounts: a playback state restores into a
// playback with other per-worker sets (another worker count) when only the
// serial buffers have resolutions pending: the serial buffer's provisional
// handles resolve as before. A per-worker buffer with resolutions pending is
// refused there, and accepted by a playback of the same layout.
func TestPlaybackStateAcrossWorkerCounts(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 64})
	require.NoError(t, err)
	p, serial, ws := playbackOf(t, 2)
	h := serial.Recorder(tab).Create()
	p.PlayAll([]*commands.Buffer{serial})
	real, ok := p.Resolve(h)
	require.True(t, ok)
	st, err := plumb.PlaybackOf(p).AppendState(nil)
	require.NoError(t, err)

	q, _, _ := playbackOf(t, 3)
	require.NoError(t, plumb.PlaybackOf(q).CheckState(st))
	plumb.PlaybackOf(q).LoadState(st)
	got, ok := q.Resolve(h)
	require.True(t, ok, "the serial buffer's provisional handle resolves in the other layout")
	assert.Equal(t, real, got)

	ws[1].Recorder(tab).Create()
	p.PlayMerged(ws)
	st, err = plumb.PlaybackOf(p).AppendState(st[:0])
	require.NoError(t, err)
	err = plumb.PlaybackOf(q).CheckState(st)
	require.ErrorIs(t, err, commands.ErrState)
	assert.Contains(t, err.Error(), "per-worker buffer 2 has resolutions pending")
	same, _, _ := playbackOf(t, 2)
	require.NoError(t, plumb.PlaybackOf(same).CheckState(st))
}

package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/plumb"
)

// TestPlaybackStateRefusesUnplayedRecords: a state is not taken while a
// buffer holds records (what a frame that panicked before its playback
// leaves), and the refusal says why.
func TestPlaybackStateRefusesUnplayedRecords(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 64})
	require.NoError(t, err)
	p, serial, _ := playbackOf(t, 2)
	serial.Recorder(tab).Create()
	serial.Recorder(tab).Create()
	st, err := plumb.PlaybackOf(p).AppendState([]byte("x"))
	require.ErrorIs(t, err, commands.ErrState)
	assert.Equal(t, "x", string(st), "a refused state appends nothing")
	assert.Equal(t, "commands: playback state: buffer 0 holds 2 records not played yet: the frame that recorded them "+
		"stopped before its playback (a panic); a snapshot is taken between completed frames", err.Error())
	p.PlayAll([]*commands.Buffer{serial})
	_, err = plumb.PlaybackOf(p).AppendState(nil)
	require.NoError(t, err)
}

package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// A provisional handle of another playback, recorded in every operation
// that takes a handle, touches no row of this playback's world: each
// record counts in ForeignHandles and sets Err (errors.Is
// ErrForeignHandle), and Resolve misses. Playback B has played its own
// create of buffer 0, sequence 0, whose resolution sits where A's handle
// pointed (same buffer id and sequence number) before playbacks had tags:
// then A's handle resolved to B's entity, which it deleted and wrote.
func TestOtherPlaybacksProvisionalHandle(t *testing.T) {
	tests := []struct {
		name   string
		record func(w domainWorld, r commands.Recorder, bodies commands.Recorder, h ephemeral.Handle)
		op     string
		table  string
	}{
		{"Delete", func(_ domainWorld, r, _ commands.Recorder, h ephemeral.Handle) { r.Delete(h) }, "delete", "Unit"},
		{"Remove", func(_ domainWorld, r, _ commands.Recorder, h ephemeral.Handle) { r.Remove(h) }, "remove", "Unit"},
		{"Attach", func(_ domainWorld, _, b commands.Recorder, h ephemeral.Handle) { b.Attach(h) }, "attach", "Body"},
		{"Set", func(w domainWorld, r, _ commands.Recorder, h ephemeral.Handle) { commands.Set(r, w.hp, h, -5) }, "set", "Unit"},
		{"SetN", func(w domainWorld, r, _ commands.Recorder, h ephemeral.Handle) {
			commands.SetN(r, w.hp, []ephemeral.Handle{h}, []int32{-5})
		}, "set", "Unit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wa, wb := newDomainWorld(t, 8), newDomainWorld(t, 8)
			pa, pb := commands.NewPlayback(nil), commands.NewPlayback(nil)
			require.NotEqual(t, pa.Tag(), pb.Tag())
			ba, bb := newBuffer(t, pa, 0), newBuffer(t, pb, 0)
			require.Equal(t, ba.ID(), bb.ID(), "same buffer id in both playbacks")

			foreign := ba.Recorder(wa.unit).Create() // A's: buffer 0, sequence 0
			pa.PlayAll([]*commands.Buffer{ba})
			own := bb.Recorder(wb.unit).Create() // B's: buffer 0, sequence 0 too
			commands.Set(bb.Recorder(wb.unit), wb.hp, own, 100)
			require.NotEqual(t, foreign, own, "the tag tells the two handles apart")
			assert.True(t, commands.IsProvisional(foreign))
			pb.PlayAll([]*commands.Buffer{bb})
			mine := mustResolve(t, pb, own)

			tc.record(wb, bb.Recorder(wb.unit), bb.Recorder(wb.body), foreign)
			st := pb.PlayAll([]*commands.Buffer{bb})
			requireForeignErr(t, st.Err, 0, tc.op, tc.table)
			st.Err = nil
			assert.Equal(t, commands.Stats{Played: 1, ForeignHandles: 1}, st)

			_, ok := pb.Resolve(foreign)
			assert.False(t, ok, "B does not resolve A's provisional handle")
			assert.True(t, wb.unit.IsAlive(mine), "B's own entity is untouched")
			hp, _ := wb.hp.Get(mine)
			assert.Equal(t, int32(100), hp)
			assert.Zero(t, wb.body.Len())
			real, ok := pa.Resolve(foreign)
			assert.True(t, ok, "A still resolves its own handle")
			assert.True(t, wa.unit.IsAlive(real))
		})
	}
}

// Playbacks take tags from a process-wide sequence 1..MaxPlaybackTag: any
// MaxPlaybackTag playbacks made one after another have distinct tags, and
// the next one repeats the first's.
func TestPlaybackTags(t *testing.T) {
	seen := map[uint32]bool{}
	first := commands.NewPlayback(nil).Tag()
	seen[first] = true
	for range commands.MaxPlaybackTag - 1 {
		tag := commands.NewPlayback(nil).Tag()
		require.GreaterOrEqual(t, tag, uint32(1))
		require.LessOrEqual(t, tag, uint32(commands.MaxPlaybackTag))
		require.False(t, seen[tag], "tag %d repeated within %d playbacks", tag, commands.MaxPlaybackTag)
		seen[tag] = true
	}
	assert.Len(t, seen, commands.MaxPlaybackTag)
	assert.Equal(t, first, commands.NewPlayback(nil).Tag(), "the sequence wraps after MaxPlaybackTag")
}

// A Playback makes at most MaxBufferID+1 buffers, with ids 0, 1, ... .
func TestNewBufferIDs(t *testing.T) {
	p := commands.NewPlayback(nil)
	for id := range commands.MaxBufferID + 1 {
		b, err := p.NewBuffer("", 0)
		require.NoError(t, err)
		if b.ID() != id || b.Playback() != p {
			t.Fatalf("buffer %d: ID %d, Playback %p", id, b.ID(), b.Playback())
		}
	}
	b, err := p.NewBuffer("", 0)
	assert.Nil(t, b)
	assert.ErrorIs(t, err, commands.ErrTooManyBuffers)
}

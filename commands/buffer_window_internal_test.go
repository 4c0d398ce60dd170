package commands

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

func internalTable(t *testing.T) (*ephemeral.Table, *ephemeral.Column[int32]) {
	t.Helper()
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 64})
	require.NoError(t, err)
	hp, err := ephemeral.AddColumn[int32](tab, "hp")
	require.NoError(t, err)
	return tab, hp
}

// A buffer refuses a Create past its window of resolvable creates
// (MaxCreates; lowered here to 4): the refused creates fail at playback
// (CapacityErrors, Err wrapping ErrTooManyCreates) through one record
// that stands for them all, their handle never resolves (writes naming it
// are not recorded but counted as dropped, a delete is stale), and after a Release
// the buffer creates again. Without the refusal, the fifth create's handle
// would equal the first's modulo the window.
func TestCreatesPastWindowRefused(t *testing.T) {
	tab, hp := internalTable(t)
	p := NewPlayback(nil)
	b, err := p.NewBuffer("", 0)
	require.NoError(t, err)
	b.window = 4
	r := b.Recorder(tab)
	var hs []ephemeral.Handle
	for i := range 6 {
		h := r.Create()
		Set(r, hp, h, int32(i))
		hs = append(hs, h)
	}
	refused := hs[4:]
	assert.Equal(t, refused[0], refused[1], "refused creates share the handle that never resolves")
	for _, h := range hs {
		assert.True(t, isProvisional(h), "%v", h)
	}
	r.Delete(refused[0])
	assert.Equal(t, 10, b.Len(), "4 creates, 4 sets, one refusal record, one delete")
	st := p.PlayAll([]*Buffer{b})
	var pe *PlaybackError
	require.ErrorAs(t, st.Err, &pe)
	assert.True(t, errors.Is(st.Err, ErrTooManyCreates))
	assert.Equal(t, PlaybackError{Buffer: 0, Record: 8, Create: 5, Op: "create", Table: "units", Err: ErrTooManyCreates}, *pe)
	st.Err = nil
	assert.Equal(t, Stats{Played: 10, Created: 4, Sets: 4, DroppedSets: 2, CapacityErrors: 2, StaleDeletes: 1}, st)
	assert.Equal(t, 4, tab.Len())
	for i, h := range hs {
		real, ok := p.Resolve(h)
		assert.Equal(t, i < 4, ok, "create %d", i)
		if ok {
			v, _ := hp.Get(real)
			assert.Equal(t, int32(i), v)
		}
	}

	p.Release()
	h := r.Create()
	require.Nil(t, p.PlayAll([]*Buffer{b}).Err, "after a Release the window starts again")
	real, ok := p.Resolve(h)
	assert.True(t, ok)
	assert.True(t, tab.IsAlive(real))
	assert.Equal(t, 5, tab.Len())
}

// Sequence numbers count on modulo MaxCreates across releases: a run of
// creates whose numbers cross a multiple of MaxCreates is bulk-inserted and
// resolved like any other. Set up as if MaxCreates-3 creates had been
// played and released.
func TestCreateSequenceWraps(t *testing.T) {
	tab, hp := internalTable(t)
	p := NewPlayback(nil)
	b, err := p.NewBuffer("", 0)
	require.NoError(t, err)
	const done = MaxCreates - 3
	b.next, b.lo, p.slots[b.id].lo = done, done, done
	r := b.Recorder(tab)
	hs := make([]ephemeral.Handle, 6)
	for i := range hs {
		hs[i] = r.Create()
		Set(r, hp, hs[i], int32(10+i))
	}
	_, _, seq := splitProvisional(hs[3])
	assert.Equal(t, uint32(0), seq, "the fourth create's number wraps to 0")
	st := p.PlayAll([]*Buffer{b})
	require.NoError(t, st.Err)
	assert.Equal(t, 6, st.Created)
	for i, h := range hs {
		real, ok := p.Resolve(h)
		require.True(t, ok, "create %d", i)
		assert.Equal(t, uint32(i), real.Index(), "lowest free slots in record order")
		v, _ := hp.Get(real)
		assert.Equal(t, int32(10+i), v)
	}
}

// The provisional layout round-trips every field at its extremes, keeps
// the generation even and nonzero and the tag field zero.
func TestProvisionalLayout(t *testing.T) {
	for _, c := range []struct {
		tag uint32
		id  int
		seq uint32
	}{{1, 0, 0}, {maxPlaybackTag, maxBufferID, seqMask}, {5, 31, 1 << 26}, {1023, 32, 7}, {0, maxBufferID, 3}} {
		h := provisional(c.tag, c.id, c.seq)
		tag, id, seq := splitProvisional(h)
		assert.Equal(t, c, struct {
			tag uint32
			id  int
			seq uint32
		}{tag, id, seq})
		assert.True(t, isProvisional(h), "%v", h)
		assert.Zero(t, h.Tag())
		assert.Zero(t, h.Generation()&1)
	}
}

// refusedHandle is the provisional handle of playback tag 0, buffer
// maxBufferID and the last sequence number.
func TestRefusedHandle(t *testing.T) {
	assert.Equal(t, provisional(0, maxBufferID, seqMask), refusedHandle)
	assert.True(t, isProvisional(refusedHandle))
	tag, _, _ := splitProvisional(refusedHandle)
	assert.Zero(t, tag)
}

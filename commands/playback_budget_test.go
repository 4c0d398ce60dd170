package commands_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
)

// A buffer's initial reservation, BufferBytes(records) (24 bytes a record:
// the record and its create's resolution), is charged to the playback's
// budget before anything is allocated: what fits exactly is made, a byte
// short is refused with a *memory.BudgetError of kind "command buffer"
// naming the owner, and a refused buffer takes no id and charges nothing.
// A parallel kernel's set is charged as one: all or none.
func TestBufferBudget(t *testing.T) {
	const records = 1000
	one := commands.BufferBytes(records)
	require.Equal(t, int64(24*records), one)
	assert.Equal(t, int64(math.MaxInt64), commands.BufferBytes(math.MaxInt), "saturates")
	assert.Zero(t, commands.BufferBytes(0))

	t.Run("serial", func(t *testing.T) {
		budget := memory.NewBudget(2*one - 24) // room for one buffer of records and one of records-1
		p := commands.NewPlayback(budget)
		assert.Same(t, budget, p.Budget())
		b, err := p.NewBuffer("spawn", records)
		require.NoError(t, err)
		assert.Equal(t, one, budget.Used())
		_, err = p.NewBuffer("fire", records)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "fire"},
			Bytes: one, Used: one, Budget: 2*one - 24}, *be)
		assert.Equal(t, one, budget.Used(), "a refused buffer charges nothing")
		next, err := p.NewBuffer("small", records-1) // 24 bytes less: fits exactly
		require.NoError(t, err)
		assert.Equal(t, b.ID()+1, next.ID(), "a refused buffer takes no id")
		assert.Zero(t, budget.Left())
	})
	t.Run("per worker, all or none", func(t *testing.T) {
		budget := memory.NewBudget(4*one - 1)
		p := commands.NewPlayback(budget)
		_, err := p.NewBuffers("collide", 4, records)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, memory.BudgetError{Definition: memory.Definition{Kind: "command buffer", Name: "collide", Workers: 4},
			Bytes: 4 * one, Used: 0, Budget: 4*one - 1}, *be)
		assert.Contains(t, err.Error(), "or use fewer workers")
		assert.Zero(t, budget.Used())
		bufs, err := p.NewBuffers("collide", 3, records)
		require.NoError(t, err)
		assert.Equal(t, 0, bufs[0].ID(), "the refused set took no ids")
		assert.Equal(t, 3*one, budget.Used())
	})
	t.Run("private default budget refuses the out-of-memory case", func(t *testing.T) {
		// 256 workers of 2^24 records each: 96 GiB, which used to end in
		// Go's fatal out of memory at the first WorkerRecorders call.
		p := commands.NewPlayback(nil)
		assert.Equal(t, memory.DefaultBudget, p.Budget().Limit())
		bufs, err := p.NewBuffers("kill", 256, 1<<24)
		assert.Nil(t, bufs)
		var be *memory.BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, int64(256*24)<<24, be.Bytes)
		assert.Equal(t, memory.OwnerPrivate, be.Owner)
	})
}

// Growth past a buffer's reservation is charged to the playback's budget
// as the reservation is (BufferBytes of the records added, the values'
// bytes for deferred writes): recording past what fits refuses the
// records at the call, the playback plays the ones recorded before, counts
// the refused ones in Stats.BudgetRefusals and reports the first in Err (a
// *PlaybackError wrapping the *memory.BudgetError), and the buffer's
// memory stays within the budget however much a system records.
func TestBufferGrowthBudget(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 64})
	require.NoError(t, err)
	hp, err := ephemeral.AddColumn[int64](tab, "hp")
	require.NoError(t, err)
	h, err := tab.Insert()
	require.NoError(t, err)

	t.Run("records", func(t *testing.T) {
		budget := memory.NewBudget(commands.BufferBytes(64) + commands.BufferBytes(64)) // the reservation, then one doubling
		p := commands.NewPlayback(budget)
		b, err := p.NewBuffer("spam", 64)
		require.NoError(t, err)
		r := b.Recorder(tab)
		for range 10_000_000 {
			r.Remove(h) // a no-op at playback: stale after the first
		}
		assert.Equal(t, 128, b.Len(), "recorded what the budget holds")
		assert.Equal(t, budget.Limit(), budget.Used(), "charged every record of room")
		st := p.PlayAll([]*commands.Buffer{b})
		p.Release()
		assert.Equal(t, 128, st.Played)
		assert.Equal(t, 10_000_000-128, st.BudgetRefusals)
		var be *memory.BudgetError
		require.ErrorAs(t, st.Err, &be)
		assert.ErrorIs(t, st.Err, commands.ErrPlayback)
		assert.ErrorIs(t, st.Err, memory.ErrBudget)
		assert.Equal(t, memory.Definition{Kind: "command buffer", Name: "spam"}, be.Definition)
		var pe *commands.PlaybackError
		require.ErrorAs(t, st.Err, &pe)
		assert.Equal(t, commands.PlaybackError{System: "spam", Buffer: b.ID(), Record: 128, Op: "remove", Table: "units", Err: be}, *pe)

		// After the playback the buffer records again into the room it has.
		r.Remove(h)
		assert.Equal(t, 1, b.Len())
		st = p.PlayAll([]*commands.Buffer{b})
		p.Release()
		assert.NoError(t, st.Err)
		assert.Zero(t, st.BudgetRefusals)
	})
	t.Run("creates and writes", func(t *testing.T) {
		budget := memory.NewBudget(commands.BufferBytes(4) + 8*64 + commands.BufferBytes(60) - 1)
		p := commands.NewPlayback(budget)
		b, err := p.NewBuffer("spawn", 4)
		require.NoError(t, err)
		r := b.Recorder(tab)
		var refused error
		created := 0
		for range 100 {
			nh, err := r.TryCreate()
			if err != nil {
				refused = err
				break
			}
			commands.Set(r, hp, nh, 7)
			created++
		}
		require.ErrorIs(t, refused, memory.ErrBudget, "TryCreate reports the refusal at the call")
		st := p.PlayAll([]*commands.Buffer{b})
		p.Release()
		assert.Equal(t, created, st.Created)
		assert.Equal(t, created, st.Sets)
		assert.Positive(t, st.BudgetRefusals)
		assert.ErrorIs(t, st.Err, memory.ErrBudget)
		assert.LessOrEqual(t, budget.Used(), budget.Limit())
	})
	t.Run("reserve", func(t *testing.T) {
		budget := memory.NewBudget(commands.BufferBytes(8))
		p := commands.NewPlayback(budget)
		b, err := p.NewBuffer("big", 8)
		require.NoError(t, err)
		b.Reserve(1 << 20)
		assert.Equal(t, commands.BufferBytes(8), budget.Used(), "a refused Reserve reserves nothing")
		st := p.PlayAll([]*commands.Buffer{b})
		p.Release()
		var pe *commands.PlaybackError
		require.ErrorAs(t, st.Err, &pe)
		assert.Equal(t, "reserve", pe.Op)
		assert.NotContains(t, st.Err.Error(), "in table")
	})
}

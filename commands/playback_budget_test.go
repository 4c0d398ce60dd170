package commands_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
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

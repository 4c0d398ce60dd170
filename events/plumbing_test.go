package events

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/internal/plumb"
)

// TestPlumbing: plumb.EventsOf gives the engine's side of a table (and of
// nothing else), which drives the same table as its own methods.
func TestPlumbing(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 1})
	r := tab.NewReader(PerFrame)
	ops, ok := plumb.EventsOf(tab)
	require.True(t, ok)
	_, ok = plumb.EventsOf(42)
	assert.False(t, ok, "not a table")

	_ = tab.Emit(1)
	assert.ErrorIs(t, tab.Emit(2), ErrOverflow)
	ops.EndFrame()
	ops.BeginFrame()
	assert.Equal(t, []int{1}, r.Read())
	assert.ErrorIs(t, ops.Overflowed(), ErrOverflow)
	assert.Equal(t, int64(1), ops.TakeDropped())
	assert.NoError(t, ops.Overflowed(), "taken")
	assert.NoError(t, ops.Snapshottable())
	st, err := ops.AppendState(nil)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(st), ops.StateCap())
	require.NoError(t, ops.CheckState(st))
}

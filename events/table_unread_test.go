package events_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/plumb"
)

// Unread counts the events a ThisFrame table without readers retires at
// EndFrame; a table with a reader counts its unread events in Dropped
// instead, a NextFrame table none; TakeUnread resets the count.
func TestTableUnread(t *testing.T) {
	mk := func(life events.Lifetime, unread bool) (*events.Table[int], plumb.Events) {
		tab, err := events.New[int](events.Spec{Name: "e", Capacity: 8, Lifetime: life, MayGoUnread: unread})
		require.NoError(t, err)
		ops, ok := plumb.EventsOf(tab)
		require.True(t, ok)
		return tab, ops
	}
	this, ops := mk(events.ThisFrame, true)
	assert.True(t, this.MayGoUnread())
	for i := range 3 {
		require.NoError(t, this.Emit(i))
	}
	assert.Zero(t, this.Unread(), "counted at the frame's end")
	ops.EndFrame()
	assert.Equal(t, int64(3), this.Unread())
	assert.Zero(t, this.Dropped())
	require.NoError(t, this.Emit(9))
	ops.EndFrame()
	assert.Equal(t, int64(4), ops.TakeUnread())
	assert.Zero(t, this.Unread())

	read, ops := mk(events.ThisFrame, false)
	assert.False(t, read.MayGoUnread())
	_ = read.NewReader(events.PerFrame)
	require.NoError(t, read.Emit(1))
	ops.EndFrame()
	assert.Zero(t, read.Unread(), "a reader's unread events are Dropped")
	assert.Equal(t, int64(1), read.Dropped())

	next, ops := mk(events.NextFrame, true)
	require.NoError(t, next.Emit(1))
	ops.EndFrame()
	ops.EndFrame()
	assert.Zero(t, next.Unread(), "NextFrame: the host's double buffer")
}

package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestThisFrameUnread: Build refuses a ThisFrame table that a system emits
// into and none consumes (ErrUnreadEvents, naming it); one declared
// MayGoUnread builds, and the frame report counts each of its events that
// ended the frame unread (EventsUnread, not EventsDropped), the host's
// emits included, while a consumed table counts none; a frame still
// allocates nothing (docs/architecture.md, Retention and capacity).
func TestThisFrameUnread(t *testing.T) {
	world := func(unread bool) (*tickwork.World, *tickwork.Events[int32], *tickwork.Events[int32], error) {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		trace := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Trace", Capacity: 16,
			Lifetime: tickwork.ThisFrame, MayGoUnread: unread})
		hits := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Hits", Capacity: 16, Lifetime: tickwork.ThisFrame})
		b.System("emit", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			et, eh := tickwork.Emit(d, trace), tickwork.Emit(d, hits)
			return func(*tickwork.Context) {
				for i := range int32(3) {
					et.Emit(i)
				}
				eh.Emit(7)
			}
		})
		var read int
		b.System("read", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
			c := tickwork.Consume(d, hits)
			return func(*tickwork.Context) { read += len(c.Read()) }
		})
		w, err := b.Build()
		if err == nil {
			t.Cleanup(func() { _ = w.Close() })
		}
		return w, trace, hits, err
	}

	_, _, _, err := world(false)
	require.Error(t, err)
	assert.ErrorIs(t, err, tickwork.ErrUnreadEvents)
	var ue *tickwork.UnreadEventsError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, tickwork.UnreadEventsError{Events: "Trace", Emitters: []string{"emit"}}, *ue)

	w, trace, hits, err := world(true)
	require.NoError(t, err)
	require.NoError(t, w.Frame(1.0/60))
	r := w.Report()
	assert.Equal(t, int64(3), r.EventsUnread, "the three Trace events; Hits is read")
	assert.Contains(t, r.String(), ", 0 events dropped, 3 events unread, ")
	assert.Zero(t, r.EventsDropped)
	require.NoError(t, trace.Emit(40), "the host emits between frames")
	require.NoError(t, hits.Emit(41))
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, int64(4), w.Report().EventsUnread, "the host's Trace event too")
	assert.Zero(t, w.Report().EventsDropped, "the host's Hits event is read")
	assert.Zero(t, trace.Len(), "retired at the frame's end")
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		_ = w.Report()
	}))
	assert.Equal(t, int64(3), w.Report().EventsUnread, "counted per frame")
}

package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// observeWorld emits the fixed tick's number into a NextFrame and a
// ThisFrame table every fixed tick, and observes both.
func observeWorld(t *testing.T) (w *tickwork.World, next, this *[]uint64) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(0.01))
	nx := tickwork.AddEvents[uint64](b, tickwork.EventSpec{Name: "Next", Capacity: 64})
	th := tickwork.AddEvents[uint64](b, tickwork.EventSpec{Name: "This", Capacity: 64, Lifetime: tickwork.ThisFrame})
	b.System("tick", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		en, et := tickwork.Emit(d, nx), tickwork.Emit(d, th)
		return func(ctx *tickwork.Context) { en.Emit(ctx.Tick()); et.Emit(ctx.Tick()) }
	})
	next, this = &[]uint64{}, &[]uint64{}
	tickwork.Observe(b, nx, func(e *uint64) { *next = append(*next, *e) })
	tickwork.Observe(b, th, func(e *uint64) { *this = append(*this, *e) })
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w, next, this
}

// Observe sees every event once, in emission order, across frames of
// zero, one and several fixed ticks: ThisFrame events in their frame,
// NextFrame events the frame after.
func TestObserveExactlyOnce(t *testing.T) {
	w, next, this := observeWorld(t)
	upTo := func(n uint64) []uint64 {
		out := []uint64{}
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	var ticks uint64
	for _, dt := range []float64{0.01, 0, 0.035, 0, 0, 0.01, 0.02, 0} {
		require.NoError(t, w.Frame(dt))
		before := ticks
		ticks = w.Time().Ticks
		assert.Equal(t, upTo(ticks), *this, "ThisFrame: every tick so far, once")
		assert.Equal(t, upTo(before), *next, "NextFrame: every tick before this frame, once")
	}
	assert.Equal(t, uint64(7), ticks, "75 ms of 10 ms steps")
	require.NoError(t, w.Frame(0))
	assert.Equal(t, upTo(ticks), *next)
	assert.Contains(t, w.Order(tickwork.FrameEnd), "observe Next")
}

// A frame of an observed world allocates nothing in steady state.
func TestObserveAllocatesNothing(t *testing.T) {
	w, next, _ := observeWorld(t)
	for range 4 {
		require.NoError(t, w.Frame(0.01))
	}
	*next = make([]uint64, 0, 1024)
	assert.Zero(t, testing.AllocsPerRun(50, func() { _ = w.Frame(0.01) }))
}

// A nil fn fails Build with ErrNoDeclare and a nil event table with
// ErrBadDeclaration, each naming the call, not the system it would have
// added; two observers of one table are two systems of one name.
func TestObserveErrors(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	ev := tickwork.AddEvents[int](b, tickwork.EventSpec{Name: "E", Capacity: 4})
	tickwork.Observe[int](b, ev, nil)
	_, err := b.Build()
	assert.ErrorIs(t, err, tickwork.ErrNoDeclare)
	assert.EqualError(t, err, `systems: Observe(b, "E", nil): nil fn; pass the function to call with each event`)

	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	tickwork.Observe[int](b, nil, func(*int) {})
	_, err = b.Build()
	assert.ErrorIs(t, err, tickwork.ErrBadDeclaration)
	var de *tickwork.SystemDefinitionError
	require.ErrorAs(t, err, &de)
	assert.EqualError(t, err, "systems: Observe(b, nil, fn): nil event table (the AddEvents or Lifecycle call that made it failed: its error comes first)")

	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	ev = tickwork.AddEvents[int](b, tickwork.EventSpec{Name: "E", Capacity: 4})
	tickwork.Observe(b, ev, func(*int) {})
	tickwork.Observe(b, ev, func(*int) {})
	_, err = b.Build()
	assert.ErrorIs(t, err, tickwork.ErrDuplicateSystem)
}

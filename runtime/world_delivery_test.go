package runtime_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// The delivery rule's PerFrame case (docs/architecture.md, Events): a
// NextFrame event the host emits between frames t and t+1 is read in frame
// t+1 by consumers of every phase, FixedUpdate ones at frame t+1's first
// tick, each once. Before BeginFrame the PerFrame mark was taken at the
// end of frame t, so Update and FrameStart consumers read it in frame t+2.
func TestHostEmitBetweenFramesReadNextFrame(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithFixedStep(1.0 / 60))
	hits := runtime.AddEvents[int](b, events.Spec{Name: "hits", Capacity: 8})
	got := map[string][]string{}
	phases := []systems.Phase{systems.FrameStart, systems.FixedUpdate, systems.Update, systems.LateUpdate, systems.FrameEnd}
	for _, p := range phases {
		name := p.String()
		b.System(name, p, func(s *systems.Decl) systems.RunFunc {
			c := systems.Consume(s, hits)
			return func(ctx *systems.Context) {
				for _, e := range c.Read() {
					got[name] = append(got[name], fmt.Sprintf("frame %d reads %d", ctx.Frame(), e))
				}
			}
		})
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()

	require.NoError(t, w.Frame(1.0/60)) // frame 0
	require.NoError(t, hits.Emit(42))   // the host, between frames 0 and 1
	for range 3 {
		require.NoError(t, w.Frame(1.0/60)) // frames 1..3, one tick each
	}
	for _, p := range phases {
		assert.Equal(t, []string{"frame 1 reads 42"}, got[p.String()], p.String())
	}
	assert.Zero(t, hits.Held(), "every consumer read it")
}

// A ThisFrame consumer never reads its own run's emits: every Read of a
// run returns the first call's events, whether the system emits before or
// after it; the emits are passed with the run (not counted as dropped) and
// read by the consumers after it. Before, a second Read returned the run's
// own emits, contradicting the delivery rule.
func TestThisFrameConsumerDoesNotReadOwnEmits(t *testing.T) {
	b := runtime.NewBuilder()
	dead := runtime.AddEvents[string](b, events.Spec{Name: "dead", Capacity: 8, Lifetime: events.ThisFrame})
	var first, second, later []string
	b.System("spawn", systems.FrameStart, func(s *systems.Decl) systems.RunFunc {
		em := systems.Emit(s, dead)
		return func(ctx *systems.Context) { em.Emit(fmt.Sprint("spawn", ctx.Frame())) }
	})
	b.System("chain", systems.Update, func(s *systems.Decl) systems.RunFunc {
		em, c := systems.Emit(s, dead), systems.Consume(s, dead)
		return func(ctx *systems.Context) {
			first = append(first, c.Read()...)
			em.Emit(fmt.Sprint("chain", ctx.Frame()))
			second = append(second, c.Read()...) // after its own emit
		}
	})
	b.System("late", systems.FrameEnd, func(s *systems.Decl) systems.RunFunc {
		c := systems.Consume(s, dead)
		return func(*systems.Context) { later = append(later, c.Read()...) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	for range 2 {
		require.NoError(t, w.Frame(0))
		assert.Zero(t, w.Report().EventsDropped, "the own emit is passed with the run, not dropped")
	}
	assert.Equal(t, []string{"spawn0", "spawn1"}, first)
	assert.Equal(t, first, second, "a later Read returns the first call's events, not the run's own emit")
	assert.Equal(t, []string{"spawn0", "chain0", "spawn1", "chain1"}, later)
}

// A consumer that declares a NextFrame table but never reads it holds its
// events: the table fills, then refuses new emits, counted in the frame
// report's EventsDropped and returned by the frame as the table's
// *events.OverflowError (the delivery rule, Events). The emits the table
// accepted are all still held.
func TestConsumerThatNeverReadsHoldsEvents(t *testing.T) {
	b := runtime.NewBuilder()
	hits := runtime.AddEvents[int](b, events.Spec{Name: "hits", Capacity: 3})
	refused := 0
	b.System("emit", systems.Update, func(s *systems.Decl) systems.RunFunc {
		em := systems.Emit(s, hits)
		return func(ctx *systems.Context) {
			if !em.Emit(int(ctx.Frame())) {
				refused++
			}
		}
	})
	b.System("idle", systems.LateUpdate, func(s *systems.Decl) systems.RunFunc {
		systems.Consume(s, hits)
		return func(*systems.Context) {} // never reads
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	var dropped []int64
	var overflows []bool
	for range 5 {
		err := w.Frame(0)
		overflows = append(overflows, err != nil)
		if err != nil {
			var oe *events.OverflowError
			require.ErrorAs(t, err, &oe)
			assert.ErrorIs(t, err, events.ErrOverflow)
		}
		dropped = append(dropped, w.Report().EventsDropped)
	}
	assert.Equal(t, []int64{0, 0, 0, 1, 1}, dropped)
	assert.Equal(t, []bool{false, false, false, true, true}, overflows)
	assert.Equal(t, 2, refused)
	assert.Equal(t, 3, hits.Held())
}

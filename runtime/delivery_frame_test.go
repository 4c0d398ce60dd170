package runtime_test

import (
	"errors"
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
	hits, err := runtime.AddEvents[int](b, events.Spec{Name: "hits", Capacity: 8})
	require.NoError(t, err)
	got := map[string][]string{}
	reader := func(name string) systems.RunFunc {
		return func(ctx *systems.Context) error {
			es, err := systems.Reader(ctx, hits)
			for _, e := range es {
				got[name] = append(got[name], fmt.Sprintf("frame %d reads %d", ctx.Frame(), e))
			}
			return err
		}
	}
	var list []systems.System
	for _, p := range []systems.Phase{systems.FrameStart, systems.FixedUpdate, systems.Update, systems.LateUpdate, systems.FrameEnd} {
		list = append(list, systems.System{Name: p.String(), Phase: p,
			Manifest: systems.Manifest{Consumes: []events.Buffer{hits}}, Run: reader(p.String())})
	}
	require.NoError(t, b.Add(list...))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()

	require.NoError(t, w.Frame(1.0/60)) // frame 0
	require.NoError(t, hits.Emit(42))   // the host, between frames 0 and 1
	for range 3 {
		require.NoError(t, w.Frame(1.0/60)) // frames 1..3, one tick each
	}
	for _, p := range list {
		assert.Equal(t, []string{"frame 1 reads 42"}, got[p.Name], p.Name)
	}
	assert.Zero(t, hits.Held(), "every consumer read it")
}

// A ThisFrame consumer never reads its own run's emits: every Reader call
// of a run returns the first call's events, whether the system emits
// before or after it; the emits are passed with the run (not counted as
// dropped) and read by the consumers after it. Before, a second Reader
// call returned the run's own emits, contradicting the delivery rule.
func TestThisFrameConsumerDoesNotReadOwnEmits(t *testing.T) {
	b := runtime.NewBuilder()
	dead, err := runtime.AddEvents[string](b, events.Spec{Name: "dead", Capacity: 8, Lifetime: events.ThisFrame})
	require.NoError(t, err)
	var first, second, later []string
	require.NoError(t, b.Add(
		systems.System{Name: "spawn", Phase: systems.FrameStart, Manifest: systems.Manifest{Emits: []events.Buffer{dead}},
			Run: func(ctx *systems.Context) error {
				em, err := systems.NewEmitter(ctx, dead)
				if err != nil {
					return err
				}
				return em.Emit(fmt.Sprint("spawn", ctx.Frame()))
			}},
		systems.System{Name: "chain", Phase: systems.Update,
			Manifest: systems.Manifest{Emits: []events.Buffer{dead}, Consumes: []events.Buffer{dead}},
			Run: func(ctx *systems.Context) error {
				es, err := systems.Reader(ctx, dead)
				if err != nil {
					return err
				}
				first = append(first, es...)
				em, err := systems.NewEmitter(ctx, dead)
				if err != nil {
					return err
				}
				if err := em.Emit(fmt.Sprint("chain", ctx.Frame())); err != nil {
					return err
				}
				es, err = systems.Reader(ctx, dead) // after its own emit
				second = append(second, es...)
				return err
			}},
		systems.System{Name: "late", Phase: systems.FrameEnd, Manifest: systems.Manifest{Consumes: []events.Buffer{dead}},
			Run: func(ctx *systems.Context) error {
				es, err := systems.Reader(ctx, dead)
				later = append(later, es...)
				return err
			}},
	))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	for range 2 {
		require.NoError(t, w.Frame(0))
		assert.Zero(t, w.Report().EventsDropped, "the own emit is passed with the run, not dropped")
	}
	assert.Equal(t, []string{"spawn0", "spawn1"}, first)
	assert.Equal(t, first, second, "a later Reader call returns the first call's events, not the run's own emit")
	assert.Equal(t, []string{"spawn0", "chain0", "spawn1", "chain1"}, later)
}

// A consumer that declares a NextFrame table but never calls Reader holds
// its events: the table fills, then refuses new emits, counted in the
// frame report's EventsDropped (the delivery rule, Events). The emits the
// table accepted are all still held.
func TestConsumerThatNeverReadsHoldsEvents(t *testing.T) {
	b := runtime.NewBuilder()
	hits, err := runtime.AddEvents[int](b, events.Spec{Name: "hits", Capacity: 3})
	require.NoError(t, err)
	refused := 0
	require.NoError(t, b.Add(
		systems.System{Name: "emit", Phase: systems.Update, Manifest: systems.Manifest{Emits: []events.Buffer{hits}},
			Run: func(ctx *systems.Context) error {
				em, err := systems.NewEmitter(ctx, hits)
				if err != nil {
					return err
				}
				if err := em.Emit(int(ctx.Frame())); errors.Is(err, events.ErrOverflow) {
					refused++
				} else if err != nil {
					return err
				}
				return nil
			}},
		systems.System{Name: "idle", Phase: systems.LateUpdate, Manifest: systems.Manifest{Consumes: []events.Buffer{hits}},
			Run: func(*systems.Context) error { return nil }}, // never calls Reader
	))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	var dropped []int64
	for range 5 {
		require.NoError(t, w.Frame(0))
		dropped = append(dropped, w.Report().EventsDropped)
	}
	assert.Equal(t, []int64{0, 0, 0, 1, 1}, dropped)
	assert.Equal(t, 2, refused)
	assert.Equal(t, 3, hits.Held())
}

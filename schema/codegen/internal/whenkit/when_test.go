package whenkit_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/whenkit"
)

const step = 1.0 / 60

func newWorld(t *testing.T, workers int, extra ...tickwork.System) (*tickwork.World, *whenkit.Tables, error) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(step))
	tabs, err := whenkit.Declare(b, whenkit.DefaultSizes())
	require.NoError(t, err)
	b.Add(whenkit.NewSystems(tabs).All()...)
	b.Add(extra...)
	w, err := b.Build()
	if err == nil {
		t.Cleanup(func() { _ = w.Close() })
	}
	return w, tabs, err
}

// TestGeneratedWhenRunsAndSkips: the generated systems run exactly when
// their when condition holds: Heal (fixed_update, Match.On and @tick %
// Every != 1) once per tick at 0, 1 and 3 ticks a frame, Slow (update,
// not Match.On or @dt > 0.5) and Hurt (an event system, Match.Round >= 2)
// once per frame, as the host flips Match between frames; at 1 and 2
// workers.
func TestGeneratedWhenRunsAndSkips(t *testing.T) {
	ticks := []int{1, 3, 0, 3, 1, 0, 3, 3, 1}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			w, tabs, err := newWorld(t, workers)
			require.NoError(t, err)
			h, err := tabs.Unit.Table.Insert()
			require.NoError(t, err)
			tabs.Unit.Speed.Set(h, 1024)
			hp, speed, tick := int32(0), float32(1024), uint64(0)
			for frame, n := range ticks {
				m := tabs.Match.Get()
				m.On, m.Round = frame%3 != 2, int32(frame)
				heals, skips := 0, 0
				for range n {
					if m.On && tick%3 != 1 {
						heals++
					} else {
						skips++
					}
					tick++
				}
				hp += int32(heals)
				slow := !m.On
				if slow {
					speed *= 0.5
				}
				require.NoError(t, w.Frame(float64(n)*step))
				r := w.Report()
				heal := r.System("Heal")
				assert.Equal(t, [2]int{heals, skips}, [2]int{heal.Runs, heal.Skips}, "frame %d: Heal runs, skips", frame)
				s := r.System("Slow")
				assert.Equal(t, slow, s.Runs == 1 && s.Skips == 0, "frame %d: Slow %v", frame, s)
				assert.Equal(t, !slow, s.Runs == 0 && s.Skips == 1, "frame %d: Slow %v", frame, s)
				hurt := r.System("Hurt")
				assert.Equal(t, m.Round >= 2, hurt.Runs == 1, "frame %d: Hurt %v", frame, hurt)
				got, _ := tabs.Unit.HP.Get(h)
				assert.Equal(t, hp, got, "frame %d: HP", frame)
				sp, _ := tabs.Unit.Speed.Get(h)
				assert.Equal(t, speed, sp, "frame %d: Speed", frame)
			}
		})
	}
}

// TestGeneratedWhenConflicts: a hand-written writer of the resource a
// generated condition reads, unordered with it, fails Build naming both
// (the condition's read is the system's: docs/architecture.md, Run
// conditions); ordered, it builds.
func TestGeneratedWhenConflicts(t *testing.T) {
	for _, ordered := range []bool{false, true} {
		var tabs *whenkit.Tables
		pause := tickwork.System{Name: "pause", Phase: tickwork.Update, Declare: func(d *tickwork.Decl) tickwork.RunFunc {
			m := tickwork.WriteResource(d, tabs.Match)
			return func(*tickwork.Context) { m.On = !m.On }
		}}
		if ordered {
			pause.Before = []string{"Slow", "Hurt"}
		}
		b := tickwork.NewBuilder()
		var err error
		tabs, err = whenkit.Declare(b, whenkit.DefaultSizes())
		require.NoError(t, err)
		b.Add(whenkit.NewSystems(tabs).All()...)
		b.Add(pause)
		w, err := b.Build()
		if ordered {
			require.NoError(t, err)
			_ = w.Close()
			continue
		}
		require.ErrorIs(t, err, tickwork.ErrConflict)
		assert.Contains(t, err.Error(), `"Slow" (read by run condition) and "pause" (write) both touch resource Match`)
		assert.Contains(t, err.Error(), `"Hurt" (read by run condition) and "pause" (write) both touch resource Match`)
	}
}

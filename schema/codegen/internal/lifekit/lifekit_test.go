package lifekit_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/lifekit"
)

// The generated Declare declares each lifecycle event table on its table
// with the schema's capacity and changes: a unit's delete event keeps the
// columns the declaration lists (pos_x through its tag), the tag table's
// records only its attaches and detaches.
func TestGeneratedLifecycle(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tb, err := lifekit.Declare(b, lifekit.DefaultSizes())
	require.NoError(t, err)
	assert.Equal(t, 64, tb.UnitLife.Cap())
	assert.Equal(t, 8, tb.MarkLife.Cap())
	var created, target tickwork.Handle
	b.System("script", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		units, marks := tickwork.Record(d, tb.Unit.Table), tickwork.Record(d, tb.Marked.Table)
		return func(ctx *tickwork.Context) {
			switch ctx.Frame() {
			case 0:
				h := units.Create()
				tickwork.Set(units, tb.Unit.Health, h, 3)
				tickwork.Set(units, tb.Unit.Pos_x, h, 1.5)
				tickwork.Set(units, tb.Unit.Big, h, 1<<40)
				tickwork.Set(units, tb.Unit.Rate, h, 0.25)
				tickwork.Set(units, tb.Unit.On, h, true)
				tickwork.Set(units, tb.Unit.Target, h, target)
				marks.Attach(h)
				created = h
			case 1:
				marks.Remove(created)
				units.Delete(created)
			}
		}
	})
	var units []tickwork.LifecycleEvent[lifekit.UnitLife]
	var marks []tickwork.LifecycleChange
	tickwork.Observe(b, tb.UnitLife, func(e *tickwork.LifecycleEvent[lifekit.UnitLife]) { units = append(units, *e) })
	tickwork.Observe(b, tb.MarkLife, func(e *tickwork.LifecycleEvent[lifekit.MarkLife]) { marks = append(marks, e.Change) })
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	target, err = tb.Unit.Table.Insert()
	require.NoError(t, err)
	require.NoError(t, w.Frame(0.01))
	var ok bool
	created, ok = w.Resolve(created) // the real handle, for frame 1's records
	require.True(t, ok)
	for range 2 {
		require.NoError(t, w.Frame(0.01))
	}
	require.Len(t, units, 2)
	assert.Equal(t, tickwork.Created, units[0].Change)
	assert.Equal(t, tickwork.Deleted, units[1].Change)
	assert.Equal(t, created, units[1].Handle)
	assert.Equal(t, lifekit.UnitLife{Health: 3, Pos_x: 1.5, Target: target, Big: 1 << 40, Rate: 0.25, On: true}, units[1].Row)
	assert.Equal(t, []tickwork.LifecycleChange{tickwork.Attached, tickwork.Detached}, marks)
}

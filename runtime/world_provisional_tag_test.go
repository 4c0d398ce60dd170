package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// A provisional handle that one world's recorder made, recorded in another
// world (a Set and a Delete in LateUpdate, after that world's own create
// in Update at the same buffer position), touches nothing there: the
// records count in ForeignHandles, the frame fails with the playback error
// naming the system (errors.Is ephemeral.ErrForeignHandle), the other
// world's unit lives with its value, and World.Resolve misses. Before
// playbacks had tags, the other world's unit was deleted.
func TestProvisionalHandleOfAnotherWorld(t *testing.T) {
	b1 := runtime.NewBuilder()
	bullets := b1.Table(ephemeral.TableSpec{Name: "Bullets", Capacity: 64})
	var p1 ephemeral.Handle
	b1.System("fire", systems.Update, func(s *systems.Decl) systems.RunFunc {
		r := systems.Record(s, bullets)
		return func(*systems.Context) { p1 = r.Create() }
	})
	w1, err := b1.Build()
	require.NoError(t, err)
	defer w1.Close()
	require.NoError(t, w1.Frame(0))

	b2 := runtime.NewBuilder()
	units := b2.Table(ephemeral.TableSpec{Name: "Units", Capacity: 64})
	hp := runtime.AddColumn[int](b2, units, "hp")
	var own ephemeral.Handle
	b2.System("spawn", systems.Update, func(s *systems.Decl) systems.RunFunc {
		r := systems.Record(s, units)
		return func(*systems.Context) {
			own = r.Create()
			systems.Set(r, hp, own, 100)
		}
	})
	b2.System("kill", systems.LateUpdate, func(s *systems.Decl) systems.RunFunc {
		r := systems.Record(s, units)
		return func(*systems.Context) {
			systems.Set(r, hp, p1, -5)
			r.Delete(p1)
		}
	})
	w2, err := b2.Build()
	require.NoError(t, err)
	defer w2.Close()

	err = w2.Frame(0)
	var pe *scheduler.PlaybackError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "kill", pe.System)
	assert.ErrorIs(t, err, ephemeral.ErrForeignHandle)
	assert.Equal(t, 2, w2.Report().Commands.ForeignHandles)
	assert.Equal(t, 1, units.Len(), "world 2's unit is not deleted")
	real, ok := w2.Resolve(own)
	require.True(t, ok)
	v, _ := hp.Get(real)
	assert.Equal(t, 100, v, "nor overwritten")
	_, ok = w2.Resolve(p1)
	assert.False(t, ok, "world 2 does not resolve world 1's provisional handle")
	_, ok = w1.Resolve(p1)
	assert.True(t, ok, "world 1 does")
}

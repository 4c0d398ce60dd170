package scheduler_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// A delete recorded with another table's handle deletes nothing, counts as
// dropped in the frame report and fails the frame's result.
func TestForeignHandleDropped(t *testing.T) {
	a, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Capacity: 4})
	require.NoError(t, err)
	b, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Capacity: 4})
	require.NoError(t, err)
	ha, err := a.Insert()
	require.NoError(t, err)
	hb, err := b.Insert()
	require.NoError(t, err)
	require.Equal(t, ha.Index(), hb.Index())
	require.Equal(t, ha.Generation(), hb.Generation())

	s := seal(t, scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame},
		systems.System{Name: "reap", Phase: systems.Update, Declare: func(s *systems.Decl) systems.RunFunc {
			rec := systems.Record(s, a)
			return func(*systems.Context) { rec.Delete(hb) } // B's handle through A's recorder
		}})
	err = s.Frame(0.01)
	require.ErrorIs(t, err, commands.ErrPlayback)
	require.ErrorIs(t, err, ephemeral.ErrForeignHandle)
	r := s.Report()
	assert.Equal(t, 1, r.Commands.ForeignHandles)
	assert.Zero(t, r.Commands.StaleDeletes)
	assert.Zero(t, r.Commands.Deleted)
	assert.Equal(t, 1, r.CommandsDropped())
	assert.True(t, a.IsAlive(ha), "A's entity at the same slot lives")
	assert.Equal(t, 1, a.Len())
	assert.Equal(t, 1, a.Domain().Len())
	assert.True(t, b.IsAlive(hb))
}

//go:build !tickwork_debug

package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestNormalBuildDoesNotCheck: without the tag tickwork_debug nothing is
// checked: a system that writes through a read accessor runs its frames
// without an error (the write lands), a freed row keeps its values, and
// an accessor used by the host answers (docs/architecture.md, Debug
// build: the checks cost nothing here because there are none).
func TestNormalBuildDoesNotCheck(t *testing.T) {
	require.False(t, tickwork.DebugBuild)
	var acc tickwork.ReadColumn[float32]
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	b.System("cheat", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		acc = tickwork.Read(s, hp)
		return func(*tickwork.Context) { acc.All()[0]++ }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	q := tickwork.HostQuery1(hp)
	h, err := q.Insert(1)
	require.NoError(t, err)
	dead, err := q.Insert(5)
	require.NoError(t, err)
	require.NoError(t, w.Frame(1.0/60))
	v, ok := acc.Get(h)
	assert.True(t, ok)
	assert.Equal(t, float32(2), v)
	require.True(t, units.Delete(dead))
	assert.Equal(t, float32(5), hp.All()[dead.Index()])
}

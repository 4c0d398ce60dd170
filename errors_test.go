package tickwork_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// A host tells every error a face call returns with errors.Is and
// errors.As through the root package alone.
func TestFaceErrors(t *testing.T) {
	t.Run("conflict", func(t *testing.T) {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
		x := tickwork.AddColumn[int32](b, tab, "X")
		for _, name := range []string{"A", "B"} {
			b.System(name, tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				tickwork.Write(d, x)
				return func(*tickwork.Context) {}
			})
		}
		_, err := b.Build()
		require.ErrorIs(t, err, tickwork.ErrConflict)
		var ce *tickwork.ConflictError
		require.ErrorAs(t, err, &ce)
		assert.Contains(t, err.Error(), "T.X")
	})
	t.Run("storage definition", func(t *testing.T) {
		b := tickwork.NewBuilder()
		assert.Nil(t, b.Table(tickwork.TableSpec{Name: "T", Capacity: 8, ChunkRows: 3}))
		assert.ErrorIs(t, b.Err(), tickwork.ErrStorageDefinition)
		assert.ErrorIs(t, b.Err(), tickwork.ErrChunkRows)
	})
	t.Run("option", func(t *testing.T) {
		_, err := tickwork.NewBuilder(tickwork.WithWorkers(0)).Build()
		var oe *tickwork.OptionError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, "WithWorkers", oe.Option)
	})
	t.Run("system", func(t *testing.T) {
		w := buildWorld(t, func(b *tickwork.Builder) {
			b.System("S", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
				return func(ctx *tickwork.Context) { ctx.Fail(errors.New("no")) }
			})
		})
		err := w.Frame(1.0 / 60)
		var se *tickwork.SystemError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, tickwork.ErrSystem)
		assert.False(t, tickwork.IsFatal(err))
		require.NoError(t, w.Close())
		assert.ErrorIs(t, w.Frame(1.0/60), tickwork.ErrClosed)
	})
	t.Run("snapshot", func(t *testing.T) {
		w := buildWorld(t, func(*tickwork.Builder) {})
		err := w.Restore([]byte("not a snapshot"))
		var se *tickwork.SnapshotError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, tickwork.ErrSnapshot)
		assert.ErrorIs(t, err, tickwork.ErrCorrupt)
	})
	t.Run("zero world", func(t *testing.T) {
		var w tickwork.World
		assert.ErrorIs(t, w.Frame(1.0/60), tickwork.ErrZeroWorld)
		var nw *tickwork.World
		assert.ErrorIs(t, nw.Close(), tickwork.ErrZeroWorld)
	})
}

// The other methods of a World not made by Build panic with ErrZeroWorld's
// message, as the engine's do.
func TestZeroWorldPanics(t *testing.T) {
	var w tickwork.World
	assert.PanicsWithValue(t, tickwork.ErrZeroWorld.Error(), func() { w.Tables() })
	assert.PanicsWithValue(t, tickwork.ErrZeroWorld.Error(), func() { w.Frames() })
}

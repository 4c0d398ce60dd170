package tickwork_test

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
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

// Every typed error of the engine that a face call can return is reached
// with errors.As through the root package alone, each triggered through
// the face (the list: errors.go, "The typed errors").
func TestFaceErrorTypes(t *testing.T) {
	t.Run("StorageDefinitionError", func(t *testing.T) {
		b := tickwork.NewBuilder()
		b.Table(tickwork.TableSpec{Name: "T", Capacity: 8, ChunkRows: 3})
		var de *tickwork.StorageDefinitionError
		require.ErrorAs(t, b.Err(), &de)
		assert.Equal(t, tickwork.StorageKindTable, de.Kind)
		assert.Equal(t, "T", de.Table)
		assert.ErrorIs(t, de.Err, tickwork.ErrChunkRows)

		b = tickwork.NewBuilder()
		b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 0})
		require.ErrorAs(t, b.Err(), &de)
		assert.Equal(t, tickwork.StorageKindDomain, de.Kind)
		assert.Equal(t, "D", de.Table)
		assert.ErrorIs(t, b.Err(), tickwork.ErrZeroCapacity)
	})
	t.Run("EventsDefinitionError", func(t *testing.T) {
		b := tickwork.NewBuilder()
		tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "E", Capacity: 0})
		var de *tickwork.EventsDefinitionError
		require.ErrorAs(t, b.Err(), &de)
		assert.Equal(t, "E", de.Table)
		assert.ErrorIs(t, b.Err(), tickwork.ErrEventsDefinition)
		assert.ErrorIs(t, b.Err(), tickwork.ErrCapacityRange)
	})
	t.Run("SystemDefinitionError", func(t *testing.T) {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		b.System("S", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc { return nil })
		_, err := b.Build()
		var de *tickwork.SystemDefinitionError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, "S", de.System)
		assert.ErrorIs(t, err, tickwork.ErrSystemDefinition)
		assert.ErrorIs(t, err, tickwork.ErrNoRun)
	})
	t.Run("KernelPanicError", func(t *testing.T) {
		boom := errors.New("boom")
		b := tickwork.NewBuilder(tickwork.WithWorkers(2))
		b.System("K", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
			return func(ctx *tickwork.Context) {
				tickwork.Parallel(ctx, 4, 0, func(_ *int, _, chunk int) {
					if chunk == 2 {
						panic(boom)
					}
				})
			}
		})
		w, err := b.Build()
		require.NoError(t, err)
		defer w.Close()
		got := framePanic(w)
		err, ok := got.(error)
		require.True(t, ok, "Frame panics with an error: %v", got)
		var pe *tickwork.PanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "K", pe.System)
		var kp *tickwork.KernelPanicError
		require.ErrorAs(t, err, &kp)
		assert.Equal(t, 2, kp.Chunk)
		assert.ErrorIs(t, err, tickwork.ErrKernelPanic)
		assert.ErrorIs(t, err, boom)
	})
	t.Run("CommandPlaybackError", func(t *testing.T) {
		var h tickwork.Handle
		var tab *tickwork.Table
		w := buildWorld(t, func(b *tickwork.Builder) {
			tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
			b.System("R", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				r := tickwork.Record(d, tab)
				return func(*tickwork.Context) { r.Attach(h) } // h has a row already
			})
		})
		var err error
		h, err = tab.Insert()
		require.NoError(t, err)
		err = w.Frame(1.0 / 60)
		var pe *tickwork.PlaybackError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "R", pe.System)
		var ce *tickwork.CommandPlaybackError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "attach", ce.Op)
		assert.Equal(t, "T", ce.Table)
		assert.Equal(t, 0, ce.Record)
		assert.ErrorIs(t, err, tickwork.ErrCommandPlayback)
		assert.ErrorIs(t, err, tickwork.ErrRowExists)
	})
	t.Run("state errors", func(t *testing.T) {
		// A world of one table (its private domain) and one event table:
		// sections host configuration (empty), scheduler (clock: six uint64; playback: tag, ...),
		// domain, events (docs/state.md, Format).
		var tab *tickwork.Table
		w := buildWorld(t, func(b *tickwork.Builder) {
			tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
			tickwork.AddColumn[int32](b, tab, "X")
			tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "E", Capacity: 4})
		})
		_, err := tab.Insert()
		require.NoError(t, err)
		require.NoError(t, w.Frame(1.0/60))
		good, err := w.Snapshot(nil)
		require.NoError(t, err)
		for _, tc := range []struct {
			name     string
			sec      int
			mutate   func(sec []byte)
			sentinel error
			as       func(error) bool
		}{
			{"SchedulerStateError", 1, func(s []byte) { s[8] ^= 1 }, tickwork.ErrSchedulerState, func(err error) bool { // ticks that do not make the simulated time
				var e *tickwork.SchedulerStateError
				return errors.As(err, &e) && e.Err == nil
			}},
			{"CommandStateError", 1, func(s []byte) { clear(s[48:52]) }, tickwork.ErrCommandState, func(err error) bool { // playback tag 0
				var e *tickwork.CommandStateError
				var se *tickwork.SchedulerStateError
				return errors.As(err, &e) && errors.As(err, &se) && se.Err == error(e)
			}},
			{"StorageStateError", 2, func(s []byte) { s[8] ^= 1 }, tickwork.ErrStorageState, func(err error) bool { // the live count
				var e *tickwork.StorageStateError
				return errors.As(err, &e) && e.Domain == "T"
			}},
			{"EventsStateError", 3, func(s []byte) { s[8] ^= 1 }, tickwork.ErrEventsState, func(err error) bool { // a mark past the events
				var e *tickwork.EventsStateError
				return errors.As(err, &e) && e.Table == "E"
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				bad := mutateSection(t, good, tc.sec, tc.mutate)
				err := w.Restore(bad)
				assert.ErrorIs(t, err, tickwork.ErrSnapshot)
				assert.ErrorIs(t, err, tickwork.ErrCorrupt)
				assert.ErrorIs(t, err, tc.sentinel)
				assert.True(t, tc.as(err), "errors.As: %v", err)
			})
		}
		// A table of events holding pointers: no snapshot.
		w = buildWorld(t, func(b *tickwork.Builder) {
			tickwork.AddEvents[string](b, tickwork.EventSpec{Name: "names", Capacity: 4})
		})
		_, err = w.Snapshot(nil)
		var e *tickwork.EventsStateError
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "names", e.Table)
		assert.ErrorIs(t, err, tickwork.ErrUnsupported)
		assert.ErrorIs(t, err, tickwork.ErrEventsState)
	})
	t.Run("FileError", func(t *testing.T) {
		w := buildWorld(t, func(*tickwork.Builder) {})
		dir := t.TempDir()
		err := tickwork.SaveFile(w, filepath.Join(dir, "no", "save.bin")) // a missing directory: the create fails
		var fe *tickwork.FileError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, "create temporary file", fe.Step)
		var pe *os.PathError
		assert.ErrorAs(t, err, &pe, "the os error, with no engine type between")
		assert.Equal(t, error(pe), fe.Err)
	})
}

// mutateSection returns a copy of snap with section k's payload changed by
// mutate and the checksum recomputed (docs/state.md, Format: CRC-32C of
// the payload, then of header bytes 16..39, at bytes 12..15), so that only
// the state checks can refuse it.
func mutateSection(t *testing.T, snap []byte, k int, mutate func(sec []byte)) []byte {
	t.Helper()
	b := append([]byte(nil), snap...)
	at := 40
	for range k {
		at += 8 + int(binary.LittleEndian.Uint64(b[at:]))
	}
	mutate(b[at+8 : at+8+int(binary.LittleEndian.Uint64(b[at:]))])
	tbl := crc32.MakeTable(crc32.Castagnoli)
	binary.LittleEndian.PutUint32(b[12:], crc32.Update(crc32.Update(0, tbl, b[40:]), tbl, b[16:40]))
	return b
}

// framePanic runs one frame of w and returns what it panicked with, nil
// when it did not.
func framePanic(w *tickwork.World) (got any) {
	defer func() { got = recover() }()
	_ = w.Frame(1.0 / 60)
	return nil
}

package tickwork_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// The face's types carry exactly the user's methods: none of the
// scheduler's or the snapshot's plumbing (BeginFrame, EndFrame, Reset,
// TakeDropped, NewConsumer, AppendState, CheckState, LoadState, Describe,
// StateCap, Snapshottable, Seal, ...) is callable from the root package. A
// method added to a face type must be added here.
func TestFaceMethodSets(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		methods string
	}{
		{reflect.TypeFor[*tickwork.World](), "Budget Close Declarations Fingerprint Frame Frames Order Report Resolve Restore Snapshot SnapshotSize Tables Time Workers"},
		{reflect.TypeFor[*tickwork.Builder](), "Add Budget Build Domain Err Hook System Table"},
		{reflect.TypeFor[*tickwork.Table](), "Attach Cap ChunkLen ChunkRows Chunks Columns Delete DeleteN Detach Domain Enabled HandleAt Insert InsertN IsAlive Lease Len LiveEnd Name Runs UsedChunks"},
		{reflect.TypeFor[*tickwork.Column[int32]](), "All Get Name Ptr Set Span Table"},
		{reflect.TypeFor[*tickwork.Domain](), "Cap ChunkRows Create CreateN Delete DeleteN IsAlive Len MakeHandle Name Owns Tables Tag"},
		{reflect.TypeFor[*tickwork.Events[int32]](), "Cap Dropped Emit Held Len Lifetime Name Overflowed Pending Read"},
		{reflect.TypeFor[*tickwork.Resource[int32]](), "Get Name"},
		{reflect.TypeFor[*tickwork.Rollback](), "Cap Checksum Len Load Newest Oldest Rewind Save"},
		{reflect.TypeFor[*tickwork.Decl](), "After Before Counter Name Phase"},
		{reflect.TypeFor[*tickwork.Context](), "DT Fail Frame FrameDT Name Phase Resolve Tick Workers"},
		{reflect.TypeFor[*tickwork.Recorder](), "Attach Create Delete Remove Reserve ReserveWorkers Table Worker"},
		{reflect.TypeFor[*tickwork.Emitter[int32]](), "Emit"},
		{reflect.TypeFor[*tickwork.ParallelEmitter[int32]](), "Worker"},
		{reflect.TypeFor[tickwork.WorkerEmitter[int32]](), "Emit"},
		{reflect.TypeFor[*tickwork.Consumer[int32]](), "Read"},
		{reflect.TypeFor[tickwork.ReadColumn[int32]](), "All At Column Get Lease Row"},
		{reflect.TypeFor[tickwork.WriteColumn[int32]](), "All At Column Get Lease Ptr Row Set"},
		{reflect.TypeFor[tickwork.Counter](), "Add Name Total"},
		{reflect.TypeFor[tickwork.Lease](), "IsAlive Row"},
		{reflect.TypeFor[tickwork.Handle](), "Generation Index IsZero String Tag"},
		{reflect.TypeFor[*tickwork.FrameReport](), "CommandsDropped Counter String System"},
		{reflect.TypeFor[*tickwork.SystemReport](), "Counter"},
		{reflect.TypeFor[*tickwork.Hook](), "Add Lookup Names Order Substitute"},
		{reflect.TypeFor[*tickwork.Budget](), "Left Limit Used"},
		{reflect.TypeFor[tickwork.Query2[int32, int32]](), "All Chunk InsertN Runs Spans Table"},
		{reflect.TypeFor[tickwork.Row2[int32, int32]](), "Get"},
		{reflect.TypeFor[tickwork.Spawner2[int32, int32]](), "Spawn Worker"},
		{reflect.TypeFor[*tickwork.System](), "Validate"},
		{reflect.TypeFor[tickwork.Phase](), "String Valid"},
		{reflect.TypeFor[tickwork.Lifetime](), "String"},
		{reflect.TypeFor[tickwork.Pacing](), "String"},
		{reflect.TypeFor[tickwork.Option](), ""},
	} {
		t.Run(tc.typ.String(), func(t *testing.T) {
			var got []string
			for i := range tc.typ.NumMethod() {
				got = append(got, tc.typ.Method(i).Name)
			}
			assert.Equal(t, tc.methods, strings.Join(got, " "))
		})
	}
}

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

// World.Report is the scheduler's report as the face's own types, every
// figure copied; after the first call it allocates nothing.
func TestWorldReport(t *testing.T) {
	var counter tickwork.Counter
	w := buildWorld(t, func(b *tickwork.Builder) {
		b.Add(tickwork.System{Name: "Count", Phase: tickwork.FixedUpdate, Lane: "scalar",
			Declare: func(d *tickwork.Decl) tickwork.RunFunc {
				counter = d.Counter("ticks")
				return func(*tickwork.Context) { counter.Add(2) }
			}})
	})
	assert.Nil(t, w.Report())
	require.NoError(t, w.Frame(2.0/60))
	r := w.Report()
	require.NotNil(t, r)
	assert.Equal(t, uint64(0), r.Frame)
	assert.Equal(t, 2, r.FixedTicks)
	require.Len(t, r.Systems, 1)
	s := r.System("Count")
	require.NotNil(t, s)
	assert.Equal(t, tickwork.SystemReport{Name: "Count", Phase: tickwork.FixedUpdate, Lane: "scalar", Runs: 2,
		Last: s.Last, Total: s.Total, P50: s.P50, P99: s.P99, Mean: s.Mean, Window: 2,
		Counters: []tickwork.CounterReport{{Name: "ticks", Value: 4}}}, *s)
	v, ok := r.Counter("Count", "ticks")
	assert.True(t, ok)
	assert.Equal(t, int64(4), v)
	assert.Equal(t, int64(4), counter.Total())
	assert.True(t, strings.HasPrefix(r.String(), "frame 0: "), r.String())
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		_ = w.Report()
	}))
	assert.Equal(t, int64(2), w.Report().Systems[0].Counters[0].Value)
}

func buildWorld(t *testing.T, declare func(b *tickwork.Builder)) *tickwork.World {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	declare(b)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

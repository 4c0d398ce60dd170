package tickwork_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

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
		{reflect.TypeFor[*tickwork.Events[int32]](), "Cap Dropped Emit Held Len Lifetime Name Pending Read"},
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
		{reflect.TypeFor[tickwork.Query2[int32, int32]](), "All Chunk Insert InsertN Runs Spans Table"},
		{reflect.TypeFor[tickwork.Row2[int32, int32]](), "Get"},
		{reflect.TypeFor[tickwork.Spawner2[int32, int32]](), "Reserve Spawn Worker"},
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

package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// firstWorkerPlayback builds the world of TestFirstWorkerPlaybackAllocatesNothing,
// runs its 20 quiet frames and returns the frame to measure and the checks
// to run after it.
func firstWorkerPlayback(t *testing.T) (frame, check func()) {
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	body := b.Table(ephemeral.TableSpec{Name: "Body", Capacity: 256, ChunkRows: 64})
	kill := false
	type kernel struct {
		rec  *systems.Recorder
		body *ephemeral.Table
		kill *bool
	}
	b.System("kill", systems.Update, func(s *systems.Decl) systems.RunFunc {
		k := kernel{rec: systems.Record(s, body), body: body, kill: &kill}
		return func(ctx *systems.Context) {
			systems.Parallel(ctx, body.Chunks(), k, func(k *kernel, w, c int) {
				rec := k.rec.Worker(w, c)
				if !*k.kill {
					return
				}
				if h, ok := k.body.HandleAt(c * k.body.ChunkRows()); ok {
					rec.Delete(h)
				}
			})
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	hs := make([]ephemeral.Handle, 256)
	require.NoError(t, body.InsertN(hs))
	for range 20 {
		require.NoError(t, w.Frame(1.0/60))
	}
	require.Zero(t, w.Report().Commands.Played, "nothing recorded yet")

	kill = true
	t.Cleanup(func() { w.Close() })
	return func() { require.NoError(t, w.Frame(1.0/60)) }, func() {
		assert.Equal(t, 4, w.Report().Commands.Deleted, "frame 20 played the deletes, one per chunk")
		assert.Equal(t, 252, body.Len())
	}
}

// The first frame in which a system's per-worker command buffers are not
// empty allocates nothing: the playback's state for those buffers (their
// resolutions and the merge's scratch) was sized when Build made them.
// The system records deletes from its kernel only from frame 20 on (as a
// game's first death). Before, that frame allocated the merge's span
// scratch and the playback's per-buffer slot (1–2 objects). One worker:
// kernels run inline, so nothing but the playback could allocate.
func TestFirstWorkerPlaybackAllocatesNothing(t *testing.T) {
	var check func()
	// A fresh world per try, the cleanest of a few (allockit.FirstCall):
	// a one-shot check the runtime's background could tip once.
	allocs := allockit.FirstCall(allockit.DefaultTries, func() func() {
		var frame func()
		frame, check = firstWorkerPlayback(t)
		return frame
	})
	check()
	assert.Zero(t, allocs, "the first frame whose worker buffers are not empty")
}

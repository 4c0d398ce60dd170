package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// The first frame in which a system's WorkerRecorders buffers are not
// empty allocates nothing: the playback's state for those buffers (their
// resolutions and the merge's scratch) was sized when WorkerRecorders made
// them. The system takes its recorders every frame and records deletes
// only from frame 20 on (as a game's first death). Before, that frame
// allocated the merge's span scratch and the playback's per-buffer slot
// (1–2 objects). One worker: kernels run inline, so nothing but the
// playback could allocate.
func TestFirstWorkerPlaybackAllocatesNothing(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	body, err := b.Table(ephemeral.TableSpec{Name: "Body", Capacity: 256, ChunkRows: 64})
	require.NoError(t, err)
	kill := false
	var wr systems.WorkerRecorders
	kernel := func(w, c int) {
		rec := wr.Chunk(w, c)
		if !kill {
			return
		}
		if h, ok := body.HandleAt(c * body.ChunkRows()); ok {
			rec.Delete(h)
		}
	}
	require.NoError(t, b.Add(systems.System{Name: "kill", Phase: systems.Update,
		Manifest: systems.Manifest{Deletes: []*ephemeral.Table{body}},
		Run: func(ctx *systems.Context) error {
			var err error
			if wr, err = ctx.WorkerRecorders(body); err != nil {
				return err
			}
			ctx.RunKernel(body.Chunks(), kernel)
			return nil
		}}))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	hs := make([]ephemeral.Handle, 256)
	require.NoError(t, body.InsertN(hs))
	for range 20 {
		require.NoError(t, w.Frame(1.0/60))
	}
	require.Zero(t, w.Report().Commands.Played, "nothing recorded yet")

	kill = true
	calls := 0
	allocs := testing.AllocsPerRun(1, func() { // the warm-up call does nothing: measure frame 20 itself
		if calls++; calls > 1 {
			require.NoError(t, w.Frame(1.0/60))
		}
	})
	assert.Equal(t, 4, w.Report().Commands.Deleted, "frame 20 played the deletes, one per chunk")
	assert.Zero(t, allocs, "the first frame whose worker buffers are not empty")
	assert.Equal(t, 252, body.Len())
}

package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// reportSink keeps the allocations of TestReportAllocBytes alive, so that
// the compiler cannot put them on the stack.
var reportSink [][]byte

// With WithExactAllocs(true) a frame's AllocBytes counts what the frame
// allocated: a system that allocates 4 KiB in frame 5 only makes that
// frame read at least 4096 (runtime/metrics alone counted the small
// allocation when its span left the cache, often frames later: frame 5
// read 0), and the frames around it read less.
func TestReportAllocBytes(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithExactAllocs(true))
	frame := 0
	b.System("spawner", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
		return func(*tickwork.Context) {
			if frame == 5 {
				for range 4 {
					reportSink = append(reportSink, make([]byte, 1024))
				}
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	reportSink = make([][]byte, 0, 8)
	for frame = 0; frame < 8; frame++ {
		require.NoError(t, w.Frame(0.01))
		r := w.Report()
		if frame == 5 {
			assert.GreaterOrEqual(t, r.AllocBytes, uint64(4096), "frame %d", frame)
			assert.GreaterOrEqual(t, r.AllocObjects, uint64(4), "frame %d", frame)
		} else if frame > 1 {
			assert.Less(t, r.AllocBytes, uint64(4096), "frame %d", frame)
		}
	}
	require.Len(t, reportSink, 4)
}

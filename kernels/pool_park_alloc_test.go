package kernels_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/internal/testkit/allockit"
	"github.com/tickwork/tickwork/kernels"
)

// TestParkWakeAllocatesZeroBytes: Runs that find their helpers parked
// (a pause longer than SpinFor before each) allocate no byte at 1, 2, 4
// and 8 workers, counted over 600 Runs after a warm-up of 100: the wake-up
// path must not allocate per park (package doc, "Allocation"). A channel
// receive that blocks takes a sudog from the runtime's caches, which
// allocate when they run dry on the P that parks; NewPool fills them
// (prewarm). Without the prewarm, 2 and 4 workers allocated 3 024 and
// 3 472 B (27 and 31 sudogs) in one window after a warm-up of 100 Runs.
// The runtime's own background (a new thread, 7 objects, now and then) is
// what the cleanest of several windows (allockit.Heap) tolerates.
func TestParkWakeAllocatesZeroBytes(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			p, err := newPool(workers)
			require.NoError(t, err)
			defer p.Close()
			var sink [64]int64
			fn := func(w, c int) { sink[c]++ }
			pause := func() {
				for start := time.Now(); time.Since(start) < 3*kernels.SpinFor; {
					time.Sleep(kernels.SpinFor)
				}
			}
			for range 100 { // warm-up: the runtime starts the threads (Ms) it needs
				pause()
				p.Run(64, fn)
			}
			got := allockit.Heap(allockit.DefaultTries, func() {
				for range 600 {
					pause()
					p.Run(64, fn)
				}
			})
			assert.Zero(t, got.Bytes, "bytes over 600 Runs that woke parked helpers, cleanest of %d windows (%d objects)", allockit.DefaultTries, got.Objects)
		})
	}
}

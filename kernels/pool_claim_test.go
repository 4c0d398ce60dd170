package kernels_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

// TestStalledHelperDoesNotHoldRun: a helper that stops before it joins a
// Run (as one the OS has descheduled would) does not hold the Run: the
// other workers claim its share, every chunk runs once, none on the
// stalled worker, and Run returns while the helper is still stopped. Once
// released, the helper takes part in later Runs again. Under a watchdog: a
// pool that waited for every helper it woke would hang here.
func TestStalledHelperDoesNotHoldRun(t *testing.T) {
	for _, workers := range []int{2, 4} {
		for _, joined := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/joined=%v", workers, joined), func(t *testing.T) {
				testStalledHelper(t, workers, joined)
			})
		}
	}
}

func testStalledHelper(t *testing.T, workers int, joined bool) {
	const chunks = 64
	var stall atomic.Bool // helper 1 stops at its next hook call while set
	stopped := make(chan struct{}, 1)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer kernels.SetStallHook(func(w int, j bool) {
		if w == 1 && j == joined && stall.CompareAndSwap(true, false) {
			stopped <- struct{}{}
			<-release
		}
	})()
	p, err := newPool(workers)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	defer free() // before Close, also when the test fails

	owner := make([]atomic.Int32, chunks)
	fn := func(w, c int) {
		owner[c].Add(int32(w + 1))
		if c == 0 {
			<-stopped // helper 1 has seen the Run and stopped before chunk 0 returns
		}
	}
	stall.Store(true)
	watchdog(t, 10*time.Second, func() struct{} {
		p.Run(chunks, fn) // returns with helper 1 still stopped
		return struct{}{}
	})
	for c := range owner {
		w := owner[c].Swap(0) - 1
		assert.True(t, w >= 0 && w < int32(workers), "chunk %d ran once, on a worker of the Run: %d", c, w)
		assert.NotEqual(t, int32(1), w, "chunk %d ran on the stalled helper", c)
	}

	// The next Run starts while helper 1 is still stopped; when it had
	// joined, the Run waits for it to leave first, so release it a little
	// later from another goroutine.
	go func() {
		time.Sleep(20 * time.Millisecond)
		free()
	}()
	var seen [kernels.MaxWorkers]atomic.Bool
	for range 200 {
		watchdog(t, 10*time.Second, func() struct{} {
			p.Run(chunks, func(w, c int) {
				owner[c].Add(1)
				seen[w].Store(true)
				time.Sleep(time.Microsecond)
			})
			return struct{}{}
		})
		for c := range owner {
			require.Equal(t, int32(1), owner[c].Swap(0), "chunk %d after the release", c)
		}
		if seen[1].Load() {
			break
		}
	}
	assert.True(t, seen[1].Load(), "the released helper takes part again")
}

// TestClaimsAscendPerWorker: under work claiming each worker's chunks
// ascend over a whole Run (the event merge's overflow rule needs it,
// events.Segment.Begin), and together they cover every chunk once, for
// chunk counts that give claims of one and of several chunks.
func TestClaimsAscendPerWorker(t *testing.T) {
	for _, workers := range []int{2, 3, 8} {
		for _, chunks := range []int{5, 64, 1000} {
			p, err := newPool(workers)
			require.NoError(t, err)
			walked := make([][]int, workers)
			for range 20 {
				for w := range walked {
					walked[w] = walked[w][:0]
				}
				p.Run(chunks, func(w, c int) {
					walked[w] = append(walked[w], c)
					if c%7 == 0 {
						time.Sleep(time.Microsecond) // uneven chunks
					}
				})
				var all []int
				for w := range walked {
					require.True(t, slices.IsSorted(walked[w]), "workers %d chunks %d: worker %d walks %v", workers, chunks, w, walked[w])
					all = append(all, walked[w]...)
				}
				slices.Sort(all)
				require.Len(t, all, chunks)
				for i, c := range all {
					require.Equal(t, i, c, "workers %d chunks %d: every chunk once", workers, chunks)
				}
			}
			require.NoError(t, p.Close())
		}
	}
}

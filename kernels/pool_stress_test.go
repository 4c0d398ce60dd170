package kernels_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

// stressResult is what one stress pass saw, checked by the test goroutine.
type stressResult struct {
	runs, bad int    // Runs made, Runs in which some chunk did not run exactly once
	first     string // the first bad Run, described
	parks     int    // Runs preceded by a pause longer than SpinFor
}

// TestStressHandOff makes stressRuns Runs (norace_test.go, race_test.go)
// on pools of 2, 3, 4 and 8 workers at the test's GOMAXPROCS (run it under
// -cpu 1,2,4,8: make stress), and checks after every Run that every chunk
// ran exactly once, in that Run. The chunk counts, the policies (every
// worker, or fewer workers than the pool has, so that some helpers sit
// Runs out) and the gaps between Runs vary at random from a fixed seed;
// one Run in 64 follows a pause longer than SpinFor, so that the helpers
// park and the Run must wake them. In the passes with yields the pool
// calls runtime.Gosched at the points where a goroutine switch breaks a
// faulty wake protocol (kernels.SetRaceHook). The whole pass runs under a watchdog
// that fails the test, with every goroutine's stack, instead of hanging.
func TestStressHandOff(t *testing.T) {
	for _, tc := range []struct {
		workers int
		hook    bool
	}{{2, false}, {2, true}, {3, true}, {4, false}, {8, true}} {
		workers := tc.workers
		t.Run(fmt.Sprintf("workers=%d/yields=%v", workers, tc.hook), func(t *testing.T) {
			defer kernels.SetRaceHook(tc.hook)()
			runs := stressRuns / 5
			p, err := kernels.NewPool(workers)
			require.NoError(t, err)
			defer func() { require.NoError(t, p.Close()) }()
			const maxChunks = 16
			var stamp [maxChunks]int64 // stamp[c]: the last Run that ran chunk c
			var count [maxChunks]int32 // count[c]: calls for chunk c in this Run
			var run int64
			fn := func(_, c int) {
				stamp[c] = run
				count[c]++
			}
			policies := []kernels.Policy{kernels.AllWorkers, {Grain: 1, Max: 2}, {Grain: 3, Max: kernels.MaxWorkers}}
			res := watchdog(t, 2*time.Minute, func() stressResult {
				var res stressResult
				r := rand.New(rand.NewPCG(uint64(workers), 11))
				for i := range runs {
					chunks := 1 + r.IntN(maxChunks)
					pol := policies[r.IntN(len(policies))]
					switch g := r.IntN(64); {
					case g == 0:
						time.Sleep(kernels.SpinFor + 50*time.Microsecond)
						res.parks++
					case g < 8:
						runtime.Gosched()
					}
					run = int64(i + 1)
					clear(count[:])
					p.RunPolicy(pol, chunks, fn)
					res.runs++
					for c := range chunks {
						if count[c] != 1 || stamp[c] != run {
							if res.bad == 0 {
								res.first = fmt.Sprintf("run %d (%d chunks, %+v): chunk %d ran %d times, stamp %d",
									i, chunks, pol, c, count[c], stamp[c])
							}
							res.bad++
							break
						}
					}
				}
				return res
			})
			assert.Equal(t, runs, res.runs)
			assert.Zero(t, res.bad, "first: %s", res.first)
			assert.NotZero(t, res.parks, "some Runs woke parked helpers")
		})
	}
}

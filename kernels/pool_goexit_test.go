package kernels_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

// TestGoexitOnHelperBreaksPool: a kernel that calls runtime.Goexit on a
// helper worker (what t.FailNow does) ends that goroutine; Run still
// returns, panicking with a *PanicError whose Value is ErrGoexit, every
// later Run panics with ErrGoexit, and Close returns. Without the helper's
// deferred completion, Run waits for the dead helper for ever (the
// watchdog fails the test instead).
func TestGoexitOnHelperBreaksPool(t *testing.T) {
	for _, workers := range []int{2, 4} {
		p, err := kernels.NewPool(workers)
		require.NoError(t, err)
		p.SetPolicy(kernels.Policy{Grain: 1, Max: workers})
		done := make(chan any, 1)
		var entered atomic.Bool
		go func() {
			defer func() { done <- recover() }()
			// Worker 0 holds its first chunk until worker 1 has claimed one
			// and the others run slowly, so that worker 1 gets a chunk
			// whatever the timing of the claims.
			p.Run(64, func(w, c int) {
				switch {
				case w == 1:
					entered.Store(true)
					runtime.Goexit()
				case w == 0:
					for deadline := time.Now().Add(5 * time.Second); !entered.Load() && time.Now().Before(deadline); {
						runtime.Gosched()
					}
				default:
					time.Sleep(time.Millisecond)
				}
			})
		}()
		var r any
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("workers=%d: Run hung after a kernel's runtime.Goexit on a helper", workers)
		}
		pe, ok := r.(*kernels.PanicError)
		require.True(t, ok, "workers=%d: Run panicked with %v, want a *kernels.PanicError", workers, r)
		assert.ErrorIs(t, pe, kernels.ErrGoexit)
		assert.Equal(t, 1, pe.Worker)
		assert.PanicsWithValue(t, kernels.ErrGoexit, func() { p.Run(workers, func(int, int) {}) }, "a broken pool refuses later Runs")
		assert.NoError(t, p.Close())
	}
}

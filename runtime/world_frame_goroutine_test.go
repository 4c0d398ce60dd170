package runtime_test

import (
	"errors"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// TestFrameFromSecondGoroutine: World.Frame called from a second goroutine
// while a frame runs returns ErrConcurrentFrame, whose message says so,
// race-free (run under -race), and the running frame completes; a call
// from a kernel worker goroutine is another goroutine too.
func TestFrameFromSecondGoroutine(t *testing.T) {
	var w *runtime.World
	entered, release := make(chan struct{}), make(chan struct{})
	var fromKernel []error
	runs := 0
	b := runtime.NewBuilder(runtime.WithWorkers(2), runtime.WithKernelPolicy(kernels.AllWorkers))
	b.System("hold", systems.Update, func(s *systems.Decl) systems.RunFunc {
		return func(ctx *systems.Context) {
			runs++
			if runs > 1 {
				return
			}
			errs := make([]error, 2)
			var helperRan atomic.Bool
			systems.Parallel(ctx, 2, errs, func(errs *[]error, w0, c int) {
				if w0 != 0 { // the pool's helper goroutine
					helperRan.Store(true)
					(*errs)[c] = w.Frame(0.01)
					return
				}
				// Workers claim chunks (package kernels, Work claiming): the
				// frame's own worker holds its first chunk until the helper
				// has claimed the other, for at most 10 s.
				for end := time.Now().Add(10 * time.Second); !helperRan.Load() && time.Now().Before(end); {
					goruntime.Gosched()
				}
			})
			for _, err := range errs {
				if err != nil {
					fromKernel = append(fromKernel, err)
				}
			}
			close(entered)
			<-release
		}
	})
	var err error
	w, err = b.Build()
	require.NoError(t, err)
	defer w.Close()
	done := make(chan error)
	go func() { done <- w.Frame(0.01) }()
	<-entered
	second := make(chan error)
	go func() { second <- w.Frame(0.01) }()
	err = <-second
	close(release)
	require.NoError(t, <-done)

	assert.True(t, errors.Is(err, scheduler.ErrConcurrentFrame))
	assert.True(t, errors.Is(err, scheduler.ErrReentrant))
	assert.Equal(t, "scheduler: Frame called from another goroutine while a frame runs; "+
		"a world is driven by one goroutine: call Frame only from the host's loop, one frame after the other", err.Error())
	// The helper claims one chunk or, when it starts first, both (work
	// claiming); each call it makes is refused.
	require.NotEmpty(t, fromKernel, "the helper ran no chunk")
	for _, err := range fromKernel {
		assert.Equal(t, scheduler.ErrConcurrentFrame, err, "a kernel worker is another goroutine")
	}
	assert.Equal(t, uint64(1), w.Frames())
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, 2, runs)
}

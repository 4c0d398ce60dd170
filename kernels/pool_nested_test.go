package kernels_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

// watchdog runs fn on its own goroutine and waits for it at most d; when fn
// has not returned by then it fails the test with every goroutine's stack
// instead of hanging. fn must not call t's methods (it may outlive the
// test): it returns what the test goroutine asserts.
func watchdog[T any](t *testing.T, d time.Duration, fn func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("still running after %v (hung):\n%s", d, buf)
		panic("unreachable")
	}
}

// nestedOutcome is what one Run whose kernel nests a Run did.
type nestedOutcome struct {
	nest      int   // chunk that called Run, -1 for every chunk
	r         any   // what the outer Run panicked with
	inner     int32 // calls of the nested Run's kernel
	visits    []int32
	afterRuns []int32 // visits of a clean Run right after
}

// TestNestedRunPanics: Run called from inside a kernel panics at once with
// ErrNestedRun, on every worker count and whichever worker makes the call
// (the caller's goroutine or a helper); the outer Run re-panics it on its
// caller as a *PanicError after the other workers finished, and the pool
// works afterwards. 100 runs per worker count, under a watchdog: before the
// check, such a run returned, hung, or died with "all goroutines are asleep".
func TestNestedRunPanics(t *testing.T) {
	const chunks, repeats = 16, 100
	for _, workers := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			p, err := newPool(workers)
			require.NoError(t, err)
			defer p.Close()
			var inner atomic.Int32
			var visits [chunks]atomic.Int32
			var nest atomic.Int64
			innerFn := func(int, int) { inner.Add(1) }
			fn := func(w, c int) {
				visits[c].Add(1)
				if n := int(nest.Load()); n < 0 || n == c {
					p.Run(4, innerFn)
				}
			}
			count := func(int, c int) { visits[c].Add(1) }
			snapshot := func() []int32 {
				out := make([]int32, chunks)
				for c := range visits {
					out[c] = visits[c].Swap(0)
				}
				return out
			}
			outcomes := watchdog(t, 10*time.Second, func() []nestedOutcome {
				var out []nestedOutcome
				for rep := range repeats {
					o := nestedOutcome{nest: rep % chunks}
					if rep%5 == 4 {
						o.nest = -1
					}
					nest.Store(int64(o.nest))
					inner.Store(0)
					o.r = runRecover(p, chunks, fn)
					o.inner = inner.Load()
					o.visits = snapshot()
					runRecover(p, chunks, count)
					o.afterRuns = snapshot()
					out = append(out, o)
				}
				return out
			})
			require.Len(t, outcomes, repeats)
			for rep, o := range outcomes {
				pe, ok := o.r.(*kernels.PanicError)
				require.True(t, ok, "repeat %d (nest %d): Run panicked with %T %v, want *kernels.PanicError", rep, o.nest, o.r, o.r)
				assert.Zero(t, o.inner, "repeat %d: the nested Run ran nothing", rep)
				checkNested(t, pe, rep)
				assert.Less(t, pe.Worker, workers, "repeat %d", rep)
				if o.nest < 0 { // every chunk nests: each worker stops at its first chunk
					assert.LessOrEqual(t, len(pe.Others), workers-1, "repeat %d: one panic per worker at most", rep)
					ran := 0
					for _, e := range append([]*kernels.PanicError{pe}, pe.Others...) {
						checkNested(t, e, rep)
						assert.Equal(t, int32(1), o.visits[e.Chunk], "repeat %d: chunk %d ran once, and panicked", rep, e.Chunk)
					}
					for c, n := range o.visits {
						assert.LessOrEqual(t, n, int32(1), "repeat %d: visits of chunk %d", rep, c)
						ran += int(n)
					}
					assert.Equal(t, 1+len(pe.Others), ran, "repeat %d: every chunk that ran panicked", rep)
					assert.Equal(t, int32(1), o.visits[0], "repeat %d: chunk 0, the first claimed, ran", rep)
				} else {
					assert.Equal(t, o.nest, pe.Chunk, "repeat %d", rep)
					assert.Empty(t, pe.Others, "repeat %d", rep)
					for c, n := range o.visits {
						switch {
						case c <= o.nest: // claimed before the panic, or the panicking chunk itself
							assert.Equal(t, int32(1), n, "repeat %d: visits of chunk %d", rep, c)
						default: // claimed before the panic (ran) or skipped after it
							assert.LessOrEqual(t, n, int32(1), "repeat %d: visits of chunk %d", rep, c)
						}
					}
				}
				for c, n := range o.afterRuns {
					assert.Equal(t, int32(1), n, "repeat %d: a clean Run after the panic visits chunk %d once", rep, c)
				}
			}
		})
	}
}

// checkNested asserts that e is the panic of a nested Run.
func checkNested(t *testing.T, e *kernels.PanicError, rep int) {
	t.Helper()
	assert.Equal(t, kernels.ErrNestedRun, e.Value, "repeat %d", rep)
	assert.ErrorIs(t, e, kernels.ErrNestedRun, "repeat %d", rep)
	assert.ErrorIs(t, e, kernels.ErrKernelPanic, "repeat %d", rep)
	want := fmt.Sprintf("kernels: kernel panicked on worker %d, chunk %d: kernels: Run called from inside a kernel", e.Worker, e.Chunk)
	assert.True(t, strings.HasPrefix(e.Error(), want), "repeat %d: %s", rep, e.Error())
	assert.Contains(t, e.Error(), "split the work into two systems, or into two Run calls from the system's Run", "repeat %d", rep)
}

// TestRunWhileRunningPanics: a Run started from another goroutine while a
// Run of the same pool is in progress panics there with ErrNestedRun (it
// does not wait, and does not disturb the running Run); a nested Run of no
// chunks panics too.
func TestRunWhileRunningPanics(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			p, err := newPool(workers)
			require.NoError(t, err)
			defer p.Close()
			var visits atomic.Int32
			type result struct{ other, empty, outer any }
			res := watchdog(t, 10*time.Second, func() result {
				var res result
				res.outer = runRecover(p, 6, func(w, c int) {
					visits.Add(1)
					if c != 4 {
						return
					}
					ch := make(chan any)
					go func() { ch <- runRecover(p, 2, func(int, int) {}) }()
					res.other = <-ch
					res.empty = runRecover(p, 0, func(int, int) {})
				})
				return res
			})
			assert.Nil(t, res.outer, "the running Run is not disturbed")
			assert.Equal(t, int32(6), visits.Load())
			assert.Equal(t, kernels.ErrNestedRun, res.other, "Run from another goroutine during a Run")
			assert.Equal(t, kernels.ErrNestedRun, res.empty, "Run(0, fn) from a kernel")
			assert.True(t, errors.Is(res.other.(error), kernels.ErrNestedRun))
			assert.Nil(t, runRecover(p, 6, func(int, int) {}), "the pool is usable afterwards")
		})
	}
}

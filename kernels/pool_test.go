package kernels_test

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

func TestSpanCoversEveryChunkOnce(t *testing.T) {
	for _, chunks := range []int{0, 1, 2, 3, 7, 25, 100} {
		for _, workers := range []int{1, 2, 3, 4, 8} {
			seen := make([]int, chunks)
			prev := 0
			for w := 0; w < workers; w++ {
				lo, hi := kernels.Span(chunks, workers, w)
				assert.Equal(t, prev, lo, "chunks %d workers %d worker %d starts where the previous ended", chunks, workers, w)
				for c := lo; c < hi; c++ {
					seen[c]++
				}
				prev = hi
			}
			assert.Equal(t, chunks, prev)
			for c, n := range seen {
				assert.Equal(t, 1, n, "chunk %d", c)
			}
		}
	}
}

func TestRunVisitsEachChunkOnceAndOrdersWithinWorker(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 8} {
		p, err := newPool(workers)
		require.NoError(t, err)
		const chunks = 37
		var visits [chunks]atomic.Int32
		last := make([]int, workers)
		for i := range last {
			last[i] = -1
		}
		ordered := true
		fn := func(w, c int) {
			visits[c].Add(1)
			if c <= last[w] { // each worker's chunks ascend; last[w] is only touched by worker w
				ordered = false
			}
			last[w] = c
		}
		for rep := 0; rep < 3; rep++ {
			for i := range last {
				last[i] = -1
			}
			p.Run(chunks, fn)
		}
		for c := range visits {
			assert.Equal(t, int32(3), visits[c].Load(), "workers %d chunk %d", workers, c)
		}
		assert.True(t, ordered, "workers %d: chunks of a worker ascend", workers)
		require.NoError(t, p.Close())
		require.NoError(t, p.Close(), "second Close is a no-op")
	}
}

func TestRunResultIndependentOfWorkers(t *testing.T) {
	const chunks, rows = 16, 256
	data := make([]float32, chunks*rows)
	for i := range data {
		data[i] = float32(i) * 0.25
	}
	var want []float32
	for _, workers := range []int{1, 2, 4, 8} {
		out := make([]float32, chunks)
		p, err := newPool(workers)
		require.NoError(t, err)
		p.Run(chunks, func(_, c int) {
			var s float32
			for _, v := range data[c*rows : (c+1)*rows] {
				s += v * 1.5
			}
			out[c] = s
		})
		require.NoError(t, p.Close())
		if want == nil {
			want = out
			continue
		}
		assert.Equal(t, want, out, "workers %d", workers)
	}
}

func TestNewPoolRejectsBadWorkers(t *testing.T) {
	for _, n := range []int{0, -1, kernels.MaxWorkers + 1} {
		_, err := kernels.NewPool(n)
		assert.True(t, errors.Is(err, kernels.ErrWorkers), "workers %d: %v", n, err)
	}
}

func TestRunAllocatesNothing(t *testing.T) {
	p, err := newPool(4)
	require.NoError(t, err)
	defer p.Close()
	var sink [64]int64
	fn := func(w, c int) { sink[c]++ }
	allocs := testing.AllocsPerRun(200, func() { p.Run(64, fn) })
	assert.Zero(t, allocs)
	assert.Equal(t, int64(201), sink[0])
}

func TestCloseLeavesNoGoroutine(t *testing.T) {
	// The helpers of an earlier test's pool, parked when it closed, may
	// still be exiting: count once the number holds still.
	before := goroutinesSteady(time.Second)
	p, err := newPool(8)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, runtime.NumGoroutine(), before+7)
	p.Run(8, func(int, int) {})
	require.NoError(t, p.Close())
	// Close returns when errgroup.Wait does, which is when every helper has
	// called wg.Done: a helper may still be exiting. Poll (not
	// assert.Eventually, which starts a goroutine of its own and so would
	// never see the baseline).
	assert.LessOrEqual(t, goroutinesSettle(before, 2*time.Second), before, "goroutines left after Close")
	assert.Panics(t, func() { p.Run(1, func(int, int) {}) })
}

// goroutinesSteady polls runtime.NumGoroutine every millisecond until it
// has not changed for 5 polls in a row or timeout has passed, and returns
// the last count.
func goroutinesSteady(timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	n, same := runtime.NumGoroutine(), 0
	for same < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// goroutinesSettle polls runtime.NumGoroutine every millisecond until it is
// at most want or timeout has passed, and returns the last count.
func goroutinesSettle(want int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	n := runtime.NumGoroutine()
	for n > want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// runRecover runs fn on p over chunks and returns what Run panicked with,
// nil when it returned normally.
func runRecover(p *kernels.Pool, chunks int, fn func(worker, chunk int)) (r any) {
	defer func() { r = recover() }()
	p.Run(chunks, fn)
	return nil
}

// TestRunRepanicsOnCaller: a kernel panic on any worker, helper goroutines
// included, reaches the goroutine that called Run as a *PanicError after the
// claims in flight have finished, and the pool works afterwards.
func TestRunRepanicsOnCaller(t *testing.T) {
	const chunks = 16
	for _, workers := range []int{1, 2, 4, 8} {
		for _, bad := range []int{0, 5, chunks - 1} {
			t.Run(fmt.Sprintf("workers %d chunk %d", workers, bad), func(t *testing.T) {
				p, err := newPool(workers)
				require.NoError(t, err)
				defer p.Close()
				var visits [chunks]atomic.Int32
				var badWorker atomic.Int32
				fn := func(w, c int) {
					if c == bad {
						badWorker.Store(int32(w))
						panic(fmt.Sprintf("boom at %d", c))
					}
					visits[c].Add(1)
				}
				r := runRecover(p, chunks, fn)
				require.NotNil(t, r, "Run returned normally")
				pe, ok := r.(*kernels.PanicError)
				require.True(t, ok, "Run panicked with %T %v, want *kernels.PanicError", r, r)

				wantWorker := int(badWorker.Load())
				assert.Equal(t, wantWorker, pe.Worker)
				assert.Equal(t, bad, pe.Chunk)
				assert.Equal(t, fmt.Sprintf("boom at %d", bad), pe.Value)
				assert.Empty(t, pe.Others)
				assert.ErrorIs(t, pe, kernels.ErrKernelPanic)
				assert.Nil(t, errors.Unwrap(pe), "a string value unwraps to nothing")
				assert.Equal(t, fmt.Sprintf("kernels: kernel panicked on worker %d, chunk %d: boom at %d", wantWorker, bad, bad), pe.Error(),
					"one line: the stack is in Stack")
				assert.Contains(t, string(pe.Stack), "TestRunRepanicsOnCaller", "the stack where the kernel panicked")

				// The chunks claimed before the bad one ran once, the bad one
				// did not finish, and later ones ran at most once (claims in
				// flight finish; the chunks left unclaimed are skipped).
				for c := range chunks {
					switch {
					case c < bad:
						assert.Equal(t, int32(1), visits[c].Load(), "visits of chunk %d", c)
					case c == bad:
						assert.Zero(t, visits[c].Load(), "visits of chunk %d", c)
					default:
						assert.LessOrEqual(t, visits[c].Load(), int32(1), "visits of chunk %d", c)
					}
				}
				if workers == 1 {
					for c := bad + 1; c < chunks; c++ {
						assert.Zero(t, visits[c].Load(), "one worker stops at the panic: chunk %d", c)
					}
				}

				// The pool is still whole: a clean run visits every chunk once.
				for c := range visits {
					visits[c].Store(0)
				}
				assert.Nil(t, runRecover(p, chunks, func(w, c int) { visits[c].Add(1) }))
				for c := range chunks {
					assert.Equal(t, int32(1), visits[c].Load(), "chunk %d after recovery", c)
				}
			})
		}
	}
}

// TestRunPanicsOnSeveralWorkers: panics on two workers at once come back
// together, the lowest chunk's first. Chunks 6 and 13 wait for each other
// to start before they panic, so that both are in flight whichever workers
// claim them.
func TestRunPanicsOnSeveralWorkers(t *testing.T) {
	p, err := newPool(4)
	require.NoError(t, err)
	defer p.Close()
	errBad := errors.New("bad row")
	var started [2]atomic.Bool
	var worker [2]atomic.Int32
	wait := func(i int) {
		for deadline := time.Now().Add(5 * time.Second); !started[i].Load() && time.Now().Before(deadline); {
			runtime.Gosched()
		}
	}
	r := runRecover(p, 16, func(w, c int) {
		switch c {
		case 13:
			worker[1].Store(int32(w))
			started[1].Store(true)
			wait(0)
			panic(c)
		case 6:
			worker[0].Store(int32(w))
			started[0].Store(true)
			wait(1)
			panic(fmt.Errorf("chunk %d: %w", c, errBad))
		}
	})
	pe, ok := r.(*kernels.PanicError)
	require.True(t, ok, "Run panicked with %T %v", r, r)
	assert.Equal(t, int(worker[0].Load()), pe.Worker)
	assert.Equal(t, 6, pe.Chunk)
	assert.ErrorIs(t, pe, errBad, "unwraps to the kernel's error")
	assert.ErrorIs(t, pe, kernels.ErrKernelPanic)
	require.Len(t, pe.Others, 1)
	assert.NotEqual(t, pe.Worker, pe.Others[0].Worker)
	assert.Equal(t, int(worker[1].Load()), pe.Others[0].Worker)
	assert.Equal(t, 13, pe.Others[0].Chunk)
	assert.Equal(t, 13, pe.Others[0].Value)
	assert.Contains(t, pe.Error(), fmt.Sprintf("kernels: kernel panicked on worker %d, chunk 6: chunk 6: bad row (and 1 more on other workers)", pe.Worker))

	// The records are cleared: the next clean Run returns normally.
	assert.Nil(t, runRecover(p, 16, func(int, int) {}))
}

func TestScalarRepanics(t *testing.T) {
	var ran []int
	r := func() (r any) {
		defer func() { r = recover() }()
		kernels.Scalar(5, func(w, c int) {
			if c == 3 {
				panic("scalar boom")
			}
			ran = append(ran, c)
		})
		return nil
	}()
	pe, ok := r.(*kernels.PanicError)
	require.True(t, ok, "Scalar panicked with %T %v", r, r)
	assert.Equal(t, 0, pe.Worker)
	assert.Equal(t, 3, pe.Chunk)
	assert.Equal(t, "scalar boom", pe.Value)
	assert.Equal(t, []int{0, 1, 2}, ran)
}

func TestRunAllocatesNothingInline(t *testing.T) {
	p, err := newPool(1)
	require.NoError(t, err)
	defer p.Close()
	var sink [8]int64
	fn := func(w, c int) { sink[c]++ }
	assert.Zero(t, testing.AllocsPerRun(200, func() { p.Run(8, fn) }), "Pool.Run, one worker")
	assert.Zero(t, testing.AllocsPerRun(200, func() { kernels.Scalar(8, fn) }), "Scalar")
	assert.Equal(t, int64(2*201), sink[0])
}

func BenchmarkRun(b *testing.B) {
	const chunks, rows = 25, 4096
	data := make([]float32, chunks*rows)
	fn := func(_, c int) {
		s := data[c*rows : (c+1)*rows]
		for i := range s {
			s[i] += 1
		}
	}
	for _, workers := range []int{1, 2} {
		p, err := newPool(workers)
		require.NoError(b, err)
		name := "tickwork-1"
		if workers == 2 {
			name = "tickwork-2"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Run(chunks, fn)
			}
		})
		p.Close()
	}
	b.Run("loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range data {
				data[i] += 1
			}
		}
	})
}

func ExamplePool() {
	pool, _ := newPool(2)
	defer pool.Close()
	sums := make([]int, 4)
	pool.Run(len(sums), func(worker, chunk int) { sums[chunk] = chunk * 10 })
	fmt.Println(sums)
	// Output: [0 10 20 30]
}

// newPool is kernels.NewPool with the AllWorkers policy: the tests of the
// split, panics and nesting need every worker to take part whatever the
// chunk count and GOMAXPROCS. The policy's own tests use the default.
func newPool(workers int) (*kernels.Pool, error) {
	p, err := kernels.NewPool(workers)
	if p != nil {
		p.SetPolicy(kernels.AllWorkers)
	}
	return p, err
}

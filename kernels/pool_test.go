package kernels_test

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

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
		p, err := kernels.NewPool(workers)
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
		p, err := kernels.NewPool(workers)
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
	p, err := kernels.NewPool(4)
	require.NoError(t, err)
	defer p.Close()
	var sink [64]int64
	fn := func(w, c int) { sink[c]++ }
	allocs := testing.AllocsPerRun(200, func() { p.Run(64, fn) })
	assert.Zero(t, allocs)
	assert.Equal(t, int64(201), sink[0])
}

func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	p, err := kernels.NewPool(8)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, runtime.NumGoroutine(), before+7)
	p.Run(8, func(int, int) {})
	require.NoError(t, p.Close())
	// Close waits for its goroutines, so the count is back at once (no
	// assert.Eventually: it runs its condition on a goroutine of its own).
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
	assert.Panics(t, func() { p.Run(1, func(int, int) {}) })
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
		p, err := kernels.NewPool(workers)
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
	pool, _ := kernels.NewPool(2)
	defer pool.Close()
	sums := make([]int, 4)
	pool.Run(len(sums), func(worker, chunk int) { sums[chunk] = chunk * 10 })
	fmt.Println(sums)
	// Output: [0 10 20 30]
}

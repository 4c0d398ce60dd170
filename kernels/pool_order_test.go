package kernels_test

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/kernels"
)

// underOrder makes a pool of workers under order o (internal/chunkorder),
// restoring the setting before it returns; the pool is closed at cleanup.
func underOrder(t *testing.T, o chunkorder.Order, workers int) *kernels.Pool {
	t.Helper()
	restore := chunkorder.Set(o)
	p, err := newPool(workers)
	restore()
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// TestChunkOrderHandsOutPermutation: under a test order every chunk still
// runs exactly once per Run, worker w runs as many chunks as its Span, in
// ascending order, and which chunks it gets is the order's; under the
// normal order (work claiming) every chunk runs once and each worker's
// chunks ascend.
func TestChunkOrderHandsOutPermutation(t *testing.T) {
	const chunks = 37
	for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%v/workers=%d", o, workers), func(t *testing.T) {
				p := underOrder(t, o, workers)
				var visits [chunks]atomic.Int32
				walked := make([][]int, workers) // walked[w]: worker w's chunks, in call order
				fn := func(w, c int) {
					visits[c].Add(1)
					walked[w] = append(walked[w], c)
				}
				var runs [][]int
				for range 3 {
					for w := range walked {
						walked[w] = walked[w][:0]
					}
					p.Run(chunks, fn)
					var all []int // the chunks in position order (claimed: by worker)
					for w := range workers {
						if !o.IsSpan() {
							lo, hi := kernels.Span(chunks, workers, w)
							require.Len(t, walked[w], hi-lo, "worker %d runs its span's count", w)
						}
						require.True(t, slices.IsSorted(walked[w]), "worker %d walks ascending: %v", w, walked[w])
						all = append(all, walked[w]...)
					}
					if o.IsSpan() { // claimed: which worker ran which chunk is timing's
						slices.Sort(all)
					}
					runs = append(runs, all)
				}
				for c := range visits {
					assert.Equal(t, int32(3), visits[c].Load(), "chunk %d", c)
				}
				ascending := make([]int, chunks)
				for i := range ascending {
					ascending[i] = i
				}
				switch {
				case o.IsSpan() || o == chunkorder.Dealt() || workers == 1: // every chunk once, in order
					for _, r := range runs {
						assert.Equal(t, ascending, r)
					}
				case o == chunkorder.Reversed(): // worker w gets the chunks of the last spans first
					var want []int
					for w := range workers {
						lo, hi := kernels.Span(chunks, workers, w)
						want = append(want, ascending[chunks-hi:chunks-lo]...)
					}
					for _, r := range runs {
						assert.Equal(t, want, r)
					}
				default: // a shuffle: a new dealing every Run, the seed's
					assert.NotEqual(t, ascending, runs[0])
					assert.NotEqual(t, runs[0], runs[1], "each Run deals anew")
					want := o.Perm()
					for i, r := range runs {
						assert.Equal(t, want.Next(chunks, workers), r, "run %d: the seed's sequence", i)
					}
				}
			})
		}
	}
}

// TestChunkOrderPanicNamesChunk: under a test order a kernel's panic names
// the chunk that panicked, and the panics of a Run are reported by
// ascending chunk.
func TestChunkOrderPanicNamesChunk(t *testing.T) {
	// Reversed, 16 chunks on 4 workers: worker 0 runs 12..15, worker 3 runs 0..3.
	p := underOrder(t, chunkorder.Reversed(), 4)
	r := runRecover(p, 16, func(w, c int) {
		if c == 13 || c == 2 {
			panic(c)
		}
	})
	pe, ok := r.(*kernels.PanicError)
	require.True(t, ok, "Run panicked with %T %v", r, r)
	assert.Equal(t, 3, pe.Worker)
	assert.Equal(t, 2, pe.Chunk)
	assert.Equal(t, 2, pe.Value)
	require.Len(t, pe.Others, 1)
	assert.Equal(t, 0, pe.Others[0].Worker)
	assert.Equal(t, 13, pe.Others[0].Chunk)
	assert.Nil(t, runRecover(p, 16, func(int, int) {}))
}

// TestChunkOrderAllocatesNothing: a pool under a test order allocates only
// while its permutation grows; a pool made without one holds none.
func TestChunkOrderAllocatesNothing(t *testing.T) {
	for _, o := range chunkorder.Alternatives() {
		p := underOrder(t, o, 4)
		var sink [64]int64
		fn := func(w, c int) { sink[c]++ }
		p.Run(64, fn)
		assert.Zero(t, testing.AllocsPerRun(100, func() { p.Run(64, fn) }), "%v", o)
	}
	assert.True(t, chunkorder.Current().IsSpan(), "underOrder restored the setting")
}

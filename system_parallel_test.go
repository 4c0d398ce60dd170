package tickwork_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// cellKernel is the state of a kernel over the 400 cells of a grid, not
// over a table's chunks: every third cell spawns a bird and emits an event
// holding its cell.
type cellKernel struct {
	sp      tickwork.Spawner2[int32, int32]
	hits    *tickwork.ParallelEmitter[int32]
	workers *atomic.Int32 // the highest worker index seen, plus one
}

func (k *cellKernel) run(w, cell int) {
	for {
		seen := k.workers.Load()
		if int32(w+1) <= seen || k.workers.CompareAndSwap(seen, int32(w+1)) {
			break
		}
	}
	if cell%3 == 0 {
		k.sp.Worker(w, cell).Spawn(int32(cell), int32(w))
		k.hits.Worker(w, cell).Emit(int32(cell))
	}
}

// Parallel's chunk count is any count of work units, here 400 grid cells
// of a table with one chunk; the index each call gets is the merge key of
// what its worker records and emits (Recorder.Worker,
// ParallelEmitter.Worker): the creates and the events come out in cell
// order on 1, 2 and 4 workers alike.
func TestParallelOverCells(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
			birds := b.Table(tickwork.TableSpec{Name: "Bird", Capacity: 256, ChunkRows: 256})
			cell := tickwork.AddColumn[int32](b, birds, "Cell")
			worker := tickwork.AddColumn[int32](b, birds, "Worker")
			hits := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Hit", Capacity: 200})
			var seen atomic.Int32
			b.System("cells", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				k := cellKernel{sp: tickwork.NewSpawner2(d, cell, worker), hits: tickwork.EmitParallel(d, hits), workers: &seen}
				return func(ctx *tickwork.Context) {
					if ctx.Frame() == 0 {
						tickwork.ParallelPolicy(ctx, tickwork.KernelPolicy{Grain: 1, Max: workers, Fixed: true}, 400, k, (*cellKernel).run)
					}
				}
			})
			var got []int32
			b.System("count", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				c := tickwork.Consume(d, hits)
				return func(*tickwork.Context) { got = append(got, c.Read()...) }
			})
			w, err := b.Build()
			require.NoError(t, err)
			t.Cleanup(func() { _ = w.Close() })
			require.NoError(t, w.Frame(1.0/60))
			require.NoError(t, w.Frame(1.0/60))
			// Workers claim cells (package kernels, Work claiming): which
			// worker ran which is the machine's affair, the order of the
			// output is not.
			assert.LessOrEqual(t, seen.Load(), int32(workers), "no worker past the policy's Max")
			assert.Positive(t, seen.Load())

			var want []int32
			for c := int32(0); c < 400; c += 3 {
				want = append(want, c)
			}
			assert.Equal(t, want, got, "events in cell order")
			q := tickwork.HostQuery2(cell, worker)
			require.NoError(t, q.Err())
			var cells []int32
			last := map[int32]int32{} // each worker's last cell
			for r := range q.All() {
				c, w := r.Get()
				cells = append(cells, *c)
				if prev, ok := last[*w]; ok {
					assert.Greater(t, *c, prev, "a worker claims its cells in ascending order (package kernels, Work claiming)")
				}
				last[*w] = *c
				assert.Less(t, *w, int32(workers), "a worker of the policy")
			}
			assert.Equal(t, want, cells, "creates in cell order (slot order)")
		})
	}
}

// A chunk count below 0 or past MaxParallelChunks panics saying the bound
// (before, 1<<40 ran for hours and -1 ran nothing silently), Parallel and
// ParallelPolicy alike, before any chunk runs; 0 runs nothing.
func TestParallelChunkBound(t *testing.T) {
	assert.Equal(t, 1<<30, tickwork.MaxParallelChunks)
	for _, tc := range []struct {
		call   string
		chunks int
	}{{"Parallel", 1 << 40}, {"Parallel", -1}, {"ParallelPolicy", tickwork.MaxParallelChunks + 1}, {"ParallelPolicy", -5}, {"Parallel", 0}} {
		t.Run(fmt.Sprint(tc.call, tc.chunks), func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(2))
			var ran atomic.Int64
			b.System("k", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
				return func(ctx *tickwork.Context) {
					fn := func(n **atomic.Int64, _, _ int) { (*n).Add(1) }
					if tc.call == "Parallel" {
						tickwork.Parallel(ctx, tc.chunks, &ran, fn)
					} else {
						tickwork.ParallelPolicy(ctx, tickwork.KernelPolicy{Grain: 1}, tc.chunks, &ran, fn)
					}
				}
			})
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			if tc.chunks == 0 {
				require.NoError(t, w.Frame(0.01))
				assert.Zero(t, ran.Load())
				return
			}
			var pe *tickwork.PanicError
			func() {
				defer func() {
					v := recover()
					require.NotNil(t, v, "Frame panics")
					err, ok := v.(error)
					require.True(t, ok)
					require.ErrorAs(t, err, &pe)
				}()
				_ = w.Frame(0.01)
			}()
			assert.Equal(t, fmt.Sprintf("systems: %s(ctx, %d, ...): the chunk count must be 0..1073741824 (MaxParallelChunks, a unit per row of the largest table); "+
				"pass a table's UsedChunks or a count of the kernel's own units", tc.call, tc.chunks), pe.Value)
			assert.Zero(t, ran.Load(), "no chunk ran")
		})
	}
}

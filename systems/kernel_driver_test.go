package systems_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// culler is a masked kernel's state: it deletes every row whose v is
// negative, emits its v and counts it, and counts the others.
type culler struct {
	v   []int32
	rec *systems.Recorder
	out *systems.ParallelEmitter[int32]
}

func (k *culler) chunk(o *systems.ChunkOut, base int, mask []uint64) {
	for lo, hi := ephemeral.NextRun(mask, 0); lo < hi; lo, hi = ephemeral.NextRun(mask, hi) {
		for i, v := range k.v[base+lo : base+hi] {
			if v >= 0 {
				o.Count(1)
				continue
			}
			systems.EmitChunk(o, k.out, v)
			o.Delete(k.rec, o.Handle(base+lo+i))
			o.Count(0)
		}
	}
}

// mover is a dense kernel's state: span adds dt to every row, simd marks
// the rows it ran (in whole blocks of 8) by adding 100 more.
type mover struct {
	x    []float32
	dt   float32
	simd func(k *mover, lo, hi int) int
}

func (k *mover) span(lo, hi int) {
	for i := range k.x[lo:hi] {
		k.x[lo+i] += k.dt
	}
}

func blocks(k *mover, lo, hi int) int {
	n := lo + (hi-lo)&^7
	for i := range k.x[lo:n] {
		k.x[lo+i] += k.dt + 100
	}
	return n
}

// TestChunkKernel: a masked kernel over a table of several chunks with
// holes records, emits and counts the same with 1, 2 and 4 workers (the
// events in chunk order, the counters summed once a run), and a dense
// kernel runs its SIMD variant on each chunk's whole vectors and span on
// the rest, with the run's @dt stored first; no frame allocates.
func TestChunkKernel(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithKernelPolicy(kernels.AllWorkers))
			tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 256, ChunkRows: 64})
			v := runtime.AddColumn[int32](b, tab, "v")
			x := runtime.AddColumn[float32](b, tab, "x")
			culled := runtime.AddEvents[int32](b, events.Spec{Name: "culled", Capacity: 256, Lifetime: events.ThisFrame})
			var k culler
			var m mover
			var neg, pos systems.Counter
			b.System("cull", systems.Update, func(d *systems.Decl) systems.RunFunc {
				k.v = systems.Read(d, v).All()
				k.rec = systems.Record(d, tab)
				k.out = systems.EmitParallel(d, culled)
				k.rec.ReserveWorkers(tab.Cap())
				neg, pos = d.Counter("neg"), d.Counter("pos")
				return systems.MaskedKernel(d, tab, 1, &k, (*culler).chunk, []systems.Segmented{k.rec, k.out}, neg, pos).Run
			})
			var seen []int32
			b.System("read", systems.Update, func(d *systems.Decl) systems.RunFunc {
				d.After("cull")
				c := systems.Consume(d, culled)
				return func(*systems.Context) { seen = append(seen[:0], c.Read()...) }
			})
			b.System("move", systems.Update, func(d *systems.Decl) systems.RunFunc {
				m.x = systems.Write(d, x).All()
				m.simd = blocks
				return systems.DenseKernel(d, tab, 0, &m, (*mover).span).SIMD(&m.simd).World(&m.dt, nil, nil).Run
			})
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			// 200 rows over 4 chunks, rows 10..19 and 150..159 deleted
			// (holes), v negative on every 7th.
			var want []int32
			for i := range 200 {
				h, err := tab.Insert()
				require.NoError(t, err)
				v.Set(h, int32(i))
				if i%7 == 3 {
					v.Set(h, int32(-i))
				}
				if (i >= 10 && i < 20) || (i >= 150 && i < 160) {
					require.True(t, tab.Delete(h))
				} else if i%7 == 3 {
					want = append(want, int32(-i))
				}
			}
			ends := make([]int, tab.Chunks()) // as move sees them: cull's deletes play back at the phase's end
			for c := range ends {
				ends[c] = tab.LiveEnd(c)
			}
			require.NoError(t, w.Frame(0.5))
			assert.Equal(t, want, seen, "culled, in row order")
			assert.Equal(t, int64(len(want)), neg.Total())
			assert.Equal(t, int64(180-len(want)), pos.Total())
			assert.Equal(t, 180-len(want), tab.Len(), "deleted at the phase's end")
			// Row r of chunk c ran the variant below LiveEnd(c) rounded down
			// to 8, span up to LiveEnd(c), nothing past it.
			for c := range tab.Chunks() {
				end := ends[c]
				for r := range tab.ChunkRows() {
					if _, live := tab.HandleAt(c*tab.ChunkRows() + r); ephemeral.DebugBuild && !live {
						continue // a hole or a culled row: the debug build poisoned its x (ephemeral.PoisonByte)
					}
					want := float32(0)
					switch {
					case r < end&^7:
						want = 100.5
					case r < end:
						want = 0.5
					}
					require.Equal(t, want, m.x[c*tab.ChunkRows()+r], "chunk %d, row %d (live end %d)", c, r, end)
				}
			}
			allocs := testing.AllocsPerRun(20, func() { require.NoError(t, w.Frame(0.5)) })
			assert.Zero(t, allocs)
			assert.Equal(t, int64(len(want)), neg.Total(), "no negative v left")
		})
	}
}

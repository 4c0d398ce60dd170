package tickwork_test

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// parWorld is a table of 5 000 bodies over many chunks whose "step"
// system runs Query2.Parallel: it moves each body, deletes the slow ones
// through Recorder.At, emits their handles through ParallelEmitter.At,
// and spawns a replacement through Spawner2.At; a join's Parallel, in
// "age", ages the bodies that have a Tag row. The kernel policy splits
// every run over all workers.
type parWorld struct {
	w      *tickwork.World
	x, v   *tickwork.Column[float32]
	age    *tickwork.Column[int32]
	gone   *tickwork.Events[tickwork.Handle]
	logged []tickwork.Handle
}

func newParWorld(t *testing.T, workers int) *parWorld {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers),
		tickwork.WithKernelPolicy(tickwork.KernelPolicy{Grain: 1, Fixed: true}))
	tab := b.Table(tickwork.TableSpec{Name: "Body", Capacity: 8192, ChunkRows: 256})
	p := &parWorld{x: tickwork.AddColumn[float32](b, tab, "X"), v: tickwork.AddColumn[float32](b, tab, "V")}
	age := tickwork.AddColumn[int32](b, tab, "Age")
	p.age = age
	p.gone = tickwork.AddEvents[tickwork.Handle](b, tickwork.EventSpec{Name: "Gone", Capacity: 8192})
	b.System("step", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewQuery2(tickwork.Write(d, p.x), tickwork.Write(d, p.v))
		rec, em := tickwork.Record(d, tab), tickwork.EmitParallel(d, p.gone)
		sp := tickwork.NewSpawner2(d, p.x, p.v)
		step := func(w tickwork.Worker, h tickwork.Handle, x, v *float32) { // made once: no allocation per run
			*x += float32(*v * float32(w.DT()))
			for range 200 { // work enough that every worker claims chunks
				*x = float32(*x*0.9999999) + 0.00001
			}
			*v = float32(*v*0.99) + 0.001
			if *v < 0.05 {
				rec.At(w).Delete(h)
				em.At(w).Emit(h)
				sp.At(w).Spawn(float32(*x*0.5), float32(*x*0.001)+0.3)
			}
		}
		return func(ctx *tickwork.Context) { q.Parallel(ctx, step) }
	})
	b.System("age", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		j := tickwork.NewJoin1(tickwork.Write(d, age))
		inc := func(_ tickwork.Worker, _ tickwork.Handle, a *int32) { *a++ }
		return func(ctx *tickwork.Context) { j.Parallel(ctx, inc) }
	})
	p.logged = make([]tickwork.Handle, 0, 1<<16)
	tickwork.Observe(b, p.gone, func(h *tickwork.Handle) { p.logged = append(p.logged, *h) })
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	p.w = w
	require.NoError(t, tickwork.HostQuery2(p.x, p.v).InsertN(5000, func(h tickwork.Handle, x, v *float32) {
		*x, *v = float32(h.Index()), float32(h.Index()%97)/97
	}))
	return p
}

// digest hashes every live row's handle and values, then each row's age
// and the observed events in order.
func (p *parWorld) digest() uint64 {
	h := fnv.New64a()
	var buf [16]byte
	put := func(a, b uint64) {
		for i := range 8 {
			buf[i], buf[8+i] = byte(a>>(8*i)), byte(b>>(8*i))
		}
		h.Write(buf[:])
	}
	tickwork.HostQuery2(p.x, p.v).Each(func(e tickwork.Handle, x, v *float32) {
		put(uint64(e.Index())<<32|uint64(e.Generation()), uint64(math.Float32bits(*x))<<32|uint64(math.Float32bits(*v)))
	})
	tickwork.HostJoin1(p.age).Each(func(e tickwork.Handle, a *int32) { put(uint64(e.Index()), uint64(*a)) })
	for _, e := range p.logged {
		put(uint64(e.Index()), uint64(e.Generation()))
	}
	return h.Sum64()
}

// Query2.Parallel and Join1.Parallel end in one digest at 1, 2 and 4
// workers (rows, values, the order of the deletes' events and the spawns'
// rows), and a frame allocates nothing.
func TestQueryParallelSameDigest(t *testing.T) {
	var want uint64
	for _, workers := range []int{1, 2, 4} {
		p := newParWorld(t, workers)
		for range 120 {
			require.NoError(t, p.w.Frame(1.0/60))
		}
		require.Greater(t, len(p.logged), 200, "the slow bodies were deleted and replaced")
		got := p.digest()
		if workers == 1 {
			want = got
			continue
		}
		assert.Equal(t, want, got, "workers %d", workers)
		if workers == 4 {
			assert.Zero(t, testing.AllocsPerRun(20, func() { _ = p.w.Frame(1.0 / 60) }), "allocations per frame")
		}
	}
}

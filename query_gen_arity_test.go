package tickwork_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// vec is a struct column's element.
type vec struct{ X, Y float32 }

// bird is a 5-column table: position, velocity, age, id, flags.
type bird struct {
	tab   *tickwork.Table
	pos   *tickwork.Column[vec]
	vel   *tickwork.Column[vec]
	age   *tickwork.Column[int32]
	id    *tickwork.Column[uint64]
	flags *tickwork.Column[uint8]
}

func addBird(b *tickwork.Builder, name string, capacity int) bird {
	tab := b.Table(tickwork.TableSpec{Name: name, Capacity: capacity, ChunkRows: 64})
	return bird{tab,
		tickwork.AddColumn[vec](b, tab, "Pos"), tickwork.AddColumn[vec](b, tab, "Vel"),
		tickwork.AddColumn[int32](b, tab, "Age"), tickwork.AddColumn[uint64](b, tab, "ID"),
		tickwork.AddColumn[uint8](b, tab, "Flags")}
}

// spawned is the values spawn gives the k-th entity of frame f.
func spawned(f, k int) (vec, vec, int32, uint64, uint8) {
	return vec{float32(k), float32(f)}, vec{1, float32(k) / 4}, 0, uint64(1000*f + k), uint8(k)
}

// In a world, a system spawns 5-column (and 8-column, on two workers
// through Parallel) entities with every value, another walks them with a
// 5-column query and moves them, and the host reads them back with host
// queries: every value is asserted. Frames that spawn allocate nothing
// after Reserve.
func TestSpawnQueryFiveAndEightColumns(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2))
	birds := addBird(b, "Bird", 1024)
	wide := b.Table(tickwork.TableSpec{Name: "Wide", Capacity: 1024, ChunkRows: 64})
	w1 := tickwork.AddColumn[int8](b, wide, "W1")
	w2 := tickwork.AddColumn[int16](b, wide, "W2")
	w3 := tickwork.AddColumn[int32](b, wide, "W3")
	w4 := tickwork.AddColumn[int64](b, wide, "W4")
	w5 := tickwork.AddColumn[uint8](b, wide, "W5")
	w6 := tickwork.AddColumn[uint16](b, wide, "W6")
	w7 := tickwork.AddColumn[float32](b, wide, "W7")
	w8 := tickwork.AddColumn[vec](b, wide, "W8")
	const perFrame = 3
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner5(d, birds.pos, birds.vel, birds.age, birds.id, birds.flags)
		sp.Reserve(perFrame)
		return func(ctx *tickwork.Context) {
			for k := range perFrame {
				sp.Spawn(spawned(int(ctx.Frame()), k))
			}
		}
	})
	type wideKernel struct {
		sp    tickwork.Spawner8[int8, int16, int32, int64, uint8, uint16, float32, vec]
		frame int
	}
	b.System("spawnWide", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		k := wideKernel{sp: tickwork.NewSpawner8(d, w1, w2, w3, w4, w5, w6, w7, w8)}
		return func(ctx *tickwork.Context) {
			k.frame = int(ctx.Frame())
			tickwork.Parallel(ctx, 4, k, func(k *wideKernel, w, chunk int) {
				c := int64(10*k.frame + chunk)
				k.sp.Worker(w, chunk).Spawn(int8(c), int16(-c), int32(2*c), 3*c, uint8(c), uint16(4*c), float32(c)/2, vec{float32(c), 1})
			})
		}
	})
	b.System("move", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("spawn")
		q := tickwork.NewQuery5(tickwork.Write(d, birds.pos), tickwork.Read(d, birds.vel), tickwork.Write(d, birds.age),
			tickwork.Read(d, birds.id), tickwork.Read(d, birds.flags))
		return func(*tickwork.Context) {
			for r := range q.All() {
				p, v, age, _, _ := r.Get()
				p.X += v.X
				p.Y += v.Y
				*age++
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	const frames = 4
	for range frames {
		require.NoError(t, w.Frame(1.0/60))
	}

	hq := tickwork.HostQuery5(birds.pos, birds.vel, birds.age, birds.id, birds.flags)
	require.NoError(t, hq.Err())
	n := 0
	for r, h := range hq.All() {
		f, k := n/perFrame, n%perFrame
		pos, vel, age, id, flags := r.Get()
		wp, wv, _, wid, wf := spawned(f, k)
		moves := frames - 1 - f // spawned in frame f, moved from frame f+1 on
		assert.Equal(t, vec{wp.X + float32(moves)*wv.X, wp.Y + float32(moves)*wv.Y}, *pos, "entity %d (%v)", n, h)
		assert.Equal(t, wv, *vel)
		assert.Equal(t, int32(moves), *age)
		assert.Equal(t, wid, *id)
		assert.Equal(t, wf, *flags)
		n++
	}
	assert.Equal(t, frames*perFrame, n)

	hw := tickwork.HostQuery8(w1, w2, w3, w4, w5, w6, w7, w8)
	require.NoError(t, hw.Err())
	n = 0
	for r := range hw.All() {
		c := int64(10*(n/4) + n%4) // frame, then chunk order whatever worker ran it
		a, b, cc, d, e, f, g, x := r.Get()
		assert.Equal(t, []any{int8(c), int16(-c), int32(2 * c), 3 * c, uint8(c), uint16(4 * c), float32(c) / 2, vec{float32(c), 1}},
			[]any{*a, *b, *cc, *d, *e, *f, *g, *x}, "wide entity %d", n)
		n++
	}
	assert.Equal(t, frames*4, n)

	assert.Zero(t, testing.AllocsPerRun(20, func() {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
	}), "a frame that spawns 3 five-column and 4 eight-column entities")
	assert.Equal(t, (frames+21)*perFrame, birds.tab.Len())
	assert.Equal(t, (frames+21)*4, wide.Len())
}

// The widest arity, 15 columns (MaxColumns of internal/gen): a spawner, a
// system query and a host query (Insert, InsertN, All, Spans) carry each
// column's value in its place: column j of entity i is 100*i+j, plus the
// frames that incremented it.
func TestSpawnQueryFifteenColumns(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "Fifteen", Capacity: 256, ChunkRows: 64})
	var c [15]*tickwork.Column[int64]
	for j := range c {
		c[j] = tickwork.AddColumn[int64](b, tab, string(rune('A'+j)))
	}
	v := func(i, j int) int64 { return int64(100*i + j) }
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner15(d, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14])
		return func(ctx *tickwork.Context) {
			if ctx.Frame() == 0 {
				i := 50 // after the host's 50 rows
				sp.Spawn(v(i, 0), v(i, 1), v(i, 2), v(i, 3), v(i, 4), v(i, 5), v(i, 6), v(i, 7), v(i, 8), v(i, 9), v(i, 10), v(i, 11), v(i, 12), v(i, 13), v(i, 14))
			}
		}
	})
	b.System("bump", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.Before("spawn")
		wr := func(j int) tickwork.WriteColumn[int64] { return tickwork.Write(d, c[j]) }
		q := tickwork.NewQuery15(wr(0), wr(1), wr(2), wr(3), wr(4), wr(5), wr(6), wr(7), wr(8), wr(9), wr(10), wr(11), wr(12), wr(13), wr(14))
		return func(*tickwork.Context) {
			for r := range q.All() {
				a, b, c, d, e, f, g, h, i, j, k, l, m, n, o := r.Get()
				for _, p := range []*int64{a, b, c, d, e, f, g, h, i, j, k, l, m, n, o} {
					*p++
				}
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	hq := tickwork.HostQuery15(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14])
	require.NoError(t, hq.Err())
	assert.Same(t, tab, hq.Table())
	require.NoError(t, hq.InsertN(49, func(h tickwork.Handle, a, b, c, d, e, f, g, x, i, j, k, l, m, n, o *int64) {
		for col, p := range []*int64{a, b, c, d, e, f, g, x, i, j, k, l, m, n, o} {
			*p = v(int(h.Index()), col)
		}
	}))
	_, err = hq.Insert(v(49, 0), v(49, 1), v(49, 2), v(49, 3), v(49, 4), v(49, 5), v(49, 6), v(49, 7), v(49, 8), v(49, 9), v(49, 10), v(49, 11), v(49, 12), v(49, 13), v(49, 14))
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, w.Frame(1.0/60))
	}
	rows := 0
	for r, h := range hq.All() {
		i := int(h.Index())
		bumps := int64(3) // the host's rows: bumped in frames 0, 1, 2
		if i == 50 {
			bumps = 2 // spawned in frame 0 after bump ran
		}
		a, b, cc, d, e, f, g, x, ii, j, k, l, m, n, o := r.Get()
		for col, p := range []*int64{a, b, cc, d, e, f, g, x, ii, j, k, l, m, n, o} {
			require.Equal(t, v(i, col)+bumps, *p, "entity %d column %d", i, col)
		}
		rows++
	}
	assert.Equal(t, 51, rows)
	_, _, _, _, _, _, _, _, _, _, _, _, _, _, last := hq.Spans(0)
	assert.Equal(t, v(50, 14)+2, last[50])
	var sum int64
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		for r := range hq.All() {
			a, _, _, _, _, _, _, _, _, _, _, _, _, _, o := r.Get()
			sum += *a + *o
		}
		for ch := range tab.UsedChunks() {
			for r := range hq.Chunk(ch) {
				_, b, _, _, _, _, _, _, _, _, _, _, _, _, _ := r.Get()
				sum += *b
			}
		}
	}), "a host walk of 15 columns, All and Chunk")
	assert.NotZero(t, sum)
}

// A host query's InsertN with a nil fill inserts rows of zero values.
func TestHostQueryInsertNNil(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	birds := addBird(b, "Bird", 100)
	_, err := b.Build()
	require.NoError(t, err)
	q := tickwork.HostQuery5(birds.pos, birds.vel, birds.age, birds.id, birds.flags)
	require.NoError(t, q.Err())
	_, err = q.Insert(spawned(1, 1))
	require.NoError(t, err)
	require.NoError(t, q.InsertN(70, nil))
	assert.Equal(t, 71, birds.tab.Len())
	n := 0
	for r, h := range q.All() {
		pos, vel, age, id, flags := r.Get()
		if h.Index() == 0 {
			continue
		}
		assert.Equal(t, [5]any{vec{}, vec{}, int32(0), uint64(0), uint8(0)}, [5]any{*pos, *vel, *age, *id, *flags})
		n++
	}
	assert.Equal(t, 70, n)
	require.ErrorIs(t, q.InsertN(30, nil), tickwork.ErrCapacity)
	assert.Equal(t, 71, birds.tab.Len())
}

// Spawner.Reserve in the declaration makes room for a run's spawns: the
// first frame that spawns 100 five-column entities, after frames of one,
// allocates 0 bytes.
func TestSpawnerReserve(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	birds := addBird(b, "Bird", 4096)
	n := 1
	b.System("hatch", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner5(d, birds.pos, birds.vel, birds.age, birds.id, birds.flags)
		sp.Reserve(100)
		return func(ctx *tickwork.Context) {
			for k := range n {
				sp.Spawn(spawned(int(ctx.Frame()), k))
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	for range 3 {
		require.NoError(t, w.Frame(1.0/60))
	}
	n = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.NoError(t, w.Frame(1.0/60))
	runtime.ReadMemStats(&after)
	assert.Zero(t, after.TotalAlloc-before.TotalAlloc, "bytes of the first frame spawning 100")
	assert.Equal(t, 103, birds.tab.Len())
}

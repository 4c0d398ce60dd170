package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// wideHerd is a world of 320 slots in one domain with three tables of
// columns, body (a, b, c), motion (d, e) and extra (f, g, h), and the tag
// tables tag and dead. Every entity has a body row; motion, extra, tag and
// dead rows follow its slot (i%3 != 0, i%5 != 1, i%2 == 0, i%7 == 0).
// Each frame, system "step" walks an 8-column join (Without(dead)) and
// sets a += g and h += b + c + d + e.X (+1 when f).
type wideHerd struct {
	w                              *tickwork.World
	body, motion, extra, tag, dead *tickwork.Table
	a                              *tickwork.Column[int32]
	b                              *tickwork.Column[float32]
	c                              *tickwork.Column[int64]
	d                              *tickwork.Column[uint8]
	e                              *tickwork.Column[jvec]
	f                              *tickwork.Column[bool]
	g                              *tickwork.Column[uint16]
	h                              *tickwork.Column[float64]
	hs                             []tickwork.Handle
}

func newWideHerd(t *testing.T, extra func(b *tickwork.Builder, k *wideHerd)) (*wideHerd, error) {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithPacing(tickwork.OneTickPerFrame))
	dom := b.Domain(tickwork.DomainSpec{Name: "wide", Capacity: 320, ChunkRows: 64})
	k := &wideHerd{}
	k.body = b.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
	k.motion = b.Table(tickwork.TableSpec{Name: "Motion", Domain: dom})
	k.extra = b.Table(tickwork.TableSpec{Name: "Extra", Domain: dom})
	k.tag = b.Table(tickwork.TableSpec{Name: "Tag", Domain: dom})
	k.dead = b.Table(tickwork.TableSpec{Name: "Dead", Domain: dom})
	k.a = tickwork.AddColumn[int32](b, k.body, "a")
	k.b = tickwork.AddColumn[float32](b, k.body, "b")
	k.c = tickwork.AddColumn[int64](b, k.body, "c")
	k.d = tickwork.AddColumn[uint8](b, k.motion, "d")
	k.e = tickwork.AddColumn[jvec](b, k.motion, "e")
	k.f = tickwork.AddColumn[bool](b, k.extra, "f")
	k.g = tickwork.AddColumn[uint16](b, k.extra, "g")
	k.h = tickwork.AddColumn[float64](b, k.extra, "h")
	b.System("step", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin8(tickwork.Write(s, k.a), tickwork.Read(s, k.b), tickwork.Read(s, k.c), tickwork.Read(s, k.d),
			tickwork.Read(s, k.e), tickwork.Read(s, k.f), tickwork.Read(s, k.g), tickwork.Write(s, k.h), tickwork.Without(k.dead))
		return func(*tickwork.Context) {
			for r := range q.All() {
				a, b, c, d, e, f, g, h := r.Get()
				*a += int32(*g)
				*h += float64(*b) + float64(*c) + float64(*d) + float64(e.X)
				if *f {
					*h++
				}
			}
		}
	})
	if extra != nil {
		extra(b, k)
	}
	w, err := b.Build()
	if err != nil {
		return nil, err
	}
	k.w = w
	t.Cleanup(func() { _ = w.Close() })
	k.hs = make([]tickwork.Handle, 320)
	require.NoError(t, k.body.InsertN(k.hs))
	for i, h := range k.hs {
		k.a.Set(h, int32(i))
		k.b.Set(h, float32(i)/2)
		k.c.Set(h, -int64(i))
		if i%3 != 0 {
			require.NoError(t, k.motion.Attach(h))
			k.d.Set(h, uint8(i%251))
			k.e.Set(h, jvec{float32(i), -float32(i)})
		}
		if i%5 != 1 {
			require.NoError(t, k.extra.Attach(h))
			k.f.Set(h, i%4 == 1)
			k.g.Set(h, uint16(3*i))
			k.h.Set(h, float64(i)/8)
		}
		if i%2 == 0 {
			require.NoError(t, k.tag.Attach(h))
		}
		if i%7 == 0 {
			require.NoError(t, k.dead.Attach(h))
		}
	}
	return k, nil
}

// A system's 8-column join writes exactly its entities (three frames, the
// values checked slot by slot), a host 5-column join reads them back, and
// neither a frame nor a host pass allocates.
func TestJoin8InWorld(t *testing.T) {
	k, err := newWideHerd(t, nil)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, k.w.Frame(1.0/60))
	}
	in8 := func(i int) bool { return i%3 != 0 && i%5 != 1 && i%7 != 0 }
	n := 0
	for i, e := range k.hs {
		a, _ := k.a.Get(e)
		h, _ := k.h.Get(e)
		wantA, wantH := int32(i), float64(i)/8
		if in8(i) {
			wantA += 3 * int32(3*i)
			step := float64(float32(i)/2) - float64(i) + float64(i%251) + float64(i)
			if i%4 == 1 {
				step++
			}
			wantH += 3 * step
			n++
		}
		require.Equal(t, wantA, a, "a of slot %d", i)
		if k.extra.IsAlive(e) {
			require.Equal(t, wantH, h, "h of slot %d", i)
		}
	}
	require.Equal(t, 146, n)

	q := tickwork.HostJoin5(k.a, k.b, k.c, k.d, k.e, tickwork.With(k.tag), tickwork.Without(k.dead))
	require.NoError(t, q.Err())
	var got []int
	for r, e := range q.All() {
		a, b, c, d, ev := r.Get()
		i := int(e.Index())
		require.Equal(t, k.hs[i], e)
		wantA := int32(i)
		if in8(i) {
			wantA += 9 * int32(i)
		}
		require.Equal(t, []any{wantA, float32(i) / 2, -int64(i), uint8(i % 251), jvec{float32(i), -float32(i)}},
			[]any{*a, *b, *c, *d, *ev}, "slot %d", i)
		got = append(got, i)
	}
	var want []int
	for i := range k.hs {
		if i%3 != 0 && i%2 == 0 && i%7 != 0 {
			want = append(want, i)
		}
	}
	assert.Equal(t, want, got)
	var chunked []int
	for c := range q.Chunks() {
		for _, e := range q.Chunk(c) {
			chunked = append(chunked, int(e.Index()))
		}
		_, bs, _, _, _ := q.Spans(c)
		for lo, hi := range q.Runs(c) {
			for r := lo; r < hi; r++ {
				require.Equal(t, float32(c*64+r)/2, bs[r])
			}
		}
	}
	assert.Equal(t, want, chunked)
	r, ok := q.Get(k.hs[4])
	require.True(t, ok)
	_, _, c, _, _ := r.Get()
	assert.Equal(t, int64(-4), *c)
	_, ok = q.Get(k.hs[14]) // dead
	assert.False(t, ok)
	_, ok = q.Get(k.hs[3]) // no motion row
	assert.False(t, ok)

	var sum float64
	pass := func() {
		for r := range q.All() {
			a, _, _, _, e := r.Get()
			sum += float64(*a) + float64(e.Y)
		}
	}
	frame := func() { _ = k.w.Frame(1.0 / 60) }
	for _, f := range []func(){pass, frame} {
		assert.Zero(t, testing.AllocsPerRun(10, f), "allocations per pass")
		res := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				f()
			}
		})
		assert.Zero(t, res.AllocedBytesPerOp(), "bytes per pass")
	}
	assert.NotZero(t, sum)
}

// A wide join's column accessors are reads and writes of the manifest:
// a system writing a column the 8-column join reads conflicts with it.
func TestJoin8Conflicts(t *testing.T) {
	_, err := newWideHerd(t, func(b *tickwork.Builder, k *wideHerd) {
		b.System("push", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.Write(s, k.g)
			return func(*tickwork.Context) {}
		})
	})
	require.ErrorIs(t, err, tickwork.ErrConflict)
	assert.Contains(t, err.Error(), `"step" (read) and "push" (write) both touch Extra.g`)
	err = tickwork.HostJoin5((*tickwork.Column[int8])(nil), (*tickwork.Column[int8])(nil), (*tickwork.Column[int8])(nil),
		(*tickwork.Column[int8])(nil), (*tickwork.Column[int8])(nil)).Err()
	assert.ErrorIs(t, err, tickwork.ErrStorageDefinition)
	assert.ErrorIs(t, err, tickwork.ErrNilColumn)
}

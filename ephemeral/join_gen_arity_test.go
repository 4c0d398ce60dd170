package ephemeral_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// wideJoinWorld is a domain of 320 slots (chunks of 64) with three member
// tables of columns, each column of its own type so that a column given to
// the wrong position does not compile and a value read from the wrong one
// shows: body (a, b, c), motion (d, e) and extra (f, g, h); and two tag
// tables, tag and dead. Every entity has a body row; motion, extra, tag
// and dead rows follow its slot (i%3 != 0, i%5 != 1, i%2 == 0, i%7 == 0),
// and the entities of slots i%11 == 0 are deleted.
type wideJoinWorld struct {
	body, motion, extra, tag, dead *ephemeral.Table
	a                              *ephemeral.Column[int32]
	b                              *ephemeral.Column[float32]
	c                              *ephemeral.Column[int64]
	d                              *ephemeral.Column[uint8]
	e                              *ephemeral.Column[vec2]
	f                              *ephemeral.Column[bool]
	g                              *ephemeral.Column[uint16]
	h                              *ephemeral.Column[float64]
	hs                             []ephemeral.Handle
}

// eight is slot i's values in the eight columns.
func eight(i int) (int32, float32, int64, uint8, vec2, bool, uint16, float64) {
	return int32(i), float32(i) / 2, -int64(i), uint8(i % 251), vec2{float32(i), -float32(i)}, i%4 == 1, uint16(3 * i), float64(i) / 8
}

func newWideJoinWorld(t *testing.T) *wideJoinWorld {
	t.Helper()
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "wide", Capacity: 320, ChunkRows: 64})
	require.NoError(t, err)
	mk := func(name string) *ephemeral.Table {
		tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: name, Domain: dom})
		require.NoError(t, err)
		return tab
	}
	w := &wideJoinWorld{body: mk("body"), motion: mk("motion"), extra: mk("extra"), tag: mk("tag"), dead: mk("dead")}
	w.a, _ = ephemeral.AddColumn[int32](w.body, "a")
	w.b, _ = ephemeral.AddColumn[float32](w.body, "b")
	w.c, _ = ephemeral.AddColumn[int64](w.body, "c")
	w.d, _ = ephemeral.AddColumn[uint8](w.motion, "d")
	w.e, _ = ephemeral.AddColumn[vec2](w.motion, "e")
	w.f, _ = ephemeral.AddColumn[bool](w.extra, "f")
	w.g, _ = ephemeral.AddColumn[uint16](w.extra, "g")
	w.h, err = ephemeral.AddColumn[float64](w.extra, "h")
	require.NoError(t, err)
	w.hs = make([]ephemeral.Handle, 320)
	require.NoError(t, w.body.InsertN(w.hs))
	for i, h := range w.hs {
		a, b, c, d, e, f, g, hh := eight(i)
		w.a.Set(h, a)
		w.b.Set(h, b)
		w.c.Set(h, c)
		if i%3 != 0 {
			require.NoError(t, w.motion.Attach(h))
			w.d.Set(h, d)
			w.e.Set(h, e)
		}
		if i%5 != 1 {
			require.NoError(t, w.extra.Attach(h))
			w.f.Set(h, f)
			w.g.Set(h, g)
			w.h.Set(h, hh)
		}
		if i%2 == 0 {
			require.NoError(t, w.tag.Attach(h))
		}
		if i%7 == 0 {
			require.NoError(t, w.dead.Attach(h))
		}
	}
	for i, h := range w.hs {
		if i%11 == 0 {
			require.True(t, dom.Delete(h))
		}
	}
	return w
}

// slots lists, in slot order, the live slots that pass keep.
func (w *wideJoinWorld) slots(keep func(i int) bool) []int {
	var out []int
	for i := range w.hs {
		if i%11 != 0 && keep(i) {
			out = append(out, i)
		}
	}
	return out
}

// checkEight fails unless the pointers hold slot i's values (the first n
// of them; the rest are nil).
func checkEight(t *testing.T, i int, a *int32, b *float32, c *int64, d *uint8, e *vec2, f *bool, g *uint16, h *float64) {
	t.Helper()
	wa, wb, wc, wd, we, wf, wg, wh := eight(i)
	require.Equal(t, wa, *a, "a of slot %d", i)
	require.Equal(t, wb, *b, "b of slot %d", i)
	require.Equal(t, wc, *c, "c of slot %d", i)
	require.Equal(t, wd, *d, "d of slot %d", i)
	require.Equal(t, we, *e, "e of slot %d", i)
	if f == nil {
		return
	}
	require.Equal(t, wf, *f, "f of slot %d", i)
	require.Equal(t, wg, *g, "g of slot %d", i)
	require.Equal(t, wh, *h, "h of slot %d", i)
}

// Join5 (the wide row form) over two tables with a With and a Without tag
// yields exactly the model's entities in slot order, each row holding its
// own values in every column, through All, Chunk, Spans with Runs, and
// Get; writes through a row land in the columns; no form allocates.
func TestJoin5Values(t *testing.T) {
	w := newWideJoinWorld(t)
	q, err := ephemeral.NewJoin5(w.a, w.b, w.c, w.d, w.e, ephemeral.With(w.tag), ephemeral.Without(w.dead))
	require.NoError(t, err)
	want := w.slots(func(i int) bool { return i%3 != 0 && i%2 == 0 && i%7 != 0 })
	require.Len(t, want, 83)
	assert.Equal(t, []*ephemeral.Table{w.body, w.motion, w.tag}, q.Required())
	assert.Equal(t, len(want), q.Count())

	var got []int
	for r, h := range q.All() {
		a, b, c, d, e := r.Get()
		i := int(h.Index())
		require.Equal(t, w.hs[i], h, "the live entity's handle")
		checkEight(t, i, a, b, c, d, e, nil, nil, nil)
		got = append(got, i)
	}
	assert.Equal(t, want, got)
	var chunked, spanned []int
	for c := range q.Chunks() {
		for r, h := range q.Chunk(c) {
			a, b, cc, d, e := r.Get()
			checkEight(t, int(h.Index()), a, b, cc, d, e, nil, nil, nil)
			chunked = append(chunked, int(h.Index()))
		}
		as, bs, cs, ds, es := q.Spans(c)
		require.Len(t, es, 64)
		for lo, hi := range q.Runs(c) {
			for r := lo; r < hi; r++ {
				checkEight(t, c*64+r, &as[r], &bs[r], &cs[r], &ds[r], &es[r], nil, nil, nil)
				spanned = append(spanned, c*64+r)
			}
		}
	}
	assert.Equal(t, want, chunked, "Chunk walks the entities of All, chunk by chunk")
	assert.Equal(t, want, spanned, "Spans and Runs cover the entities of All")

	// Get: the row of All for a match; false for an entity without a motion
	// row, one tagged dead, a deleted one and the zero handle.
	row, ok := q.Get(w.hs[2])
	require.True(t, ok)
	a, b, c, d, e := row.Get()
	checkEight(t, 2, a, b, c, d, e, nil, nil, nil)
	for _, i := range []int{3, 14, 22} {
		_, ok := q.Get(w.hs[i])
		assert.False(t, ok, "slot %d", i)
	}
	_, ok = q.Get(ephemeral.Handle(0))
	assert.False(t, ok)

	// Writes through the row's pointers land in each column.
	for r := range q.All() {
		a, _, _, d, e := r.Get()
		*a += 1000
		*d++
		e.Y = 7
	}
	for _, i := range want {
		av, _ := w.a.Get(w.hs[i])
		dv, _ := w.d.Get(w.hs[i])
		ev, _ := w.e.Get(w.hs[i])
		require.Equal(t, int32(i+1000), av)
		require.Equal(t, uint8(i%251+1), dv)
		require.Equal(t, vec2{float32(i), 7}, ev)
	}
	av, _ := w.a.Get(w.hs[3])
	assert.Equal(t, int32(3), av, "an entity outside the join is not written")

	var sum float64
	pass := func() {
		for r, h := range q.All() {
			a, b, _, _, e := r.Get()
			sum += float64(*a) + float64(*b) + float64(e.X) + float64(h.Index())
		}
		for c := range q.UsedChunks() {
			for r := range q.Chunk(c) {
				_, _, cc, _, _ := r.Get()
				sum += float64(*cc)
			}
			_, _, _, ds, _ := q.Spans(c)
			for lo, hi := range q.Runs(c) {
				sum += float64(ds[lo]) + float64(hi)
			}
		}
		if r, ok := q.Get(w.hs[2]); ok {
			_, b, _, _, _ := r.Get()
			sum += float64(*b)
		}
	}
	assertNoGarbage(t, pass)
	assert.NotZero(t, sum)
}

// Join8 over three tables with a Without tag: as TestJoin5Values, with
// every one of eight columns checked.
func TestJoin8Values(t *testing.T) {
	w := newWideJoinWorld(t)
	q, err := ephemeral.NewJoin8(w.a, w.b, w.c, w.d, w.e, w.f, w.g, w.h, ephemeral.Without(w.dead))
	require.NoError(t, err)
	want := w.slots(func(i int) bool { return i%3 != 0 && i%5 != 1 && i%7 != 0 })
	require.Len(t, want, 133)
	assert.Equal(t, []*ephemeral.Table{w.body, w.motion, w.extra}, q.Required())
	assert.Equal(t, len(want), q.Count())

	var got, chunked, spanned []int
	for r, h := range q.All() {
		a, b, c, d, e, f, g, hh := r.Get()
		i := int(h.Index())
		require.Equal(t, w.hs[i], h)
		checkEight(t, i, a, b, c, d, e, f, g, hh)
		got = append(got, i)
	}
	assert.Equal(t, want, got)
	for c := range q.Chunks() {
		for r, h := range q.Chunk(c) {
			a, b, cc, d, e, f, g, hh := r.Get()
			checkEight(t, int(h.Index()), a, b, cc, d, e, f, g, hh)
			chunked = append(chunked, int(h.Index()))
		}
		as, bs, cs, ds, es, fs, gs, hs := q.Spans(c)
		require.Len(t, hs, 64)
		for lo, hi := q.NextRun(c, 0); lo < hi; lo, hi = q.NextRun(c, hi) {
			for r := lo; r < hi; r++ {
				checkEight(t, c*64+r, &as[r], &bs[r], &cs[r], &ds[r], &es[r], &fs[r], &gs[r], &hs[r])
				spanned = append(spanned, c*64+r)
			}
		}
	}
	assert.Equal(t, want, chunked)
	assert.Equal(t, want, spanned)

	row, ok := q.Get(w.hs[want[len(want)-1]])
	require.True(t, ok)
	a, b, c, d, e, f, g, hh := row.Get()
	checkEight(t, want[len(want)-1], a, b, c, d, e, f, g, hh)
	for _, i := range []int{3, 6, 7, 11} { // no motion, no extra, dead, deleted
		_, ok := q.Get(w.hs[i])
		assert.False(t, ok, "slot %d", i)
	}

	for r := range q.All() {
		_, _, _, _, _, f, g, hh := r.Get()
		*f = !*f
		*g += 5
		*hh = -*hh
	}
	for _, i := range want {
		_, _, _, _, _, wf, wg, wh := eight(i)
		fv, _ := w.f.Get(w.hs[i])
		gv, _ := w.g.Get(w.hs[i])
		hv, _ := w.h.Get(w.hs[i])
		require.Equal(t, []any{!wf, wg + 5, -wh}, []any{fv, gv, hv}, "slot %d", i)
	}

	var sum float64
	pass := func() {
		for r, h := range q.All() {
			a, _, _, _, _, _, g, hh := r.Get()
			sum += float64(*a) + float64(*g) + *hh + float64(h.Index())
		}
		for c := range q.UsedChunks() {
			for r := range q.Chunk(c) {
				_, _, _, _, e, _, _, _ := r.Get()
				sum += float64(e.Y)
			}
			_, _, _, _, _, _, _, hs := q.Spans(c)
			for lo, hi := range q.Runs(c) {
				sum += hs[lo] + float64(hi)
			}
		}
	}
	assertNoGarbage(t, pass)
	assert.NotZero(t, sum)
}

// A wide join refuses a nil column and the definition errors of NewJoin.
func TestJoinWideErrors(t *testing.T) {
	w := newWideJoinWorld(t)
	_, err := ephemeral.NewJoin5(w.a, w.b, (*ephemeral.Column[int64])(nil), w.d, w.e)
	assert.ErrorIs(t, err, ephemeral.ErrNilColumn)
	_, err = ephemeral.NewJoin8(w.a, w.b, w.c, w.d, w.e, w.f, w.g, w.h, ephemeral.Without(w.extra))
	assert.ErrorIs(t, err, ephemeral.ErrJoinExcluded)
	other, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "other", Capacity: 64})
	require.NoError(t, err)
	x, err := ephemeral.AddColumn[int8](other, "x")
	require.NoError(t, err)
	_, err = ephemeral.NewJoin5(w.a, w.b, w.c, w.d, x)
	assert.ErrorIs(t, err, ephemeral.ErrJoinDomains)
	assert.ErrorIs(t, err, ephemeral.ErrDefinition)
}

// assertNoGarbage fails unless pass allocates nothing: no allocation per
// run and 0 bytes per run through testing.Benchmark (TotalAlloc also
// counts what other goroutines allocate, which its many runs divide away).
func assertNoGarbage(t *testing.T, pass func()) {
	t.Helper()
	assert.Zero(t, testing.AllocsPerRun(20, pass), "allocations per pass")
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			pass()
		}
	})
	assert.Zero(t, res.AllocedBytesPerOp(), "bytes per pass")
}

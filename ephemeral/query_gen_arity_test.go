package ephemeral_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// cols5 are the five columns of a table, each of its own type, so that a
// column given to the wrong position does not compile and a value written
// to the wrong column shows (e is a struct column, vec2).
type cols5 struct {
	tab *ephemeral.Table
	a   *ephemeral.Column[int32]
	b   *ephemeral.Column[float32]
	c   *ephemeral.Column[int64]
	d   *ephemeral.Column[uint8]
	e   *ephemeral.Column[vec2]
}

func newCols5(t *testing.T, capacity int) cols5 {
	t.Helper()
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "five", Capacity: capacity, ChunkRows: 64})
	require.NoError(t, err)
	k := cols5{tab: tab}
	k.a, _ = ephemeral.AddColumn[int32](tab, "a")
	k.b, _ = ephemeral.AddColumn[float32](tab, "b")
	k.c, _ = ephemeral.AddColumn[int64](tab, "c")
	k.d, _ = ephemeral.AddColumn[uint8](tab, "d")
	k.e, err = ephemeral.AddColumn[vec2](tab, "e")
	require.NoError(t, err)
	return k
}

// five is row i's values in the five columns.
func five(i int) (int32, float32, int64, uint8, vec2) {
	return int32(i), float32(i) / 2, -int64(i), uint8(i % 251), vec2{float32(i), -float32(i)}
}

// Query5.Insert sets every column from its arguments; All, Chunk and
// Spans/Runs read back the same values; a full table refuses the insert
// with the *CapacityError and inserts nothing.
func TestQuery5InsertEveryColumn(t *testing.T) {
	k := newCols5(t, 130)
	q, err := ephemeral.NewQuery5(k.a, k.b, k.c, k.d, k.e)
	require.NoError(t, err)
	var hs []ephemeral.Handle
	for i := range 130 {
		h, err := q.Insert(five(i))
		require.NoError(t, err)
		require.Equal(t, uint32(i), h.Index(), "the lowest free slot")
		hs = append(hs, h)
	}
	assert.Equal(t, 130, k.tab.Len())
	h, err := q.Insert(five(7))
	var ce *ephemeral.CapacityError
	require.ErrorAs(t, err, &ce)
	assert.True(t, errors.Is(err, ephemeral.ErrCapacity))
	assert.Equal(t, ephemeral.CapacityError{Table: "five", Capacity: 130, Live: 130, Requested: 1}, *ce)
	assert.Zero(t, h)
	assert.Equal(t, 130, k.tab.Len(), "a refused insert inserts nothing")

	for _, h := range []ephemeral.Handle{hs[0], hs[63], hs[64], hs[100]} {
		require.True(t, k.tab.Delete(h))
	}
	check := func(row int, a *int32, b *float32, c *int64, d *uint8, e *vec2) {
		t.Helper()
		wa, wb, wc, wd, we := five(row)
		require.Equal(t, wa, *a, "a of row %d", row)
		require.Equal(t, wb, *b, "b of row %d", row)
		require.Equal(t, wc, *c, "c of row %d", row)
		require.Equal(t, wd, *d, "d of row %d", row)
		require.Equal(t, we, *e, "e of row %d", row)
	}
	var got []int
	for r, h := range q.All() {
		a, b, c, d, e := r.Get()
		check(int(h.Index()), a, b, c, d, e)
		got = append(got, int(h.Index()))
	}
	assert.Len(t, got, 126)
	assert.Equal(t, []int{1, 2}, got[:2])
	var chunked []int
	for c := range k.tab.Chunks() {
		for r, h := range q.Chunk(c) {
			a, b, c, d, e := r.Get()
			check(int(h.Index()), a, b, c, d, e)
			chunked = append(chunked, int(h.Index()))
		}
	}
	assert.Equal(t, got, chunked, "Chunk walks the rows of All, chunk by chunk")
	var spanned []int
	for c := range k.tab.Chunks() {
		as, bs, cs, ds, es := q.Spans(c)
		require.Len(t, es, 64)
		for lo, hi := range q.Runs(c) {
			for i := lo; i < hi; i++ {
				check(c*64+i, &as[i], &bs[i], &cs[i], &ds[i], &es[i])
				spanned = append(spanned, c*64+i)
			}
		}
	}
	assert.Equal(t, got, spanned, "Spans and Runs cover the rows of All")

	// A reused slot gets exactly the new values (no stale data from the
	// deleted row in any column).
	h, err = q.Insert(1000, 1, 2, 3, vec2{4, 5})
	require.NoError(t, err)
	assert.Equal(t, uint32(0), h.Index())
	a, _ := k.a.Get(h)
	b, _ := k.b.Get(h)
	c, _ := k.c.Get(h)
	d, _ := k.d.Get(h)
	e, _ := k.e.Get(h)
	assert.Equal(t, []any{int32(1000), float32(1), int64(2), uint8(3), vec2{4, 5}}, []any{a, b, c, d, e})
}

// cols8 are eight columns of one table of as many types.
type cols8 struct {
	tab *ephemeral.Table
	a   *ephemeral.Column[int32]
	b   *ephemeral.Column[float32]
	c   *ephemeral.Column[int64]
	d   *ephemeral.Column[uint8]
	e   *ephemeral.Column[vec2]
	f   *ephemeral.Column[bool]
	g   *ephemeral.Column[uint16]
	h   *ephemeral.Column[float64]
}

// Query8.InsertN fills every column through the callback's pointers
// (across windows of handles: 600 rows), with the handles in slot order;
// All and Chunk read the values back after deletes; Insert refills a hole.
func TestQuery8InsertNEveryColumn(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "eight", Capacity: 700, ChunkRows: 128})
	require.NoError(t, err)
	k := cols8{tab: tab}
	k.a, _ = ephemeral.AddColumn[int32](tab, "a")
	k.b, _ = ephemeral.AddColumn[float32](tab, "b")
	k.c, _ = ephemeral.AddColumn[int64](tab, "c")
	k.d, _ = ephemeral.AddColumn[uint8](tab, "d")
	k.e, _ = ephemeral.AddColumn[vec2](tab, "e")
	k.f, _ = ephemeral.AddColumn[bool](tab, "f")
	k.g, _ = ephemeral.AddColumn[uint16](tab, "g")
	k.h, err = ephemeral.AddColumn[float64](tab, "h")
	require.NoError(t, err)
	q, err := ephemeral.NewQuery8(k.a, k.b, k.c, k.d, k.e, k.f, k.g, k.h)
	require.NoError(t, err)
	var hs []ephemeral.Handle
	require.NoError(t, q.InsertN(600, func(h ephemeral.Handle, a *int32, b *float32, c *int64, d *uint8, e *vec2, f *bool, g *uint16, x *float64) {
		i := int(h.Index())
		*a, *b, *c, *d, *e = five(i)
		*f, *g, *x = i%3 == 0, uint16(3*i), float64(i)*0.25
		hs = append(hs, h)
	}))
	require.Len(t, hs, 600)
	for i, h := range hs {
		require.Equal(t, uint32(i), h.Index(), "slot order")
	}
	for i := 0; i < 600; i += 7 {
		require.True(t, tab.Delete(hs[i]))
	}
	check := func(row int, r ephemeral.Row8[int32, float32, int64, uint8, vec2, bool, uint16, float64]) {
		t.Helper()
		a, b, c, d, e, f, g, x := r.Get()
		wa, wb, wc, wd, we := five(row)
		require.Equal(t, []any{wa, wb, wc, wd, we, row%3 == 0, uint16(3 * row), float64(row) * 0.25},
			[]any{*a, *b, *c, *d, *e, *f, *g, *x}, "row %d", row)
	}
	n := 0
	for r, h := range q.All() {
		require.NotZero(t, h.Index()%7, "a deleted row")
		check(int(h.Index()), r)
		n++
	}
	assert.Equal(t, 600-86, n)
	m := 0
	for c := range tab.UsedChunks() {
		for r, h := range q.Chunk(c) {
			require.Equal(t, c, int(h.Index())/128)
			check(int(h.Index()), r)
			m++
		}
	}
	assert.Equal(t, n, m)
	h, err := q.Insert(5, 6, 7, 8, vec2{9, 10}, true, 11, 12.5)
	require.NoError(t, err)
	assert.Equal(t, uint32(0), h.Index())
	for r, got := range q.All() {
		a, b, c, d, e, f, g, x := r.Get()
		assert.Equal(t, h, got)
		assert.Equal(t, []any{int32(5), float32(6), int64(7), uint8(8), vec2{9, 10}, true, uint16(11), 12.5},
			[]any{*a, *b, *c, *d, *e, *f, *g, *x})
		break
	}
	// The n rows that do not fit: none inserted, the typed error.
	err = q.InsertN(200, func(ephemeral.Handle, *int32, *float32, *int64, *uint8, *vec2, *bool, *uint16, *float64) {
		t.Fatal("fill called for a refused InsertN")
	})
	require.ErrorIs(t, err, ephemeral.ErrCapacity)
	assert.Equal(t, 600-86+1, tab.Len())
}

// The widest query, Query15 (MaxColumns of internal/gen), walks and
// inserts every column in its place: column j of row i holds 100*i+j.
func TestQuery15EveryColumn(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "wide", Capacity: 300, ChunkRows: 64})
	require.NoError(t, err)
	var c [15]*ephemeral.Column[int64]
	for j := range c {
		c[j], err = ephemeral.AddColumn[int64](tab, string(rune('a'+j)))
		require.NoError(t, err)
	}
	q, err := ephemeral.NewQuery15(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14])
	require.NoError(t, err)
	assert.Same(t, tab, q.Table())
	require.NoError(t, q.InsertN(200, func(h ephemeral.Handle, a, b, c, d, e, f, g, x, i, j, k, l, m, n, o *int64) {
		for col, p := range []*int64{a, b, c, d, e, f, g, x, i, j, k, l, m, n, o} {
			*p = 100*int64(h.Index()) + int64(col)
		}
	}))
	v := func(row, col int) int64 { return int64(100*row + col) }
	h, err := q.Insert(v(200, 0), v(200, 1), v(200, 2), v(200, 3), v(200, 4), v(200, 5), v(200, 6), v(200, 7),
		v(200, 8), v(200, 9), v(200, 10), v(200, 11), v(200, 12), v(200, 13), v(200, 14))
	require.NoError(t, err)
	assert.Equal(t, uint32(200), h.Index())
	h5, ok := tab.HandleAt(5)
	require.True(t, ok)
	require.True(t, tab.Delete(h5))
	rows := 0
	for r, h := range q.All() {
		a, b, c, d, e, f, g, x, i, j, k, l, m, n, o := r.Get()
		for col, p := range []*int64{a, b, c, d, e, f, g, x, i, j, k, l, m, n, o} {
			require.Equal(t, v(int(h.Index()), col), *p, "row %d column %d", h.Index(), col)
		}
		rows++
	}
	assert.Equal(t, 200, rows)
	for ch := range tab.UsedChunks() {
		a, b, cc, d, e, f, g, x, i, j, k, l, m, n, o := q.Spans(ch)
		for lo, hi := range q.Runs(ch) {
			for r := lo; r < hi; r++ {
				for col, s := range [][]int64{a, b, cc, d, e, f, g, x, i, j, k, l, m, n, o} {
					require.Equal(t, v(ch*64+r, col), s[r])
				}
			}
		}
		for r, h := range q.Chunk(ch) {
			_, _, _, _, _, _, _, _, _, _, _, _, _, _, o := r.Get()
			require.Equal(t, v(int(h.Index()), 14), *o)
		}
	}
	for j := range c {
		got, ok := c[j].Get(h)
		require.True(t, ok)
		require.Equal(t, v(200, j), got)
	}
}

// InsertN with a nil fill inserts n rows of zero values, also in slots
// whose deleted rows held other values; it used to panic.
func TestQueryInsertNNilFill(t *testing.T) {
	k := newCols5(t, 600)
	q, err := ephemeral.NewQuery5(k.a, k.b, k.c, k.d, k.e)
	require.NoError(t, err)
	require.NoError(t, q.InsertN(300, func(h ephemeral.Handle, a *int32, b *float32, c *int64, d *uint8, e *vec2) {
		*a, *b, *c, *d, *e = five(int(h.Index()) + 1)
	}))
	require.Equal(t, 300, k.tab.DeleteN(allHandles(k.tab)))
	require.NoError(t, q.InsertN(500, nil))
	assert.Equal(t, 500, k.tab.Len())
	n := 0
	for r := range q.All() {
		a, b, c, d, e := r.Get()
		require.Zero(t, *a)
		require.Zero(t, *b)
		require.Zero(t, *c)
		require.Zero(t, *d)
		require.Zero(t, *e)
		n++
	}
	assert.Equal(t, 500, n)
	q1, _ := ephemeral.NewQuery1(k.a)
	require.ErrorIs(t, q1.InsertN(101, nil), ephemeral.ErrCapacity)
	assert.Equal(t, 500, k.tab.Len(), "a refused InsertN(n, nil) inserts nothing")
	require.NoError(t, q1.InsertN(0, nil))
	require.ErrorIs(t, q1.InsertN(-3, nil), ephemeral.ErrNegativeCount)
	assert.Equal(t, 500, k.tab.Len(), "n <= 0 inserts nothing")
}

// Insert and InsertN of the wide queries allocate nothing: 0 allocations
// and 0 B per call.
func TestQueryInsertAllocs(t *testing.T) {
	k := newCols5(t, 100_000)
	q5, err := ephemeral.NewQuery5(k.a, k.b, k.c, k.d, k.e)
	require.NoError(t, err)
	fill := func(h ephemeral.Handle, a *int32, b *float32, c *int64, d *uint8, e *vec2) {
		*a, *b, *c, *d, *e = five(int(h.Index()))
	}
	i := 0
	insert := func() {
		i++
		if _, err := q5.Insert(five(i)); err != nil {
			t.Fatal(err)
		}
		if err := q5.InsertN(300, fill); err != nil {
			t.Fatal(err)
		}
		if err := q5.InsertN(10, nil); err != nil {
			t.Fatal(err)
		}
	}
	assert.Zero(t, testing.AllocsPerRun(50, insert), "Insert, InsertN of 300 rows and of 10 zero rows: allocations")
	assert.Zero(t, allocated(func() {
		for range 50 {
			insert()
		}
	}), "50 times Insert, InsertN of 300 rows and of 10 zero rows: bytes")
	assert.Equal(t, 101*311, k.tab.Len())
}

// Walking a wide query allocates nothing: its rows point to the query's
// column block, made once by NewQueryN (a row pointing to a query on the
// stack would move that query to the heap at every walk).
func TestQueryWideIterationAllocs(t *testing.T) {
	k := newCols5(t, 1000)
	q5, err := ephemeral.NewQuery5(k.a, k.b, k.c, k.d, k.e)
	require.NoError(t, err)
	require.NoError(t, q5.InsertN(900, nil))
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "wide", Capacity: 300, ChunkRows: 64})
	require.NoError(t, err)
	var c [15]*ephemeral.Column[int64]
	for j := range c {
		c[j], _ = ephemeral.AddColumn[int64](tab, string(rune('a'+j)))
	}
	q15, err := ephemeral.NewQuery15(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14])
	require.NoError(t, err)
	require.NoError(t, q15.InsertN(250, nil))
	var sum int64
	walk := func() {
		for r := range q5.All() {
			a, _, cc, _, e := r.Get()
			*a++
			sum += *cc + int64(e.X)
		}
		for ch := range k.tab.UsedChunks() {
			for r := range q5.Chunk(ch) {
				_, b, _, _, _ := r.Get()
				*b += 1
			}
		}
		for r := range q15.All() {
			a, _, _, _, _, _, _, _, _, _, _, _, _, _, o := r.Get()
			*o += *a + 1
		}
		for ch := range tab.UsedChunks() {
			for r := range q15.Chunk(ch) {
				_, _, _, _, _, _, _, h, _, _, _, _, _, _, _ := r.Get()
				*h++
			}
		}
	}
	assert.Zero(t, testing.AllocsPerRun(20, walk), "allocations of a walk of Query5 and Query15, All and Chunk")
	assert.Zero(t, allocated(walk), "bytes")
	// 22 walks: AllocsPerRun's warm-up and 20 runs, and allocated's.
	for r := range q5.All() {
		a, b, _, _, _ := r.Get()
		require.Equal(t, int32(22), *a)
		require.Equal(t, float32(22), *b)
	}
	for r := range q15.All() {
		_, _, _, _, _, _, _, h, _, _, _, _, _, _, o := r.Get()
		require.Equal(t, int64(22), *h)
		require.Equal(t, int64(22), *o)
	}
}

// allHandles returns the handles of tab's live rows, in row order.
func allHandles(tab *ephemeral.Table) []ephemeral.Handle {
	var hs []ephemeral.Handle
	for row := range tab.Chunks() * tab.ChunkRows() {
		if h, ok := tab.HandleAt(row); ok {
			hs = append(hs, h)
		}
	}
	return hs
}

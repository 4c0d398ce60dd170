package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// eachWorld is a table of n rows, X = index, V = 2*index, with every
// third row deleted, and its host queries of two and five columns.
type eachWorld struct {
	w       *tickwork.World
	tab     *tickwork.Table
	x, v    *tickwork.Column[float32]
	c, d, e *tickwork.Column[int32]
}

func newEachWorld(t testing.TB, n int) *eachWorld {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	ew := &eachWorld{tab: bl.Table(tickwork.TableSpec{Name: "T", Capacity: n})}
	ew.x, ew.v = tickwork.AddColumn[float32](bl, ew.tab, "X"), tickwork.AddColumn[float32](bl, ew.tab, "V")
	ew.c, ew.d, ew.e = tickwork.AddColumn[int32](bl, ew.tab, "C"), tickwork.AddColumn[int32](bl, ew.tab, "D"), tickwork.AddColumn[int32](bl, ew.tab, "E")
	w, err := bl.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	ew.w = w
	q := tickwork.HostQuery5(ew.x, ew.v, ew.c, ew.d, ew.e)
	require.NoError(t, q.Err())
	require.NoError(t, q.InsertN(n, func(h tickwork.Handle, x, v *float32, c, d, e *int32) {
		*x, *v, *c, *d, *e = float32(h.Index()), float32(2*h.Index()), int32(h.Index()), 1, 2
	}))
	for row := 0; row < n; row += 3 {
		h, _ := ew.tab.HandleAt(row)
		require.True(t, ew.tab.Delete(h))
	}
	return ew
}

// Each visits the rows All yields, in its order, with the same handles
// and pointers, on a narrow query, a wide one and a join; it allocates
// nothing.
func TestQueryEach(t *testing.T) {
	ew := newEachWorld(t, 1000)
	q2 := tickwork.HostQuery2(ew.x, ew.v)
	var want, got []tickwork.Handle
	for r, h := range q2.All() {
		x, v := r.Get()
		require.Equal(t, 2**x, *v)
		want = append(want, h)
	}
	require.Len(t, want, 666)
	q2.Each(func(h tickwork.Handle, x, v *float32) {
		assert.Equal(t, float32(h.Index()), *x)
		assert.Equal(t, 2**x, *v)
		got = append(got, h)
	})
	assert.Equal(t, want, got)

	got = got[:0]
	q5 := tickwork.HostQuery5(ew.x, ew.v, ew.c, ew.d, ew.e)
	q5.Each(func(h tickwork.Handle, x, v *float32, c, d, e *int32) {
		assert.Equal(t, int32(h.Index()), *c)
		assert.Equal(t, int32(3), *d+*e)
		got = append(got, h)
	})
	assert.Equal(t, want, got)

	got = got[:0]
	j := tickwork.HostJoin2(ew.x, ew.c)
	j.Each(func(h tickwork.Handle, x *float32, c *int32) {
		assert.Equal(t, float32(*c), *x)
		got = append(got, h)
	})
	assert.Equal(t, want, got)

	var sum float32
	add := func(_ tickwork.Handle, x, v *float32) { sum += *v - *x }
	assert.Zero(t, testing.AllocsPerRun(10, func() { q2.Each(add) }))
	assert.NotZero(t, sum)
	var zero tickwork.Query2[float32, float32]
	zero.Each(func(tickwork.Handle, *float32, *float32) { t.Fatal("a zero query yields a row") })
}

// BenchmarkEach walks 64 Ki rows of two columns through Query2.Each
// (tickwork), the range form over Query2.All (tickwork-all) and, as the
// baseline in the same run, a plain loop over two slices of as many values
// (hand). Each walk is a function of its own, as
// a system's body is.
func BenchmarkEach(b *testing.B) {
	const n = 1 << 16
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: n})
	x, v := tickwork.AddColumn[float32](bl, tab, "X"), tickwork.AddColumn[float32](bl, tab, "V")
	w, err := bl.Build()
	require.NoError(b, err)
	defer w.Close()
	q := tickwork.HostQuery2(x, v)
	require.NoError(b, q.InsertN(n, func(h tickwork.Handle, _, v *float32) { *v = float32(h.Index() % 7) }))
	xs, vs := make([]float32, n), make([]float32, n)
	for i := range vs {
		vs[i] = float32(i % 7)
	}
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			eachStep(q)
		}
	})
	b.Run("tickwork-all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			allStep(q)
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handStep(xs, vs)
		}
	})
}

func eachStep(q tickwork.Query2[float32, float32]) {
	q.Each(func(_ tickwork.Handle, x, v *float32) { *x += *v * 0.5 })
}

func handStep(xs, vs []float32) {
	vs = vs[:len(xs)]
	for i := range xs {
		xs[i] += vs[i] * 0.5
	}
}

func allStep(q tickwork.Query2[float32, float32]) {
	for r := range q.All() {
		x, v := r.Get()
		*x += *v * 0.5
	}
}

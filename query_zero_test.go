package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestZeroQuery: the zero query of every arity is an empty one (package
// ephemeral, "Queries"): All yields nothing (before, a nil dereference),
// Chunk, Runs and Spans panic saying how to make a query, Insert and
// InsertN return ErrZeroQuery.
func TestZeroQuery(t *testing.T) {
	const how = "of a zero query, which has no table and no chunks; make the query with NewQuery1..NewQuery4 of a table's columns (in a system, of its accessors)"
	count := func(seq func(func(h tickwork.Handle) bool)) (n int) {
		seq(func(tickwork.Handle) bool { n++; return true })
		return n
	}
	var q1 tickwork.Query1[int32]
	var q2 tickwork.Query2[int32, float64]
	var q3 tickwork.Query3[int32, float64, int8]
	var q4 tickwork.Query4[int32, float64, int8, uint16]
	assert.Nil(t, q1.Table())
	assert.Equal(t, 0, count(func(f func(tickwork.Handle) bool) {
		for _, h := range q1.All() {
			f(h)
		}
	}))
	assert.Equal(t, 0, count(func(f func(tickwork.Handle) bool) {
		for _, h := range q2.All() {
			f(h)
		}
	}))
	assert.Equal(t, 0, count(func(f func(tickwork.Handle) bool) {
		for _, h := range q3.All() {
			f(h)
		}
	}))
	assert.Equal(t, 0, count(func(f func(tickwork.Handle) bool) {
		for _, h := range q4.All() {
			f(h)
		}
	}))
	assert.PanicsWithValue(t, "ephemeral: Spans(0) "+how, func() { q1.Spans(0) })
	assert.PanicsWithValue(t, "ephemeral: Spans(0) "+how, func() { q4.Spans(0) })
	assert.PanicsWithValue(t, "ephemeral: Enabled(0) "+how, func() {
		for range q2.Chunk(0) {
		}
	})
	assert.PanicsWithValue(t, "ephemeral: Enabled(0) "+how, func() {
		for range q3.Runs(0) {
		}
	})
	assert.ErrorIs(t, q1.InsertN(1, func(tickwork.Handle, *int32) {}), tickwork.ErrZeroQuery)
	assert.ErrorIs(t, q4.InsertN(1, func(tickwork.Handle, *int32, *float64, *int8, *uint16) {}), tickwork.ErrZeroQuery)

	// Insert returns the same error (before, a nil dereference), every arity.
	const msg = "ephemeral: Insert or InsertN of a zero query, which has no table: make the query with NewQuery1..NewQuery4 of a table's columns"
	h, err := q1.Insert(7)
	assert.Zero(t, h)
	require.ErrorIs(t, err, tickwork.ErrZeroQuery)
	assert.Equal(t, msg, err.Error())
	_, err = q2.Insert(1, 2)
	assert.ErrorIs(t, err, tickwork.ErrZeroQuery)
	_, err = q4.Insert(1, 2, 3, 4)
	assert.ErrorIs(t, err, tickwork.ErrZeroQuery)
	var q15 tickwork.Query15[int8, int8, int8, int8, int8, int8, int8, int8, int8, int8, int8, int8, int8, int8, int8]
	_, err = q15.Insert(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
	assert.ErrorIs(t, err, tickwork.ErrZeroQuery)
	assert.ErrorIs(t, q15.InsertN(1, nil), tickwork.ErrZeroQuery)
}

// TestInsertNBadInput: InsertN(-1) is refused with a *CountError (before,
// it returned nil and did nothing); a fill that panics leaves the rows
// whose fill returned, with their values, and none after (across the
// windows of 256 rows InsertN inserts at a time), and the table goes on.
func TestInsertNBadInput(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 1024})
	x := tickwork.AddColumn[int32](b, tab, "X")
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	q := tickwork.HostQuery1(x)
	require.NoError(t, q.Err())

	err = q.InsertN(-1, func(tickwork.Handle, *int32) { t.Fatal("fill called") })
	assert.ErrorIs(t, err, tickwork.ErrNegativeCount)
	var ce *tickwork.CountError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, -1, ce.Count)
	assert.Equal(t, `ephemeral: table "T": InsertN(-1, ...): want a count of 0 or more rows; nothing was inserted`, err.Error())
	assert.Equal(t, 0, tab.Len())

	for _, at := range []int{0, 5, 255, 256, 300} {
		before := tab.Len()
		n := 0
		assert.PanicsWithValue(t, "fill boom", func() {
			_ = q.InsertN(400, func(_ tickwork.Handle, v *int32) {
				if n == at {
					panic("fill boom")
				}
				*v = int32(before + n + 1)
				n++
			})
		})
		require.Equal(t, before+at, tab.Len(), "the rows whose fill returned stay, no other (panic at %d)", at)
		i := 0
		for r := range q.All() {
			i++
			require.Equal(t, int32(i), *r.Get(), "row %d holds its fill's value", i)
		}
	}
	require.NoError(t, q.InsertN(2, func(_ tickwork.Handle, v *int32) { *v = 7 }))
	assert.Equal(t, 0+5+255+256+300+2, tab.Len())

	var hs [200]tickwork.Handle // fits: 818 rows of 1024 are live
	k := 0
	fill := func(h tickwork.Handle, v *int32) { hs[k], *v = h, 1; k++ }
	allocs := testing.AllocsPerRun(50, func() {
		k = 0
		_ = q.InsertN(len(hs), fill)
		tab.DeleteN(hs[:k])
	})
	assert.Zero(t, allocs, "InsertN allocates nothing")
}

// TestMakeHandleGenerationRange: a generation past the handle's 22 bits
// panics (before, it wrapped and named the live entity of generation 1).
func TestMakeHandleGenerationRange(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 8})
	tab := b.Table(tickwork.TableSpec{Name: "T", Domain: d})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err := tab.Insert()
	require.NoError(t, err)
	assert.Equal(t, h, d.MakeHandle(0, h.Generation()))
	assert.False(t, tab.IsAlive(d.MakeHandle(0, 1<<22-1)))
	assert.PanicsWithValue(t, `ephemeral: Domain.MakeHandle(0, 4194305) of domain "D": generation past 4194303 (2^HandleGenerationBits-1), `+
		"the largest a handle holds; pass a generation from Handle.Generation", func() { d.MakeHandle(0, 1+1<<22) })
}

package ephemeral_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
)

// queryTable is a table of n rows (chunks of 64) with four columns, every
// row inserted with a = row, b = 2*row, c = -row, d = row%2 == 0, then the
// rows of del deleted. It returns the table, its columns and the live
// rows' handles in row order.
func queryTable(t *testing.T, n int, del func(row int) bool) (*ephemeral.Table, *ephemeral.Column[int32], *ephemeral.Column[float64],
	*ephemeral.Column[int64], *ephemeral.Column[bool], []ephemeral.Handle) {
	t.Helper()
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "q", Capacity: n, ChunkRows: 64})
	require.NoError(t, err)
	a, _ := ephemeral.AddColumn[int32](tab, "a")
	b, _ := ephemeral.AddColumn[float64](tab, "b")
	c, _ := ephemeral.AddColumn[int64](tab, "c")
	d, err := ephemeral.AddColumn[bool](tab, "d")
	require.NoError(t, err)
	hs := make([]ephemeral.Handle, n)
	require.NoError(t, tab.InsertN(hs))
	var live []ephemeral.Handle
	for row, h := range hs {
		a.Set(h, int32(row))
		b.Set(h, float64(2*row))
		c.Set(h, int64(-row))
		d.Set(h, row%2 == 0)
		if del(row) {
			tab.Delete(h)
		} else {
			live = append(live, h)
		}
	}
	return tab, a, b, c, d, live
}

func TestQueryAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	cases := []struct {
		name string
		n    int
		del  func(row int) bool
	}{
		{"empty table", 1, func(int) bool { return true }},
		{"one row", 1, func(int) bool { return false }},
		{"dense, partial last chunk", 300, func(int) bool { return false }},
		{"every other row", 300, func(r int) bool { return r%2 == 1 }},
		{"empty middle chunks", 640, func(r int) bool { return r >= 64 && r < 512 }},
		{"runs across word and chunk ends", 640, func(r int) bool { return r%97 == 0 || r == 63 || r == 128 }},
		{"random holes", 5000, func(int) bool { return rng.IntN(3) == 0 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, a, b, c, d, live := queryTable(t, tc.n, tc.del)
			q4, err := ephemeral.NewQuery4(a, b, c, d)
			require.NoError(t, err)
			var got []ephemeral.Handle
			for r, h := range q4.All() {
				pa, pb, pc, pd := r.Get()
				row := int(h.Index())
				require.Equal(t, int32(row), *pa, "a of %v", h)
				require.Equal(t, float64(2*row), *pb)
				require.Equal(t, int64(-row), *pc)
				require.Equal(t, row%2 == 0, *pd)
				*pa += 1000 // writes land in the column
				got = append(got, h)
			}
			assert.Equal(t, live, got, "handles of the live rows, in row order")
			for _, h := range live {
				v, ok := a.Get(h)
				require.True(t, ok)
				require.Equal(t, int32(h.Index())+1000, v)
			}
			// Every arity walks the same rows; Chunk does chunk by chunk.
			count := func(seq func(func(ephemeral.Handle))) []ephemeral.Handle {
				var hs []ephemeral.Handle
				seq(func(h ephemeral.Handle) { hs = append(hs, h) })
				return hs
			}
			q1, _ := ephemeral.NewQuery1(a)
			q2, _ := ephemeral.NewQuery2(a, b)
			q3, _ := ephemeral.NewQuery3(a, b, c)
			assert.Equal(t, live, count(func(f func(ephemeral.Handle)) {
				for _, h := range q1.All() {
					f(h)
				}
			}), "Query1")
			assert.Equal(t, live, count(func(f func(ephemeral.Handle)) {
				for _, h := range q2.All() {
					f(h)
				}
			}), "Query2")
			assert.Equal(t, live, count(func(f func(ephemeral.Handle)) {
				for _, h := range q3.All() {
					f(h)
				}
			}), "Query3")
			assert.Equal(t, live, count(func(f func(ephemeral.Handle)) {
				for ch := range tab.Chunks() {
					for _, h := range q4.Chunk(ch) {
						f(h)
					}
				}
			}), "Chunk")
			// The span form covers the same rows.
			var spanRows []ephemeral.Handle
			for ch := range tab.Chunks() {
				as, _, _, _ := q4.Spans(ch)
				require.Len(t, as, tab.ChunkRows())
				for lo, hi := range q4.Runs(ch) {
					for i := lo; i < hi; i++ {
						row := ch*tab.ChunkRows() + i
						require.Equal(t, int32(row)+1000, as[i])
						h, ok := tab.HandleAt(row)
						require.True(t, ok)
						spanRows = append(spanRows, h)
					}
				}
			}
			assert.Equal(t, live, spanRows, "Spans and Runs")
		})
	}
}

func TestQueryBreak(t *testing.T) {
	_, a, _, _, _, live := queryTable(t, 300, func(r int) bool { return r%5 == 0 })
	q, err := ephemeral.NewQuery1(a)
	require.NoError(t, err)
	var got []ephemeral.Handle
	for _, h := range q.All() {
		if len(got) == 7 {
			break
		}
		got = append(got, h)
	}
	assert.Equal(t, live[:7], got)
	got = got[:0]
	for lo := range q.Runs(0) {
		got = append(got, ephemeral.Handle(lo))
		break
	}
	assert.Len(t, got, 1)
}

func TestQueryErrors(t *testing.T) {
	t1, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "one", Capacity: 8})
	t2, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "two", Capacity: 8})
	x, _ := ephemeral.AddColumn[int](t1, "x")
	y, _ := ephemeral.AddColumn[int](t2, "y")
	_, err := ephemeral.NewQuery2(x, y)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ephemeral.ErrDefinition))
	assert.True(t, errors.Is(err, ephemeral.ErrQueryTables))
	assert.Equal(t, `ephemeral: table "two" column "y": a query's columns must belong to one table (the query's first column is of table "one")`, err.Error())
	_, err = ephemeral.NewQuery2[int, int](x, nil)
	assert.True(t, errors.Is(err, ephemeral.ErrNilColumn))
	assert.Equal(t, "ephemeral: column is nil: pass the *Column returned by AddColumn", err.Error())
	assert.PanicsWithValue(t, `ephemeral: Spans(1) of table "one": chunk index out of range 0..0; loop c over 0..Table.Chunks()-1`,
		func() { q, _ := ephemeral.NewQuery1(x); q.Spans(1) })
}

func TestQueryInsertN(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "ins", Capacity: 1000, ChunkRows: 64})
	require.NoError(t, err)
	x, _ := ephemeral.AddColumn[int32](tab, "x")
	y, _ := ephemeral.AddColumn[float32](tab, "y")
	q, err := ephemeral.NewQuery2(x, y)
	require.NoError(t, err)
	// Leave holes first: InsertN fills the lowest free slots.
	hs := make([]ephemeral.Handle, 10)
	require.NoError(t, tab.InsertN(hs))
	tab.Delete(hs[3])
	tab.Delete(hs[7])
	var got []ephemeral.Handle
	require.NoError(t, q.InsertN(600, func(h ephemeral.Handle, px *int32, py *float32) {
		assert.Zero(t, *px, "new rows start zero")
		*px, *py = int32(len(got)), 0.5
		got = append(got, h)
	}))
	require.Len(t, got, 600)
	assert.Equal(t, uint32(3), got[0].Index())
	assert.Equal(t, uint32(7), got[1].Index())
	assert.Equal(t, uint32(10), got[2].Index())
	assert.Equal(t, uint32(607), got[599].Index())
	assert.Equal(t, 608, tab.Len())
	for i, h := range got {
		v, ok := x.Get(h)
		require.True(t, ok)
		require.Equal(t, int32(i), v)
	}
	// All or nothing.
	err = q.InsertN(393, func(ephemeral.Handle, *int32, *float32) { t.Fatal("called on a failed insert") })
	var ce *ephemeral.CapacityError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, ephemeral.CapacityError{Table: "ins", Capacity: 1000, Live: 608, Requested: 393}, *ce)
	assert.Equal(t, 608, tab.Len())
}

// TestQueryAllocs: iterating, the span form and InsertN allocate nothing,
// in objects and in bytes (InsertN of 20 000 rows included). The bytes are
// counted over windows of 15 InsertN calls (the table emptied by DeleteN
// after every 3), the cleanest of allockit.DefaultTries: a
// testing.Benchmark average over a few dozen calls read 1 B per call in 2
// of 10 runs, one allocation of the Go runtime's own.
func TestQueryAllocs(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "alloc", Capacity: 100_000})
	require.NoError(t, err)
	x, _ := ephemeral.AddColumn[float32](tab, "x")
	v, _ := ephemeral.AddColumn[float32](tab, "v")
	q, err := ephemeral.NewQuery2(x, v)
	require.NoError(t, err)
	fill := func(_ ephemeral.Handle, px, pv *float32) { *px, *pv = 1, 2 }
	hs := make([]ephemeral.Handle, 0, 100_000)
	empty := func() { // DeleteN of every row, through a buffer made above
		hs = hs[:0]
		for row := range tab.Chunks() * tab.ChunkRows() {
			if h, ok := tab.HandleAt(row); ok {
				hs = append(hs, h)
			}
		}
		tab.DeleteN(hs)
	}
	var insertErr error
	got := allockit.Heap(allockit.DefaultTries, func() {
		for range 5 {
			for range 3 {
				if err := q.InsertN(20_000, fill); err != nil && insertErr == nil {
					insertErr = err
				}
			}
			empty()
		}
	})
	require.NoError(t, insertErr)
	assert.Zero(t, got.Bytes, "InsertN of 20 000 rows, 15 calls, and DeleteN: bytes (%d objects)", got.Objects)
	assert.Zero(t, allockit.PerOp(allockit.DefaultTries, 20, func() {
		if tab.Len() > 60_000 {
			empty()
		}
		_ = q.InsertN(20_000, fill)
	}), "InsertN of 20 000 rows: allocations")
	allocs := testing.AllocsPerRun(20, func() {
		for r := range q.All() {
			px, pv := r.Get()
			*px += *pv
		}
		for c := range tab.Chunks() {
			xs, vs := q.Spans(c)
			for lo, hi := range q.Runs(c) {
				for i := lo; i < hi; i++ {
					xs[i] += vs[i]
				}
			}
			for r := range q.Chunk(c) {
				px, _ := r.Get()
				*px++
			}
		}
	})
	assert.Zero(t, allocs, "All, Chunk, Spans and Runs")
}

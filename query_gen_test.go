package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// A host query inserts rows with their values and walks them back, row by
// row and chunk by chunk, with the handles InsertN gave; walking allocates
// nothing.
func TestQueryInsertAndWalk(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 100, ChunkRows: 64})
	x := tickwork.AddColumn[int32](b, tab, "X")
	y := tickwork.AddColumn[float32](b, tab, "Y")
	_, err := b.Build()
	require.NoError(t, err)
	q := tickwork.HostQuery2(x, y)
	require.NoError(t, q.Err())
	var hs []tickwork.Handle
	require.NoError(t, q.InsertN(70, func(h tickwork.Handle, x *int32, y *float32) {
		hs = append(hs, h)
		*x, *y = int32(h.Index()), float32(h.Index())/2
	}))
	require.True(t, tab.Delete(hs[3]))
	var got []tickwork.Handle
	for r, h := range q.All() {
		px, py := r.Get()
		assert.Equal(t, int32(h.Index()), *px)
		assert.Equal(t, float32(h.Index())/2, *py)
		got = append(got, h)
	}
	assert.Equal(t, append(append([]tickwork.Handle{}, hs[:3]...), hs[4:]...), got)
	n := 0
	for c := range tab.UsedChunks() {
		for range q.Chunk(c) {
			n++
		}
	}
	assert.Equal(t, 69, n)
	assert.Equal(t, 2, tab.UsedChunks())
	v, ok := x.Get(hs[10])
	assert.True(t, ok)
	assert.Equal(t, int32(10), v)
	var sum int32
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		for r := range q.All() {
			px, _ := r.Get()
			sum += *px
		}
	}))
}

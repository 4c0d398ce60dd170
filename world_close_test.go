package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestTablesAfterClose: after World.Close every structural change of the
// world's tables and domains returns ErrClosed (or false, 0) and changes
// nothing, while reads and column writes go on over the rows as they stand
// (docs/architecture.md, Storage, "After Close").
func TestTablesAfterClose(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2))
	dom := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 64})
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Domain: dom})
	hp := tickwork.AddColumn[int32](b, unit, "HP")
	body := b.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
	x := tickwork.AddColumn[float32](b, body, "X")
	solo := b.Table(tickwork.TableSpec{Name: "Solo", Capacity: 8})
	w, err := b.Build()
	require.NoError(t, err)

	a, err := unit.Insert()
	require.NoError(t, err)
	require.True(t, hp.Set(a, 7))
	require.NoError(t, body.Attach(a))
	kept, err := unit.Insert()
	require.NoError(t, err)
	bare, err := dom.Create()
	require.NoError(t, err)
	s, err := solo.Insert()
	require.NoError(t, err)
	require.NoError(t, w.Frame(1.0/60))
	require.NoError(t, w.Close())

	_, err = unit.Insert()
	assert.ErrorIs(t, err, tickwork.ErrClosed, "Table.Insert")
	assert.ErrorIs(t, unit.InsertN(make([]tickwork.Handle, 2)), tickwork.ErrClosed, "Table.InsertN")
	assert.ErrorIs(t, unit.Attach(bare), tickwork.ErrClosed, "Table.Attach")
	_, err = dom.Create()
	assert.ErrorIs(t, err, tickwork.ErrClosed, "Domain.Create")
	assert.ErrorIs(t, dom.CreateN(make([]tickwork.Handle, 2)), tickwork.ErrClosed, "Domain.CreateN")
	_, err = solo.Insert()
	assert.ErrorIs(t, err, tickwork.ErrClosed, "a standalone table's Insert")
	q := tickwork.HostQuery1(hp)
	_, err = q.Insert(3)
	assert.ErrorIs(t, err, tickwork.ErrClosed, "Query1.Insert")
	assert.ErrorIs(t, q.InsertN(2, func(tickwork.Handle, *int32) { t.Error("InsertN's fill ran on a closed world") }),
		tickwork.ErrClosed, "Query1.InsertN")
	q2 := tickwork.HostQuery2(hp, hp)
	_, err = q2.Insert(1, 2)
	assert.ErrorIs(t, err, tickwork.ErrClosed, "Query2.Insert")

	assert.False(t, unit.Delete(a), "Table.Delete")
	assert.Zero(t, unit.DeleteN([]tickwork.Handle{a, kept}), "Table.DeleteN")
	assert.False(t, body.Detach(a), "Table.Detach")
	assert.False(t, dom.Delete(kept), "Domain.Delete")
	assert.Zero(t, dom.DeleteN([]tickwork.Handle{a, kept, bare}), "Domain.DeleteN")
	assert.False(t, solo.Delete(s), "a standalone table's Delete")

	// Nothing changed, and the rows read and write as before.
	assert.Equal(t, 2, unit.Len())
	assert.Equal(t, 1, body.Len())
	assert.Equal(t, 1, solo.Len())
	assert.Equal(t, 3, dom.Len())
	assert.True(t, unit.IsAlive(a) && unit.IsAlive(kept) && body.IsAlive(a) && dom.IsAlive(bare) && solo.IsAlive(s))
	v, ok := hp.Get(a)
	assert.True(t, ok)
	assert.Equal(t, int32(7), v)
	assert.True(t, hp.Set(a, 9), "Set writes a live row after Close")
	assert.True(t, x.Set(a, 1.5))
	v, _ = hp.Get(a)
	assert.Equal(t, int32(9), v)
	assert.Equal(t, int32(9), *hp.Ptr(a))
	assert.Equal(t, int32(9), hp.All()[a.Index()])
	n := 0
	for r, h := range q.All() {
		v, _ := hp.Get(h)
		assert.Equal(t, v, *r.Get())
		n++
	}
	assert.Equal(t, 2, n)
	assert.ErrorIs(t, w.Frame(1.0/60), tickwork.ErrClosed)
	assert.NoError(t, w.Close(), "Close again is a no-op")
}

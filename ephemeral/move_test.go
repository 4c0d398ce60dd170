package ephemeral_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// RemoveRow keeps a rowless entity alive, DeleteRowless deletes it only
// while it has no row, and Move carries the columns both tables have by
// name and type, zeroes the others and allocates nothing after the first
// move between two tables.
func TestRemoveRowAndMove(t *testing.T) {
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 64})
	require.NoError(t, err)
	a, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Domain: d})
	b, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Domain: d})
	ax, _ := ephemeral.AddColumn[[2]float64](a, "pos")
	an, _ := ephemeral.AddColumn[int8](a, "n")
	bn, _ := ephemeral.AddColumn[int16](b, "n") // same name, other type
	bx, _ := ephemeral.AddColumn[[2]float64](b, "pos")
	h, _ := a.Insert()
	ax.Set(h, [2]float64{1, 2})
	an.Set(h, 7)

	removed, rowless := a.RemoveRow(h)
	assert.True(t, removed)
	assert.True(t, rowless)
	assert.True(t, d.IsAlive(h), "alive with no row")
	assert.False(t, a.IsAlive(h))
	removed, _ = a.RemoveRow(h)
	assert.False(t, removed, "no row left to remove")
	require.NoError(t, b.Attach(h))
	assert.False(t, d.DeleteRowless(h), "it has a row in B")
	assert.True(t, d.IsAlive(h))

	// Back to A by Move: pos carried, n (int16 in B, int8 in A) zero.
	bx.Set(h, [2]float64{3, 4})
	bn.Set(h, 300)
	require.NoError(t, b.Move(h, a))
	assert.False(t, b.IsAlive(h))
	p, _ := ax.Get(h)
	n, _ := an.Get(h)
	assert.Equal(t, [2]float64{3, 4}, p)
	assert.Zero(t, n, "the old value 7 does not come back: a new row is zero")
	assert.Equal(t, ephemeral.ErrStaleHandle, b.Move(h, a), "no row in B")
	require.NoError(t, b.Attach(h))
	assert.Equal(t, ephemeral.ErrRowExists, a.Move(h, b))
	other, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "O", Capacity: 4})
	oh, _ := other.Insert()
	assert.Equal(t, ephemeral.ErrForeignHandle, a.Move(oh, b))
	assert.PanicsWithValue(t, "ephemeral: Move of a row of table A to table O of another domain: a row moves only between tables of one domain (its handle names its slot there)",
		func() { _ = a.Move(h, other) })
	assert.PanicsWithValue(t, "ephemeral: Move of a row of table A to itself: move to another table of its domain",
		func() { _ = a.Move(h, a) })

	_ = b.Detach(h)
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		if a.Move(h, b) != nil || b.Move(h, a) != nil {
			panic("move failed")
		}
	}))
	a.RemoveRow(h)
	assert.True(t, d.DeleteRowless(h))
	assert.False(t, d.IsAlive(h))
	assert.Zero(t, d.Len())
}

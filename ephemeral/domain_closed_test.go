package ephemeral_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// SetClosed makes every structural change of the domain and its tables
// refuse with the given error (or false), changing nothing; values still
// read and write; SetClosed(nil) opens the domain again.
func TestDomainSetClosed(t *testing.T) {
	errShut := errors.New("shut")
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "D", Capacity: 8})
	require.NoError(t, err)
	a, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Domain: d})
	require.NoError(t, err)
	b, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Domain: d})
	require.NoError(t, err)
	va, err := ephemeral.AddColumn[int32](a, "V")
	require.NoError(t, err)
	h, err := a.Insert()
	require.NoError(t, err)
	require.True(t, va.Set(h, 5))
	moved, err := a.Insert()
	require.NoError(t, err)
	bare, err := d.Create()
	require.NoError(t, err)

	assert.Nil(t, d.Closed())
	d.SetClosed(errShut)
	assert.Equal(t, errShut, d.Closed())
	_, err = a.Insert()
	assert.ErrorIs(t, err, errShut)
	assert.ErrorIs(t, a.InsertN(make([]ephemeral.Handle, 1)), errShut)
	_, err = d.Create()
	assert.ErrorIs(t, err, errShut)
	assert.ErrorIs(t, d.CreateN(make([]ephemeral.Handle, 1)), errShut)
	assert.ErrorIs(t, b.Attach(bare), errShut)
	assert.ErrorIs(t, a.Move(moved, b), errShut)
	q, err := ephemeral.NewQuery1(va)
	require.NoError(t, err)
	_, err = q.Insert(1)
	assert.ErrorIs(t, err, errShut)
	assert.ErrorIs(t, q.InsertN(1, nil), errShut)
	assert.False(t, a.Delete(h))
	assert.Zero(t, a.DeleteN([]ephemeral.Handle{h}))
	assert.False(t, a.Detach(h))
	assert.False(t, d.Delete(h))
	assert.Zero(t, d.DeleteN([]ephemeral.Handle{h, bare}))
	removed, _ := a.RemoveRow(h)
	assert.False(t, removed)
	assert.False(t, d.DeleteRowless(bare))
	assert.Equal(t, 2, a.Len())
	assert.Equal(t, 0, b.Len())
	assert.Equal(t, 3, d.Len())
	v, ok := va.Get(h)
	assert.True(t, ok)
	assert.Equal(t, int32(5), v)
	assert.True(t, va.Set(h, 6))

	d.SetClosed(nil)
	assert.NoError(t, a.Move(moved, b))
	assert.True(t, d.DeleteRowless(bare))
	assert.True(t, a.Delete(h))
	assert.Equal(t, 0, a.Len())
	assert.Equal(t, 1, b.Len())
}

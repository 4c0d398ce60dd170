package tickwork_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// A host query or join has no error result: a bad one (here a nil column,
// as a failed AddColumn returns) keeps its error, which Err, the first
// Insert and InsertN return without inserting, and with which All, Chunk,
// Each and Parallel panic; a good one has none.
func TestHostQueryKeepsItsError(t *testing.T) {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
	x := tickwork.AddColumn[float32](bl, tab, "X")
	w, err := bl.Build()
	require.NoError(t, err)
	defer w.Close()

	good := tickwork.HostQuery1(x)
	require.NoError(t, good.Err())
	_, err = good.Insert(1)
	require.NoError(t, err)

	bad := tickwork.HostQuery2(x, (*tickwork.Column[int32])(nil))
	require.ErrorIs(t, bad.Err(), tickwork.ErrNilColumn)
	require.ErrorIs(t, bad.Err(), tickwork.ErrStorageDefinition)
	_, err = bad.Insert(2, 3)
	assert.Same(t, bad.Err(), err)
	assert.Same(t, bad.Err(), bad.InsertN(4, nil))
	assert.Equal(t, 1, tab.Len(), "a bad query inserts nothing")
	msg := bad.Err().Error()
	assert.PanicsWithError(t, msg, func() {
		for range bad.All() {
		}
	})
	assert.PanicsWithError(t, msg, func() {
		for range bad.Chunk(0) {
		}
	})
	assert.PanicsWithError(t, msg, func() { bad.Each(func(tickwork.Handle, *float32, *int32) {}) })

	wide := tickwork.HostQuery5(x, x, x, x, (*tickwork.Column[float32])(nil))
	assert.ErrorIs(t, wide.InsertN(1, nil), tickwork.ErrNilColumn)

	j := tickwork.HostJoin2(x, (*tickwork.Column[int32])(nil))
	require.ErrorIs(t, j.Err(), tickwork.ErrNilColumn)
	assert.PanicsWithError(t, j.Err().Error(), func() {
		for range j.All() {
		}
	})
	tags := tickwork.HostJoin()
	assert.ErrorIs(t, tags.Err(), tickwork.ErrJoinEmpty)
	assert.Panics(t, func() {
		for range tags.All() {
		}
	})
	assert.NoError(t, tickwork.HostJoin1(x).Err())
	assert.True(t, errors.Is(tickwork.HostJoin1(x, tickwork.With(tab), tickwork.Without(tab)).Err(), tickwork.ErrJoinExcluded))
}

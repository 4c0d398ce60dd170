package ephemeral_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// logWatcher logs each change it is told with the row's HP at that point.
type logWatcher struct {
	table string
	hp    *ephemeral.Column[int32]
	log   *[]string
}

func (w logWatcher) Watch(c ephemeral.RowChange, h ephemeral.Handle) {
	v := int32(-1)
	if w.hp != nil {
		v = w.hp.All()[h.Index()]
	}
	*w.log = append(*w.log, fmt.Sprint(w.table, " ", c, " ", h.Index(), " ", v))
}

// Every structural change of a watched table's rows is told once, in the
// order made: a delete tells each table of the domain the entity had a
// row in, in definition order, while its values are still there; a move
// is the source's detach, then the destination's attach.
func TestWatchChanges(t *testing.T) {
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "D", Capacity: 8, ChunkRows: 64})
	require.NoError(t, err)
	a, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Domain: d})
	hp, _ := ephemeral.AddColumn[int32](a, "HP")
	b, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Domain: d})
	bhp, _ := ephemeral.AddColumn[int32](b, "HP")
	var log []string
	a.Watch(logWatcher{"A", hp, &log})
	b.Watch(logWatcher{"B", bhp, &log})

	h1, _ := a.Insert()
	hp.Set(h1, 5)
	require.NoError(t, b.Attach(h1))
	bhp.Set(h1, 6)
	out := make([]ephemeral.Handle, 2)
	require.NoError(t, a.InsertN(out))
	require.True(t, d.Delete(h1))
	hp.Set(out[0], 7)
	require.NoError(t, a.Move(out[0], b))
	removed, rowless := b.RemoveRow(out[0])
	require.True(t, removed && rowless)
	assert.True(t, d.DeleteRowless(out[0]), "no row left: no change told")
	require.True(t, a.Detach(out[1]))
	assert.False(t, d.Delete(h1), "stale: nothing told")
	assert.Equal(t, []string{
		"A create 0 0", "B attach 0 0", "A create 1 0", "A create 2 0",
		"A delete 0 5", "B delete 0 6",
		"A detach 1 7", "B attach 1 7", "B detach 1 7",
		"A detach 2 0",
	}, log)
}

// A RowCopy pairs V's fields with the table's columns by name (or tag)
// and type, and copies a row's values.
func TestRowCopy(t *testing.T) {
	tb, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 8})
	hp, _ := ephemeral.AddColumn[int32](tb, "HP")
	pos, _ := ephemeral.AddColumn[[2]float64](tb, "Pos")
	h, _ := tb.Insert()
	hp.Set(h, 3)
	pos.Set(h, [2]float64{1.5, -2})
	type row struct {
		P    [2]float64 `tickwork:"Pos"`
		HP   int32
		Skip struct{}
	}
	_, err := ephemeral.NewRowCopy[row](tb)
	require.ErrorIs(t, err, ephemeral.ErrRowCopy, "Skip names no column")
	type good struct {
		P  [2]float64 `tickwork:"Pos"`
		HP int32
	}
	rc, err := ephemeral.NewRowCopy[good](tb)
	require.NoError(t, err)
	var v good
	rc.Copy(&v, h.Index())
	assert.Equal(t, good{P: [2]float64{1.5, -2}, HP: 3}, v)
	assert.Zero(t, testing.AllocsPerRun(100, func() { rc.Copy(&v, h.Index()) }))
	assert.Equal(t, "create", ephemeral.Created.String())
	assert.Equal(t, "RowChange(9)", ephemeral.RowChange(9).String())
}

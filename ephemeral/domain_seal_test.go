package ephemeral_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/plumb"
)

// After Seal, every definition-time mutation of the domain (a column on
// any member table, a new member table) fails with ErrSealed and charges
// nothing; rows and values go on as before, and sealing twice is harmless.
func TestSeal(t *testing.T) {
	tests := []struct {
		name string
		seal func(d *ephemeral.Domain, unit *ephemeral.Table)
	}{
		{"once", func(d *ephemeral.Domain, _ *ephemeral.Table) { plumb.DomainOf(d).Seal() }},
		{"through a member table's domain", func(_ *ephemeral.Domain, unit *ephemeral.Table) { plumb.DomainOf(unit.Domain()).Seal() }},
		{"twice", func(d *ephemeral.Domain, _ *ephemeral.Table) { plumb.DomainOf(d).Seal(); plumb.DomainOf(d).Seal() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "Actors", Capacity: 64})
			require.NoError(t, err)
			unit, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d})
			require.NoError(t, err)
			body, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
			require.NoError(t, err)
			hp, err := ephemeral.AddColumn[int32](unit, "HP")
			require.NoError(t, err)
			assert.False(t, plumb.DomainOf(d).Sealed())

			tc.seal(d, unit)
			assert.True(t, plumb.DomainOf(d).Sealed())
			used := d.Budget().Used()

			for _, tab := range []*ephemeral.Table{unit, body} {
				c, err := ephemeral.AddColumn[float64](tab, "X")
				assert.Nil(t, c)
				var de *ephemeral.DefinitionError
				require.ErrorAs(t, err, &de, tab.Name())
				assert.Equal(t, ephemeral.DefinitionError{Table: tab.Name(), Column: "X", Err: ephemeral.ErrSealed}, *de)
				assert.ErrorIs(t, err, ephemeral.ErrDefinition)
				assert.Equal(t, `ephemeral: table "`+tab.Name()+`" column "X": `+ephemeral.ErrSealed.Error(), err.Error())
			}
			assert.Len(t, unit.Columns(), 1)
			assert.Empty(t, body.Columns())

			tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Late", Domain: d})
			assert.Nil(t, tab)
			assert.ErrorIs(t, err, ephemeral.ErrSealed)
			assert.ErrorIs(t, err, ephemeral.ErrDefinition)
			assert.Contains(t, err.Error(), `table "Late"`)
			assert.Contains(t, err.Error(), `domain "Actors" is sealed`)
			assert.Len(t, d.Tables(), 2)
			assert.Equal(t, used, d.Budget().Used(), "a refused definition charges nothing")

			h, err := unit.Insert()
			require.NoError(t, err, "rows go on")
			require.NoError(t, body.Attach(h))
			assert.True(t, hp.Set(h, 7))
			v, ok := hp.Get(h)
			assert.True(t, ok)
			assert.Equal(t, int32(7), v)
			assert.True(t, unit.Delete(h))
		})
	}
}

// Sealing one standalone table seals only its own private domain.
func TestSealStandalone(t *testing.T) {
	a, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Capacity: 64})
	require.NoError(t, err)
	b, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Capacity: 64})
	require.NoError(t, err)
	plumb.DomainOf(a.Domain()).Seal()
	_, err = ephemeral.AddColumn[int](a, "X")
	assert.ErrorIs(t, err, ephemeral.ErrSealed)
	_, err = ephemeral.AddColumn[int](b, "X")
	assert.NoError(t, err)
}

package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
)

// Build seals the world's domains: ephemeral.AddColumn on a world's table
// and ephemeral.NewTable into a world's domain fail with
// ephemeral.ErrSealed afterwards (as runtime.AddColumn fails with
// ErrBuilt), charging nothing; before Build, ephemeral.AddColumn still
// works on a Builder's table.
func TestBuildSealsDefinitions(t *testing.T) {
	b := runtime.NewBuilder()
	solo := b.Table(ephemeral.TableSpec{Name: "Solo", Capacity: 64})
	actors := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 64})
	unit := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: actors})
	empty := b.Domain(ephemeral.DomainSpec{Name: "Empty", Capacity: 64}) // no table yet
	require.NoError(t, b.Err())
	_, err := ephemeral.AddColumn[int](solo, "before")
	require.NoError(t, err, "before Build a Builder's table takes columns")

	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	used := w.Budget().Used()

	tests := []struct {
		name string
		do   func() error
	}{
		{"ephemeral.AddColumn on a standalone table", func() error { _, err := ephemeral.AddColumn[int](solo, "after"); return err }},
		{"ephemeral.AddColumn on a domain's table", func() error { _, err := ephemeral.AddColumn[int](unit, "after"); return err }},
		{"ephemeral.NewTable into a domain", func() error {
			_, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Late", Domain: actors})
			return err
		}},
		{"ephemeral.NewTable into a domain without tables", func() error {
			_, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Late", Domain: empty})
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do()
			assert.ErrorIs(t, err, ephemeral.ErrSealed)
			assert.ErrorIs(t, err, ephemeral.ErrDefinition)
		})
	}
	assert.Nil(t, runtime.AddColumn[int](b, solo, "after"))
	assert.ErrorIs(t, b.Err(), runtime.ErrBuilt)
	assert.Equal(t, []string{"before"}, solo.Columns())
	assert.Empty(t, unit.Columns())
	assert.Len(t, actors.Tables(), 1)
	assert.Equal(t, used, w.Budget().Used(), "refused definitions charge nothing")
}

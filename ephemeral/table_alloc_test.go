package ephemeral_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

func TestZeroAllocs(t *testing.T) {
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 10_000, ChunkRows: 1024})
	require.NoError(t, err)
	units, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Domain: dom})
	require.NoError(t, err)
	bodies, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "bodies", Domain: dom})
	require.NoError(t, err)
	x, err := ephemeral.AddColumn[float32](units, "x")
	require.NoError(t, err)
	b, err := ephemeral.AddColumn[body](units, "body")
	require.NoError(t, err)
	hs := make([]ephemeral.Handle, 5000)
	require.NoError(t, units.InsertN(hs))
	for i, h := range hs {
		x.Set(h, float32(i))
		if i%3 == 0 {
			require.True(t, units.Delete(h))
		}
	}
	live := hs[1]
	stale := hs[0]
	batch := make([]ephemeral.Handle, 64)
	lease := units.Lease()
	all := b.All()

	tests := []struct {
		name string
		fn   func()
	}{
		{"Insert+Delete", func() {
			h, _ := units.Insert()
			units.Delete(h)
		}},
		{"InsertN+DeleteN", func() {
			_ = units.InsertN(batch)
			units.DeleteN(batch)
		}},
		{"Domain.Create+Attach+Detach+Domain.Delete", func() {
			h, _ := dom.Create()
			_ = bodies.Attach(h)
			bodies.Detach(h)
			dom.Delete(h)
		}},
		{"Get", func() { x.Get(live); b.Get(live); x.Get(stale) }},
		{"Set", func() { x.Set(live, 1); b.Set(live, body{X: 1}); x.Set(stale, 2) }},
		{"Ptr", func() { b.Ptr(live).X++ }},
		{"IsAlive", func() { units.IsAlive(live); dom.IsAlive(stale) }},
		{"Lease.Row", func() {
			if row, ok := lease.Row(live); ok {
				all[row].X++
			}
			lease.Row(stale)
		}},
		{"Table.Lease", func() { _ = units.Lease() }},
		{"Span and Enabled", func() { _, _ = x.Span(1), units.Enabled(1) }},
		{"EachRun iteration", func() { _ = sumLive(units, x) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Zero(t, testing.AllocsPerRun(100, tc.fn))
		})
	}
	assert.Equal(t, 3333, units.Len(), "the table is back where it started")
}

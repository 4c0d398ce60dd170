package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/ephemeral"
)

// BenchmarkQueryAll walks 64 Ki rows of two columns (one row in eight
// deleted) through the face's Query2.All and, as the baseline in the same
// run, through the engine's: the face's iterator adds no cost per row.
func BenchmarkQueryAll(b *testing.B) {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := bl.Table(tickwork.TableSpec{Name: "T", Capacity: 1 << 16})
	x := tickwork.AddColumn[float32](bl, tab, "X")
	v := tickwork.AddColumn[float32](bl, tab, "V")
	w, err := bl.Build()
	require.NoError(b, err)
	defer w.Close()
	q, err := tickwork.HostQuery2(x, v)
	require.NoError(b, err)
	require.NoError(b, q.InsertN(tab.Cap(), func(h tickwork.Handle, x, v *float32) { *v = float32(h.Index() % 7) }))
	for row := 0; row < tab.Cap(); row += 8 {
		h, _ := tab.HandleAt(row)
		tab.Delete(h)
	}
	eq, err := ephemeral.NewQuery2((*ephemeral.Column[float32])(x), (*ephemeral.Column[float32])(v))
	require.NoError(b, err)
	b.Run("face", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r := range q.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r := range eq.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
}

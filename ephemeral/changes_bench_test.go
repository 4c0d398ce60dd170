package ephemeral_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// BenchmarkVersionsBump is the cost of one writer's bump after its run
// (tickwork: Versions.Bump of a column of 100 000 live rows in chunks of
// 4096, what a system that writes a tracked column adds to its run)
// against one pass of a system over the column (scan: a float32 add per
// live row), in one run (docs/benchmarks.md, Change detection).
func BenchmarkVersionsBump(b *testing.B) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Capacity: 100_000})
	require.NoError(b, err)
	col, err := ephemeral.AddColumn[float32](tab, "X")
	require.NoError(b, err)
	require.NoError(b, tab.InsertN(make([]ephemeral.Handle, 100_000)))
	v, err := col.Track(false)
	require.NoError(b, err)
	clock := uint64(1)
	v.SetClock(&clock)
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			clock++
			v.Bump(clock)
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for c := range tab.UsedChunks() {
				xs := col.Span(c)
				for lo, hi := range tab.Runs(c) {
					for r := lo; r < hi; r++ {
						xs[r] += 1
					}
				}
			}
		}
	})
}

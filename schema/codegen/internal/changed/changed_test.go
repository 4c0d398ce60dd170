package changed_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/changed"
)

// TestGeneratedKernelSkipsUnchangedChunks checks that the generated
// kernels of systems with change filters run every row of the chunks
// that changed since their last run, and no other row: all of them at
// the first run, then the chunk of a row a hand system set, nothing when
// nothing changed, the chunk of a row the host added; and that a system
// filtered on a column another filtered system writes (Echo on Watch's
// Seen) runs exactly the chunks that one ran; at 1 and 2 workers.
func TestGeneratedKernelSkipsUnchangedChunks(t *testing.T) {
	for _, workers := range []int{1, 2} {
		b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
		tabs, err := changed.Declare(b, changed.DefaultSizes())
		require.NoError(t, err)
		var target tickwork.Handle
		b.System("hit", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			hp := tickwork.WriteTracked(d, tabs.Unit.HP)
			return func(*tickwork.Context) {
				if target != 0 {
					hp.Set(target, 5)
					target = 0
				}
			}
		})
		b.Add(changed.NewSystems(tabs).All()...)
		hs := make([]tickwork.Handle, 300)
		for i := range hs {
			hs[i], err = tabs.Unit.Table.Insert()
			require.NoError(t, err)
		}
		w, err := b.Build()
		require.NoError(t, err)
		counts := func(col *tickwork.Column[int32]) (counts map[int32]int) {
			counts = map[int32]int{}
			for _, h := range hs {
				v, _ := col.Get(h)
				counts[v]++
			}
			return counts
		}
		// Echo runs where Watch wrote Seen: the same counts.
		seen := func() map[int32]int {
			assert.Equal(t, counts(tabs.Unit.Seen), counts(tabs.Unit.Echo), "Echo follows the chunks Watch ran")
			return counts(tabs.Unit.Seen)
		}
		low := func() int64 {
			n, ok := w.Report().Counter("Low", "low")
			require.True(t, ok)
			return n
		}
		require.NoError(t, w.Frame(0.01))
		assert.Equal(t, map[int32]int{1: 300}, seen(), "first run: every row")
		assert.Equal(t, int64(300), low())

		target = hs[200] // chunk 3: rows 192..255
		require.NoError(t, w.Frame(0.01))
		assert.Equal(t, map[int32]int{1: 236, 2: 64}, seen(), "the chunk of the row set")
		assert.Equal(t, int64(64), low())

		require.NoError(t, w.Frame(0.01))
		assert.Equal(t, map[int32]int{1: 236, 2: 64}, seen(), "nothing changed")
		assert.Equal(t, int64(0), low())

		h, err := tabs.Unit.Table.Insert() // row 300, chunk 4: rows 256..300
		require.NoError(t, err)
		hs = append(hs, h)
		require.NoError(t, w.Frame(0.01))
		// Chunks 0..2 (192 rows) ran once, chunk 3 twice, chunk 4's 44
		// old rows twice and the new row once.
		assert.Equal(t, map[int32]int{1: 192 + 1, 2: 64 + 44}, seen(), "the chunk of the added row")
		assert.Equal(t, int64(45), low(), "the added row's chunk counts: HP is 0 < 10")
		require.NoError(t, w.Close())
	}
}

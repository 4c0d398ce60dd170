package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// Recorder.Reserve, ReserveWorkers, ReserveValues and a spawner's Reserve
// refuse a negative count with a *CountError (before, accepted) and room
// past the memory budget with a *BudgetError (before, Reserve(1<<40)
// returned at once, silently reserving nothing), from the body at once and
// from Build when called in the DeclareFunc; a count that fits returns nil
// and the records play back.
func TestRecorderReserve(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 64})
	x := tickwork.AddColumn[int32](b, tab, "X")
	type result struct{ neg, negW, negV, negS, huge, hugeW, hugeS, fits error }
	var got result
	var rec *tickwork.Recorder
	b.System("r", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		rec = tickwork.Record(d, tab)
		sp := tickwork.NewSpawner1(d, x)
		return func(*tickwork.Context) {
			if got.fits != nil || got.neg != nil {
				return // once
			}
			got = result{
				neg:   rec.Reserve(-1),
				negW:  rec.ReserveWorkers(-2),
				negV:  tickwork.ReserveValues(rec, x, -3),
				negS:  sp.Reserve(-4),
				huge:  rec.Reserve(1 << 40),
				hugeW: rec.ReserveWorkers(1 << 40),
				hugeS: sp.Reserve(1 << 40),
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	_ = w.Frame(0.01) // the refused reservations may be reported by the frame: not under test here

	var ce *tickwork.CountError
	require.ErrorAs(t, got.neg, &ce)
	assert.ErrorIs(t, got.neg, tickwork.ErrNegativeCount)
	assert.Equal(t, `ephemeral: table "T": Recorder.Reserve(-1): want a count of 0 or more; nothing was reserved`, got.neg.Error())
	assert.Equal(t, `ephemeral: table "T": Recorder.ReserveWorkers(-2): want a count of 0 or more; nothing was reserved`, got.negW.Error())
	assert.Equal(t, `ephemeral: table "T": ReserveValues(-3): want a count of 0 or more; nothing was reserved`, got.negV.Error())
	assert.Equal(t, `ephemeral: table "T": Spawner1.Reserve(-4): want a count of 0 or more; nothing was reserved`, got.negS.Error())
	var be *tickwork.BudgetError
	require.ErrorAs(t, got.huge, &be)
	assert.ErrorIs(t, got.huge, tickwork.ErrMemoryBudget)
	assert.ErrorIs(t, got.hugeW, tickwork.ErrMemoryBudget)
	assert.ErrorIs(t, got.hugeS, tickwork.ErrMemoryBudget)

	// In the DeclareFunc: Build returns the refusal.
	for _, n := range []int{-1, 1 << 40} {
		b = tickwork.NewBuilder(tickwork.WithWorkers(1))
		tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 64})
		var declErr error
		b.System("r", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			declErr = tickwork.Record(d, tab).Reserve(n)
			return func(*tickwork.Context) {}
		})
		_, err = b.Build()
		if n < 0 {
			assert.ErrorIs(t, declErr, tickwork.ErrNegativeCount)
			assert.NoError(t, err)
		} else {
			assert.NoError(t, declErr, "waits for the buffer")
			assert.ErrorIs(t, err, tickwork.ErrMemoryBudget)
		}
	}

	// A count that fits: nil, and the records play back.
	b = tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithCommandRecords(1))
	tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 4096})
	var fits error
	n := 0
	b.System("r", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		r := tickwork.Record(d, tab)
		return func(*tickwork.Context) {
			if n == 0 {
				fits = r.Reserve(3000)
			}
			for range n {
				r.Create()
			}
		}
	})
	w2, err := b.Build()
	require.NoError(t, err)
	defer w2.Close()
	require.NoError(t, w2.Frame(0.01))
	require.NoError(t, fits)
	n = 1000
	require.NoError(t, w2.Frame(0.01))
	assert.Equal(t, 1000, tab.Len())
}

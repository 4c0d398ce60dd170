package tickwork_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestRandDrawsAsPCG: NewRand draws what rand.New(rand.NewPCG) draws.
func TestRandDrawsAsPCG(t *testing.T) {
	r, want := tickwork.NewRand(7, 9), rand.New(rand.NewPCG(7, 9))
	for range 100 {
		require.Equal(t, want.Uint64(), r.Uint64())
	}
}

// TestRandInSnapshot: a *Rand resource is saved and restored with the
// world; after a restore the draws repeat, bit for bit.
func TestRandInSnapshot(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	rng := tickwork.AddResource(b, "rng", tickwork.NewRand(42, 1))
	var drawn []uint64
	b.System("draw", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		r := *tickwork.WriteResource(d, rng)
		return func(*tickwork.Context) { drawn = append(drawn, r.Uint64()) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(1.0/60))
	snap, err := w.Snapshot(nil)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, w.Frame(1.0/60))
	}
	after := append([]uint64(nil), drawn[1:]...)
	require.NoError(t, w.Restore(snap))
	drawn = drawn[:0]
	for range 3 {
		require.NoError(t, w.Frame(1.0/60))
	}
	assert.Equal(t, after, drawn, "the restored stream draws what followed the snapshot")

	var z tickwork.Rand // a zero Rand takes a state and draws
	state, err := tickwork.NewRand(42, 1).AppendBinary(nil)
	require.NoError(t, err)
	require.NoError(t, z.UnmarshalBinary(state))
	assert.Equal(t, rand.New(rand.NewPCG(42, 1)).Uint64(), z.Uint64())
	assert.Error(t, z.UnmarshalBinary([]byte("junk")))
}

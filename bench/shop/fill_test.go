package shop

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork"
)

func filled(t *testing.T, cfg Config) *Tables {
	t.Helper()
	b := tickwork.NewBuilder()
	tb, err := Declare(b, cfg.Sizes())
	require.NoError(t, err)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	require.NoError(t, Fill(tb, cfg))
	return tb
}

// TestFill: the sizes, the deletions (holes, dangling refs) and the
// determinism of the stream: the same config fills the same rows.
func TestFill(t *testing.T) {
	cfg := SmallConfig()
	a, b := filled(t, cfg), filled(t, cfg)
	assert.Equal(t, cfg.Products, a.Product.Table.Len())
	assert.Equal(t, cfg.Orders, a.Order.Table.Len())
	n := a.Player.Table.Len()
	assert.Less(t, n, cfg.Players, "a 25th deleted")
	assert.Greater(t, n, cfg.Players*9/10)
	dangling := 0
	for _, h := range a.Order.Buyer.All() {
		if !a.Player.Table.IsAlive(h) {
			dangling++
		}
	}
	assert.Positive(t, dangling, "orders of deleted players")
	assert.Positive(t, a.Premium.Table.Len())
	assert.Positive(t, a.Banned.Table.Len())
	assert.Equal(t, a.Player.Score.All(), b.Player.Score.All())
	assert.Equal(t, untagged(a.Order.Buyer.All()), untagged(b.Order.Buyer.All()), "the same entities (each world's domain has its own tag)")
	assert.Equal(t, a.Order.Price.All(), b.Order.Price.All())
	st := a.Store.Table.Len()
	assert.Less(t, st, cfg.Stores, "a 50th deleted")
	assert.Greater(t, st, cfg.Stores*9/10)
	for _, v := range append(a.Store.X.All()[:cfg.Stores:cfg.Stores], a.Store.Y.All()[:cfg.Stores]...) {
		require.True(t, v >= 0 && v < MapSide, "%v off the map", v)
	}
	assert.Equal(t, a.Store.X.All(), b.Store.X.All())
}

func TestFillBadConfig(t *testing.T) {
	cfg := SmallConfig()
	b := tickwork.NewBuilder()
	tb, err := Declare(b, cfg.Sizes())
	require.NoError(t, err)
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	cfg.Orders++
	require.ErrorIs(t, Fill(tb, cfg), ErrBadConfig)
	cfg.Orders, cfg.Players = 1, 0
	require.ErrorIs(t, Fill(tb, cfg), ErrBadConfig)
	cfg.Players, cfg.Stores = 1, 0
	require.ErrorIs(t, Fill(tb, cfg), ErrBadConfig)
}

// untagged returns hs as index and generation pairs.
func untagged(hs []tickwork.Handle) [][2]uint32 {
	out := make([][2]uint32, len(hs))
	for i, h := range hs {
		out[i] = [2]uint32{h.Index(), h.Generation()}
	}
	return out
}

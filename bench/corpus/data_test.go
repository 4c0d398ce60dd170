package corpus

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewDeterministic: two data sets of one Size have the same
// parameters and give every case the same hand result.
func TestNewDeterministic(t *testing.T) {
	a, err := small()
	require.NoError(t, err)
	b, err := New(Small())
	require.NoError(t, err)
	defer b.Close()
	assert.Equal(t, idOf(a.P.Body), idOf(b.P.Body))
	assert.Equal(t, idOf(a.P.Player), idOf(b.P.Player))
	assert.Equal(t, a.P.Account, b.P.Account)
	assert.Equal(t, a.P.SKU, b.P.SKU)
	require.True(t, a.A.Body.Table.IsAlive(a.P.Body))
	require.True(t, a.Shop.Player.Table.IsAlive(a.P.Player))
	for _, c := range Cases() {
		k, ok := c.(interface{ results(*Data) string })
		require.True(t, ok)
		assert.Equal(t, k.results(a), k.results(b), c.Info().Name)
	}
}

// results formats the hand loop's rows.
func (k *Kase[R, P]) results(d *Data) string { return fmt.Sprintf("%v", k.NewHand(d)(nil)) }

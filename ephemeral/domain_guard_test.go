package ephemeral_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// Guarded reads the flag SetGuard gave, false without one; the domain's
// own methods ignore it (a higher layer refuses, not this one).
func TestDomainGuard(t *testing.T) {
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "D", Capacity: 4})
	require.NoError(t, err)
	assert.False(t, d.Guarded())
	var g atomic.Bool
	d.SetGuard(&g)
	assert.False(t, d.Guarded())
	g.Store(true)
	assert.True(t, d.Guarded())
	_, err = d.Create()
	assert.NoError(t, err, "the domain's own methods do not look at the guard")
	d.SetGuard(nil)
	assert.False(t, d.Guarded())
}

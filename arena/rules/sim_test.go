package rules_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
)

// fakeSim is a rules.Sim whose methods are never called here.
type fakeSim struct{ rules.Sim }

// TestFactory: with an error the adapted constructor returns a nil Sim,
// not a typed nil a caller's `s != nil` would take for a Sim; without, the
// constructor's value.
func TestFactory(t *testing.T) {
	boom := errors.New("boom")
	bad := rules.Factory(func(rules.Config) (*fakeSim, error) { return nil, boom })
	s, err := bad(rules.DefaultConfig())
	require.ErrorIs(t, err, boom)
	assert.True(t, s == nil, "a nil interface, not a typed nil")
	want := &fakeSim{}
	good := rules.Factory(func(rules.Config) (*fakeSim, error) { return want, nil })
	s, err = good(rules.DefaultConfig())
	require.NoError(t, err)
	assert.Same(t, want, s)
}

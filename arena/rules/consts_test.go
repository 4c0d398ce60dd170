package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestConstantsAreExact(t *testing.T) {
	assert.Equal(t, float32(0.015625), rules.DT)
	assert.Equal(t, 720, rules.DefaultWarmup+rules.DefaultFrames)
}

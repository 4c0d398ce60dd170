package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestMoveUnits(t *testing.T) {
	x := []float32{10, 1, 2047, 100}
	y := []float32{10, 100, 100, 0.25}
	vx := []float32{64, -128, 128, 0}
	vy := []float32{-64, 0, 0, -32}
	rules.MoveUnits(x, y, vx, vy)
	// 10+64/64 = 11; 1-2 = -1 mirrors to 1 and turns; 2047+2 = 2049 mirrors
	// to 2047 and turns; y 0.25-0.5 = -0.25 mirrors to 0.25 and turns.
	assert.Equal(t, []float32{11, 1, 2047, 100}, x)
	assert.Equal(t, []float32{9, 100, 100, 0.25}, y)
	assert.Equal(t, []float32{64, 128, -128, 0}, vx)
	assert.Equal(t, []float32{-64, 0, 0, 32}, vy)
}

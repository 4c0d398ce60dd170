package lanes_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/lanes"
)

var allLanes = []lanes.Lane{lanes.Scalar, lanes.AVX2, lanes.AVX512}

func TestLaneNamesAndSelection(t *testing.T) {
	for _, l := range allLanes {
		got, err := lanes.Parse(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	got, err := lanes.Parse("AVX512")
	require.NoError(t, err, "Parse ignores ASCII case")
	assert.Equal(t, lanes.AVX512, got)
	_, err = lanes.Parse("neon")
	assert.ErrorIs(t, err, lanes.ErrUnknownLane)
	assert.Contains(t, err.Error(), `"neon"`)
	assert.Equal(t, "Lane(9)", lanes.Lane(9).String())

	assert.True(t, lanes.Available(lanes.Scalar))
	assert.False(t, lanes.Available(lanes.Lane(9)))
	best := lanes.Best()
	assert.True(t, lanes.Available(best))
	for _, l := range allLanes {
		if l > best {
			assert.False(t, lanes.Available(l), "Best %s is not the widest: %s is available", best, l)
		}
		got, err := lanes.Select(l)
		if lanes.Available(l) {
			require.NoError(t, err)
			assert.Equal(t, l, got)
		} else {
			assert.ErrorIs(t, err, lanes.ErrUnavailable)
			assert.Equal(t, lanes.Scalar, got)
		}
	}
	_, err = lanes.Select(lanes.Lane(9))
	assert.ErrorIs(t, err, lanes.ErrUnknownLane)
}

func ExampleSelect() {
	l, err := lanes.Select(lanes.Lane(7))
	fmt.Println(l, errors.Is(err, lanes.ErrUnknownLane))
	// Output: scalar true
}

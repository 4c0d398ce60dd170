package tickwork_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// The face's lanes: names round-trip through ParseLane in any case, an
// unknown name or value is refused with ErrUnknownLane, and Available,
// SelectLane and BestLane agree.
func TestLane(t *testing.T) {
	all := []tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512}
	names := []string{"scalar", "avx2", "avx512"}
	var zero tickwork.Lane
	assert.Equal(t, tickwork.LaneScalar, zero, "the zero Lane is LaneScalar")
	for i, l := range all {
		assert.Equal(t, names[i], l.String())
		for _, s := range []string{names[i], strings.ToUpper(names[i]), strings.ToUpper(names[i][:1]) + names[i][1:]} {
			got, err := tickwork.ParseLane(s)
			require.NoError(t, err, s)
			assert.Equal(t, l, got, s)
		}
	}
	for _, s := range []string{"", "neon", "avx", " avx2", "avx2 "} {
		got, err := tickwork.ParseLane(s)
		assert.ErrorIs(t, err, tickwork.ErrUnknownLane, "%q", s)
		assert.Equal(t, tickwork.LaneScalar, got)
	}
	_, err := tickwork.ParseLane("neon")
	assert.EqualError(t, err, `lanes: unknown lane "neon" (want scalar, avx2 or avx512)`)
	assert.Equal(t, "Lane(9)", tickwork.Lane(9).String())

	assert.True(t, tickwork.LaneScalar.Available())
	assert.False(t, tickwork.Lane(9).Available())
	best := tickwork.BestLane()
	assert.True(t, best.Available())
	for _, l := range all {
		got, err := tickwork.SelectLane(l)
		if l.Available() {
			require.NoError(t, err)
			assert.Equal(t, l, got)
		} else {
			assert.ErrorIs(t, err, tickwork.ErrLaneUnavailable)
			assert.Equal(t, tickwork.LaneScalar, got)
		}
		if l > best {
			assert.False(t, l.Available(), "BestLane %s is not the widest: %s runs", best, l)
		}
	}
	got, err := tickwork.SelectLane(tickwork.Lane(9))
	assert.ErrorIs(t, err, tickwork.ErrUnknownLane)
	assert.Equal(t, tickwork.LaneScalar, got)
}

// ParseLane reads a lane's name in any case, as a -lane flag gives it;
// SelectLane then checks that this build and CPU run it (a value that is
// no lane never does).
func ExampleParseLane() {
	l, err := tickwork.ParseLane("AVX2")
	fmt.Println(l, err)
	_, err = tickwork.ParseLane("neon")
	fmt.Println(errors.Is(err, tickwork.ErrUnknownLane))
	l, err = tickwork.SelectLane(tickwork.Lane(7))
	fmt.Println(l, errors.Is(err, tickwork.ErrUnknownLane))
	// Output:
	// avx2 <nil>
	// true
	// scalar true
}

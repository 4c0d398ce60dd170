package scheduler

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/systems"
)

// A frame whose delta would take the clock's account past math.MaxInt64
// nanoseconds is refused with a *DeltaError (Overflow, errors.Is
// ErrClockOverflow and ErrBadDelta): nothing runs and the account stays as
// it was; a frame that fills the account exactly runs, and frames of delta
// 0 still run after it. The account is set up directly near its end rather
// than by 2.5 million frames of an hour. Before the check, Fed (or
// Simulated) wrapped negative.
func TestClockOverflowRefused(t *testing.T) {
	const hour = int64(3600 * time.Second)
	tests := []struct {
		name    string
		pacing  Pacing
		preload func(t *Time) // an account that balances, near its end
		fits    float64       // the largest delta that still fits, seconds
		over    float64       // a delta one nanosecond too many
	}{
		{"Accumulate: Fed bounds the account", Accumulate, func(t *Time) {
			t.Fed = time.Duration(math.MaxInt64 - hour)
			t.Remaining = time.Duration(int64(t.Fed) % int64(t.Step))
			t.Dropped = t.Fed - t.Remaining
		}, MaxDelta, 1e-9},
		{"OneTickPerFrame: Simulated bounds the account", OneTickPerFrame, func(t *Time) {
			n := (math.MaxInt64 - int64(t.Step)) / int64(t.Step) // the last tick that fits is the next
			t.Ticks, t.Simulated = uint64(n), time.Duration(n*int64(t.Step))
		}, 0.5, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ran := 0
			s, err := New(Config{Pacing: tc.pacing})
			require.NoError(t, err)
			require.NoError(t, s.Add(systems.System{Name: "tick", Phase: systems.FixedUpdate,
				Declare: func(*systems.Decl) systems.RunFunc { return func(*systems.Context) { ran++ } }}))
			require.NoError(t, s.Seal())
			tc.preload(&s.clock.t)

			require.NoError(t, s.Frame(tc.fits), "a frame that fills the account exactly runs")
			full := s.Time()
			assert.Equal(t, uint64(1), full.Frames)
			assert.Positive(t, ran)
			for _, d := range []time.Duration{full.Fed, full.Simulated, full.Dropped, full.Remaining} {
				assert.GreaterOrEqual(t, d, time.Duration(0), "no part of the account wrapped: %+v", full)
			}
			if tc.pacing == Accumulate {
				assert.Equal(t, time.Duration(math.MaxInt64), full.Fed)
				assert.Equal(t, full.Fed, full.Simulated+full.Dropped+full.Remaining, "the account balances")
			} else {
				assert.Greater(t, int64(full.Step), math.MaxInt64-int64(full.Simulated), "no further tick fits")
			}

			ran = 0
			err = s.Frame(tc.over)
			var de *DeltaError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, DeltaError{DT: tc.over, Overflow: true}, *de)
			assert.True(t, errors.Is(err, ErrClockOverflow))
			assert.True(t, errors.Is(err, ErrBadDelta))
			assert.Contains(t, err.Error(), "292 years")
			assert.Zero(t, ran, "a refused frame runs nothing")
			assert.Equal(t, full, s.Time(), "a refused frame leaves the account alone")

			if tc.pacing == Accumulate {
				require.NoError(t, s.Frame(0), "a frame of delta 0 adds nothing and runs")
				assert.Equal(t, full.Frames+1, s.Time().Frames)
			} else {
				require.ErrorIs(t, s.Frame(0), ErrClockOverflow, "under OneTickPerFrame a frame takes one step whatever its delta: delta 0 is refused too")
				assert.Equal(t, full, s.Time())
			}
		})
	}
	assert.False(t, errors.Is(&DeltaError{DT: -1}, ErrClockOverflow), "a bad delta is not an overflow")
}

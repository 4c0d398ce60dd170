package scheduler_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// TestDeltaErrorStatesLimit: a refused delta's message states the limit,
// MaxDelta's value in seconds and what it is.
func TestDeltaErrorStatesLimit(t *testing.T) {
	s := seal(t, scheduler.Config{}, body("a", systems.FrameStart, func(*systems.Context) {}))
	for dt, want := range map[float64]string{
		7200:        "scheduler: bad frame delta 7200 s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)",
		-0.5:        "scheduler: bad frame delta -0.5 s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)",
		math.Inf(1): "scheduler: bad frame delta +Inf s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)",
	} {
		err := s.Frame(dt)
		require.ErrorIs(t, err, scheduler.ErrBadDelta)
		assert.Equal(t, want, err.Error())
	}
	assert.Equal(t, 3600.0, scheduler.MaxDelta, "the message says one hour")
}

// TestFrameFromAnotherGoroutine: Frame called from a second goroutine while
// a frame runs is refused with ErrConcurrentFrame, whose message says so
// (not the message of a call from a system), and which matches
// ErrReentrant; the running frame goes on and completes. Under -race the
// refusal is race-free. A call from the system itself still gets
// ErrReentrant's message.
func TestFrameFromAnotherGoroutine(t *testing.T) {
	var s *scheduler.Scheduler
	entered, release := make(chan struct{}), make(chan struct{})
	runs := 0
	var fromSystem error
	s = seal(t, scheduler.Config{}, body("wait", systems.Update, func(*systems.Context) {
		runs++
		if runs == 1 {
			fromSystem = s.Frame(0.01)
			close(entered)
			<-release // the frame runs until the other goroutine has called Frame
		}
	}))
	done := make(chan error)
	go func() { done <- s.Frame(0.01) }()
	<-entered
	var other error
	otherDone := make(chan struct{})
	go func() { other = s.Frame(0.01); close(otherDone) }()
	<-otherDone
	close(release)
	require.NoError(t, <-done, "the running frame completes")

	require.Error(t, other)
	assert.Equal(t, "scheduler: Frame called from another goroutine while a frame runs; "+
		"a world is driven by one goroutine: call Frame only from the host's loop, one frame after the other", other.Error())
	assert.True(t, errors.Is(other, scheduler.ErrConcurrentFrame))
	assert.True(t, errors.Is(other, scheduler.ErrReentrant), "a concurrent call is refused as a reentrant one is")

	assert.Equal(t, scheduler.ErrReentrant, fromSystem)
	assert.Equal(t, "scheduler: Frame called from a system while its frame runs; "+
		"frames do not nest: return from the system and let the host's loop call Frame", fromSystem.Error())
	assert.False(t, errors.Is(fromSystem, scheduler.ErrConcurrentFrame))

	assert.Equal(t, 1, runs, "the refused calls ran nothing")
	assert.Equal(t, uint64(1), s.Frames())
	require.NoError(t, s.Frame(0.01), "the next frame runs")
	assert.Equal(t, 2, runs)
}

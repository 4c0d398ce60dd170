package scheduler

import (
	"math"
	"time"
)

// Pacing chooses how many fixed ticks a frame runs.
type Pacing uint8

const (
	// Accumulate runs as many fixed ticks as the frame deltas have
	// accumulated whole steps, at most MaxTicksPerFrame per frame; the time
	// beyond the cap is dropped and counted (no spiral of death). The
	// default.
	Accumulate Pacing = iota
	// OneTickPerFrame runs exactly one fixed tick per frame whatever the
	// delta, as a benchmark or a frame-stepped viewer wants. The
	// accumulator is not used: Time reports nothing dropped or remaining.
	OneTickPerFrame
)

// String returns "Accumulate", "OneTickPerFrame" or "Pacing(n)".
func (p Pacing) String() string {
	switch p {
	case Accumulate:
		return "Accumulate"
	case OneTickPerFrame:
		return "OneTickPerFrame"
	}
	return "Pacing(" + itoa(int(p)) + ")"
}

// The defaults of a Config's zero fields, stated in Config's doc.
const (
	// defaultFixedStep is the fixed step when Config.FixedStep is 0, in
	// seconds (60 ticks per second).
	defaultFixedStep = 1.0 / 60
	// defaultMaxTicksPerFrame is the cap on fixed ticks per frame when
	// Config.MaxTicksPerFrame is 0.
	defaultMaxTicksPerFrame = 8
)

// Limits of a Config and of a frame's delta.
const (
	// MaxTicksPerFrameLimit bounds Config.MaxTicksPerFrame.
	MaxTicksPerFrameLimit = 1 << 16
	// MinFixedStep and MaxFixedStep bound Config.FixedStep, in seconds.
	MinFixedStep = 1e-6
	MaxFixedStep = 60.0
	// MaxDelta is the largest frame delta Frame accepts, in seconds (one
	// hour); larger deltas are refused with a *DeltaError. A delta in
	// integer nanoseconds is far from overflow at this bound; their sum,
	// Time.Fed, is bounded by ErrClockOverflow.
	// Exported as the limit behind ErrBadDelta (tickwork.ErrBadDelta): a
	// host that clamps a long pause's delta reads it.
	MaxDelta = 3600.0
)

// Time is the fixed-step clock's account, in integer nanoseconds so that it
// balances exactly: Fed == Simulated + Dropped + Remaining, where Fed sums
// the frame deltas (each rounded to the nearest nanosecond) and Simulated
// is Ticks times Step. With OneTickPerFrame only
// Frames, Ticks and Simulated move. No field wraps: a frame that would
// take the account past math.MaxInt64 ns is refused (ErrClockOverflow).
type Time struct {
	Frames    uint64        // frames run
	Ticks     uint64        // fixed ticks run
	Step      time.Duration // the fixed step, truncated to the nanosecond (see stepNanos)
	Fed       time.Duration // sum of the frame deltas (Accumulate)
	Simulated time.Duration // Ticks * Step
	Dropped   time.Duration // time dropped by the tick cap (Accumulate)
	Remaining time.Duration // the accumulator: always below Step (Accumulate)
}

// clock is the fixed-step accumulator.
type clock struct {
	pacing   Pacing
	maxTicks int
	t        Time       // t.Step is the step the accumulator counts
	derr     DeltaError // the error of the last refused delta (refuse)
}

// nanos converts a validated delta in seconds to nanoseconds.
func nanos(seconds float64) int64 { return int64(math.Round(seconds * 1e9)) }

// stepNanos converts the fixed step to nanoseconds, truncating: then a
// delta of k steps (k/60 s, rounded to the nearest nanosecond) always holds
// k whole steps, which rounding the step up would break (2 × 16666667 ns >
// 33333333 ns). The price is a step up to 1 ns short: at 60 Hz one extra
// tick every 25 million ticks when deltas are exact. A product within a
// thousandth of a nanosecond below a whole number (0.015 s * 1e9 =
// 14999999.999999998) counts as that number.
func stepNanos(seconds float64) int64 { return int64(math.Floor(seconds*1e9 + 1e-3)) }

// validDelta reports whether dt is a finite delta in [0, MaxDelta] seconds.
func validDelta(dt float64) bool { return dt >= 0 && dt <= MaxDelta } // false for NaN

// admit returns nil when a frame of delta dt seconds may run, else the
// *DeltaError that refuses it: a bad delta, or (Overflow) one that would
// take the account past math.MaxInt64 nanoseconds. Under Accumulate, Fed
// bounds the account (Simulated, Dropped and Remaining sum to it); under
// OneTickPerFrame only Simulated grows, by one step a frame. A refused
// frame changes nothing. Allocates nothing (the error is the clock's).
func (c *clock) admit(dt float64) error {
	if !validDelta(dt) {
		return c.refuse(DeltaError{DT: dt})
	}
	grow, total := nanos(dt), int64(c.t.Fed)
	if c.pacing == OneTickPerFrame {
		grow, total = int64(c.t.Step), int64(c.t.Simulated)
	}
	if grow > math.MaxInt64-total {
		return c.refuse(DeltaError{DT: dt, Overflow: true})
	}
	return nil
}

// refuse returns the clock's own *DeltaError, set to e: a refused frame
// allocates nothing (DeltaError, Memory).
func (c *clock) refuse(e DeltaError) error {
	c.derr = e
	return &c.derr
}

// plan feeds a frame's delta and returns how many fixed ticks to run and
// the nanoseconds dropped by the cap. The caller reports the ticks it ran
// with ran.
func (c *clock) plan(dt int64) (ticks int, dropped int64) {
	if c.pacing == OneTickPerFrame {
		return 1, 0
	}
	c.t.Fed += time.Duration(dt)
	step := int64(c.t.Step)
	acc := int64(c.t.Remaining) + dt
	n := acc / step
	if n > int64(c.maxTicks) {
		dropped = (n - int64(c.maxTicks)) * step
		n = int64(c.maxTicks)
	}
	c.t.Remaining = time.Duration(acc - dropped - n*step)
	c.t.Dropped += time.Duration(dropped)
	return int(n), dropped
}

// ran accounts for ticks that ran.
func (c *clock) ran(ticks int) {
	c.t.Ticks += uint64(ticks)
	c.t.Simulated += time.Duration(ticks) * c.t.Step
}

// skipped accounts for planned ticks that did not run (a system failed):
// under Accumulate their time counts as dropped, and skipped returns it;
// under OneTickPerFrame no fed time stands behind a tick, so nothing is
// dropped and it returns 0.
func (c *clock) skipped(ticks int) time.Duration {
	if c.pacing == OneTickPerFrame || ticks <= 0 {
		return 0
	}
	d := time.Duration(ticks) * c.t.Step
	c.t.Dropped += d
	return d
}

package scheduler

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/wire"
)

// ErrState: a scheduler state (CheckState) that this scheduler's clock or
// playback cannot take, or a snapshot asked for while a frame runs.
// Returned as a *StateError.
var ErrState = errors.New("scheduler: bad scheduler state")

// StateError reports why the scheduler refused to take or check a state;
// Err is the playback's error when the playback's part is at fault.
// errors.Is(err, ErrState) is true.
type StateError struct {
	Detail string
	Err    error
}

func (e *StateError) Error() string {
	if e.Err != nil {
		return "scheduler: state: " + e.Detail + ": " + e.Err.Error()
	}
	return "scheduler: state: " + e.Detail
}

// Is reports whether target is ErrState.
func (e *StateError) Is(target error) bool { return target == ErrState }

// Unwrap returns Err.
func (e *StateError) Unwrap() error { return e.Err }

// appendState appends the scheduler's state to dst (docs/state.md): the
// clock's account (Time: frames, ticks, fed, simulated, dropped and
// remaining nanoseconds), every system counter's Total (sealed order, then
// declaration order: systems.Counter) and the playback's state (commands.Playback,
// AppendState: the pending resolutions of provisional handles). The frame
// report, the kernel pool and the sealed plan are not state. It returns a
// *StateError (errors.Is ErrState), appending nothing, before Seal, while a
// frame runs, or when the playback refuses. Allocates only when dst grows.
func (s *Scheduler) appendState(dst []byte) ([]byte, error) {
	if !s.sealed || s.running {
		return dst, &StateError{Detail: "a snapshot is taken between frames of a sealed scheduler"}
	}
	t := s.clock.t
	n := len(dst)
	for _, v := range [...]uint64{t.Frames, t.Ticks, uint64(t.Fed), uint64(t.Simulated), uint64(t.Dropped), uint64(t.Remaining)} {
		dst = wire.U64(dst, v)
	}
	s.eachCounter(func(c *frame.Counter) { dst = wire.U64(dst, uint64(c.Total)) })
	out, err := s.pbOps.AppendState(dst)
	if err != nil {
		return dst[:n], &StateError{Detail: "playback", Err: err}
	}
	return out, nil
}

// checkState reports whether src is a state the scheduler can take
// (LoadState): a *StateError (errors.Is ErrState) for a clock account that
// does not balance (Simulated == Ticks*Step; under Accumulate Fed ==
// Simulated + Dropped + Remaining and Remaining < Step; under
// OneTickPerFrame nothing fed, dropped or remaining), a negative or
// overflowing one, or a playback state the playback refuses (wrapped). It
// reads src only.
func (s *Scheduler) checkState(src []byte) error {
	r := wire.Reader{B: src}
	r.U64() // frames: any count
	ticks, fed, sim, dropped, rem := r.U64(), r.U64(), r.U64(), r.U64(), r.U64()
	if r.Bad {
		return &StateError{Detail: "section shorter than the clock"}
	}
	for range s.counters() {
		r.U64() // a counter's total: any value
	}
	if r.Bad {
		return &StateError{Detail: "section shorter than the clock and the counters"}
	}
	step := uint64(s.clock.t.Step)
	bad := func(d string) error { return &StateError{Detail: "clock: " + d} }
	if fed > math.MaxInt64 || sim > math.MaxInt64 || dropped > math.MaxInt64 || rem > math.MaxInt64 {
		return bad("a negative time")
	}
	if ticks > math.MaxInt64/step || ticks*step != sim {
		return bad(strconv.FormatUint(ticks, 10) + " ticks of " + strconv.FormatUint(step, 10) + " ns do not make " + strconv.FormatUint(sim, 10) + " ns simulated")
	}
	if s.clock.pacing == OneTickPerFrame {
		if fed != 0 || dropped != 0 || rem != 0 {
			return bad("time fed, dropped or remaining under OneTickPerFrame")
		}
	} else if rem >= step || dropped > math.MaxInt64-sim || rem > math.MaxInt64-sim-dropped || fed != sim+dropped+rem {
		return bad("fed time does not balance simulated + dropped + remaining")
	}
	if err := s.pbOps.CheckState(r.B); err != nil {
		return &StateError{Detail: "playback", Err: err}
	}
	return nil
}

// loadState makes the scheduler hold src, a state CheckState accepted: the
// clock's account, the counters' totals and the playback's state. The next Frame is frame
// Time().Frames of src. It panics on a src CheckState refuses. Allocates
// only as the playback's state does. Not while a frame runs.
func (s *Scheduler) loadState(src []byte) {
	if err := s.checkState(src); err != nil {
		panic("scheduler: LoadState without CheckState: " + err.Error())
	}
	r := wire.Reader{B: src}
	t := &s.clock.t
	t.Frames, t.Ticks = r.U64(), r.U64()
	t.Fed, t.Simulated, t.Dropped, t.Remaining = time.Duration(r.U64()), time.Duration(r.U64()), time.Duration(r.U64()), time.Duration(r.U64())
	s.eachCounter(func(c *frame.Counter) { c.Total, c.Pending = int64(r.U64()), 0 })
	s.pbOps.LoadState(r.B)
}

// stateSize is the length appendState appends now. Allocates nothing.
func (s *Scheduler) stateSize() int { return 48 + 8*s.counters() + s.pbOps.StateSize() }

// stateFixed is the part of a state whose size the declarations fix: the
// clock, the counters and the playback's head; the per-buffer parts
// (their number depends on the snapshot's worker count) and the pending
// resolutions have no declared bound (docs/state.md, "Sizes").
func (s *Scheduler) stateFixed() int { return 48 + 8*s.counters() + 8 }

// eachCounter calls f with every system counter, in sealed order and then
// declaration order: the order of the counters in a state.
func (s *Scheduler) eachCounter(f func(c *frame.Counter)) {
	for p := range s.phases {
		for _, e := range s.phases[p] {
			for i := range e.run.Counters {
				f(&e.run.Counters[i])
			}
		}
	}
}

// counters is the number of system counters.
func (s *Scheduler) counters() int {
	n := 0
	s.eachCounter(func(*frame.Counter) { n++ })
	return n
}

// describe appends the clock's configuration (step, pacing, tick cap),
// the system counters (system and name, in state order) and the
// playback's buffers, for a world's fingerprint. It allocates.
func (s *Scheduler) describe(dst []byte) []byte {
	dst = append(dst, "clock step "+strconv.FormatInt(int64(s.clock.t.Step), 10)+"ns "+s.clock.pacing.String()+
		" max ticks "+strconv.Itoa(s.clock.maxTicks)+"\n"...)
	for p := range s.phases {
		for _, e := range s.phases[p] {
			for _, c := range e.run.Counters {
				dst = append(dst, "counter "+e.sys.Name+" "+strconv.Quote(c.Name)+"\n"...)
			}
		}
	}
	return s.pbOps.Describe(dst)
}

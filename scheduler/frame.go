package scheduler

import (
	"runtime/debug"
	"time"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/systems"
)

// Frame runs one frame with delta dt, in seconds (the wall time since the
// previous frame, as a host's loop measures it):
//
//  1. every event table's BeginFrame, FrameStart systems, then their
//     commands play back; then every resolution of a provisional handle
//     played so far is released (the previous frame's creates and this
//     FrameStart's: see the package doc);
//  2. zero or more fixed ticks (see Pacing): every event table's BeginTick,
//     FixedUpdate systems, then their commands play back, after every tick;
//  3. Update, LateUpdate and FrameEnd, each followed by its playback;
//  4. every event table's EndFrame and TakeDropped, and the frame report
//     (events.Table.BeginFrame, BeginTick and EndFrame say what these
//     boundaries do).
//
// Systems run one after another in sealed order on the calling goroutine.
// The first frame uses dt as given (no special first-frame delta): with
// dt = 0 and Accumulate pacing it runs no fixed tick.
//
// It returns ErrNotSealed before Seal, ErrReentrant when called while a
// frame runs (from a system: frames do not nest), and a *DeltaError
// (errors.Is ErrBadDelta) for a negative, NaN, infinite or above-MaxDelta
// dt, or one that would overflow the clock's account (errors.Is
// ErrClockOverflow); in these cases nothing runs. When a system returns an error, the
// systems after it do not run: the commands recorded so far in its phase
// play back, the fixed ticks left count as dropped time, the events end the
// frame, the report is completed, and Frame returns a *SystemError (errors.Is
// ErrSystem) wrapping the system's error. The failed frame counts in
// Frames. When every system succeeded but a playback could not carry out a
// record (a create into a full table: see commands.Stats), the frame
// completes and Frame returns the first such error, a *PlaybackError
// naming the system that recorded it (errors.Is ErrPlayback and
// commands.ErrPlayback, and the cause, such as ephemeral.ErrCapacity); the
// report's Commands has the counts. When a system or kernel panics, the
// panic goes up to the host as a *PanicError naming the system (errors.Is
// ErrSystemPanic, unwrapping to the original value) and the scheduler is
// poisoned: every later Frame returns ErrPoisoned without running anything
// (close the world and build a new one). How these errors name the system:
// see the package's sentinel errors. A frame allocates nothing in steady
// state. Not safe for
// concurrent use: one goroutine drives the scheduler, and no other goroutine
// may touch its tables or event tables while Frame runs (kernels started by
// its systems excepted).
func (s *Scheduler) Frame(dt float64) error {
	if !s.sealed {
		return ErrNotSealed
	}
	if s.running {
		return ErrReentrant
	}
	if s.poisoned {
		return ErrPoisoned
	}
	if err := s.clock.admit(dt); err != nil {
		return err
	}
	s.running = true
	s.poisoned = true  // cleared when the frame completes; a panic leaves it set
	defer s.endFrame() // also when a system panics
	start := time.Now()
	b0, o0 := s.meter.read()
	r := &s.report
	frame := s.clock.t.Frames
	r.beginFrame(frame, dt)
	s.env.SetFrame(frame, dt)
	s.env.SetTick(s.clock.t.Ticks)

	ticks, dropped := s.clock.plan(nanos(dt))
	r.Dropped = time.Duration(dropped)

	for _, b := range s.events {
		b.BeginFrame()
	}
	err := s.runPhase(systems.FrameStart)
	// Creates played back before this frame stay resolvable until here.
	s.playback.Release()
	for k := 0; k < ticks; k++ {
		if err != nil {
			r.Dropped += s.clock.skipped(ticks - k)
			break
		}
		s.env.SetTick(s.clock.t.Ticks)
		for _, b := range s.events {
			b.BeginTick()
		}
		err = s.runPhase(systems.FixedUpdate)
		s.clock.ran(1)
		r.FixedTicks++
	}
	s.env.SetTick(s.clock.t.Ticks)
	for p := systems.Update; p <= systems.FrameEnd && err == nil; p++ {
		err = s.runPhase(p)
	}
	for _, b := range s.events {
		b.EndFrame()
		r.EventsDropped += b.TakeDropped()
	}
	r.Remaining = s.clock.t.Remaining
	s.clock.t.Frames++
	r.stale = true
	b1, o1 := s.meter.read()
	r.AllocBytes, r.AllocObjects = b1-b0, o1-o0
	r.FrameTime = time.Since(start)
	s.poisoned = false
	if err == nil && r.Commands.Err != nil {
		// Nothing is lost silently: a record that playback could not carry
		// out (a create into a full table) fails the frame's result too.
		err = r.Commands.Err
	}
	return err
}

// endFrame marks the end of a frame (see Running).
func (s *Scheduler) endFrame() { s.running = false }

// runPhase runs the systems of phase p in sealed order, then plays back
// their commands. It returns a *SystemError for the first failing system.
func (s *Scheduler) runPhase(p systems.Phase) error {
	var fail error
	sys := s.report.Systems
	for _, e := range s.phases[p] {
		t0 := time.Now()
		err := s.run(e, p)
		e.ctx.EndRun()
		sys[e.report].record(time.Since(t0))
		if err != nil {
			fail = &SystemError{System: e.sys.Name, Phase: p, Frame: s.report.Frame, Err: err}
			break
		}
	}
	s.play(p)
	return fail
}

// run calls e's Run. A panic in it, or in a kernel it ran, goes on up as a
// *PanicError naming the system; the deferred call allocates nothing
// unless there is a panic.
func (s *Scheduler) run(e *entry, p systems.Phase) error {
	defer s.repanic(e, p)
	return e.sys.Run(e.ctx)
}

// repanic, deferred by run, re-raises a panic of e's Run as a *PanicError.
func (s *Scheduler) repanic(e *entry, p systems.Phase) {
	r := recover()
	if r == nil {
		return
	}
	pe := &PanicError{System: e.sys.Name, Phase: p, Frame: s.report.Frame, Value: r}
	if _, ok := r.(*kernels.PanicError); !ok {
		pe.Stack = debug.Stack() // still the panicking goroutine's stack
	}
	panic(pe)
}

// owner names the system of a failed playback of phase p: st.Err, a
// *commands.PlaybackError naming a buffer id, becomes a *PlaybackError
// naming the system whose buffer that is. Only the frame's first failure
// is kept (commands.Stats.Add), so later ones are left as they are.
func (s *Scheduler) owner(p systems.Phase, st commands.Stats) commands.Stats {
	pe, ok := st.Err.(*commands.PlaybackError) // what a playback's Stats.Err holds
	if !ok || s.report.Commands.Err != nil {
		return st
	}
	for _, e := range s.phases[p] {
		if e.owns(pe.Buffer) {
			st.Err = &PlaybackError{System: e.sys.Name, Phase: p, Frame: s.report.Frame, Err: pe}
			break
		}
	}
	return st
}

// owns reports whether the command buffer with id id is one of e's.
func (e *entry) owns(id int) bool {
	if b := e.ctx.CommandBuffer(); b != nil && b.ID() == id {
		return true
	}
	for _, b := range e.ctx.WorkerBuffers() {
		if b.ID() == id {
			return true
		}
	}
	return false
}

// play plays back the commands of phase p's systems in sealed order: runs
// of serial buffers as one PlayAll, and each system's worker buffers as one
// keyed PlayMerged right after its serial buffer. Empty buffers are skipped.
func (s *Scheduler) play(p systems.Phase) {
	bufs := s.bufs[:0]
	for _, e := range s.phases[p] {
		if b := e.ctx.CommandBuffer(); b != nil && b.Len() > 0 {
			bufs = append(bufs, b)
		}
		ws := e.ctx.WorkerBuffers()
		n := 0
		for _, w := range ws {
			n += w.Len()
		}
		if n == 0 {
			continue
		}
		if len(bufs) > 0 {
			s.report.Commands.Add(s.owner(p, s.playback.PlayAll(bufs)))
			clear(bufs)
			bufs = bufs[:0]
		}
		s.report.Commands.Add(s.owner(p, s.playback.PlayMerged(ws)))
	}
	if len(bufs) > 0 {
		s.report.Commands.Add(s.owner(p, s.playback.PlayAll(bufs)))
		clear(bufs)
	}
	s.bufs = bufs[:0]
}

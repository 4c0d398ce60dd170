package scheduler

import (
	"reflect"
	goruntime "runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/systems"
)

// Frame runs one frame with delta dt, in seconds (the wall time since the
// previous frame, as a host's loop measures it): FrameStart, the fixed
// ticks, Update, LateUpdate and FrameEnd, each followed by its playback,
// then the event frame and the report (see Frame path and boundaries in
// the package doc). Systems run one after another on the calling
// goroutine.
//
// It returns an error before Seal ("not sealed"), ErrReentrant when called from a
// system (or a kernel running inline) while its frame runs,
// ErrConcurrentFrame when called from another goroutine while a frame
// runs (both refuse the call and leave the running frame alone; the check
// is a compare-and-swap, race-free), a *DeltaError for a bad dt or one that would overflow the
// clock's account (errors.Is ErrClockOverflow; nothing runs then), and otherwise
// the errors of Errors in the package doc: a *SystemError for the first
// system that failed (the systems after it do not run, the boundaries
// complete), the first *PlaybackError or *events.OverflowError of a
// completed frame, ErrPoisoned after a panic escaped an earlier frame. A
// panic in a system or kernel goes up to the caller as a *PanicError
// naming the system and poisons the scheduler. A frame allocates nothing
// in steady state, a long or capped delta and a failing or refused frame
// included (its error is reused: DeltaError, Memory). Not safe for concurrent use: no other goroutine may
// touch its tables or event tables while Frame runs (kernels started by
// its systems excepted).
func (s *Scheduler) Frame(dt float64) error {
	if !s.sealed {
		return errNotSealed
	}
	if !s.running.CompareAndSwap(false, true) {
		return reentrant()
	}
	if s.poisoned {
		s.running.Store(false)
		return ErrPoisoned
	}
	if err := s.clock.admit(dt); err != nil {
		s.running.Store(false)
		return err
	}
	s.poisoned = true  // cleared when the frame completes; a panic leaves it set
	defer s.endFrame() // also when a system panics
	start := time.Now()
	b0, o0 := s.meter.read()
	r := &s.report
	frame := s.clock.t.Frames
	r.beginFrame(frame, dt)
	s.env.Frame, s.env.FrameDT, s.env.Tick = frame, dt, s.clock.t.Ticks
	if s.env.Pool != nil {
		s.env.Pool.TakePeak() // Runs of the host's between frames are no system's
	}

	ticks, dropped := s.clock.plan(nanos(dt))
	r.Dropped = time.Duration(dropped)
	s.idxErr = nil
	s.changed("host", false) // the host's writes since the last frame (docs/architecture.md, Indexes)

	for _, b := range s.eventOps {
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
		s.env.Tick = s.clock.t.Ticks
		for _, b := range s.eventOps {
			b.BeginTick()
		}
		s.env.Fixed = true
		err = s.runPhase(systems.FixedUpdate)
		s.env.Fixed = false
		s.clock.ran(1)
		r.FixedTicks++
	}
	s.env.Tick = s.clock.t.Ticks
	for p := systems.Update; p <= systems.FrameEnd && err == nil; p++ {
		err = s.runPhase(p)
	}
	var overflow error
	for _, b := range s.eventOps {
		b.EndFrame()
		if overflow == nil {
			overflow = b.Overflowed()
		}
		r.EventsDropped += b.TakeDropped()
		r.EventsUnread += b.TakeUnread()
	}
	s.changed("frame end", true) // the event views moved
	s.syncSubscribers()
	r.Remaining = s.clock.t.Remaining
	s.clock.t.Frames++
	r.stale = true
	b1, o1 := s.meter.read()
	r.AllocBytes, r.AllocObjects = b1-b0, o1-o0
	r.FrameTime = time.Since(start)
	s.poisoned = false
	if err == nil {
		// Nothing is lost silently: a record that playback could not carry
		// out (a create into a full table), or an event dropped by
		// overflow, fails the frame's result too.
		err = r.Commands.Err
	}
	if err == nil {
		err = overflow
	}
	if err == nil {
		err = s.idxErr
	}
	return err
}

// endFrame marks the end of a frame (see Running).
func (s *Scheduler) endFrame() {
	s.env.Running = nil
	s.running.Store(false)
}

// reentrant returns the error of a Frame called while a frame runs:
// ErrReentrant when the running Frame is on the caller's own stack (a
// system, or a kernel running inline, called it), ErrConcurrentFrame when
// it is not (another goroutine). Only this refused call pays for the look
// at its stack; the frame path does not. After the first refused call it
// allocates nothing: it reads the stack 64 frames at a time into an array
// and tests each return address against the code range of Frame
// (frameCode, found by the first call).
//
//go:noinline
func reentrant() error {
	lo, hi := frameCode()
	var pcs [64]uintptr
	seen := 0
	for skip := 2; ; skip += len(pcs) { // from reentrant's caller, this Frame
		n := goruntime.Callers(skip, pcs[:])
		for _, pc := range pcs[:n] {
			if pc > lo && pc <= hi { // a return address: the call is at pc-1
				if seen++; seen == 2 { // an outer Frame: this goroutine runs the frame
					return ErrReentrant
				}
			}
		}
		if n < len(pcs) {
			return ErrConcurrentFrame
		}
	}
}

// frameCode returns the code addresses of Scheduler.Frame, its inlined
// calls included: [lo, hi). The first call finds them, one byte at a time
// from Frame's entry, where the function of the address changes. Set by
// init (Frame refers to it).
var frameCode func() (lo, hi uintptr)

func init() { frameCode = sync.OnceValues(findFrameCode) }

func findFrameCode() (lo, hi uintptr) {
	f := goruntime.FuncForPC(reflect.ValueOf((*Scheduler).Frame).Pointer())
	lo = f.Entry()
	hi = lo
	for {
		g := goruntime.FuncForPC(hi)
		if g == nil || g.Entry() != lo {
			return lo, hi
		}
		hi++
	}
}

// runPhase runs the systems of phase p in sealed order, then plays back
// their commands. It returns a *SystemError for the first failing system.
func (s *Scheduler) runPhase(p systems.Phase) error {
	var fail error
	sys := s.report.Systems
	for _, e := range s.phases[p] {
		if len(e.run.Conds) > 0 && !s.admit(e, p) {
			sys[e.report].Skips++
			if err := e.run.Err; err != nil {
				s.sysErr = SystemError{System: e.sys.Name, Phase: p, Frame: s.report.Frame, Err: err}
				fail = &s.sysErr
				break
			}
			continue
		}
		t0 := time.Now()
		err := s.run(e, p)
		sys[e.report].record(time.Since(t0))
		if s.env.Pool != nil {
			sys[e.report].Workers = max(sys[e.report].Workers, s.env.Pool.TakePeak())
		}
		if len(e.run.Counters) > 0 {
			sys[e.report].take(e.run.Counters)
		}
		if err != nil {
			s.sysErr = SystemError{System: e.sys.Name, Phase: p, Frame: s.report.Frame, Err: err}
			fail = &s.sysErr // reused: a failing frame allocates nothing
			break
		}
	}
	s.play(p)
	return fail
}

// run runs e's body once (frame.Run.Exec: the body, then the merges of its
// parallel emitters and the passes of its readers). A panic in it, or in a
// kernel it ran, goes on up as a *PanicError naming the system; the
// deferred call allocates nothing unless there is a panic.
func (s *Scheduler) run(e *entry, p systems.Phase) error {
	defer s.repanic(e, p)
	if debugChecks {
		e.debugBefore() // docs/architecture.md, Debug build
	}
	err := e.run.Exec()
	if debugChecks {
		if derr := e.debugAfter(); err == nil {
			err = derr
		}
	}
	if len(e.syncs) > 0 {
		if ierr := s.syncAfter(e); err == nil {
			err = ierr
		}
	}
	return err
}

// admit runs e's run conditions (frame.Run.Admit) and reports whether e
// runs now; false with e.run.Err set when a condition failed. A panic in
// a condition goes on up as run's does (docs/architecture.md, Run
// conditions).
func (s *Scheduler) admit(e *entry, p systems.Phase) bool {
	defer s.repanic(e, p)
	n := held(e.man.Emits)
	ok := e.run.Admit()
	if len(e.man.Emits) > 0 && held(e.man.Emits) != n {
		condEmitPanic(e.sys.Name)
	}
	return ok
}

// held is the number of events the tables bs hold (events.Table.Held),
// summed.
func held(bs []events.Buffer) int {
	n := 0
	for _, b := range bs {
		if h, ok := b.(interface{ Held() int }); ok { // every Buffer is an *events.Table[T]
			n += h.Held()
		}
	}
	return n
}

// condEmitPanic reports a run condition that emitted through its
// system's emitter; out of line.
//
//go:noinline
func condEmitPanic(system string) {
	panic("tickwork: a run condition of system \"" + system + "\" emitted events" +
		": a condition only reads (docs/architecture.md, Run conditions); emit in the system's body")
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

// play plays back the commands of phase p's systems in sealed order: runs
// of serial buffers as one PlayAll, and each system's worker buffers as one
// keyed PlayMerged right after its serial buffer. Empty buffers are skipped.
func (s *Scheduler) play(p systems.Phase) {
	s.playback.SetFrame(p.String(), s.report.Frame)
	bufs := s.bufs[:0]
	for _, e := range s.phases[p] {
		if b := e.run.Serial; b != nil && b.Len() > 0 {
			bufs = append(bufs, b)
		}
		ws := e.run.Workers
		n := 0
		for _, w := range ws {
			n += w.Len()
		}
		if n == 0 {
			continue
		}
		if len(bufs) > 0 {
			s.report.Commands.Add(s.playback.PlayAll(bufs))
			clear(bufs)
			bufs = bufs[:0]
		}
		s.report.Commands.Add(s.playback.PlayMerged(ws))
	}
	if len(bufs) > 0 {
		s.report.Commands.Add(s.playback.PlayAll(bufs))
		clear(bufs)
	}
	s.bufs = bufs[:0]
	s.changed("playback", false) // the rows the playback changed (docs/architecture.md, Indexes)
}

package scheduler

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/systems"
)

// Sentinel errors of the package. Every error returned by scheduler matches
// one of them with errors.Is, except those of other packages passed through
// as they are: a *systems.DefinitionError from Add, Hook.Add, Hook.Substitute
// or Seal.
//
// Errors of a frame name the system: whatever goes wrong inside a frame is
// reported with the system it comes from, its phase and the frame number,
// in a message that starts `scheduler: frame F: Phase system "name"`, and
// unwraps to the original error:
//   - a system's Run returns an error: Frame returns a *SystemError
//     (errors.Is ErrSystem);
//   - a system's Run or one of its kernels panics: Frame recovers it only
//     to name the system and panics again, the scheduler poisoned
//     (ErrPoisoned from then on), with a *PanicError (errors.Is
//     ErrSystemPanic) whose Value is the original panic value; for a
//     kernel's panic that is the *kernels.PanicError naming the worker and
//     chunk, which errors.As reaches, and through it the kernel's own error;
//   - a command a system recorded fails at playback (a create into a full
//     table): the frame completes and returns a *PlaybackError (errors.Is
//     ErrPlayback; the type is commands.PlaybackError) naming the system
//     whose command buffer recorded it, the phase, the frame, the record
//     and the table, and unwrapping to the storage error (such as
//     ephemeral.ErrCapacity). FrameReport.Commands.Err holds the same error.
var (
	// ErrConfig: a bad Config field. Returned as a *ConfigError. Exported,
	// with ConfigError, for a host that drives a Scheduler directly from
	// its own settings (a world checks its options first: an
	// *OptionError).
	ErrConfig = errors.New("scheduler: bad configuration")
	// ErrHookDone: a Hook's Add, Order or Substitute called after its hook
	// returned (a Hook kept past Build); nothing was done.
	ErrHookDone = errors.New("scheduler: Hook used after its hook function returned: a Hook is valid only during the hook call (Builder.Hook); make its Add, Order and Substitute calls inside the hook function")
	// ErrDuplicateSystem: two systems share a name. Returned as a *DuplicateError.
	ErrDuplicateSystem = errors.New("scheduler: duplicate system name")
	// ErrUnknownSystem: an ordering constraint, hook look-up or substitution
	// names no registered system. Returned as an *UnknownSystemError.
	ErrUnknownSystem = errors.New("scheduler: unknown system")
	// ErrCycle: the ordering constraints of a phase form a cycle. Returned
	// as a *CycleError naming it.
	ErrCycle = errors.New("scheduler: ordering cycle")
	// ErrPhaseOrder: a constraint between systems of two phases that
	// contradicts the phase order. Returned as a *PhaseOrderError.
	ErrPhaseOrder = errors.New("scheduler: constraint contradicts the phase order")
	// ErrConflict: systems of one phase that no chain of constraints orders
	// touch the same data. Returned as a *ConflictError naming every pair.
	ErrConflict = errors.New("scheduler: unordered systems touch the same data")
	// ErrEventOrder: a system consumes a ThisFrame event table but does
	// not run after every system that emits it in every frame, so it would
	// miss events (ThisFrame events are cleared at the frame's end).
	// Returned as an *EventOrderError.
	ErrEventOrder = errors.New("scheduler: a ThisFrame consumer does not run after every emitter")
	// ErrUnreadEvents: systems emit into a ThisFrame event table that no
	// system consumes, so its events would end every frame unread.
	// Returned as an *UnreadEventsError.
	ErrUnreadEvents = errors.New("scheduler: ThisFrame events with no consumer")
	// ErrManifestMismatch: a hook substitution whose manifest differs from
	// the system's. Returned as a *SubstituteError.
	ErrManifestMismatch = errors.New("scheduler: substitute declares a different manifest")
	// ErrHook: a hook returned an error. Returned as a *HookError that
	// unwraps to the hook's error.
	ErrHook = errors.New("scheduler: hook failed")
	// ErrHookPanic: a hook panicked inside Seal. Returned as a *HookError
	// wrapping a *HookPanicError with the panic value; Seal does not
	// re-panic.
	ErrHookPanic = errors.New("scheduler: hook panicked")
	// ErrBadDelta: Frame with a negative, NaN, infinite or too large
	// (above MaxDelta seconds) delta. Returned as a *DeltaError; the frame
	// did not run.
	ErrBadDelta = errors.New("scheduler: bad frame delta")
	// ErrClockOverflow: Frame with a delta that would take the fixed-step
	// clock's account (Time.Fed under Accumulate, Time.Simulated under
	// OneTickPerFrame) past math.MaxInt64 nanoseconds, about 292 years.
	// Returned as a *DeltaError with Overflow set (errors.Is ErrBadDelta
	// too); the frame did not run and the account is unchanged.
	ErrClockOverflow = errors.New("scheduler: the clock's account would overflow")
	// ErrSystem: a system's Run returned an error. Returned as a
	// *SystemError that unwraps to the system's error.
	ErrSystem = errors.New("scheduler: system failed")
	// ErrSystemPanic: a system's Run, or a kernel it ran, panicked. Frame
	// panics with a *PanicError that unwraps to the panic value when it is
	// an error (a kernel's *kernels.PanicError among them).
	ErrSystemPanic = errors.New("scheduler: system panicked")
	// ErrPlayback: a command that a system recorded could not be carried
	// out at playback. Returned as a *PlaybackError (commands.PlaybackError);
	// it is commands.ErrPlayback.
	ErrPlayback = commands.ErrPlayback
	// ErrReentrant: Frame called from a system (or from a kernel running
	// inline, on the frame's goroutine) while its frame runs. Nothing of
	// the nested call runs; the running frame goes on. ErrConcurrentFrame
	// matches it too.
	ErrReentrant = errors.New("scheduler: Frame called from a system while its frame runs; " +
		"frames do not nest: return from the system and let the host's loop call Frame")
	// ErrPoisoned: Frame after a frame that a panic left unfinished (a
	// system or kernel panicked and the host recovered). Its command
	// buffers, staged events and clock are in an undefined state, so the
	// scheduler refuses to go on: recover to log or save, then Close the
	// world and build a new one.
	ErrPoisoned = errors.New("scheduler: a panic left the previous frame unfinished; close this world and build a new one")
	// ErrNilHook: Hook given a nil function.
	ErrNilHook = errors.New("scheduler: Hook: nil hook function; pass a func(*Hook) error, which Build calls")
	// ErrConcurrentFrame: Frame called from a goroutine other than the one
	// running the current frame (a second host goroutine, a kernel worker).
	// Nothing of that call runs; the running frame goes on. errors.Is(err,
	// ErrReentrant) holds too.
	ErrConcurrentFrame error = concurrentFrame{}
)

// The errors of a host's calls out of order and of a nil event table, not
// exported: a slip of a host that drives a Scheduler directly (runtime
// never makes one), which the message says how to fix.
var (
	// errSealed: Add, AddEvents, Hook or Seal after a successful Seal.
	errSealed = errors.New("scheduler: already sealed")
	// errNotSealed: Frame before a successful Seal.
	errNotSealed = errors.New("scheduler: not sealed; call Seal before Frame")
	// errNilEvents: AddEvents given a nil or typed-nil event table.
	errNilEvents = errors.New("scheduler: AddEvents: nil event table; check the error of the events.New call that made it")
)

type concurrentFrame struct{}

func (concurrentFrame) Error() string {
	return "scheduler: Frame called from another goroutine while a frame runs; " +
		"a world is driven by one goroutine: call Frame only from the host's loop, one frame after the other"
}

// Is reports whether target is ErrReentrant.
func (concurrentFrame) Is(target error) bool { return target == ErrReentrant }

// ConfigError reports a bad Config field. errors.Is(err, ErrConfig) is true.
// Exported with ErrConfig (see there).
type ConfigError struct {
	Field  string // such as "FixedStep"
	Value  string // the offending value
	Reason string // the accepted range
}

func (e *ConfigError) Error() string {
	return "scheduler: bad " + e.Field + " " + e.Value + ": " + e.Reason
}

// Is reports whether target is ErrConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrConfig }

// DuplicateError reports a system name registered twice.
// errors.Is(err, ErrDuplicateSystem) is true.
type DuplicateError struct {
	Name string
}

func (e *DuplicateError) Error() string {
	return "scheduler: two systems are named " + strconv.Quote(e.Name) + "; system names must be unique"
}

// Is reports whether target is ErrDuplicateSystem.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicateSystem }

// UnknownSystemError reports a name that matches no system: in a Before or
// After list of System (Relation "before" or "after"), or in a hook call
// (System empty, Relation the call, such as "Substitute").
// errors.Is(err, ErrUnknownSystem) is true.
type UnknownSystemError struct {
	System   string // the system whose constraint names Name; empty for hook calls
	Relation string // "before", "after", or the hook method
	Name     string // the unknown name
}

func (e *UnknownSystemError) Error() string {
	if e.System == "" {
		return "scheduler: " + e.Relation + ": no system named " + strconv.Quote(e.Name)
	}
	return "scheduler: system " + strconv.Quote(e.System) + " runs " + e.Relation + " " +
		strconv.Quote(e.Name) + ", but no system has that name"
}

// Is reports whether target is ErrUnknownSystem.
func (e *UnknownSystemError) Is(target error) bool { return target == ErrUnknownSystem }

// CycleError reports an ordering cycle of one phase: Cycle lists its
// systems, each ordered before the next and the last before the first.
// errors.Is(err, ErrCycle) is true.
type CycleError struct {
	Phase systems.Phase
	Cycle []string
}

func (e *CycleError) Error() string {
	var b strings.Builder
	b.WriteString("scheduler: ")
	b.WriteString(e.Phase.String())
	b.WriteString(": ordering constraints form a cycle: ")
	for _, n := range e.Cycle {
		b.WriteString(strconv.Quote(n))
		b.WriteString(" -> ")
	}
	if len(e.Cycle) > 0 {
		b.WriteString(strconv.Quote(e.Cycle[0]))
	}
	return b.String()
}

// Is reports whether target is ErrCycle.
func (e *CycleError) Is(target error) bool { return target == ErrCycle }

// PhaseOrderError reports a constraint between systems of different phases
// that the phase order contradicts: System must run Relation ("before" or
// "after") Other, but its phase runs on the other side. A cross-phase
// constraint that agrees with the phase order is accepted (and always
// holds). errors.Is(err, ErrPhaseOrder) is true.
type PhaseOrderError struct {
	System, Relation, Other string
	Phase, OtherPhase       systems.Phase
}

func (e *PhaseOrderError) Error() string {
	return fmt.Sprintf("scheduler: system %q (%v) cannot run %s %q (%v): phases run in the order FrameStart, FixedUpdate, Update, LateUpdate, FrameEnd",
		e.System, e.Phase, e.Relation, e.Other, e.OtherPhase)
}

// Is reports whether target is ErrPhaseOrder.
func (e *PhaseOrderError) Is(target error) bool { return target == ErrPhaseOrder }

// Conflict is one datum touched by two unordered systems of a phase. A runs
// before B in the sealed (registration-preferring) order. Exported as the
// element type of ConflictError.Conflicts (tickwork.ConflictError), which
// a host reads to see which pair to order.
type Conflict struct {
	Phase   systems.Phase
	A, B    string  // system names
	Overlap Overlap // the datum ("table.column", ...) and each side's access
}

// Overlap is one datum two systems both touch, at least one of them
// writing it (docs/architecture.md, Access rules). Exported as the type of
// Conflict.Overlap.
type Overlap struct {
	// Datum names what is shared: "table.column" for a column, "T" or
	// "T|U" for the structure of one domain recorded by both (tables T
	// and U), "event NAME" or "resource NAME".
	Datum string
	// A and B say how the first and second system touch it: "read",
	// "read by run condition" (docs/architecture.md, Run conditions),
	// "write", "record TABLE", "emit" or "consume".
	A, B string
}

// String formats the overlap as "A/B Datum", such as "write/read Body.x".
func (o Overlap) String() string { return o.A + "/" + o.B + " " + o.Datum }

// String formats the conflict as
// `FixedUpdate: "A" (write) and "B" (read) both touch Body.x`.
func (c Conflict) String() string {
	return fmt.Sprintf("%v: %q (%s) and %q (%s) both touch %s",
		c.Phase, c.A, c.Overlap.A, c.B, c.Overlap.B, c.Overlap.Datum)
}

// ConflictError lists every conflict found at Seal: pairs of systems of one
// phase that no chain of Before/After constraints orders and that touch the
// same data (docs/architecture.md, Access rules). Order each pair with
// Before or After (or a hook's Order) to seal. errors.Is(err, ErrConflict)
// is true.
type ConflictError struct {
	Conflicts []Conflict // in phase order, then sealed order of A, then of B
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	b.WriteString("scheduler: ")
	b.WriteString(strconv.Itoa(len(e.Conflicts)))
	b.WriteString(" conflict(s) between unordered systems; order each pair with Before/After:")
	for _, c := range e.Conflicts {
		b.WriteString("\n\t")
		b.WriteString(c.String())
	}
	return b.String()
}

// Is reports whether target is ErrConflict.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// EventOrderError reports a system (Consumer) that consumes the ThisFrame
// event table Events in phase ConsumerPhase but would miss the events of
// the system Emitter, which emits it in EmitterPhase (when that is:
// docs/architecture.md, Delivery rule). Emitter is the first such emitter
// in running order. errors.Is(err, ErrEventOrder) is true.
type EventOrderError struct {
	Consumer      string
	ConsumerPhase systems.Phase
	Emitter       string
	EmitterPhase  systems.Phase
	Events        string // the event table's name
}

func (e *EventOrderError) Error() string {
	head := fmt.Sprintf("scheduler: system %q (%v) consumes ThisFrame events %q, but ", e.Consumer, e.ConsumerPhase, e.Events)
	switch {
	case e.EmitterPhase > e.ConsumerPhase:
		return head + fmt.Sprintf("its emitter %q runs later (%v) and ThisFrame events are cleared at the frame's end,"+
			" so it would never read that emitter's events; move the consumer to %v or a later phase, or make the table NextFrame",
			e.Emitter, e.EmitterPhase, e.EmitterPhase)
	case e.EmitterPhase == e.ConsumerPhase:
		return head + fmt.Sprintf("its emitter %q runs after it in %v and ThisFrame events are cleared at the frame's end,"+
			" so it would miss that emitter's events; order the consumer after the emitter, or make the table NextFrame",
			e.Emitter, e.EmitterPhase)
	}
	return head + fmt.Sprintf("its emitter %q runs in %v and a frame may run no fixed tick,"+
		" so it would miss the events of such frames; make the table NextFrame (read once, at the next fixed tick),"+
		" or move the consumer out of FixedUpdate", e.Emitter, e.EmitterPhase)
}

// Is reports whether target is ErrEventOrder.
func (e *EventOrderError) Is(target error) bool { return target == ErrEventOrder }

// UnreadEventsError reports a ThisFrame event table (Events) that the
// systems Emitters emit into (in running order) and no system consumes:
// its events would end every frame unread (docs/architecture.md,
// Retention and capacity). errors.Is(err, ErrUnreadEvents) is true.
type UnreadEventsError struct {
	Events   string
	Emitters []string
}

func (e *UnreadEventsError) Error() string {
	var b strings.Builder
	for i, n := range e.Emitters {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	who := "system " + b.String() + " emits"
	if len(e.Emitters) > 1 {
		who = "systems " + b.String() + " emit"
	}
	return fmt.Sprintf("scheduler: %s ThisFrame events %q, but no system consumes them, so every one would end its frame unread;"+
		" add a consumer (systems.Consume, tickwork.Observe), make the table NextFrame for the host to read between frames,"+
		" or declare that they may go unread (MayGoUnread in its spec)", who, e.Events)
}

// Is reports whether target is ErrUnreadEvents.
func (e *UnreadEventsError) Is(target error) bool { return target == ErrUnreadEvents }

// SubstituteError reports a hook substitution refused because its manifest
// differs from the system's. errors.Is(err, ErrManifestMismatch) is true.
type SubstituteError struct {
	System string
}

func (e *SubstituteError) Error() string {
	return "scheduler: cannot substitute system " + strconv.Quote(e.System) +
		": the substitute must declare the same manifest (same columns, tables, events and resources)"
}

// Is reports whether target is ErrManifestMismatch.
func (e *SubstituteError) Is(target error) bool { return target == ErrManifestMismatch }

// HookError wraps the error of the Index-th hook (0-based, in registration
// order). errors.Is(err, ErrHook) is true, and Unwrap gives the hook's error.
type HookError struct {
	Index int
	Err   error
}

func (e *HookError) Error() string {
	return "scheduler: hook " + strconv.Itoa(e.Index) + ": " + e.Err.Error()
}

// Is reports whether target is ErrHook.
func (e *HookError) Is(target error) bool { return target == ErrHook }

// Unwrap returns the hook's error.
func (e *HookError) Unwrap() error { return e.Err }

// HookPanicError is the error of a hook that panicked in Seal (wrapped in
// the *HookError naming the hook): Value is the panic value and Stack the
// hook's goroutine stack at the panic. errors.Is(err, ErrHookPanic) is
// true, and Unwrap gives Value when it is an error.
type HookPanicError struct {
	Value any
	Stack []byte
}

func (e *HookPanicError) Error() string { return "panicked: " + fmt.Sprint(e.Value) }

// Is reports whether target is ErrHookPanic.
func (e *HookPanicError) Is(target error) bool { return target == ErrHookPanic }

// Unwrap returns Value when it is an error, else nil.
func (e *HookPanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// DeltaError reports a frame delta that is negative, NaN, infinite or above
// MaxDelta seconds, or (Overflow) one that would overflow the clock's
// account (ErrClockOverflow). The frame did not run. errors.Is(err,
// ErrBadDelta) is true, and errors.Is(err, ErrClockOverflow) when Overflow
// is set. It is reused (Memory, below).
type DeltaError struct {
	DT       float64 // seconds
	Overflow bool    // a valid delta, refused because the account would pass math.MaxInt64 ns
}

func (e *DeltaError) Error() string {
	dt := strconv.FormatFloat(e.DT, 'g', -1, 64)
	if e.Overflow {
		return "scheduler: frame delta " + dt + " s refused: the fixed-step clock's account would pass " +
			"math.MaxInt64 nanoseconds (292 years; see Time); under Accumulate frames of delta 0 still run (under OneTickPerFrame none does), or build a new world"
	}
	return "scheduler: bad frame delta " + dt + " s: want a finite number of seconds from 0 to " +
		strconv.FormatFloat(MaxDelta, 'g', -1, 64) + " (MaxDelta, one hour)"
}

// Memory: the *DeltaError Frame returns is its scheduler's own, reused by
// the next refused delta, so a refused frame allocates nothing; copy it
// (or its Error text) to keep it past the next refused Frame. The same
// holds for the *SystemError of a failed frame, reused by the next failed
// frame, and for a *PlaybackError (commands.PlaybackError, Memory).

// Is reports whether target is ErrBadDelta, or ErrClockOverflow for an
// Overflow error.
func (e *DeltaError) Is(target error) bool {
	return target == ErrBadDelta || (e.Overflow && target == ErrClockOverflow)
}

// SystemError reports a system whose Run returned an error, which stopped
// the frame (see Scheduler.Frame, and the sentinels for how frame errors name
// the system). errors.Is(err, ErrSystem) is true, and Unwrap gives the system's
// error. It is the scheduler's own, reused by the next failed frame (a
// failing frame allocates nothing; see DeltaError, Memory).
type SystemError struct {
	System string
	Phase  systems.Phase
	Frame  uint64 // the frame number
	Err    error
}

func (e *SystemError) Error() string {
	return fmt.Sprintf("scheduler: frame %d: %v system %q: %v", e.Frame, e.Phase, e.System, e.Err)
}

// Is reports whether target is ErrSystem.
func (e *SystemError) Is(target error) bool { return target == ErrSystem }

// Unwrap returns the system's error.
func (e *SystemError) Unwrap() error { return e.Err }

// PanicError is the value Frame panics with when a system's Run, or a
// kernel it ran, panicked (see the sentinels: errors of a frame name the system).
// errors.Is(err, ErrSystemPanic) is true, and Unwrap gives Value when it is
// an error: errors.As reaches a kernel's *kernels.PanicError and the
// kernel's own error.
type PanicError struct {
	System string
	Phase  systems.Phase
	Frame  uint64 // the frame number
	Value  any    // the original panic value, as recover returned it
	// Stack is the stack of the system's goroutine where the panic was
	// raised (runtime/debug.Stack), for a host to log; nil when Value is
	// a *kernels.PanicError, whose own Stack holds the stack of the kernel
	// that panicked. Error leaves it out: a crash report of an unrecovered
	// panic shows the stack of Frame's re-panic, so print Stack to see
	// where the system failed.
	Stack []byte
}

// Error returns one line, without the stack (Stack):
//
//	tickwork: frame F: Phase system "name" panicked: <Value>
//
// and for a kernel's panic (Value a *kernels.PanicError)
//
//	tickwork: frame F: Phase system "name" panicked in a tickwork.Parallel kernel on worker W, chunk C: <its Value>
//
// followed by " (and N more on other workers)" when other workers
// panicked too.
func (e *PanicError) Error() string {
	s := "tickwork: frame " + strconv.FormatUint(e.Frame, 10) + ": " + e.Phase.String() + " system " + strconv.Quote(e.System) + " panicked"
	kp, ok := e.Value.(*kernels.PanicError)
	if !ok {
		return s + ": " + fmt.Sprint(e.Value)
	}
	s += " in a tickwork.Parallel kernel on worker " + strconv.Itoa(kp.Worker) + ", chunk " + strconv.Itoa(kp.Chunk) + ": " + fmt.Sprint(kp.Value)
	if n := len(kp.Others); n > 0 {
		s += " (and " + strconv.Itoa(n) + " more on other workers)"
	}
	return s
}

// Is reports whether target is ErrSystemPanic.
func (e *PanicError) Is(target error) bool { return target == ErrSystemPanic }

// Unwrap returns Value when it is an error, else nil.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// PlaybackError reports a command that playback could not carry out: it
// is commands.PlaybackError, the one playback error type, naming the
// system whose command buffer recorded it (the buffer's name), its phase
// and the frame (see the sentinels: errors of a frame name the system).
// The frame completed. errors.Is(err, ErrPlayback) is true, and errors.As
// reaches its storage error. It is its buffer's, reused (allocation-free
// failing frames): commands.PlaybackError, Memory.
type PlaybackError = commands.PlaybackError

// IsFatal reports whether err, returned by Frame, means the scheduler can
// run no more frames: ErrPoisoned (a panic left a frame unfinished; close
// the world and build a new one). Every other error of Frame is
// recoverable and the next frame runs (see Errors in the package doc).
func IsFatal(err error) bool { return errors.Is(err, ErrPoisoned) }

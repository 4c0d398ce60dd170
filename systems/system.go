package systems

import (
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/tickwork/tickwork/internal/engine/frame"
)

// Phase is the part of a frame a system runs in. Phases run in the order of
// their values: FrameStart, FixedUpdate (once per fixed tick: zero or more
// times a frame), Update, LateUpdate, FrameEnd.
type Phase uint8

// The phases of a frame, in running order.
const (
	FrameStart Phase = iota
	FixedUpdate
	Update
	LateUpdate
	FrameEnd
)

// NumPhases is the number of phases; valid phases are 0..NumPhases-1.
const NumPhases = 5

var phaseNames = [NumPhases]string{"FrameStart", "FixedUpdate", "Update", "LateUpdate", "FrameEnd"}

// String returns the phase's name, such as "FixedUpdate".
func (p Phase) String() string {
	if p < NumPhases {
		return phaseNames[p]
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// Valid reports whether p is one of the five phases.
func (p Phase) Valid() bool { return p < NumPhases }

// RunFunc is a system's body: it runs on the scheduler's goroutine once per
// frame (once per fixed tick in FixedUpdate) with the system's Context. It
// reports a failure with Context.Fail.
type RunFunc func(ctx *Context)

// DeclareFunc declares a system: it asks s for everything the system
// touches (Read, Write, Record, Emit, Consume, ...) and returns the body,
// which uses the accessors it got. It runs once, at set-up (see
// Declaration in the package doc).
type DeclareFunc func(s *Decl) RunFunc

// System is the unit of work the scheduler orders and runs: a Name unique
// in a world (what Before, After and scheduler hooks refer to), a Phase,
// ordering constraints (names of systems this one runs before or after;
// across phases they must agree with the phase order) and the Declare
// function. Lane says which lane (instruction set) the body's kernels were
// built for, as package lanes names it ("scalar", "avx2", "avx512"); it is
// informational, copied into the system's scheduler.SystemReport, and empty
// when the system does not say. A plain value: the scheduler copies it.
type System struct {
	Name    string
	Phase   Phase
	Before  []string // systems that run after this one
	After   []string // systems that run before this one
	Declare DeclareFunc
	Lane    string // the lane the body's kernels run, e.g. "avx2"; "" when not stated
}

// Validate checks the name, the phase and Declare. It returns nil or a
// *DefinitionError (errors.Is ErrDefinition and, for an empty name, the face's ErrEmptyName; ErrBadPhase or
// ErrNoDeclare). Everything the declaration asks for is checked when the
// scheduler runs the declaration (scheduler.Scheduler.Add).
func (s *System) Validate() error {
	if s.Name == "" {
		return &DefinitionError{Err: errEmptyName}
	}
	if !s.Phase.Valid() {
		return &DefinitionError{System: s.Name, Err: ErrBadPhase, Detail: s.Phase.String()}
	}
	if s.Declare == nil {
		return &DefinitionError{System: s.Name, Err: ErrNoDeclare}
	}
	return nil
}

func init() {
	frame.RegisterDeclare(func(sys any, run *frame.Run) (frame.Declaration, error) {
		return declare(sys.(System), run)
	})
}

// declare validates sys and runs its Declare function once, filling run
// (the scheduler's run state of the system; nil to only derive the
// manifest): frame.Declare. It returns the first *DefinitionError of the
// system or of its declaration (errors.Is ErrDefinition, ErrBadDeclaration
// for a bad accessor, ErrNoRun for a nil body). It allocates: set-up only.
func declare(sys System, run *frame.Run) (frame.Declaration, error) {
	if err := sys.Validate(); err != nil {
		return frame.Declaration{}, err
	}
	if run == nil {
		run = &frame.Run{}
	}
	run.Name = sys.Name
	ctx := &Context{run: run, name: sys.Name, phase: sys.Phase}
	d := &Decl{name: sys.Name, phase: sys.Phase, run: run, ctx: ctx}
	body, err := callDeclare(sys, d)
	d.done = true
	if err != nil {
		return frame.Declaration{}, err
	}
	if d.err != nil {
		return frame.Declaration{}, d.err
	}
	if body == nil {
		return frame.Declaration{}, &DefinitionError{System: sys.Name, Err: ErrNoRun}
	}
	if err := staleIndex(sys.Name, &d.man); err != nil {
		return frame.Declaration{}, err
	}
	run.Call = func() { body(ctx) }
	return frame.Declaration{
		Before:   append(append([]string(nil), sys.Before...), d.before...),
		After:    append(append([]string(nil), sys.After...), d.after...),
		Manifest: d.man,
	}, nil
}

// callDeclare calls sys.Declare(d) and returns its body, or, when it
// panics, a *DefinitionError (errors.Is ErrDeclarePanic) whose Cause is a
// *DeclarePanicError with the panic value and stack: set-up code's bug
// fails the Build that runs it instead of unwinding through the host.
func callDeclare(sys System, d *Decl) (body RunFunc, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &DefinitionError{System: sys.Name, Err: ErrDeclarePanic, Detail: fmt.Sprint(r),
				Cause: &DeclarePanicError{System: sys.Name, Value: r, Stack: debug.Stack()}}
		}
	}()
	return sys.Declare(d), nil
}

// Decl is a system being declared: what its DeclareFunc asks for is
// recorded here and becomes its manifest. It is valid only during the
// DeclareFunc call; the accessors it hands out are valid for the world's
// life.
type Decl struct {
	name   string
	phase  Phase
	run    *frame.Run
	ctx    *Context // the body's; its serial accessors check ctx.inKernel
	man    frame.Manifest
	before []string
	after  []string
	err    error
	done   bool // the DeclareFunc has returned
	cond   bool // a run condition's declaration (RunIf): only reads
}

// Name is the system's name.
func (d *Decl) Name() string { return d.name }

// Phase is the system's phase.
func (d *Decl) Phase() Phase { return d.phase }

// Before orders the system before the systems named (as System.Before).
func (d *Decl) Before(names ...string) { d.before = append(d.before, names...) }

// After orders the system after the systems named (as System.After).
func (d *Decl) After(names ...string) { d.after = append(d.after, names...) }

// use returns d for an accessor constructor named call, and panics when
// the declaration is over: accessors are asked for in the DeclareFunc,
// never in the body.
func (d *Decl) use(call string) *Decl {
	if d == nil {
		panic("systems: " + call + " with a nil *Decl: call it in a DeclareFunc, with the Decl it was given")
	}
	if d.done {
		panic("systems: " + call + " with an accessor of system " + strconv.Quote(d.name) +
			" after its declaration returned (from a run body, or from another system's DeclareFunc):" +
			" each system asks for its own accessors in its DeclareFunc and uses them only in the body it returns")
	}
	if d.cond && condRefused(call) {
		d.condFail(call)
	}
	return d
}

// fail records the first declaration error: Declare returns it.
func (d *Decl) fail(call, detail string) {
	if d.err == nil {
		d.err = &DefinitionError{System: d.name, Err: ErrBadDeclaration, Detail: call + ": " + detail}
	}
}

// Fail fails the declaration with a *DefinitionError (ErrBadDeclaration)
// whose Detail is call + ": " + detail, unless it failed already: for a
// declaration helper of a higher layer that checks its own arguments (the
// face's row systems refuse a nil row function). Call it in the
// DeclareFunc; Build returns the error, naming the system.
func (d *Decl) Fail(call, detail string) { d.use(call).fail(call, detail) }

// bind registers fn to run when the scheduler binds the system at seal.
func (d *Decl) bind(fn func(r *frame.Run) error) { d.run.Binds = append(d.run.Binds, fn) }

// same fails the declaration when o, the Decl of another accessor of call,
// is not d: accessors belong to the system that declared them.
func (d *Decl) same(call string, o *Decl) {
	if o != d {
		d.fail(call, "an accessor of another system's declaration (or a zero accessor): use accessors of this Decl")
	}
}

// failErr records err, an error of a lower layer, as the declaration's.
func (d *Decl) failErr(call string, err error) {
	if d.err == nil {
		d.err = &DefinitionError{System: d.name, Err: ErrBadDeclaration, Detail: call + ": " + err.Error(), Cause: err}
	}
}

// Package frame is the plumbing between package systems and package
// scheduler: the frame-wide state a world's systems share ([Env]), the run
// state of one system ([Run]: its command buffers, per-worker state,
// kernel slots and body), what a system touches ([Manifest], derived from
// its declaration) and when two manifests conflict ([Conflicts], the rule
// of docs/architecture.md, Access rules). The scheduler runs a system's
// declaration with [Declare] (package systems registers it), which fills
// a Run and returns the manifest; it binds the Run at seal ([Bind]) and
// runs it ([Run.Exec]) once per frame (once per fixed tick in
// FixedUpdate).
//
// It sits above commands, events, ephemeral and kernels and below systems
// and scheduler: the engine's layer of internal/, over the leaves
// (internal/wire, internal/segment, internal/plumb).
//
// Nothing here is part of the public API: a user reaches it only through
// systems.Context and the accessors of package systems.
//
// Concurrency: an Env and its Runs are used by the scheduler's goroutine;
// kernels started by a run use only the per-worker state handed to them.
package frame

import (
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/kernels"
)

// Env is the frame-wide state of one world: the kernel pool, the command
// playback (which makes the command buffers and resolves provisional
// handles) and the clock the systems read. The scheduler sets its clock
// fields between system runs.
type Env struct {
	Pool     *kernels.Pool      // nil: kernels run inline, one worker
	Playback *commands.Playback // required when a system records; nil: Resolve returns handles as they are
	Step     float64            // the fixed step, seconds
	FrameDT  float64            // the frame's delta, seconds
	Frame    uint64             // frame number, from 0
	Tick     uint64             // fixed ticks run before the current one
	Fixed    bool               // FixedUpdate is running: a system's delta is Step
	Inline   bool               // a kernel runs inline (no pool): a nested one panics
	Running  *Run               // the run whose body is running (Exec), nil between runs: systems.Counter.Add checks it
	// Admitting is the run whose run conditions are being asked (Admit),
	// nil otherwise: the debug build lets a condition's accessors read.
	Admitting *Run
	// Change is the change clock (docs/architecture.md, Change
	// detection): Exec adds one before a body runs (the run's version)
	// and one after it (what playback and the host stamp until the next
	// run). It starts at 1 (ChangeClock).
	Change uint64
}

// ChangeClock returns e's change clock, started at 1 so that what the
// host stamps before the first run is newer than a reader's zero last
// run. Set-up only.
func (e *Env) ChangeClock() *uint64 {
	if e.Change == 0 {
		e.Change = 1
	}
	return &e.Change
}

// DT is a system's delta in seconds: the fixed step while FixedUpdate runs,
// the frame's delta otherwise.
func (e *Env) DT() float64 {
	if e.Fixed {
		return e.Step
	}
	return e.FrameDT
}

// Workers is the number of kernel workers, 1 without a pool.
func (e *Env) Workers() int {
	if e.Pool == nil {
		return 1
	}
	return e.Pool.Workers()
}

// Merger is the untyped face of an *events.Parallel[T]: merged into its
// table when the run ends.
type Merger interface{ Merge() (dropped int) }

// Passer is the untyped face of an *events.Reader[T]: it passes what the
// run read when the run ends (Done), or forgets what a skipped run's
// conditions read without passing it (Unread).
type Passer interface {
	Done()
	Unread()
}

// Run is one system's run state. Package systems sets Name, Call and
// Binds when the system is declared; Bind makes the buffers.
type Run struct {
	Name  string
	Env   *Env
	Call  func()             // one run of the system's body
	Err   error              // set by the body (Context.Fail) during a run
	Binds []func(*Run) error // accessor set-up, run by Bind in declaration order

	// Serial is the buffer of the system's serial recorders (nil when it
	// records nothing); Workers holds one buffer per kernel worker,
	// played as one keyed stream after Serial.
	Serial  *commands.Buffer
	Workers []*commands.Buffer
	Records int // initial records of each buffer

	Mergers []Merger // parallel emitters, merged by Exec after the body
	Readers []Passer // event readers, passed by Exec after the merges
	Kernels []any    // typed kernel slots of systems.Parallel, by call order in a run
	Kernel  int      // index of the next kernel slot in this run
	records bool     // a recorder asked for buffers

	Counters []Counter // named counters (systems.Decl.Counter), in declaration order

	// Conds are the system's run conditions (systems.Decl.RunIf), in
	// declaration order: Admit runs them before each run; nil runs always.
	Conds []func() bool

	// Maintains lists the indexes whose rows the system marks
	// (systems.MaintainIndex): the sync after it visits only the marked
	// rows instead of diffing the table (docs/architecture.md, Indexes).
	Maintains []Index

	// Version is the change version of the run in progress, or of the
	// last one (Exec). Bumps lists the tracked columns the system writes
	// without stamping rows, bumped after each run; Stamps the refs of
	// the columns it stamps row by row (systems.WriteTracked), which the
	// scheduler leaves out of Bumps (docs/architecture.md, Change
	// detection).
	Version uint64
	Bumps   []Bumper
	Stamps  []ColumnRef
	Bulk    []ColumnRef // columns written through systems.Write: bumped whole even when also stamped
	// Ran, when not nil, is the chunks the system's filtered kernel ran
	// in the run (systems.ChunkKernel.Only): Exec bumps only those.
	Ran []bool
}

// Bumper is the untyped face of an *ephemeral.Versions: Bump records a
// change of every live row at version now, BumpChunks of the rows of the
// chunks c with ran[c] set.
type Bumper interface {
	Bump(now uint64)
	BumpChunks(now uint64, ran []bool)
}

// Counter is one named counter of a system (systems.Counter): Pending is
// what its runs added since the scheduler last took it into the frame
// report, Total what they added since the world was built.
type Counter struct {
	Name           string
	Pending, Total int64
}

// Declaration is what a system's declaration gave (Declare): the
// system's order constraints with those of Decl.Before and Decl.After
// added, and the manifest derived from its accessors.
type Declaration struct {
	Before, After []string
	Manifest      Manifest
}

var declare func(sys any, run *Run) (Declaration, error)

// RegisterDeclare is called by package systems' init.
func RegisterDeclare(f func(sys any, run *Run) (Declaration, error)) { declare = f }

// Declare validates sys, a systems.System, and runs its declaration once,
// filling run (nil to only derive the manifest): run's name and body, and
// its binds and counters. It returns the first *systems.DefinitionError of
// the system or of its declaration. The scheduler calls it in Add and in a
// hook's Substitute. It allocates: set-up only.
func Declare(sys any, run *Run) (Declaration, error) { return declare(sys, run) }

// Recording asks Bind for the system's command buffers (serial and per
// worker); accessors that record call it at declaration.
func (r *Run) Recording() { r.records = true }

// Bind attaches r to env: when a recorder asked for them, it makes the
// command buffers through env.Playback (commands.Playback.NewBuffer and
// NewBuffers, named after the system, charged to the playback's memory
// budget), then runs the accessors' binds (they register event readers,
// make parallel staging). It returns the first error: a buffer or staging
// that does not fit the memory budget (*memory.BudgetError), too many
// buffers (commands.ErrTooManyBuffers), or a bind's. It panics when a
// system records and env.Playback is nil (the scheduler always sets it).
// It allocates; the scheduler calls it at seal, in sealed order.
func Bind(r *Run, env *Env, records int) error {
	if err := BindSerial(r, env, records); err != nil {
		return err
	}
	if r.records {
		var err error
		if r.Workers, err = env.Playback.NewBuffers(r.Name, env.Workers(), records); err != nil {
			return err
		}
	}
	for _, b := range r.Binds {
		if err := b(r); err != nil {
			return err
		}
	}
	return nil
}

// BindSerial makes r's serial command buffer, when a recorder asked for
// buffers and Bind has not made it yet, as Bind would. The scheduler calls
// it for every system, in sealed order, before Bind, so that the serial
// buffers take the ids 0, 1, … whatever the worker count (the per-worker
// sets come after them): their provisional handles, which a snapshot may
// hold, then mean the same in a world of any worker count
// (docs/state.md). Errors and panics as Bind.
func BindSerial(r *Run, env *Env, records int) error {
	r.Env, r.Records = env, records
	if !r.records || r.Serial != nil {
		return nil
	}
	if env.Playback == nil {
		panic("frame: system " + r.Name + " records commands and its Env has no Playback: set Env.Playback to the playback that plays its buffers back")
	}
	var err error
	r.Serial, err = env.Playback.NewBuffer(r.Name, records)
	return err
}

// Exec runs the body once at a new change version, bumps the tracked
// columns it writes, then merges the parallel emitters and passes
// what the readers returned (events.Reader.Done), and returns the error
// the body reported (nil when it reported none). Allocates nothing in
// steady state.
func (r *Run) Exec() error {
	r.Err, r.Kernel = nil, 0
	r.Env.Change++
	r.Version = r.Env.Change
	r.Env.Running = r
	r.Call()
	r.Env.Running = nil
	for _, b := range r.Bumps {
		if r.Ran != nil {
			b.BumpChunks(r.Version, r.Ran)
		} else {
			b.Bump(r.Version)
		}
	}
	r.Env.Change++
	for _, m := range r.Mergers {
		m.Merge()
	}
	for _, c := range r.Readers {
		c.Done()
	}
	return r.Err
}

// Admit runs r's conditions in declaration order, on the frame's
// goroutine, and reports whether all hold; the first that does not hold
// stops it (docs/architecture.md, Run conditions). When one fails
// (Context.Fail) it returns false with r.Err set. A skipped run passes
// nothing its conditions read (Passer.Unread). A condition that recorded
// a command or started a kernel panics here, naming the system: a
// condition only reads (the scheduler checks emits, which a Run does not
// see). Allocates nothing.
func (r *Run) Admit() bool {
	if len(r.Conds) == 0 {
		return true
	}
	r.Err, r.Kernel = nil, 0
	n := r.recorded()
	ok := true
	r.Env.Admitting = r // the conditions read through the system's accessors (the debug build's check)
	for _, c := range r.Conds {
		if !c() || r.Err != nil {
			ok = false
			break
		}
	}
	r.Env.Running = nil
	if r.Kernel != 0 || r.recorded() != n {
		condPanic(r.Name, r.Kernel != 0)
	}
	if !ok || r.Err != nil {
		for _, c := range r.Readers {
			c.Unread()
		}
		return false
	}
	return true
}

// recorded is the number of records in r's serial buffer (0 without one).
func (r *Run) recorded() int {
	if r.Serial == nil {
		return 0
	}
	return r.Serial.Len()
}

// condPanic reports a run condition that recorded commands or ran a
// kernel; out of line, so that Admit stays small.
//
//go:noinline
func condPanic(system string, kernel bool) {
	what := "recorded commands"
	if kernel {
		what = "started a kernel (Parallel)"
	}
	panic("tickwork: a run condition of system \"" + system + "\" " + what +
		": a condition only reads (docs/architecture.md, Run conditions); record, emit, write and run kernels in the system's body")
}

// hookManifest is registered by package scheduler (RegisterHookManifest).
var hookManifest func(hook any, name string) (*Manifest, bool)

// RegisterHookManifest is called by package scheduler's init.
func RegisterHookManifest(f func(hook any, name string) (*Manifest, bool)) { hookManifest = f }

// HookManifest returns the manifest of the system named name as hook, a
// *scheduler.Hook during its hook call, sees it (with the substitutions
// made so far), and true; false when no system has that name. The manifest
// is the scheduler's: do not modify it. The runtime's check that a world's
// systems name only what its Builder declared uses it; a manifest is
// engine plumbing, so the scheduler's Hook does not export it. Set-up
// only, on the hook's goroutine.
func HookManifest(hook any, name string) (*Manifest, bool) { return hookManifest(hook, name) }

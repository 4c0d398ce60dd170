package runtime

import (
	"errors"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Builder declares a world: domains, tables, columns, event tables, systems
// and hooks; Build seals it. A Builder is used once, from one goroutine.
//
// Every method returns its error at once and also remembers the first
// one, which Build returns: a caller may check only Build's error. A
// failed declaration returns nil (a nil table, column or event table);
// passing that nil on is safe: AddColumn records its own error, systems.Col
// gives a ColumnRef that Add refuses, and Build still returns the first
// error, the one of the call that failed.
//
// Worlds share no data: manifests may name only tables and event tables
// declared through this Builder (Table, AddEvents), and tables may join only
// domains declared through it (Domain); anything else is refused with a
// *ForeignError. Table names must be unique among the Builder's tables,
// event table names among its event tables and domain names among its
// domains (a *DefinitionError, errors.Is ErrDuplicateName).
//
// Memory: every declaration is charged to the Builder's memory budget
// (WithMemoryBudget, default 8 GiB) before it allocates, summed over the
// declarations so far; the one that does not fit fails with a
// *memory.BudgetError (errors.Is ErrMemoryBudget). A spec must leave its
// Budget nil (ErrSpecBudget): the Builder sets its own.
//
// Make a Builder with NewBuilder: every method of a zero Builder{} (or a
// nil *Builder) returns ErrZeroBuilder.
type Builder struct {
	made    bool // set by NewBuilder
	cfg     config
	budget  *memory.Budget // the world's, from cfg.budget
	err     error
	built   bool
	domains []*ephemeral.Domain
	tables  []*ephemeral.Table
	events  []events.Buffer
	systems []systems.System
	hooks   []func(*scheduler.Hook) error
}

// NewBuilder returns a builder configured by opts (applied in order, a
// later option overriding an earlier one; a bad option's *OptionError, or
// one for a nil option, is returned by Build). Without options: 1 worker,
// Accumulate pacing, a 1/60 s step, 8 ticks per frame at most, a 128-run
// report window, an 8 GiB memory budget, NoPersistence.
func NewBuilder(opts ...Option) *Builder {
	b := &Builder{made: true, cfg: config{workers: 1, budget: DefaultMemoryBudget}}
	for i, o := range opts {
		if o == nil {
			b.fail(&OptionError{Option: "NewBuilder", Value: "opts[" + itoa(i) + "] = nil",
				Reason: "want a non-nil Option, such as WithWorkers(4)"})
			continue
		}
		if err := o(&b.cfg); err != nil {
			b.fail(err)
		}
	}
	b.budget = memory.NewOwnedBudget(b.cfg.budget, memory.OwnerWorld)
	return b
}

// Budget is the world's memory budget: its limit (WithMemoryBudget) and the
// bytes charged so far by the Builder's declarations and, once built, by
// systems' per-worker event staging. The World shares it (World.Budget).
// Nil for a Builder not made by NewBuilder.
func (b *Builder) Budget() *memory.Budget {
	if b == nil {
		return nil
	}
	return b.budget
}

// ownBudget returns the *DefinitionError of call for a spec that names a
// memory budget other than b's, nil otherwise.
func (b *Builder) ownBudget(call, name string, budget *memory.Budget) error {
	if budget != nil && budget != b.budget {
		return b.fail(&DefinitionError{Call: call, Name: name, Err: ErrSpecBudget})
	}
	return nil
}

func (b *Builder) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

func (b *Builder) usable() error {
	if b == nil || !b.made {
		return ErrZeroBuilder
	}
	if b.built {
		return ErrBuilt
	}
	return nil
}

// Domain declares an entity domain (ephemeral.NewDomain) shared by the
// tables that name it: one handle space of Capacity entities. It returns an
// *ephemeral.DefinitionError (errors.Is ephemeral.ErrDefinition) for a bad
// spec, a *DefinitionError (errors.Is ErrDuplicateName) when another domain
// of the Builder has the name (ErrSpecBudget when spec.Budget is set), a
// *memory.BudgetError (errors.Is ErrMemoryBudget) when its pages do not
// fit in what is left of the world's memory budget, or ErrBuilt after
// Build.
func (b *Builder) Domain(spec ephemeral.DomainSpec) (*ephemeral.Domain, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	if err := b.ownBudget("Domain", spec.Name, spec.Budget); err != nil {
		return nil, err
	}
	spec.Budget = b.budget
	if spec.Name != "" && slices.ContainsFunc(b.domains, func(d *ephemeral.Domain) bool { return d.Name() == spec.Name }) {
		return nil, b.fail(&DefinitionError{Call: "Domain", Name: spec.Name, Err: ErrDuplicateName})
	}
	d, err := ephemeral.NewDomain(spec)
	if err != nil {
		return nil, b.fail(err)
	}
	b.domains = append(b.domains, d)
	return d, nil
}

// Table declares a table (ephemeral.NewTable). Its memory is allocated
// here and with each column, Capacity rows (rounded up to whole chunks) per
// column; tables never grow. It returns an *ephemeral.DefinitionError
// (errors.Is ephemeral.ErrDefinition) for a bad spec, a *DefinitionError
// (errors.Is ErrDuplicateName) when another table of the Builder has the
// name (ErrSpecBudget when spec.Budget is set), a *ForeignError (errors.Is
// ErrForeign) for a spec.Domain not declared with this Builder's Domain, a
// *memory.BudgetError (errors.Is ErrMemoryBudget) when its pages (and a
// standalone table's private domain) do not fit in what is left of the
// world's memory budget, or ErrBuilt after Build. On error it returns a
// nil table.
func (b *Builder) Table(spec ephemeral.TableSpec) (*ephemeral.Table, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	if err := b.ownBudget("Table", spec.Name, spec.Budget); err != nil {
		return nil, err
	}
	spec.Budget = b.budget
	if spec.Domain != nil && !slices.Contains(b.domains, spec.Domain) {
		return nil, b.fail(&ForeignError{Where: "Table " + strconv.Quote(spec.Name), Kind: "domain", Name: spec.Domain.Name()})
	}
	if spec.Name != "" && slices.ContainsFunc(b.tables, func(t *ephemeral.Table) bool { return t.Name() == spec.Name }) {
		return nil, b.fail(&DefinitionError{Call: "Table", Name: spec.Name, Err: ErrDuplicateName})
	}
	t, err := ephemeral.NewTable(spec)
	if err != nil {
		return nil, b.fail(err)
	}
	b.tables = append(b.tables, t)
	return t, nil
}

// AddColumn adds a column of element type T to t (ephemeral.AddColumn):
// Chunks()*ChunkRows() elements of a pointer-free T, allocated here. It
// returns an *ephemeral.DefinitionError (errors.Is ephemeral.ErrDefinition,
// such as ephemeral.ErrUnsupportedType), a *DefinitionError (errors.Is
// ErrNilTable) for a nil t (what a failed Table returns), a *ForeignError
// (errors.Is ErrForeign) for a table not declared with this Builder's
// Table, a *memory.BudgetError (errors.Is ErrMemoryBudget) when the column
// does not fit in what is left of the world's memory budget, or ErrBuilt
// after Build. On error it returns a nil column.
func AddColumn[T any](b *Builder, t *ephemeral.Table, name string) (*ephemeral.Column[T], error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, b.fail(&DefinitionError{Call: "AddColumn", Name: name, Err: ErrNilTable})
	}
	if !slices.Contains(b.tables, t) {
		return nil, b.fail(&ForeignError{Where: "AddColumn " + strconv.Quote(name), Kind: "table", Name: t.Name()})
	}
	c, err := ephemeral.AddColumn[T](t, name)
	if err != nil {
		return nil, b.fail(err)
	}
	return c, nil
}

// AddEvents declares an event table (events.New: at most Capacity events
// held, storage allocated here) whose boundaries the world runs and whose
// consuming systems each get a reader (delivery rule:
// docs/architecture.md, Events).
// Manifests may name only event tables declared here (Build refuses others
// with a *ForeignError). It returns an *events.DefinitionError (errors.Is
// events.ErrDefinition), a *DefinitionError (errors.Is ErrDuplicateName)
// when another event table of the Builder has the name (ErrSpecBudget when
// spec.Budget is set), a *memory.BudgetError (errors.Is ErrMemoryBudget)
// when its buffers do not fit in what is left of the world's memory budget,
// or ErrBuilt after Build. On error it returns a nil event table. A
// system's per-worker staging of the table (systems.ParallelEmitter) is
// charged to the same budget when it is made.
func AddEvents[T any](b *Builder, spec events.Spec) (*events.Table[T], error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	if err := b.ownBudget("AddEvents", spec.Name, spec.Budget); err != nil {
		return nil, err
	}
	spec.Budget = b.budget
	if spec.Name != "" && slices.ContainsFunc(b.events, func(e events.Buffer) bool { return e.Name() == spec.Name }) {
		return nil, b.fail(&DefinitionError{Call: "AddEvents", Name: spec.Name, Err: ErrDuplicateName})
	}
	ev, err := events.New[T](spec)
	if err != nil {
		return nil, b.fail(err)
	}
	b.events = append(b.events, ev)
	return ev, nil
}

// Add registers systems. Each is checked at once, and on the first error
// none of sys is added: systems.System.Validate (a
// *systems.DefinitionError, errors.Is systems.ErrBadManifest for a nil
// table, a typed-nil event table or the zero ColumnRef that systems.Col
// gives for a nil column), then the manifest's tables and event tables,
// which must have been declared through this Builder (a *ForeignError,
// errors.Is ErrForeign). Names, constraints and conflicts are checked by
// Build. It returns ErrBuilt after Build.
func (b *Builder) Add(sys ...systems.System) error {
	if err := b.usable(); err != nil {
		return err
	}
	for i := range sys {
		if err := sys[i].Validate(); err != nil {
			return b.fail(err)
		}
		if err := b.foreign(&sys[i]); err != nil {
			return b.fail(err)
		}
	}
	b.systems = append(b.systems, sys...)
	return nil
}

// foreign returns a *ForeignError for the first table or event table of
// sys's manifest not declared through b, nil when there is none. Set-up
// only: it allocates on error.
func (b *Builder) foreign(sys *systems.System) error {
	m := &sys.Manifest
	tab := func(list string, i int, t *ephemeral.Table) error {
		if slices.Contains(b.tables, t) {
			return nil
		}
		return &ForeignError{System: sys.Name, Where: list + "[" + itoa(i) + "]", Kind: "table", Name: t.Name()}
	}
	ev := func(list string, bs []events.Buffer) error {
		for i, e := range bs {
			if !slices.Contains(b.events, e) {
				return &ForeignError{System: sys.Name, Where: list + "[" + itoa(i) + "]", Kind: "event table", Name: e.Name()}
			}
		}
		return nil
	}
	for i, r := range m.Reads {
		if err := tab("Reads", i, r.Table); err != nil {
			return err
		}
	}
	for i, r := range m.Writes {
		if err := tab("Writes", i, r.Table); err != nil {
			return err
		}
	}
	for i, t := range m.Creates {
		if err := tab("Creates", i, t); err != nil {
			return err
		}
	}
	for i, t := range m.Deletes {
		if err := tab("Deletes", i, t); err != nil {
			return err
		}
	}
	if err := ev("Emits", m.Emits); err != nil {
		return err
	}
	return ev("Consumes", m.Consumes)
}

// Hook registers fn to run at Build after every system is registered and
// before the graph is sealed (see scheduler.Hook): look systems up by name,
// order host systems against them, add systems (checked as Add checks
// them), substitute implementations. An error of fn makes Build fail with
// a *scheduler.HookError. A nil fn is refused with scheduler.ErrNilHook,
// also returned by Build; after Build, Hook returns ErrBuilt.
func (b *Builder) Hook(fn func(h *scheduler.Hook) error) error {
	if err := b.usable(); err != nil {
		return err
	}
	if fn == nil {
		return b.fail(scheduler.ErrNilHook)
	}
	b.hooks = append(b.hooks, fn)
	return nil
}

// checkAdded is the Builder's own last hook: it checks that every system
// the host's hooks added names only tables and event tables declared
// through b. Systems given to Add were checked there; they come first in
// registration order, and a hook cannot change a manifest (Substitute
// keeps it).
func (b *Builder) checkAdded(h *scheduler.Hook) error {
	for _, name := range h.Names()[len(b.systems):] {
		sys, ok := h.Lookup(name)
		if !ok {
			continue
		}
		if err := b.foreign(&sys); err != nil {
			return err
		}
	}
	return nil
}

// Build seals the world and returns it ready to run frames. It returns the
// first error of the builder or its options (*OptionError, definition
// errors, *ForeignError), a *ForeignError for a system a hook added that
// names a table or event table not declared through this Builder, or the
// seal's errors (see scheduler.Scheduler.Seal: conflicts, cycles, unknown
// or duplicate names, hook errors). It starts the kernel pool's goroutines
// (WithWorkers) and stops them again when it fails. A Builder builds once;
// later calls return ErrBuilt.
func (b *Builder) Build() (*World, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	b.built = true
	b.sealDefinitions()
	if b.err != nil {
		return nil, b.err
	}
	pool, err := kernels.NewPool(b.cfg.workers)
	if err != nil {
		return nil, &OptionError{Option: "WithWorkers", Value: itoa(b.cfg.workers), Reason: err.Error()}
	}
	cfg := b.cfg.sched
	cfg.Pool, cfg.Budget = pool, b.budget
	s, err := scheduler.New(cfg)
	if err == nil {
		err = s.AddEvents(b.events...)
	}
	for i := 0; err == nil && i < len(b.systems); i++ {
		err = s.Add(b.systems[i])
	}
	for i := 0; err == nil && i < len(b.hooks); i++ {
		err = s.Hook(b.hooks[i])
	}
	if err == nil {
		err = s.Hook(b.checkAdded)
	}
	if err == nil {
		err = s.Seal()
		var he *scheduler.HookError
		if errors.As(err, &he) && he.Index == len(b.hooks) {
			err = he.Err // checkAdded's *ForeignError, as Add would have returned it
		}
	}
	if err != nil {
		if cerr := pool.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, err
	}
	return &World{sched: s, pool: pool, tables: b.tables, budget: b.budget, persistence: b.cfg.persistence}, nil
}

// World is a sealed simulation: tables, event tables, systems in phases and
// a kernel pool. A host's game loop calls Frame once per frame.
//
// Worlds are independent: two worlds in one process share nothing (there is
// no global state, and a Builder refuses tables and event tables declared
// elsewhere). A World is not safe for concurrent use: one goroutine (the
// host's loop) calls its methods; its kernels run on its own pool.
// Frames do not nest: from inside a system, Frame returns
// scheduler.ErrReentrant and Close returns ErrRunning.
type World struct {
	sched       *scheduler.Scheduler
	pool        *kernels.Pool
	tables      []*ephemeral.Table
	budget      *memory.Budget
	persistence Persistence
	closed      bool
}

// Frame runs one frame with delta dt in seconds (see
// scheduler.Scheduler.Frame for the frame path). It returns ErrClosed after
// Close, scheduler.ErrReentrant when called from a system while a frame
// runs (nothing of the nested call runs), a *scheduler.DeltaError
// (errors.Is scheduler.ErrBadDelta) for a negative, NaN, infinite or
// above-scheduler.MaxDelta dt (nothing runs), or a *scheduler.SystemError
// (errors.Is scheduler.ErrSystem) when a system failed (the frame still
// completed its boundaries), the first *scheduler.PlaybackError (naming the
// system, and unwrapping to the *commands.PlaybackError) when a playback
// could not carry out a record (a create into a full table, errors.Is
// ephemeral.ErrCapacity; the frame completed), and
// scheduler.ErrPoisoned after a panic escaped an earlier frame (close the
// world and build a new one). A panic in a system or one of its kernels
// goes up from Frame as a *scheduler.PanicError naming the system (see
// scheduler.Scheduler.Frame). It allocates nothing in steady state. Call
// it from one goroutine.
func (w *World) Frame(dt float64) error {
	if w.closed {
		return ErrClosed
	}
	return w.sched.Frame(dt)
}

// Report returns the report of the last completed frame, or nil before the
// first frame. The report is the world's own, overwritten by the next
// Frame: copy what must outlive it. Allocates nothing. Call it from the goroutine that calls Frame.
func (w *World) Report() *scheduler.FrameReport { return w.sched.Report() }

// Resolve maps a provisional handle (from a recorder's Create) to the
// handle of the row its playback created; other nonzero handles come back
// as they are, with true. It returns false for a create not played yet,
// failed or released: between frames, the creates of the last frame's
// FixedUpdate, Update, LateUpdate and FrameEnd resolve (see package
// scheduler for how long resolutions live). Allocates nothing. Call it from the goroutine that calls Frame.
func (w *World) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) { return w.sched.Resolve(h) }

// Time returns the fixed-step clock's account (frames, ticks, simulated,
// dropped and remaining time), a copy. Call it from the goroutine that calls Frame.
func (w *World) Time() scheduler.Time { return w.sched.Time() }

// Frames is the number of frames run (failed ones included, refused ones
// not). Call it from the goroutine that calls Frame.
func (w *World) Frames() uint64 { return w.sched.Frames() }

// Order returns the names of phase p's systems in running order, nil for
// an invalid phase. It allocates. Call it from the goroutine that calls Frame.
func (w *World) Order(p systems.Phase) []string { return w.sched.Order(p) }

// Scheduler returns the world's scheduler, for inspection (its Playback,
// Events, FixedStep). Do not Add to it or run Frame through it. Safe for
// concurrent use (it never changes); the scheduler's methods are not.
func (w *World) Scheduler() *scheduler.Scheduler { return w.sched }

// Workers is the number of kernel workers, the frame loop's goroutine
// included (WithWorkers; 1 by default). Safe for concurrent use.
func (w *World) Workers() int { return w.pool.Workers() }

// Tables returns the tables declared with the builder, in order. The slice
// is the world's own: do not modify it. Safe for concurrent use (it never
// changes); the tables themselves are not, while Frame runs.
func (w *World) Tables() []*ephemeral.Table { return w.tables }

// Budget is the world's memory budget (WithMemoryBudget): its limit and the
// bytes charged by the Builder's declarations and the systems' per-worker
// event staging. Its methods are safe for concurrent use.
func (w *World) Budget() *memory.Budget { return w.budget }

// Persistence is the world's persistence mode (NoPersistence). Safe for
// concurrent use.
func (w *World) Persistence() Persistence { return w.persistence }

// Close stops the world: the kernel pool's goroutines end before it returns
// (none outlives it). Calling it again is a no-op returning nil; Frame then
// returns ErrClosed. Called from a system while a frame runs, it returns
// ErrRunning and closes nothing: close the world after Frame returns.
func (w *World) Close() error {
	if w.sched.Running() {
		return ErrRunning
	}
	if w.closed {
		return nil
	}
	w.closed = true
	return w.pool.Close()
}

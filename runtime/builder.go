package runtime

import (
	"errors"
	goruntime "runtime"
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/memory"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Builder declares a world: domains, tables, columns, event tables,
// resources, systems and hooks; Build seals it. A Builder is used once,
// from one goroutine.
//
// Declarations return what they declare and no error: the Builder keeps
// the first error of any call (Err), and Build returns it. A failed
// declaration returns nil, and so does every declaration after it (the
// Builder declares and allocates nothing more); passing that nil on is
// safe.
//
// Worlds share no data: systems may name only tables, event tables and
// resources declared through this Builder, and tables may join only
// domains declared through it; anything else fails Build with a
// *ForeignError. Names are unique among the Builder's tables, among its
// event tables, among its domains and among its resources (a
// *DefinitionError, errors.Is ErrDuplicateName).
//
// Memory: every declaration is charged to the Builder's memory budget
// (WithMemoryBudget, default 8 GiB) before it allocates, summed over the
// declarations so far; the one that does not fit fails with a
// *memory.BudgetError (errors.Is ErrMemoryBudget). A spec must leave its
// Budget nil (a *DefinitionError says so): the Builder sets its own.
//
// Make a Builder with NewBuilder: a zero Builder{} (or a nil *Builder)
// records ErrZeroBuilder.
type Builder struct {
	made       bool // set by NewBuilder
	cfg        config
	budget     *memory.Budget // the world's, from cfg.budget
	err        error
	built      bool
	domains    []*ephemeral.Domain
	tables     []*ephemeral.Table
	events     []events.Buffer
	resources  []frame.Resource
	systems    []systems.System
	hooks      []func(*scheduler.Hook) error
	callHooks  []int                // the hooks of face calls (CallHook), by index in hooks
	indexes    []systems.Index      // AddIndex (index.go)
	subs       []systems.Subscriber // Subscribe (subscribe.go)
	offIndexes []string             // AddIndex under WithoutIndexes: the names only
}

// NewBuilder returns a builder configured by opts (applied in order, a
// later option overriding an earlier one; a bad option's *OptionError, or
// one for a nil option, is the Builder's error). Without options:
// GOMAXPROCS workers (WithWorkers), Accumulate pacing, a 1/60 s step, 8
// ticks per frame at most, a 128-run report window, an 8 GiB memory
// budget.
func NewBuilder(opts ...Option) *Builder {
	b := &Builder{made: true, cfg: config{workers: min(goruntime.GOMAXPROCS(0), kernels.MaxWorkers), budget: DefaultMemoryBudget,
		allow: DefaultStateAllowance}}
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
// bytes charged so far by the Builder's declarations and, at Build, by
// systems' per-worker event staging. The World shares it (World.Budget).
// Nil for a Builder not made by NewBuilder.
func (b *Builder) Budget() *memory.Budget {
	if b == nil {
		return nil
	}
	return b.budget
}

// ownBudget records and returns the *DefinitionError of call for a spec
// that names a memory budget other than b's, nil otherwise.
func (b *Builder) ownBudget(call, name string, budget *memory.Budget) error {
	if budget != nil && budget != b.budget {
		err := &DefinitionError{Call: call, Name: name, Err: errSpecBudget}
		b.fail(err)
		return err
	}
	return nil
}

// Err returns the first error of the Builder's calls so far, nil when
// there is none; Build returns it too.
func (b *Builder) Err() error {
	if b == nil || !b.made {
		return ErrZeroBuilder
	}
	return b.err
}

func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// usable reports whether b may declare: made by NewBuilder, not built,
// and without an error so far (after the first error a Builder declares
// nothing more, so nothing is allocated for a world that will not build).
// It records ErrZeroBuilder or ErrBuilt.
func (b *Builder) usable() bool {
	if b == nil || !b.made {
		if b != nil {
			b.fail(ErrZeroBuilder)
		}
		return false
	}
	if b.built {
		b.fail(ErrBuilt)
		return false
	}
	return b.err == nil
}

// Domain declares an entity domain (ephemeral.NewDomain) shared by the
// tables that name it: one handle space of Capacity entities. It records
// an *ephemeral.DefinitionError for a bad spec, a *DefinitionError
// (errors.Is ErrDuplicateName; or, when spec.Budget is set, ErrDefinition
// alone) or a *memory.BudgetError (errors.Is ErrMemoryBudget) when its pages do
// not fit in what is left of the world's memory budget, and returns nil
// then.
func (b *Builder) Domain(spec ephemeral.DomainSpec) *ephemeral.Domain {
	if !b.usable() || b.ownBudget("Domain", spec.Name, spec.Budget) != nil {
		return nil
	}
	spec.Budget = b.budget
	if spec.Name != "" && slices.ContainsFunc(b.domains, func(d *ephemeral.Domain) bool { return d.Name() == spec.Name }) {
		b.fail(&DefinitionError{Call: "Domain", Name: spec.Name, Err: ErrDuplicateName})
		return nil
	}
	d, err := ephemeral.NewDomain(spec)
	if err != nil {
		b.fail(err)
		return nil
	}
	b.domains = append(b.domains, d)
	return d
}

// Table declares a table (ephemeral.NewTable): its memory is allocated
// here and with each column, for the whole capacity; tables never grow. It
// records an *ephemeral.DefinitionError for a bad spec, a *DefinitionError
// (errors.Is ErrDuplicateName; or, when spec.Budget is set, ErrDefinition
// alone), a *ForeignError for a spec.Domain not declared with this Builder, or a
// *memory.BudgetError (errors.Is ErrMemoryBudget) when its pages do not
// fit in the world's memory budget, and returns nil then.
func (b *Builder) Table(spec ephemeral.TableSpec) *ephemeral.Table {
	if !b.usable() || b.ownBudget("Table", spec.Name, spec.Budget) != nil {
		return nil
	}
	spec.Budget = b.budget
	if spec.Domain != nil && !slices.Contains(b.domains, spec.Domain) {
		b.fail(&ForeignError{Where: "Table " + strconv.Quote(spec.Name), Kind: "domain", Name: spec.Domain.Name()})
		return nil
	}
	if spec.Name != "" && slices.ContainsFunc(b.tables, func(t *ephemeral.Table) bool { return t.Name() == spec.Name }) {
		b.fail(&DefinitionError{Call: "Table", Name: spec.Name, Err: ErrDuplicateName})
		return nil
	}
	t, err := ephemeral.NewTable(spec)
	if err != nil {
		b.fail(err)
		return nil
	}
	b.tables = append(b.tables, t)
	return t
}

// AddColumn adds a column of element type T named name to t
// (ephemeral.AddColumn: Chunks()*ChunkRows() elements of a pointer-free T,
// allocated here, charged to the world's memory budget). It records an
// *ephemeral.DefinitionError, a *memory.BudgetError, a *DefinitionError
// (errors.Is ErrNilTable) for a nil t, or a *ForeignError for a table not
// declared with this Builder, and returns nil then.
func AddColumn[T any](b *Builder, t *ephemeral.Table, name string) *ephemeral.Column[T] {
	if !b.usable() {
		return nil
	}
	if t == nil {
		b.fail(&DefinitionError{Call: "AddColumn", Name: name, Err: ErrNilTable})
		return nil
	}
	if !slices.Contains(b.tables, t) {
		b.fail(&ForeignError{Where: "AddColumn " + strconv.Quote(name), Kind: "table", Name: t.Name()})
		return nil
	}
	c, err := ephemeral.AddColumn[T](t, name)
	if err != nil {
		b.fail(err)
		return nil
	}
	return c
}

// AddEvents declares an event table (events.New: at most Capacity events
// held, storage allocated here and charged to the world's memory budget)
// whose boundaries the world runs and whose consuming systems each get a
// reader (delivery rule: docs/architecture.md, Events). It records an
// *events.DefinitionError, a *memory.BudgetError or a *DefinitionError
// (errors.Is ErrDuplicateName, or ErrDefinition alone for a spec that
// names a budget), and returns nil then.
func AddEvents[T any](b *Builder, spec events.Spec) *events.Table[T] {
	if !b.usable() || b.ownBudget("AddEvents", spec.Name, spec.Budget) != nil {
		return nil
	}
	spec.Budget = b.budget
	if spec.Name != "" && slices.ContainsFunc(b.events, func(e events.Buffer) bool { return e.Name() == spec.Name }) {
		b.fail(&DefinitionError{Call: "AddEvents", Name: spec.Name, Err: ErrDuplicateName})
		return nil
	}
	ev, err := events.New[T](spec)
	if err != nil {
		b.fail(err)
		return nil
	}
	b.events = append(b.events, ev)
	return ev
}

// AddResource declares a typed resource named name holding v
// (systems.NewResource), which systems declare read or written
// (systems.ReadResource, WriteResource) and the scheduler conflict-checks
// like a column. The host reads and writes it between frames with
// Resource.Get. It records a *DefinitionError for an empty or duplicate
// name (errors.Is ErrEmptyName, ErrDuplicateName), and returns nil then.
func AddResource[T any](b *Builder, name string, v T) *systems.Resource[T] {
	if !b.usable() {
		return nil
	}
	if name == "" {
		b.fail(&DefinitionError{Call: "AddResource", Err: ErrEmptyName})
		return nil
	}
	if slices.ContainsFunc(b.resources, func(r frame.Resource) bool { return r.Name() == name }) {
		b.fail(&DefinitionError{Call: "AddResource", Name: name, Err: ErrDuplicateName})
		return nil
	}
	r := systems.NewResource(name, v)
	b.resources = append(b.resources, r)
	return r
}

// AddSliceResource declares a slice resource named name holding v, as
// AddResource, whose length is declared: minLen..maxLen elements. A
// snapshot section of another length is refused by Restore (ErrCorrupt,
// naming the resource), Snapshot refuses a value outside the bounds
// (ErrUnsupported), and the section's declared size is maxLen elements,
// so it takes nothing from the state allowance (WithStateAllowance;
// docs/state.md, "Sizes"). It records a *DefinitionError (errors.Is
// ErrEmptyName, ErrDuplicateName, or systems.ErrResourceState for an
// element type that holds pointers, bounds other than 0 <= minLen <=
// maxLen, or a v outside them) and returns nil then.
func AddSliceResource[E any](b *Builder, name string, v []E, minLen, maxLen int) *systems.Resource[[]E] {
	r := AddResource(b, name, v)
	if r == nil {
		return nil
	}
	if err := r.SetLenBounds(minLen, maxLen); err != nil {
		b.resources = b.resources[:len(b.resources)-1]
		b.fail(&DefinitionError{Call: "AddSliceResource", Name: name, Err: err})
		return nil
	}
	return r
}

// CheckResource declares the host's check of r's restored value: Restore
// decodes r's section, once its bytes pass the type's checks, into a
// scratch value r keeps (the world's value is untouched) and calls check
// with it; an error refuses the snapshot (ErrCorrupt, naming the resource
// and wrapping a *systems.ResourceStateError that wraps check's error),
// the world as it was. check reads only the value it is given (a pointer
// valid for the call), decides from it alone and must not panic; it runs
// on the goroutine that calls Restore, not for a Rollback's own Loads.
// Use it for what the type cannot say: indices in range, a queue sorted,
// handles of the right kind (docs/state.md, "Checks before any change").
// It records a *DefinitionError (errors.Is ErrNilResource) for a nil r or
// check, or an r another Builder declared, and does nothing then.
func CheckResource[T any](b *Builder, r *systems.Resource[T], check func(*T) error) {
	if !b.usable() {
		return
	}
	if r == nil || check == nil || !slices.ContainsFunc(b.resources, func(x frame.Resource) bool { return x == frame.Resource(r) }) {
		b.fail(&DefinitionError{Call: "CheckResource", Err: ErrNilResource})
		return
	}
	r.SetCheck(check)
}

// Add registers systems. Each is checked at once (systems.System.Validate:
// name, phase, Declare; the first error is recorded and none of sys is
// added) and copied, its Before and After slices too, so the caller may
// reuse them; their declarations run at Build, which reports their errors and
// every table, event table or resource they name that was not declared
// through this Builder (*ForeignError).
func (b *Builder) Add(sys ...systems.System) {
	if !b.usable() {
		return
	}
	for i := range sys {
		if err := sys[i].Validate(); err != nil {
			b.fail(err)
			return
		}
	}
	for _, s := range sys {
		s.Before, s.After = slices.Clone(s.Before), slices.Clone(s.After)
		b.systems = append(b.systems, s)
	}
}

// System registers the system name of phase phase declared by declare, as
// Add(systems.System{Name: name, Phase: phase, Declare: declare}) does;
// its errors are Add's, recorded on the Builder. Exported for a host of
// this layer (the package's examples and tests declare systems with it);
// the face has its own (tickwork.Builder.System).
func (b *Builder) System(name string, phase systems.Phase, declare systems.DeclareFunc) {
	b.Add(systems.System{Name: name, Phase: phase, Declare: declare})
}

// Hook registers fn to run at Build after every system is registered and
// before the graph is sealed (see scheduler.Hook). An error of fn makes
// Build fail with a *scheduler.HookError. A nil fn records
// scheduler.ErrNilHook.
func (b *Builder) Hook(fn func(h *scheduler.Hook) error) {
	if !b.usable() {
		return
	}
	if fn == nil {
		b.fail(scheduler.ErrNilHook)
		return
	}
	b.hooks = append(b.hooks, fn)
}

// CallHook registers fn as Hook does, for a face call that orders
// systems by name at Build (tickwork's Builder.Chain): an error fn returns
// fails Build as it is, not inside a *scheduler.HookError, since the host
// wrote the call, not a hook. Set-up only.
func (b *Builder) CallHook(fn func(h *scheduler.Hook) error) {
	if b.usable() && fn != nil {
		b.callHooks = append(b.callHooks, len(b.hooks))
	}
	b.Hook(fn)
}

// foreign returns a *ForeignError for the first table, event table or
// resource of the system's manifest not declared through b, nil when there
// is none. Set-up only.
func (b *Builder) foreign(name string, m *frame.Manifest) error {
	for _, t := range m.Tables() {
		if !slices.Contains(b.tables, t) {
			return &ForeignError{System: name, Where: "its declaration", Kind: "table", Name: t.Name()}
		}
	}
	for _, e := range slices.Concat(m.Emits, m.Consumes) {
		if !slices.Contains(b.events, e) {
			return &ForeignError{System: name, Where: "its declaration", Kind: "event table", Name: e.Name()}
		}
	}
	for _, r := range m.Resources {
		if !slices.Contains(b.resources, r.Resource) {
			return &ForeignError{System: name, Where: "its declaration", Kind: "resource", Name: r.Resource.Name()}
		}
	}
	return nil
}

// checkForeign is the Builder's own last hook: every system, its own and
// those the host's hooks added, may name only what b declared.
func (b *Builder) checkForeign(h *scheduler.Hook) error {
	for _, name := range h.Names() {
		if m, ok := frame.HookManifest(h, name); ok {
			if err := b.foreign(name, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// Build runs the systems' declarations, seals the world and returns it
// ready to run frames. It returns the Builder's first error
// (*OptionError, definition errors, ErrZeroBuilder), a declaration's
// *systems.DefinitionError, a *ForeignError for a system that names a
// table, event table or resource not declared through this Builder, or the
// seal's errors (see scheduler.Scheduler.Seal: conflicts, cycles, unknown
// or duplicate names, hook errors; a hook that panics gives a
// *scheduler.HookError naming it that wraps a *scheduler.HookPanicError).
// It starts the kernel pool's goroutines (WithWorkers) and stops them
// again when it fails, or when a system's DeclareFunc panics (the panic
// then goes on up). A Builder builds once; later calls return ErrBuilt.
func (b *Builder) Build() (*World, error) {
	if err := b.Err(); err != nil {
		return nil, err
	}
	if b.built {
		return nil, ErrBuilt
	}
	b.built = true
	b.sealDefinitions()
	pool, err := kernels.NewPool(b.cfg.workers)
	if err != nil {
		return nil, &OptionError{Option: "WithWorkers", Value: itoa(b.cfg.workers), Reason: err.Error()}
	}
	if b.cfg.policy != nil {
		pool.SetPolicy(*b.cfg.policy)
	}
	// A panic of a declaration (Add runs them) must not leak the pool's
	// goroutines: close it, then let the panic go on (hooks' panics are
	// errors already: scheduler.HookPanicError).
	ok := false
	defer func() {
		if !ok {
			if r := recover(); r != nil {
				_ = pool.Close()
				panic(r)
			}
		}
	}()
	cfg := b.cfg.sched
	cfg.Pool, cfg.Budget = pool, b.budget
	s, err := scheduler.New(cfg)
	if err == nil {
		err = s.AddEvents(b.events...)
	}
	var up *upkeep
	if err == nil && len(b.indexes) > 0 {
		up = newUpkeep(b.indexes)
		err = s.SetIndexUpkeep(up)
	}
	for i := 0; err == nil && i < len(b.subs); i++ {
		err = s.AddSubscriber(b.subs[i])
	}
	for i := 0; err == nil && i < len(b.systems); i++ {
		err = s.Add(b.systems[i])
	}
	for i := 0; err == nil && i < len(b.hooks); i++ {
		err = s.Hook(b.hooks[i])
	}
	if err == nil {
		err = s.Hook(b.checkForeign)
	}
	if err == nil {
		err = s.Seal()
		var he *scheduler.HookError
		if errors.As(err, &he) && (he.Index == len(b.hooks) || slices.Contains(b.callHooks, he.Index)) {
			err = he.Err // checkForeign's *ForeignError, or a face call's error, as it is
		}
	}
	if err != nil {
		if cerr := pool.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, err
	}
	ok = true
	for _, t := range b.tables {
		t.Domain().SetGuard(s.RunningFlag()) // the face refuses host structural changes during a frame
	}
	w := &World{sched: s, pool: pool, tables: b.tables, budget: b.budget, upkeep: up}
	w.state = w.newWorldState(b.domains, b.resources, b.cfg.host, b.cfg.allow)
	return w, nil
}

package runtime

import (
	"errors"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Builder declares a world: domains, tables, columns, event tables, systems
// and hooks; Build seals it. A Builder is used once, from one goroutine.
//
// Every method returns its error at once and also remembers the first
// one, which Build returns: a caller may check only Build's error.
type Builder struct {
	cfg     config
	err     error
	built   bool
	tables  []*ephemeral.Table
	events  []events.Buffer
	systems []systems.System
	hooks   []func(*scheduler.Hook) error
}

// NewBuilder returns a builder configured by opts (applied in order, a
// later option overriding an earlier one; a bad option's *OptionError is
// returned by Build). Without options: 1 worker, Accumulate pacing, a 1/60 s
// step, 8 ticks per frame at most, a 128-run report window,
// NoPersistence.
func NewBuilder(opts ...Option) *Builder {
	b := &Builder{cfg: config{workers: 1}}
	for _, o := range opts {
		if err := o(&b.cfg); err != nil {
			b.fail(err)
		}
	}
	return b
}

func (b *Builder) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

func (b *Builder) usable() error {
	if b.built {
		return ErrBuilt
	}
	return nil
}

// Domain declares an entity domain (ephemeral.NewDomain) shared by the
// tables that name it: one handle space of Capacity entities. It returns an
// *ephemeral.DefinitionError (errors.Is ephemeral.ErrDefinition) for a bad
// spec, or ErrBuilt after Build.
func (b *Builder) Domain(spec ephemeral.DomainSpec) (*ephemeral.Domain, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	d, err := ephemeral.NewDomain(spec)
	if err != nil {
		return nil, b.fail(err)
	}
	return d, nil
}

// Table declares a table (ephemeral.NewTable). Its memory is allocated
// here and with each column, Capacity rows (rounded up to whole chunks) per
// column; tables never grow. It returns an *ephemeral.DefinitionError
// (errors.Is ephemeral.ErrDefinition) for a bad spec, or ErrBuilt after
// Build.
func (b *Builder) Table(spec ephemeral.TableSpec) (*ephemeral.Table, error) {
	if err := b.usable(); err != nil {
		return nil, err
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
// such as ephemeral.ErrUnsupportedType), or ErrBuilt after Build.
func AddColumn[T any](b *Builder, t *ephemeral.Table, name string) (*ephemeral.Column[T], error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	c, err := ephemeral.AddColumn[T](t, name)
	if err != nil {
		return nil, b.fail(err)
	}
	return c, nil
}

// AddEvents declares an event table (events.New: Capacity events per
// frame, allocated here) that the world ends at every frame boundary. Event
// tables named by manifests are handled even when not declared here. It
// returns an *events.DefinitionError (errors.Is events.ErrDefinition), or
// ErrBuilt after Build.
func AddEvents[T any](b *Builder, spec events.Spec) (*events.Table[T], error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	ev, err := events.New[T](spec)
	if err != nil {
		return nil, b.fail(err)
	}
	b.events = append(b.events, ev)
	return ev, nil
}

// Add registers systems. Each is checked at once (systems.System.Validate:
// a *systems.DefinitionError, and none of sys is added); names,
// constraints and conflicts are checked by Build. It returns ErrBuilt after
// Build.
func (b *Builder) Add(sys ...systems.System) error {
	if err := b.usable(); err != nil {
		return err
	}
	for i := range sys {
		if err := sys[i].Validate(); err != nil {
			return b.fail(err)
		}
	}
	b.systems = append(b.systems, sys...)
	return nil
}

// Hook registers fn to run at Build after every system is registered and
// before the graph is sealed (see scheduler.Hook): look systems up by name,
// order host systems against them, substitute implementations. An error of
// fn makes Build fail with a *scheduler.HookError. Ignored after Build.
func (b *Builder) Hook(fn func(h *scheduler.Hook) error) {
	if b.usable() == nil {
		b.hooks = append(b.hooks, fn)
	}
}

// Build seals the world and returns it ready to run frames. It returns the
// first error of the builder or its options (*OptionError, definition
// errors), or the seal's errors (see scheduler.Scheduler.Seal: conflicts,
// cycles, unknown or duplicate names, hook errors). It starts the kernel
// pool's goroutines (WithWorkers) and stops them again when it fails. A
// Builder builds once; later calls return ErrBuilt.
func (b *Builder) Build() (*World, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	b.built = true
	if b.err != nil {
		return nil, b.err
	}
	pool, err := kernels.NewPool(b.cfg.workers)
	if err != nil {
		return nil, &OptionError{Option: "WithWorkers", Value: itoa(b.cfg.workers), Reason: err.Error()}
	}
	cfg := b.cfg.sched
	cfg.Pool = pool
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
		err = s.Seal()
	}
	if err != nil {
		return nil, errors.Join(err, pool.Close())
	}
	return &World{sched: s, pool: pool, tables: b.tables, persistence: b.cfg.persistence}, nil
}

// World is a sealed simulation: tables, event tables, systems in phases and
// a kernel pool. A host's game loop calls Frame once per frame.
//
// Worlds are independent: two worlds in one process share nothing (there is
// no global state). A World is driven by one goroutine; its kernels run on
// its own pool.
type World struct {
	sched       *scheduler.Scheduler
	pool        *kernels.Pool
	tables      []*ephemeral.Table
	persistence Persistence
	closed      bool
}

// Frame runs one frame with delta dt in seconds (see
// scheduler.Scheduler.Frame for the frame path). It returns ErrClosed after
// Close, a *scheduler.DeltaError (errors.Is scheduler.ErrBadDelta) for a
// negative, NaN, infinite or above-scheduler.MaxDelta dt (nothing runs), or
// a *scheduler.SystemError (errors.Is scheduler.ErrSystem) when a system
// failed (the frame still completed its boundaries). It allocates nothing
// in steady state. Call it from one goroutine.
func (w *World) Frame(dt float64) error {
	if w.closed {
		return ErrClosed
	}
	return w.sched.Frame(dt)
}

// Report returns the report of the last completed frame, or nil before the
// first frame. The report is the world's own, overwritten by the next
// Frame: copy what must outlive it. Allocates nothing.
func (w *World) Report() *scheduler.FrameReport { return w.sched.Report() }

// Resolve maps a provisional handle (from a recorder's Create) to the
// handle of the row its playback created; other nonzero handles come back
// as they are, with true. It returns false for a create not played yet,
// failed or released: between frames, the creates of the last frame's
// FixedUpdate, Update, LateUpdate and FrameEnd resolve (see package
// scheduler for how long resolutions live). Allocates nothing.
func (w *World) Resolve(h ephemeral.Handle) (ephemeral.Handle, bool) { return w.sched.Resolve(h) }

// Time returns the fixed-step clock's account (frames, ticks, simulated,
// dropped and remaining time).
func (w *World) Time() scheduler.Time { return w.sched.Time() }

// Frames is the number of frames run (failed ones included, refused ones
// not).
func (w *World) Frames() uint64 { return w.sched.Frames() }

// Order returns the names of phase p's systems in running order, nil for
// an invalid phase. It allocates.
func (w *World) Order(p systems.Phase) []string { return w.sched.Order(p) }

// Scheduler returns the world's scheduler, for inspection (its Playback,
// Events, FixedStep). Do not Add to it or run Frame through it.
func (w *World) Scheduler() *scheduler.Scheduler { return w.sched }

// Workers is the number of kernel workers, the frame loop's goroutine
// included (WithWorkers; 1 by default).
func (w *World) Workers() int { return w.pool.Workers() }

// Tables returns the tables declared with the builder, in order. The slice
// is the world's own.
func (w *World) Tables() []*ephemeral.Table { return w.tables }

// Persistence is the world's persistence mode (NoPersistence).
func (w *World) Persistence() Persistence { return w.persistence }

// Close stops the world: the kernel pool's goroutines end before it returns
// (none outlives it). Calling it again is a no-op returning nil; Frame then
// returns ErrClosed.
func (w *World) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.pool.Close()
}

package tickwork

import (
	"errors"
	"strconv"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Builder declares a world, made by NewBuilder: domains, tables, columns,
// event tables, resources, systems and hooks; Build seals it. It is used
// once, from one goroutine. Declarations return what they declare and no
// error: the Builder keeps the first error (Err), and Build returns it; a
// failed declaration returns nil, as does every one after it, and passing
// that nil on is safe. Systems may name only what this Builder declared
// (a *ForeignError otherwise); names are unique per kind. Every
// declaration is charged to the world's memory budget before it
// allocates (WithMemoryBudget).
type Builder runtime.Builder

func (b *Builder) e() *runtime.Builder { return (*runtime.Builder)(b) }

// NewBuilder returns a builder configured by opts.
func NewBuilder(opts ...Option) *Builder {
	eo := make([]runtime.Option, len(opts))
	for i, o := range opts {
		eo[i] = o.o
	}
	return (*Builder)(runtime.NewBuilder(eo...))
}

// Domain declares an entity domain, a handle space of spec.Capacity
// entities shared by the tables that name it. A bad spec, a duplicate name
// or the memory budget records an error and returns nil.
func (b *Builder) Domain(spec DomainSpec) *Domain {
	return (*Domain)(b.e().Domain(ephemeral.DomainSpec{Name: spec.Name, Capacity: spec.Capacity, ChunkRows: spec.ChunkRows}))
}

// Table declares a table; its memory is allocated here and with each
// column, for the whole capacity (tables never grow). A bad spec, a
// duplicate name, a domain of another builder or the memory budget
// records an error and returns nil.
func (b *Builder) Table(spec TableSpec) *Table {
	return (*Table)(b.e().Table(ephemeral.TableSpec{Name: spec.Name, Capacity: spec.Capacity,
		ChunkRows: spec.ChunkRows, Domain: (*ephemeral.Domain)(spec.Domain)}))
}

// AddColumn adds a column of element type T named name to t: Chunks*ChunkRows
// values of a pointer-free T, allocated here. A bad name or type, a nil
// or foreign t or the memory budget records an error and returns nil.
func AddColumn[T any](b *Builder, t *Table, name string) *Column[T] {
	return (*Column[T])(runtime.AddColumn[T](b.e(), t.e(), name))
}

// AddEvents declares an event table of at most spec.Capacity events of T,
// allocated here. A bad spec, a duplicate name or the memory budget
// records an error and returns nil.
func AddEvents[T any](b *Builder, spec EventSpec) *Events[T] {
	return (*Events[T])(runtime.AddEvents[T](b.e(), events.Spec{Name: spec.Name, Capacity: spec.Capacity,
		Lifetime: events.Lifetime(spec.Lifetime), MayGoUnread: spec.MayGoUnread}))
}

// AddResource declares a resource named name holding v. An empty or
// duplicate name records an error and returns nil.
func AddResource[T any](b *Builder, name string, v T) *Resource[T] {
	return (*Resource[T])(runtime.AddResource(b.e(), name, v))
}

// AddSliceResource declares a slice resource named name holding v whose
// length is declared, minLen..maxLen elements: a snapshot of another
// length is refused naming it, and its section counts maxLen elements
// toward the world's declared snapshot size (docs/state.md, "Sizes"). A
// bad name or bounds, or a v outside them, records an error and returns
// nil.
func AddSliceResource[E any](b *Builder, name string, v []E, minLen, maxLen int) *Resource[[]E] {
	return (*Resource[[]E])(runtime.AddSliceResource(b.e(), name, v, minLen, maxLen))
}

// CheckResource declares the host's check of r's restored value: Restore
// decodes r's section into a scratch value and calls check with it before
// anything changes; an error refuses the snapshot (ErrCorrupt naming the
// resource, wrapping check's error). A nil r or check records an error
// (ErrNilResource).
func CheckResource[T any](b *Builder, r *Resource[T], check func(*T) error) {
	runtime.CheckResource(b.e(), r.e(), check)
}

// System adds the system name of phase phase declared by declare, as
// Add(System{Name: name, Phase: phase, Declare: declare}).
func (b *Builder) System(name string, phase Phase, declare DeclareFunc) {
	b.Add(System{Name: name, Phase: phase, Declare: declare})
}

// Chain orders the systems named each after the one before it in names:
// Chain("a", "b", "c") is "b" After "a" and "c" After "b", one line for
// what would be a Decl.After in each. The systems may be added before or
// after the call; the order is applied in Build, after every system is
// added (as a Hook's Order), so the rules of System.After hold: the
// systems of one chain run in one phase, or in phase order (a later
// system of an earlier phase is ErrPhaseOrder). A name no system has
// fails Build with an *UnknownSystemError (ErrUnknownSystem) whose
// Relation is the call as written, such as `Chain("a", "nope")`. Fewer
// than two names order nothing.
func (b *Builder) Chain(names ...string) {
	if len(names) < 2 {
		return
	}
	names = append([]string(nil), names...)
	b.e().CallHook(func(h *scheduler.Hook) error {
		for i := 1; i < len(names); i++ {
			if err := h.Order(names[i-1], names[i]); err != nil {
				var u *UnknownSystemError
				if errors.As(err, &u) {
					u.Relation = chainCall(names)
				}
				return err
			}
		}
		return nil
	})
}

// chainCall is Chain's call as the host wrote it: Chain("a", "b").
func chainCall(names []string) string {
	s := "Chain("
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += strconv.Quote(n)
	}
	return s + ")"
}

// Add adds systems. Each is checked at once (System.Validate; the first
// error is recorded and none of sys is added) and copied; their
// declarations run at Build.
func (b *Builder) Add(sys ...System) {
	es := make([]systems.System, len(sys))
	for i := range sys {
		es[i] = sys[i].engine()
	}
	b.e().Add(es...)
}

// Hook registers fn to run in Build after every system is added and before
// the graph is sealed (Hook). An error of fn fails Build with a
// *HookError; a nil fn records ErrNilHook.
func (b *Builder) Hook(fn func(h *Hook) error) {
	if fn == nil {
		b.e().Hook(nil)
		return
	}
	b.e().Hook(func(h *scheduler.Hook) error { return fn((*Hook)(h)) })
}

// Budget is the world's memory budget, charged by every declaration so
// far.
func (b *Builder) Budget() *Budget { return (*Budget)(b.e().Budget()) }

// Err returns the first error of the Builder's calls so far, nil when
// there is none.
func (b *Builder) Err() error { return b.e().Err() }

// Build runs the systems' declarations, seals the world and returns it
// ready to run frames, or the Builder's first error, a declaration's
// error, or the seal's: ErrConflict (unordered systems touch the same
// data, a *ConflictError naming both and the datum), ErrCycle,
// ErrPhaseOrder, ErrEventOrder, ErrUnknownSystem, ErrDuplicateSystem,
// ErrHook. It starts the kernel pool (and stops it when it fails). A
// Builder builds once; later calls return ErrBuilt.
func (b *Builder) Build() (*World, error) {
	w, err := b.e().Build()
	if err != nil {
		return nil, err
	}
	bindIndexes(b.e(), w)
	ts := w.Tables()
	fw := &World{w: w, tables: make([]*Table, len(ts))}
	for i, t := range ts {
		fw.tables[i] = (*Table)(t)
	}
	return fw, nil
}

// Option configures a Builder (NewBuilder). A bad value fails Build with
// an *OptionError (ErrOption).
type Option struct{ o runtime.Option }

// WithWorkers sets the number of kernel workers, the frame loop's
// goroutine included (default GOMAXPROCS; 1 runs kernels inline).
func WithWorkers(n int) Option { return Option{runtime.WithWorkers(n)} }

// WithKernelPolicy sets how many workers a kernel run uses (default: the
// zero KernelPolicy); ParallelPolicy overrides it for one run.
func WithKernelPolicy(pol KernelPolicy) Option {
	return Option{runtime.WithKernelPolicy(kernels.Policy(pol))}
}

// WithFixedStep sets the fixed step in seconds (default 1/60).
func WithFixedStep(seconds float64) Option { return Option{runtime.WithFixedStep(seconds)} }

// WithMaxTicksPerFrame caps the fixed ticks of a frame (default 8): the
// time past the cap is dropped (FrameReport.Dropped).
func WithMaxTicksPerFrame(n int) Option { return Option{runtime.WithMaxTicksPerFrame(n)} }

// WithPacing chooses Accumulate (the default) or OneTickPerFrame.
func WithPacing(p Pacing) Option { return Option{runtime.WithPacing(scheduler.Pacing(p))} }

// WithReportWindow sets how many runs of each system the report's rolling
// statistics cover, 1..MaxReportWindow (default 128).
func WithReportWindow(runs int) Option { return Option{runtime.WithReportWindow(runs)} }

// WithExactAllocs makes FrameReport.AllocBytes and AllocObjects exact
// when on, for two stops of the world a frame (runtime.ReadMemStats); off,
// the default, they are runtime/metrics' figures, which count a small
// allocation late (the rule: FrameReport.AllocBytes).
func WithExactAllocs(on bool) Option { return Option{runtime.WithExactAllocs(on)} }

// WithoutIndexes builds the world without keeping any of its declared
// indexes (AddHashIndex .. AddEventIndex, and a schema's index
// declarations): no upkeep in any frame, no sync, no marks (MaintainIndex
// returns marks that mark nothing, IndexMarks.On is false), so that the
// same program runs as if it declared none: for measuring what its
// indexes cost, or for a process that runs no query served by one. A
// declaration is still checked as without the option; reading an index
// (its Hash, Unique, Sorted or Grid accessor, a generated query served by
// it) panics naming the option. docs/architecture.md, Indexes.
func WithoutIndexes() Option { return Option{runtime.WithoutIndexes()} }

// WithCommandRecords sets the initial records of each command buffer,
// 1..MaxCommandRecords (default 1024); buffers grow past it while warming
// up.
func WithCommandRecords(n int) Option { return Option{runtime.WithCommandRecords(n)} }

// WithMemoryBudget sets the world's memory budget in bytes (default
// DefaultMemoryBudget): a declaration past it fails with a *BudgetError
// (ErrMemoryBudget).
func WithMemoryBudget(bytes int64) Option { return Option{runtime.WithMemoryBudget(bytes)} }

// WithHostConfig gives the world the host's own configuration bytes (at
// most MaxHostConfig): every snapshot carries them, and Restore refuses a
// snapshot of other bytes with ErrHostConfig, whose *HostConfigError holds
// both (docs/state.md, "Host configuration").
func WithHostConfig(b []byte) Option { return Option{runtime.WithHostConfig(b)} }

// WithStateAllowance sets how many bytes a snapshot may hold beyond its
// parts' declared sizes (default DefaultStateAllowance, 16 MiB; at most
// MaxStateAllowance): pending resolutions, slice resources without
// declared lengths, codec resources (docs/state.md, "Sizes").
func WithStateAllowance(bytes int) Option { return Option{runtime.WithStateAllowance(bytes)} }

// Limits and defaults of the options.
const (
	MaxReportWindow       = scheduler.MaxReportWindow
	MaxCommandRecords     = scheduler.MaxCommandRecords
	DefaultMemoryBudget   = runtime.DefaultMemoryBudget
	MaxHostConfig         = runtime.MaxHostConfig
	DefaultStateAllowance = runtime.DefaultStateAllowance
	MaxStateAllowance     = runtime.MaxStateAllowance
)

// Pacing chooses how many fixed ticks a frame runs (WithPacing).
type Pacing uint8

// The pacings.
const (
	// Accumulate runs the ticks the frame deltas owe, at most
	// WithMaxTicksPerFrame's a frame.
	Accumulate = Pacing(scheduler.Accumulate)
	// OneTickPerFrame runs one tick a frame, whatever the delta.
	OneTickPerFrame = Pacing(scheduler.OneTickPerFrame)
)

// String returns "Accumulate" or "OneTickPerFrame".
func (p Pacing) String() string { return scheduler.Pacing(p).String() }

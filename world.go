package tickwork

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Builder declares a world and builds it: [runtime.Builder].
type Builder = runtime.Builder

// World is a sealed simulation a host steps with Frame: [runtime.World].
type World = runtime.World

// Option configures a Builder: [runtime.Option].
type Option = runtime.Option

// NewBuilder returns a builder configured by opts: [runtime.NewBuilder].
func NewBuilder(opts ...Option) *Builder { return runtime.NewBuilder(opts...) }

// WithWorkers sets the number of kernel workers: [runtime.WithWorkers].
func WithWorkers(n int) Option { return runtime.WithWorkers(n) }

// WithKernelPolicy sets the worker policy of the world's kernel runs:
// [runtime.WithKernelPolicy].
func WithKernelPolicy(pol KernelPolicy) Option { return runtime.WithKernelPolicy(pol) }

// WithFixedStep sets the fixed step in seconds: [runtime.WithFixedStep].
func WithFixedStep(seconds float64) Option { return runtime.WithFixedStep(seconds) }

// WithMaxTicksPerFrame caps the fixed ticks of a frame:
// [runtime.WithMaxTicksPerFrame].
func WithMaxTicksPerFrame(n int) Option { return runtime.WithMaxTicksPerFrame(n) }

// WithPacing chooses Accumulate or OneTickPerFrame: [runtime.WithPacing].
func WithPacing(p Pacing) Option { return runtime.WithPacing(p) }

// WithReportWindow sets the runs the report's statistics cover:
// [runtime.WithReportWindow].
func WithReportWindow(runs int) Option { return runtime.WithReportWindow(runs) }

// WithCommandRecords sets the initial records of each command buffer:
// [runtime.WithCommandRecords].
func WithCommandRecords(n int) Option { return runtime.WithCommandRecords(n) }

// WithMemoryBudget sets the world's memory budget in bytes:
// [runtime.WithMemoryBudget].
func WithMemoryBudget(bytes int64) Option { return runtime.WithMemoryBudget(bytes) }

// Pacing chooses how many fixed ticks a frame runs: [scheduler.Pacing].
type Pacing = scheduler.Pacing

// The pacings: [scheduler.Accumulate], [scheduler.OneTickPerFrame].
const (
	Accumulate      = scheduler.Accumulate
	OneTickPerFrame = scheduler.OneTickPerFrame
)

// AddColumn adds a typed column to a table: [runtime.AddColumn].
func AddColumn[T any](b *Builder, t *Table, name string) *Column[T] {
	return runtime.AddColumn[T](b, t, name)
}

// EventSpec declares an event table: [events.Spec].
type EventSpec = events.Spec

// Events is a typed event table: [events.Table].
type Events[T any] = events.Table[T]

// The event lifetimes: [events.NextFrame], [events.ThisFrame].
const (
	NextFrame = events.NextFrame
	ThisFrame = events.ThisFrame
)

// AddEvents declares an event table: [runtime.AddEvents].
func AddEvents[T any](b *Builder, spec EventSpec) *Events[T] { return runtime.AddEvents[T](b, spec) }

// Resource is a typed datum systems declare like a column:
// [systems.Resource].
type Resource[T any] = systems.Resource[T]

// AddResource declares a typed resource holding v: [runtime.AddResource].
func AddResource[T any](b *Builder, name string, v T) *Resource[T] {
	return runtime.AddResource(b, name, v)
}

// FrameReport describes the last frame: [scheduler.FrameReport].
type FrameReport = scheduler.FrameReport

// SystemReport is one system's entry in a frame report:
// [scheduler.SystemReport].
type SystemReport = scheduler.SystemReport

// CounterReport is one named counter's value in a frame:
// [scheduler.CounterReport].
type CounterReport = scheduler.CounterReport

// IsFatal reports whether an error returned by World.Frame means the world
// can run no more frames; every other Frame error is recoverable. It
// classifies Frame's errors only (Build's errors are all set-up errors). A
// panic in a system is not returned: it goes on through Frame as a
// *scheduler.PanicError and poisons the world, so the next Frame returns
// ErrPoisoned: [runtime.IsFatal].
func IsFatal(err error) bool { return runtime.IsFatal(err) }

// Sentinel errors a host tests with errors.Is; the typed errors behind them
// are the engine packages' (see [runtime.Builder.Build] and
// [scheduler.Scheduler.Frame]).
var (
	ErrOption       = runtime.ErrOption       // a bad option
	ErrConflict     = scheduler.ErrConflict   // unordered systems touch the same data
	ErrClosed       = runtime.ErrClosed       // Frame on a closed world
	ErrZeroWorld    = runtime.ErrZeroWorld    // Frame or Close on a World not made by Build
	ErrHook         = scheduler.ErrHook       // a hook failed or panicked in Build
	ErrPoisoned     = scheduler.ErrPoisoned   // a panic left a frame unfinished
	ErrSystem       = scheduler.ErrSystem     // a system failed (Context.Fail)
	ErrBadDelta     = scheduler.ErrBadDelta   // a bad frame delta
	ErrOverflow     = events.ErrOverflow      // events dropped by overflow
	ErrCapacity     = ephemeral.ErrCapacity   // a create into a full table
	ErrMemoryBudget = runtime.ErrMemoryBudget // a declaration past the memory budget
)

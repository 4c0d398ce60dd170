package tickwork

import (
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/systems"
)

// Phase is the part of a frame a system runs in: [systems.Phase].
type Phase = systems.Phase

// The phases, in running order: [systems.FrameStart] .. [systems.FrameEnd].
const (
	FrameStart  = systems.FrameStart
	FixedUpdate = systems.FixedUpdate
	Update      = systems.Update
	LateUpdate  = systems.LateUpdate
	FrameEnd    = systems.FrameEnd
)

// System is a system as the scheduler sees it: [systems.System]. Most
// hosts use Builder.System instead.
type System = systems.System

// Decl is a system being declared: [systems.Decl].
type Decl = systems.Decl

// Counter is a named per-system counter shown in the frame report,
// declared by Decl.Counter: [systems.Counter].
type Counter = systems.Counter

// RunFunc is a system's body: [systems.RunFunc].
type RunFunc = systems.RunFunc

// DeclareFunc declares a system and returns its body: [systems.DeclareFunc].
type DeclareFunc = systems.DeclareFunc

// Context is what a running body sees: [systems.Context].
type Context = systems.Context

// Access is a column accessor, what queries take: [systems.Access].
type Access[T any] = systems.Access[T]

// ReadColumn reads one column: [systems.ReadColumn].
type ReadColumn[T any] = systems.ReadColumn[T]

// WriteColumn reads and writes one column: [systems.WriteColumn].
type WriteColumn[T any] = systems.WriteColumn[T]

// Read declares a read of column c: [systems.Read].
func Read[T any](s *Decl, c *Column[T]) ReadColumn[T] { return systems.Read(s, c) }

// Write declares a write of column c: [systems.Write].
func Write[T any](s *Decl, c *Column[T]) WriteColumn[T] { return systems.Write(s, c) }

// Recorder records deferred commands for one table: [systems.Recorder].
type Recorder = systems.Recorder

// Record declares the commands a system records for table t:
// [systems.Record].
func Record(s *Decl, t *Table) *Recorder { return systems.Record(s, t) }

// Set records a deferred write: [systems.Set].
func Set[T any](r *Recorder, col *Column[T], h Handle, v T) { systems.Set(r, col, h, v) }

// SetN records deferred writes of many rows in one record: [systems.SetN].
func SetN[T any](r *Recorder, col *Column[T], hs []Handle, vs []T) { systems.SetN(r, col, hs, vs) }

// ReserveValues makes room for n deferred values of a column:
// [systems.ReserveValues].
func ReserveValues[T any](r *Recorder, col *Column[T], n int) { systems.ReserveValues(r, col, n) }

// Emitter emits events: [systems.Emitter].
type Emitter[T any] = systems.Emitter[T]

// Emit declares that a system emits into ev: [systems.Emit].
func Emit[T any](s *Decl, ev *Events[T]) *Emitter[T] { return systems.Emit(s, ev) }

// ParallelEmitter emits events from kernel workers:
// [systems.ParallelEmitter].
type ParallelEmitter[T any] = systems.ParallelEmitter[T]

// EmitParallel declares that a system's kernels emit into ev:
// [systems.EmitParallel].
func EmitParallel[T any](s *Decl, ev *Events[T]) *ParallelEmitter[T] {
	return systems.EmitParallel(s, ev)
}

// Consumer reads events: [systems.Consumer].
type Consumer[T any] = systems.Consumer[T]

// Consume declares that a system reads ev: [systems.Consume].
func Consume[T any](s *Decl, ev *Events[T]) *Consumer[T] { return systems.Consume(s, ev) }

// ReadResource declares a read of resource r: [systems.ReadResource].
func ReadResource[T any](s *Decl, r *Resource[T]) *T { return systems.ReadResource(s, r) }

// WriteResource declares a write of resource r: [systems.WriteResource].
func WriteResource[T any](s *Decl, r *Resource[T]) *T { return systems.WriteResource(s, r) }

// Parallel runs a kernel with explicit state over chunks on the world's
// workers: [systems.Parallel].
func Parallel[S any](ctx *Context, chunks int, st S, fn func(st *S, worker, chunk int)) {
	systems.Parallel(ctx, chunks, st, fn)
}

// KernelPolicy decides how many workers a kernel run uses:
// [kernels.Policy].
type KernelPolicy = kernels.Policy

// ParallelPolicy is Parallel under its own worker policy:
// [systems.ParallelPolicy].
func ParallelPolicy[S any](ctx *Context, pol KernelPolicy, chunks int, st S, fn func(st *S, worker, chunk int)) {
	systems.ParallelPolicy(ctx, pol, chunks, st, fn)
}

// WorkerEmitter emits one kernel worker's events: [systems.WorkerEmitter].
type WorkerEmitter[T any] = systems.WorkerEmitter[T]

package tickwork

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// Access is a column accessor, what a system's queries take: a ReadColumn
// or a WriteColumn.
type Access[T any] interface {
	access() systems.Access[T]
}

// ReadColumn reads one column from a system, made by Read in its
// DeclareFunc. A small value; copy it into kernel state freely. Through it
// the column must not be written (docs/architecture.md, Access rules).
type ReadColumn[T any] struct{ r systems.ReadColumn[T] }

func (r ReadColumn[T]) access() systems.Access[T] { return r.r }

// Read declares that the system reads column c and returns its accessor.
// A nil c (a failed AddColumn) fails the declaration.
func Read[T any](s *Decl, c *Column[T]) ReadColumn[T] {
	return ReadColumn[T]{systems.Read(s.e(), c.e())}
}

// Column is the accessor's column.
func (r ReadColumn[T]) Column() *Column[T] { return (*Column[T])(r.r.Column()) }

// All returns the whole column indexed by row (Column.All), for a kernel
// that reads rows at random, as a probe of another table does.
func (r ReadColumn[T]) All() []T { return r.r.All() }

// At returns the value at row row; it panics when row is outside
// 0..Chunks*ChunkRows-1.
func (r ReadColumn[T]) At(row int) T { return r.r.At(row) }

// Get returns h's value, or false when h has no live row in the table.
func (r ReadColumn[T]) Get(h Handle) (T, bool) { return r.r.Get(ephemeral.Handle(h)) }

// Row returns the row of h, or false when h names no live row of the
// column's table: the probe by handle.
func (r ReadColumn[T]) Row(h Handle) (int, bool) { return r.r.Row(ephemeral.Handle(h)) }

// Lease returns the lease of the column's table: in a hot loop, probe
// through it (Lease.Row inlines into the loop).
func (r ReadColumn[T]) Lease() Lease { return Lease{r.r.Lease()} }

// WriteColumn reads and writes one column from a system, made by Write in
// its DeclareFunc. A small value; copy it into kernel state freely.
type WriteColumn[T any] struct{ w systems.WriteColumn[T] }

func (w WriteColumn[T]) access() systems.Access[T] { return w.w }

// Write declares that the system reads and writes column c and returns
// its accessor. A nil c fails the declaration.
func Write[T any](s *Decl, c *Column[T]) WriteColumn[T] {
	return WriteColumn[T]{systems.Write(s.e(), c.e())}
}

// Column is the accessor's column.
func (w WriteColumn[T]) Column() *Column[T] { return (*Column[T])(w.w.Column()) }

// All returns the whole column indexed by row (Column.All), to read and
// write.
func (w WriteColumn[T]) All() []T { return w.w.All() }

// At returns the value at row row; it panics when row is outside
// 0..Chunks*ChunkRows-1.
func (w WriteColumn[T]) At(row int) T { return w.w.At(row) }

// Get returns h's value, or false when h has no live row in the table.
func (w WriteColumn[T]) Get(h Handle) (T, bool) { return w.w.Get(ephemeral.Handle(h)) }

// Row returns the row of h, or false when h names no live row of the
// column's table.
func (w WriteColumn[T]) Row(h Handle) (int, bool) { return w.w.Row(ephemeral.Handle(h)) }

// Lease returns the lease of the column's table.
func (w WriteColumn[T]) Lease() Lease { return Lease{w.w.Lease()} }

// Ptr returns a pointer to h's value, or nil when h has no live row.
func (w WriteColumn[T]) Ptr(h Handle) *T { return w.w.Ptr(ephemeral.Handle(h)) }

// Set sets h's value; false, changing nothing, when h has no live row.
func (w WriteColumn[T]) Set(h Handle, v T) bool { return w.w.Set(ephemeral.Handle(h), v) }

// Recorder records deferred structural changes and writes for one table,
// made by Record: played back at the end of the system's phase (after each
// fixed tick in FixedUpdate), where no system runs (docs/architecture.md,
// Command buffers). One from Record records from the body's goroutine;
// one from Worker, from that kernel worker only. Recording allocates
// nothing once Reserve made room.
type Recorder systems.Recorder

func (r *Recorder) e() *systems.Recorder { return (*systems.Recorder)(r) }

// Record declares that the system records commands for table t and
// returns its recorder. A nil t fails the declaration.
func Record(s *Decl, t *Table) *Recorder { return (*Recorder)(systems.Record(s.e(), t.e())) }

// Table is the recorder's table.
func (r *Recorder) Table() *Table { return (*Table)(r.e().Table()) }

// Create records a new entity with a row in the table (every column zero
// until deferred writes set them) and returns its provisional handle,
// usable in later records and resolved after playback (Context.Resolve).
func (r *Recorder) Create() Handle { return Handle(r.e().Create()) }

// Delete records the deletion of entity h, with its rows in every table of
// its domain.
func (r *Recorder) Delete(h Handle) { r.e().Delete(ephemeral.Handle(h)) }

// Attach records a row in the table for the existing entity h (real or
// provisional) of the table's domain.
func (r *Recorder) Attach(h Handle) { r.e().Attach(ephemeral.Handle(h)) }

// Remove records the removal of h's row from the table only. An entity it
// leaves with no row is deleted only if it still has none when the
// system's commands have played back, so Remove then Attach to another
// table of the domain (or Move) changes its table (package commands,
// Policies).
func (r *Recorder) Remove(h Handle) { r.e().Remove(ephemeral.Handle(h)) }

// TryCreate is Create that reports a refusal at the call: a create past
// what the table could hold after playback (the rule: package commands,
// Policies, "Bounded recording") returns an error matching ErrCapacity (a
// *CapacityError naming the table and its capacity), and one past the
// buffer's limit ErrTooManyCreates, and one whose command buffer cannot
// grow within the world's memory budget an error matching
// ErrMemoryBudget (package commands, Memory). A refused create records nothing
// more, its handle never resolves, and the frame reports it too (an error
// matching ErrPlayback). Create refuses the same creates.
func (r *Recorder) TryCreate() (Handle, error) {
	h, err := r.e().TryCreate()
	return Handle(h), err
}

// Move records the move of entity h's row from from's table to to's, two
// tables of one domain, in one record: the columns both tables have (same
// name and type) carry h's values, the other columns of to's table start
// at zero, and the rest of from's row is dropped (Ark's Exchange); h keeps
// its handle and its other rows. Take from and to from the same system
// (both from Record, or both Worker(w, chunk) of one worker); Move panics
// otherwise. A move that fails at playback (no row in from's table,
// ErrMoveNoRow for a live entity moved or removed earlier in the playback; a row
// in to's already) makes the frame return an error matching ErrPlayback.
func Move(h Handle, from, to *Recorder) { systems.Move(ephemeral.Handle(h), from.e(), to.e()) }

// Reserve makes room for n records per playback in the system's serial
// buffer, so that recording up to n never allocates. It allocates 16 bytes
// a record, charged to the world's memory budget (WithMemoryBudget): call
// it in the DeclareFunc or the body. A negative n reserves nothing and
// returns a *CountError (ErrNegativeCount); room past the budget reserves
// nothing and returns a *BudgetError (ErrMemoryBudget), from the body at
// once, from Build when called in the DeclareFunc (the records that would
// need the room are refused when recorded: package commands, Memory).
func (r *Recorder) Reserve(n int) error { return r.e().Reserve(n) }

// ReserveWorkers is Reserve for each kernel worker's buffer (Worker), n
// records each, with Reserve's errors.
func (r *Recorder) ReserveWorkers(n int) error { return r.e().ReserveWorkers(n) }

// Worker returns worker w's recorder for chunk chunk, from inside a
// Parallel kernel, so that playback follows chunk order whatever the
// worker count: call it again for every chunk. chunk is the index the
// kernel was given, a table chunk or a unit of its own (a grid cell). It panics when w is outside
// 0..Context.Workers()-1 or on a worker's recorder.
func (r *Recorder) Worker(w, chunk int) *Recorder { return (*Recorder)(r.e().Worker(w, chunk)) }

// Set records a deferred write of v to h's value in col, a column of r's
// table (it panics otherwise); h may be provisional.
func Set[T any](r *Recorder, col *Column[T], h Handle, v T) {
	systems.Set((*systems.Recorder)(r), (*ephemeral.Column[T])(col), ephemeral.Handle(h), v)
}

// SetN records deferred writes of vs[i] to hs[i]'s row of col in one
// record; len(hs) must equal len(vs).
func SetN[T any](r *Recorder, col *Column[T], hs []Handle, vs []T) {
	systems.SetN((*systems.Recorder)(r), (*ephemeral.Column[T])(col), handles(hs), vs)
}

// ReserveValues makes room in r's serial buffer for n deferred values of
// col (and n records), so that recording up to that many per playback
// never allocates; its errors are Recorder.Reserve's.
func ReserveValues[T any](r *Recorder, col *Column[T], n int) error {
	return systems.ReserveValues(r.e(), col.e(), n)
}

// Emitter emits events from a system's body, made by Emit.
type Emitter[T any] systems.Emitter[T]

// Emit declares that the system emits into ev and returns its emitter.
func Emit[T any](s *Decl, ev *Events[T]) *Emitter[T] {
	return (*Emitter[T])(systems.Emit(s.e(), ev.e()))
}

// Emit emits v; false when the table is full (the event is dropped,
// counted, and the frame returns an error matching ErrOverflow).
// Allocates nothing.
func (e *Emitter[T]) Emit(v T) bool { return (*systems.Emitter[T])(e).Emit(v) }

// ParallelEmitter emits events from a system's kernel workers, made by
// EmitParallel: each worker emits through its own WorkerEmitter, merged in
// chunk order after the run whatever the worker count.
type ParallelEmitter[T any] systems.ParallelEmitter[T]

// EmitParallel declares that the system's kernels emit into ev and returns
// their emitter. It charges per-worker staging to the world's memory
// budget at Build.
func EmitParallel[T any](s *Decl, ev *Events[T]) *ParallelEmitter[T] {
	return (*ParallelEmitter[T])(systems.EmitParallel(s.e(), ev.e()))
}

// Worker returns worker w's emitter for chunk chunk, from inside a
// Parallel kernel: call it again for every chunk. chunk is the index the
// kernel was given, a table chunk or a unit of its own (a grid cell); the
// workers' events merge in ascending chunk order, the same for any worker
// count (package systems, Kernels).
func (e *ParallelEmitter[T]) Worker(w, chunk int) WorkerEmitter[T] {
	return WorkerEmitter[T]{(*systems.ParallelEmitter[T])(e).Worker(w, chunk)}
}

// WorkerEmitter emits one kernel worker's events for one chunk. A small
// value.
type WorkerEmitter[T any] struct{ e systems.WorkerEmitter[T] }

// Emit emits v; false when the worker's staging is full (dropped and
// counted as an overflow). Allocates nothing.
func (e WorkerEmitter[T]) Emit(v T) bool { return e.e.Emit(v) }

// Consumer reads a system's events, made by Consume: each event once, by
// the delivery rule of its table's Lifetime (docs/architecture.md,
// Delivery rule).
type Consumer[T any] systems.Consumer[T]

// Consume declares that the system reads ev and returns its consumer.
func Consume[T any](s *Decl, ev *Events[T]) *Consumer[T] {
	return (*Consumer[T])(systems.Consume(s.e(), ev.e()))
}

// Read returns the events the system has not read yet and may read now,
// in emission order; every call in a run returns the first call's, and
// they count as read when the run ends. The slice is the table's, valid
// until the run ends: do not modify it. Allocates nothing.
func (c *Consumer[T]) Read() []T { return (*systems.Consumer[T])(c).Read() }

// ReadResource declares a read of resource r and returns a pointer to its
// value, which must not be written through. A nil r fails the declaration.
func ReadResource[T any](s *Decl, r *Resource[T]) *T { return systems.ReadResource(s.e(), r.e()) }

// WriteResource declares a write of resource r and returns its value.
func WriteResource[T any](s *Decl, r *Resource[T]) *T { return systems.WriteResource(s.e(), r.e()) }

// Resource is a typed datum outside tables (a random stream, counters, a
// configuration), made by AddResource: systems declare it read or written
// like a column, and a snapshot holds it (docs/state.md, What a snapshot holds).
type Resource[T any] systems.Resource[T]

func (r *Resource[T]) e() *systems.Resource[T] { return (*systems.Resource[T])(r) }

// Name is the resource's name.
func (r *Resource[T]) Name() string { return r.e().Name() }

// Get returns the resource's value, for the host to read and write between
// frames.
func (r *Resource[T]) Get() *T { return r.e().Get() }

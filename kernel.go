package tickwork

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/systems"
)

// The chunk driver of generated systems (docs/schema.md, Generated code):
// what every generated kernel would repeat lives here once, so that a
// generated system holds only its declaration and its per-row logic.

// ChunkKernel drives a generated system's kernel over the used chunks of
// its table: on the system's goroutine with one worker or a table of one
// chunk, on the world's workers otherwise, the same kernel either way, so
// results do not depend on the worker count. Before a chunk runs it starts
// that worker's segments of the system's recorders and parallel emitters
// for the chunk; after the run it adds each counter's per-worker counts to
// the system's Counter, once. Made by DenseKernel or MaskedKernel in a
// DeclareFunc; its Run is the system's body. Nothing allocates after
// Build. Only the system's own run uses it.
type ChunkKernel[S any] systems.ChunkKernel[S]

func (k *ChunkKernel[S]) e() *systems.ChunkKernel[S] { return (*systems.ChunkKernel[S])(k) }

// World asks Run to store the run's world values in the kernel state
// before the kernel runs: @dt as float32 and float64 (Context.DT), @tick
// (Context.Tick); a nil pointer is not stored. It returns k. Call it in
// the DeclareFunc.
func (k *ChunkKernel[S]) World(dt32 *float32, dt64 *float64, tick *int64) *ChunkKernel[S] {
	k.e().World(dt32, dt64, tick)
	return k
}

// SIMD makes a dense kernel run *simd, when not nil, on each chunk's rows
// first: simd(st, lo, hi) runs the longest prefix of whole vectors and
// returns where it stopped, and the span runs the rest. The pointer is read
// at every chunk, so the variant may change between runs. It returns k.
// Call it in the DeclareFunc.
func (k *ChunkKernel[S]) SIMD(simd *func(st *S, lo, hi int) int) *ChunkKernel[S] {
	k.e().SIMD(simd)
	return k
}

// Run runs the kernel once over the table's used chunks, then adds the
// run's counts to the counters: the system's body (a RunFunc).
func (k *ChunkKernel[S]) Run(ctx *Context) { k.e().Run(ctx.e()) }

// Only makes the kernel skip every chunk in which none of the readers
// (Changed, Added over the kernel's table) has a change since the
// system's last run; the other chunks run whole (a schema's `where
// changed(x.C)`). It returns k. Call it in the DeclareFunc.
func (k *ChunkKernel[S]) Only(readers ...*Changes) *ChunkKernel[S] {
	rs := make([]*systems.ChangeReader, len(readers))
	for i, r := range readers {
		rs[i] = r.e()
	}
	k.e().Only(rs...)
	return k
}

// ChunkOut is what a masked kernel's chunk hands its rare actions: the
// worker's recorders and emitter segments for the chunk (Delete, Remove,
// EmitChunk), the row handles of the table (Handle) and the worker's
// counts (Count). Only its worker may use it, during the chunk.
type ChunkOut systems.ChunkOut

func (o *ChunkOut) e() *systems.ChunkOut { return (*systems.ChunkOut)(o) }

// Handle is the handle of the live row row (an index into the whole
// columns) of the kernel's table.
func (o *ChunkOut) Handle(row int) Handle { return Handle(o.e().Handle(row)) }

// Count adds one to counter i (the index into MaskedKernel's counters) of
// the chunk's worker.
func (o *ChunkOut) Count(i int) { o.e().Count(i) }

// Delete records the deletion of entity h through r's recorder of the
// chunk's worker (Recorder.Delete); out of line, a rare action of a loop
// over rows.
func (o *ChunkOut) Delete(r *Recorder, h Handle) { o.e().Delete(r.e(), ephemeral.Handle(h)) }

// Remove records the removal of h's row from r's table only, through the
// chunk's worker's recorder (Recorder.Remove); out of line, as Delete.
func (o *ChunkOut) Remove(r *Recorder, h Handle) { o.e().Remove(r.e(), ephemeral.Handle(h)) }

// DeleteRow is Delete of the entity of the live row row (an index into the
// whole columns) of the kernel's table: the handle is taken out of line
// too, so the loop over the rows holds none of it.
func (o *ChunkOut) DeleteRow(r *Recorder, row int) { o.e().DeleteRow(r.e(), row) }

// RemoveRow is Remove of the live row row of the kernel's table, out of
// line as DeleteRow.
func (o *ChunkOut) RemoveRow(r *Recorder, row int) { o.e().RemoveRow(r.e(), row) }

// EmitChunk emits v through the chunk's worker's segment of e (a full
// staging drops it, and Frame reports the overflow); false when dropped.
// Out of line, as ChunkOut.Delete.
func EmitChunk[T any](o *ChunkOut, e *ParallelEmitter[T], v T) bool {
	return systems.EmitChunk(o.e(), (*systems.ParallelEmitter[T])(e), v)
}

// Segmented is an accessor whose kernel workers write keyed segments: a
// *Recorder or a *ParallelEmitter. The chunk kernel starts its worker's
// segment for every chunk, empty or not, so that playback and merges follow
// chunk order whatever the worker count.
type Segmented interface{ segmented() systems.Segmented }

func (r *Recorder) segmented() systems.Segmented { return r.e() }

func (e *ParallelEmitter[T]) segmented() systems.Segmented {
	return (*systems.ParallelEmitter[T])(e)
}

// DenseKernel declares the kernel of a dense system over table t: span
// runs rows lo..hi-1 of the whole columns, every row of a chunk up to its
// last live one (Table.LiveEnd), holes included. grain > 0 is the least
// chunks per worker (KernelPolicy.Grain); 0 takes the world's policy.
// Call it in the DeclareFunc; a nil t fails the declaration (Build
// reports it).
func DenseKernel[S any](d *Decl, t *Table, grain int, st *S, span func(st *S, lo, hi int)) *ChunkKernel[S] {
	return (*ChunkKernel[S])(systems.DenseKernel(d.e(), t.e(), grain, st, span))
}

// MaskedKernel declares the kernel of a system over the live rows of table
// t: chunk runs the live rows of a chunk that has any, mask its enabled
// bitmap (walked with NextRun) and base the whole-column index of its row
// 0, with o, the worker's ChunkOut. segs are the system's recorders (one
// suffices: they share the worker's buffer) and parallel emitters;
// counters the system's counters, in the order of the indexes chunk counts
// by. grain as in DenseKernel. Call it in the DeclareFunc (it allocates).
func MaskedKernel[S any](d *Decl, t *Table, grain int, st *S, chunk func(st *S, o *ChunkOut, base int, mask []uint64), segs []Segmented, counters ...Counter) *ChunkKernel[S] {
	ss := make([]systems.Segmented, len(segs))
	for i, s := range segs {
		ss[i] = s.segmented()
	}
	cs := make([]systems.Counter, len(counters))
	for i, c := range counters {
		cs[i] = c.c
	}
	// One more call per chunk, none per row.
	fn := func(st *S, o *systems.ChunkOut, base int, mask []uint64) { chunk(st, (*ChunkOut)(o), base, mask) }
	return (*ChunkKernel[S])(systems.MaskedKernel(d.e(), t.e(), grain, st, fn, ss, cs...))
}

// SIMDVariant returns, of a dense kernel's SIMD variants v8 (LaneAVX2)
// and v16 (LaneAVX512), nil where this build has none, the widest at most
// l and its lane, else nil and LaneScalar: the variant a generated system
// runs in lane l (docs/schema.md, SIMD variants).
func SIMDVariant[S any](l Lane, v8, v16 func(st *S, lo, hi int) int) (func(st *S, lo, hi int) int, Lane) {
	switch {
	case l >= LaneAVX512 && v16 != nil:
		return v16, LaneAVX512
	case l >= LaneAVX2 && v8 != nil:
		return v8, LaneAVX2
	}
	return nil, LaneScalar
}

// ScanVariant is SIMDVariant for a masked kernel's scan (docs/schema.md,
// SIMD variants): of v8 (LaneAVX2) and v16 (LaneAVX512), nil where the
// package has none, the widest at most l and its lane, else nil and
// LaneScalar. A scan(st, row, live) returns, of the live rows of the 64
// rows row..row+63 (bit i of live for row row+i), a bit for every row on
// which the kernel's body may act, a superset of those: the generated
// chunk runs the body on the marked live rows only, in row order, so the
// scan decides speed, never results.
func ScanVariant[S any](l Lane, v8, v16 func(st *S, row int, live uint64) uint64) (func(st *S, row int, live uint64) uint64, Lane) {
	switch {
	case l >= LaneAVX512 && v16 != nil:
		return v16, LaneAVX512
	case l >= LaneAVX2 && v8 != nil:
		return v8, LaneAVX2
	}
	return nil, LaneScalar
}

// Worker is the kernel worker running one chunk of a query's or a join's
// Parallel (Query1.Parallel, Join1.Parallel, ...): its index, the chunk
// and the system's Context. It gives the worker's outputs for the chunk,
// Recorder.At, ParallelEmitter.At and the spawners' At, whose records and
// events merge in chunk order whatever the worker count (package systems,
// Kernels). A small value, valid during its call only; only its worker
// may use it.
type Worker struct {
	ctx       *Context
	id, chunk int
}

// ID is the worker's index, 0..Context.Workers()-1.
func (w Worker) ID() int { return w.id }

// Chunk is the chunk the worker is running.
func (w Worker) Chunk() int { return w.chunk }

// Context is the running system's Context (its methods are safe from
// kernels, Fail excepted).
func (w Worker) Context() *Context { return w.ctx }

// DT is the system's time step in seconds, Context.DT.
func (w Worker) DT() float64 { return w.ctx.DT() }

// Tick is the fixed tick counter, Context.Tick.
func (w Worker) Tick() uint64 { return w.ctx.Tick() }

// At returns w's recorder for its chunk, Recorder.Worker(w.ID(),
// w.Chunk()): call it for each record (it is cheap), never keep it past
// the call it was given in.
func (r *Recorder) At(w Worker) *Recorder { return r.Worker(w.id, w.chunk) }

// At returns w's emitter for its chunk, ParallelEmitter.Worker(w.ID(),
// w.Chunk()), as Recorder.At.
func (e *ParallelEmitter[T]) At(w Worker) WorkerEmitter[T] { return e.Worker(w.id, w.chunk) }

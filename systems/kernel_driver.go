package systems

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/kernels"
)

// ChunkKernel drives a generated system's kernel over the used chunks of
// its table (docs/schema.md, Generated code): on the system's goroutine
// with one worker or a table of one chunk, on the world's workers
// otherwise, the same kernel either way, so the results do not depend on
// the worker count. Before a chunk runs it starts that worker's segments
// of the system's recorders and parallel emitters for the chunk; after the
// run it adds each counter's per-worker counts to the system's Counter,
// once. Made by DenseKernel or MaskedKernel in a DeclareFunc; its Run is
// the system's body, or is called from it. Nothing allocates after seal.
type ChunkKernel[S any] struct {
	st       *S
	table    *ephemeral.Table
	rows     int
	pol      kernels.Policy
	dense    func(st *S, lo, hi int)
	masked   func(st *S, o *ChunkOut, base int, mask []uint64)
	segs     []Segmented
	counters []Counter
	outs     []ChunkOut                         // one per worker
	each     func(k **ChunkKernel[S], w, c int) // runChunk[S], made once: a generic function's value allocates
	simd     *func(st *S, lo, hi int) int
	dt32     *float32
	dt64     *float64
	tick     *int64
	run      *frame.Run      // the system's: Only sets its Ran
	only     []*ChangeReader // Only: chunks none of them yields are skipped
	ran      []bool          // Only: the chunks the run ran, the run's bumps (frame.Run.Ran)
}

// ChunkOut is what a masked kernel's chunk hands its rare actions: the
// worker's recorders and emitter segments for the chunk (Delete, Remove,
// EmitChunk), the row handles of the table (Handle) and the worker's
// counts (Count). Only its worker may use it, during the chunk.
type ChunkOut struct {
	worker int
	table  *ephemeral.Table
	n      []int64 // the worker's counts, by counter index
	_      [88]byte
}

// Segmented is an accessor whose kernel workers write keyed segments, a
// *Recorder or a *ParallelEmitter: the chunk kernel starts its worker's
// segment for every chunk, empty or not, so that playback and merges
// follow chunk order whatever the worker count.
type Segmented interface{ startChunk(w, chunk int) }

func (r *Recorder) startChunk(w, chunk int)           { r.Worker(w, chunk) }
func (e *ParallelEmitter[T]) startChunk(w, chunk int) { e.Worker(w, chunk) }

// DenseKernel declares the kernel of a dense system over table t: span
// runs rows lo..hi-1 of the whole columns, every row of a chunk up to its
// last live one (ephemeral.Table.LiveEnd), holes included. grain > 0 is the least
// chunks per worker (kernels.Policy.Grain); 0 takes the pool's policy.
func DenseKernel[S any](d *Decl, t *ephemeral.Table, grain int, st *S, span func(st *S, lo, hi int)) *ChunkKernel[S] {
	k := newChunkKernel(d, t, grain, st, 0)
	k.dense = span
	return k
}

// MaskedKernel declares the kernel of a system over the live rows of
// table t: chunk runs the live rows of a chunk that has any, mask its
// enabled bitmap (walked with NextRun) and base the whole-column index of
// its row 0, with o, the worker's ChunkOut. segs are the system's recorders (one suffices: they
// share the worker's buffer) and parallel emitters; counters the system's
// counters, in the order of the indexes chunk counts by. grain as in
// DenseKernel.
func MaskedKernel[S any](d *Decl, t *ephemeral.Table, grain int, st *S, chunk func(st *S, o *ChunkOut, base int, mask []uint64), segs []Segmented, counters ...Counter) *ChunkKernel[S] {
	k := newChunkKernel(d, t, grain, st, len(counters))
	k.masked, k.segs, k.counters = chunk, segs, counters
	return k
}

func newChunkKernel[S any](d *Decl, t *ephemeral.Table, grain int, st *S, counters int) *ChunkKernel[S] {
	d.use("ChunkKernel")
	k := &ChunkKernel[S]{st: st, table: t, pol: kernels.Policy{Grain: grain}, each: runChunk[S], run: d.run}
	if t == nil {
		d.fail("ChunkKernel", "nil table (the Table call that made it failed: its error comes first)")
		return k
	}
	k.rows = t.ChunkRows()
	d.bind(func(run *frame.Run) error {
		// Per worker: its ChunkOut, padded, and its counts, a cache line
		// of their own.
		w := run.Env.Workers()
		stride := (counters + 7) &^ 7
		counts := make([]int64, w*stride)
		k.outs = make([]ChunkOut, w)
		for i := range k.outs {
			k.outs[i] = ChunkOut{worker: i, table: t, n: counts[i*stride : i*stride+counters]}
		}
		return nil
	})
	return k
}

// World asks Run to store the run's world values in the kernel state
// before the kernel runs: @dt as float32 and float64 (Context.DT), @tick
// (Context.Tick). A nil pointer is not stored. It returns k. Call it in
// the DeclareFunc.
func (k *ChunkKernel[S]) World(dt32 *float32, dt64 *float64, tick *int64) *ChunkKernel[S] {
	k.dt32, k.dt64, k.tick = dt32, dt64, tick
	return k
}

// SIMD makes a dense kernel run *simd, when not nil, on each chunk's rows
// first: simd(st, lo, hi) runs the longest prefix of whole vectors and
// returns where it stopped, and span runs the rest (docs/schema.md, SIMD
// variants). The pointer is read at every chunk, so the variant may change
// between runs. It returns k. Call it in the DeclareFunc.
func (k *ChunkKernel[S]) SIMD(simd *func(st *S, lo, hi int) int) *ChunkKernel[S] {
	k.simd = simd
	return k
}

// Only makes the kernel skip every chunk that none of the readers
// (Changed, Added: over the kernel's table) has a change in since the
// system's last run: the rows of the other chunks run, all of them (a
// schema's `where changed(x.C)`; docs/architecture.md, Change detection).
// Segments still start for a skipped chunk. The system then bumps, after
// each run, only the chunks the kernel ran: it must write its tracked
// columns in the kernel only (a generated system does). It returns k.
// Call it in the DeclareFunc, once, for the system's one kernel.
func (k *ChunkKernel[S]) Only(readers ...*ChangeReader) *ChunkKernel[S] {
	k.only = readers
	if k.table != nil && len(readers) > 0 {
		k.ran = make([]bool, k.table.Chunks())
		k.run.Ran = k.ran
	}
	return k
}

// skip reports whether an Only filter leaves chunk c out, and records
// whether c ran (the worker given c is the only one to write ran[c]).
func (k *ChunkKernel[S]) skip(c int) bool {
	if len(k.only) == 0 {
		return false
	}
	for _, r := range k.only {
		if r.ChunkChanged(c) {
			k.ran[c] = true
			return false
		}
	}
	k.ran[c] = false
	return true
}

// Run runs the kernel once over the table's used chunks, then adds the
// run's counts to the counters. Call it from the system's body.
func (k *ChunkKernel[S]) Run(ctx *Context) {
	if k.dt32 != nil {
		*k.dt32 = float32(ctx.DT())
	}
	if k.dt64 != nil {
		*k.dt64 = ctx.DT()
	}
	if k.tick != nil {
		*k.tick = int64(ctx.Tick())
	}
	if ctx.Workers() <= 1 || k.table.Chunks() <= 1 {
		for c := range k.table.UsedChunks() {
			k.chunk(0, c)
		}
	} else {
		parallel(ctx, k.pol, k.pol.Grain > 0, k.table.UsedChunks(), k, k.each)
	}
	for i, c := range k.counters {
		var n int64
		for w := range k.outs {
			n += k.outs[w].n[i]
			k.outs[w].n[i] = 0
		}
		c.Add(n)
	}
}

func runChunk[S any](k **ChunkKernel[S], w, c int) { (*k).chunk(w, c) }

// chunk runs chunk c as worker w.
func (k *ChunkKernel[S]) chunk(w, c int) {
	if k.dense != nil {
		if k.skip(c) {
			return
		}
		lo := c * k.rows
		hi := lo + k.table.LiveEnd(c)
		if k.simd != nil && *k.simd != nil {
			lo = (*k.simd)(k.st, lo, hi)
		}
		k.dense(k.st, lo, hi)
		return
	}
	for _, s := range k.segs {
		s.startChunk(w, c)
	}
	if k.table.ChunkLen(c) > 0 && !k.skip(c) {
		k.masked(k.st, &k.outs[w], c*k.rows, k.table.Enabled(c))
	}
}

// Handle is the handle of the live row row (an index into the whole
// columns) of the kernel's table.
func (o *ChunkOut) Handle(row int) ephemeral.Handle {
	h, _ := o.table.HandleAt(row)
	return h
}

// Count adds one to counter i of the chunk's worker.
func (o *ChunkOut) Count(i int) { o.n[i]++ }

// Delete records the deletion of entity h through r's recorder of the
// chunk's worker (Recorder.Delete). Out of line: a rare action of a loop
// over rows.
//
//go:noinline
func (o *ChunkOut) Delete(r *Recorder, h ephemeral.Handle) { r.workers[o.worker].Delete(h) }

// Remove records the removal of h's row from r's table only, through the
// chunk's worker's recorder (Recorder.Remove). Out of line, as Delete.
//
//go:noinline
func (o *ChunkOut) Remove(r *Recorder, h ephemeral.Handle) { r.workers[o.worker].Remove(h) }

// DeleteRow is Delete of the entity of the live row row (an index into
// the whole columns) of the kernel's table: the handle is taken out of
// line too, so the loop over the rows holds none of it.
//
//go:noinline
func (o *ChunkOut) DeleteRow(r *Recorder, row int) { r.workers[o.worker].Delete(o.Handle(row)) }

// RemoveRow is Remove of the live row row of the kernel's table, out of
// line as DeleteRow.
//
//go:noinline
func (o *ChunkOut) RemoveRow(r *Recorder, row int) { r.workers[o.worker].Remove(o.Handle(row)) }

// EmitChunk emits v through the chunk's worker's segment of e
// (WorkerEmitter.Emit: a full staging drops it, and Frame reports the
// overflow). Out of line, as ChunkOut.Delete.
//
//go:noinline
func EmitChunk[T any](o *ChunkOut, e *ParallelEmitter[T], v T) bool {
	return e.p.Worker(o.worker).Emit(v) == nil
}

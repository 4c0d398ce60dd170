package events

import (
	"slices"
	"strconv"

	"github.com/tickwork/tickwork/internal/segment"
	"github.com/tickwork/tickwork/memory"
)

// Parallel is the emitting face of a table for one parallel kernel: one
// Segment of staging per worker, merged into the table in key order by
// Merge. Make it once at set-up with Table.Parallel and reuse it every run.
type Parallel[T any] struct {
	table   *Table[T]
	workers []Segment[T]
	spans   []segment.Span // Merge scratch
}

// Segment is one worker's staging area: Capacity events, cut into keyed
// segments by Begin. Only its worker may use it while the kernel runs.
type Segment[T any] struct {
	buf      []T
	marks    segment.Marks // start of each keyed segment, in Begin order
	dropped  int
	overflow *OverflowError
	_        [64]byte // keeps workers' hot fields on separate cache lines
}

// Parallel prepares parallel emission into t by a kernel of up to workers
// workers. It allocates Capacity events of staging per worker
// (StagingBytes), after charging them to the table's memory budget
// (Spec.Budget): call it at set-up, not per frame. When the staging does
// not fit in what is left of the budget it returns a *memory.BudgetError
// (errors.Is memory.ErrBudget) of kind "event staging" and allocates
// nothing. It panics when workers < 1.
func (t *Table[T]) Parallel(workers int) (*Parallel[T], error) {
	if workers < 1 {
		panic("events: Parallel(" + strconv.Itoa(workers) + ") on table " + strconv.Quote(t.name) +
			": the worker count must be at least 1")
	}
	if err := t.budget.Charge(memory.Definition{Kind: "event staging", Name: t.name, Workers: workers}, StagingBytes[T](t.capacity, workers)); err != nil {
		return nil, err
	}
	p := &Parallel[T]{table: t, workers: make([]Segment[T], workers)}
	for w := range p.workers {
		p.workers[w] = Segment[T]{
			buf:      make([]T, 0, t.capacity),
			marks:    make(segment.Marks, 0, 16),
			overflow: t.overflow,
		}
	}
	return p, nil
}

// Worker returns worker w's segment, 0 <= w < workers (Table.Parallel's
// count). Each worker must use
// only its own segment; different workers' segments may be used concurrently.
// It panics when w is outside 0..workers-1: pass the worker index the
// kernel was given, and make the Parallel with at least as many workers as
// the pool runs (Table.Parallel(pool.Workers())).
func (p *Parallel[T]) Worker(w int) *Segment[T] {
	if uint(w) >= uint(len(p.workers)) {
		workerPanic(w, len(p.workers), p.table.name)
	}
	return &p.workers[w]
}

// workerPanic reports a worker index outside 0..workers-1 given to
// Parallel.Worker. Kept out of line so that Worker stays small.
//
//go:noinline
func workerPanic(w, workers int, table string) {
	panic("events: Parallel.Worker(" + strconv.Itoa(w) + ") of table " + strconv.Quote(table) +
		": worker index out of range 0.." + strconv.Itoa(workers-1) +
		"; pass the kernel's worker index, and make the Parallel with Table.Parallel(n) for n >= the pool's workers")
}

// Begin starts a keyed segment: the events emitted from now until the next
// Begin are merged at the place of key (a chunk index). Events emitted
// before the first Begin of a run have key 0.
//
// Keys should be unique among the workers of one run (each chunk processed
// by one worker) and ascending within a worker, as chunk loops are: then the
// merged sequence, and which events overflow drops, do not depend on the
// worker count. Allocates only when a worker starts more segments in a run
// than ever before (amortized growth).
func (s *Segment[T]) Begin(key int) {
	s.marks.Begin(key, len(s.buf))
}

// Emit stages v in the current segment. When the worker already staged
// Capacity events in this run it drops v, counts it (reported by Merge) and
// returns the table's *OverflowError (errors.Is ErrOverflow). Allocates
// nothing.
func (s *Segment[T]) Emit(v T) error {
	if len(s.buf) == cap(s.buf) {
		s.dropped++
		return s.overflow
	}
	s.buf = append(s.buf, v)
	return nil
}

// Merge appends every worker's staged events to the table, segments in
// ascending key order (equal keys: lower worker first, then Begin order),
// events within a segment in emission order, and resets the workers for the
// next run. Events that do not fit in the table's capacity (see Table) are
// dropped; Merge returns the number dropped in this run (by workers'
// staging overflow and by the table) and adds it to the table's Dropped.
//
// Call it once per system run after every worker has finished, from one
// goroutine, not concurrently with Emit on the same table. Allocates nothing
// in steady state.
// Exported for a host that runs its own parallel kernel over a table (a
// world's systems use systems.EmitParallel, merged by the scheduler).
func (p *Parallel[T]) Merge() (dropped int) {
	n := 0
	for w := range p.workers {
		n += segment.Room(p.workers[w].marks)
	}
	spans := slices.Grow(p.spans[:0], n)
	for w := range p.workers {
		s := &p.workers[w]
		dropped += s.dropped
		spans = segment.AppendSpans(spans, w, s.marks, len(s.buf))
	}
	segment.Sort(spans)
	t := p.table
	room := t.room()
	for _, sp := range spans {
		src := p.workers[sp.Src].buf[sp.Lo:sp.Hi]
		if len(src) > room {
			dropped += len(src) - room
			src = src[:room]
		}
		copy(t.buf[t.head-t.base:], src)
		t.head += uint64(len(src))
		room -= len(src)
	}
	for w := range p.workers {
		s := &p.workers[w]
		if t.pointers {
			clear(s.buf)
		}
		s.buf = s.buf[:0]
		s.marks = s.marks[:0]
		s.dropped = 0
	}
	p.spans = spans[:0]
	t.dropped += int64(dropped)
	t.refused = t.refused || dropped > 0
	return dropped
}

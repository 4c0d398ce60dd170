package kernels

import (
	"cmp"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/tickwork/tickwork/internal/chunkorder"
)

// MaxWorkers bounds a pool's worker count, the caller's goroutine included.
const MaxWorkers = 256

// Pool runs kernels over chunks on a fixed set of goroutines: workers-1
// helpers started by NewPool plus the goroutine that calls Run. See the
// package doc for the concurrency and allocation contract.
type Pool struct {
	workers int
	start   []chan struct{} // one per helper goroutine (workers-1)
	done    sync.WaitGroup
	group   errgroup.Group
	fn      func(worker, chunk int)
	chunks  int
	closed  bool

	// panics[w] is set by worker w when its kernel panicked during the
	// current Run; panicked says that one is set. Both are written before
	// the worker's done.Done and read by Run after done.Wait.
	panics   []*PanicError
	panicked atomic.Bool
	// busy is set while a Run is in progress; a Run that finds it set
	// panics with ErrNestedRun (see the package doc, "Nested Run").
	busy atomic.Bool
	// perm is the test-only chunk order (internal/chunkorder), nil for the
	// normal split; order is its permutation for the current Run.
	perm  *chunkorder.Perm
	order []int
}

// NewPool starts a pool of workers goroutines counting the caller: workers-1
// are started here and live until Close (none for workers = 1). It returns
// an error wrapping ErrWorkers (errors.Is) when workers is outside
// 1..MaxWorkers. It allocates; call it at set-up.
func NewPool(workers int) (*Pool, error) {
	if workers < 1 || workers > MaxWorkers {
		return nil, fmt.Errorf("%w: got %d", ErrWorkers, workers)
	}
	p := &Pool{workers: workers, start: make([]chan struct{}, workers-1), panics: make([]*PanicError, workers),
		perm: chunkorder.ForNewPool()}
	for i := range p.start {
		ch := make(chan struct{})
		p.start[i] = ch
		w := i + 1
		p.group.Go(func() error {
			for range ch {
				p.span(w)
				p.done.Done()
			}
			return nil
		})
	}
	return p, nil
}

// Workers is the number of workers, the caller included: worker indexes
// passed to a kernel are 0..Workers()-1. Safe from any goroutine.
func (p *Pool) Workers() int { return p.workers }

// span runs worker w's contiguous range of chunks.
func (p *Pool) span(w int) {
	lo, hi := Span(p.chunks, p.workers, w)
	p.runRange(w, lo, hi, p.fn)
}

// runRange calls fn(w, c) for the chunks at positions [lo, hi) of this
// Run. When a call panics it records the panic as p.panics[w] and returns:
// the worker skips the rest of its range and the pool goes on (Run
// re-panics on the caller's goroutine once every worker is done).
func (p *Pool) runRange(w, lo, hi int, fn func(worker, chunk int)) {
	if e := walk(w, lo, hi, p.order, fn); e != nil {
		p.panics[w] = e
		p.panicked.Store(true)
	}
}

// walk calls fn(w, c) for the chunks c at positions [lo, hi), in ascending
// position order, and returns nil; when a call panics it stops there and
// returns the panic as a *PanicError. The chunk at position i is i, or
// order[i] when order is not nil (a test-only permutation: see
// internal/chunkorder). The deferred closure stays on the stack: no
// allocation unless a kernel panics.
func walk(w, lo, hi int, order []int, fn func(worker, chunk int)) (pe *PanicError) {
	i := lo
	defer func() {
		if i < hi { // the call at position i did not return
			if r := recover(); r != nil {
				c := i
				if order != nil {
					c = order[i]
				}
				pe = &PanicError{Worker: w, Chunk: c, Value: r, Stack: debug.Stack()}
			}
		}
	}()
	if order == nil {
		for ; i < hi; i++ {
			fn(w, i)
		}
		return nil
	}
	for ; i < hi; i++ {
		fn(w, order[i])
	}
	return nil
}

// finish ends a Run: it marks the pool idle, then panics with the panic of
// the lowest chunk recorded by the Run, the others attached by ascending
// chunk, after clearing the records; it returns at once when no kernel
// panicked.
func (p *Pool) finish() {
	p.order = nil
	p.busy.Store(false)
	if !p.panicked.Load() {
		return
	}
	var all []*PanicError
	for w, e := range p.panics {
		if e != nil {
			all = append(all, e)
			p.panics[w] = nil
		}
	}
	p.panicked.Store(false)
	slices.SortFunc(all, func(a, b *PanicError) int { return cmp.Compare(a.Chunk, b.Chunk) })
	first := all[0]
	if len(all) > 1 {
		first.Others = all[1:]
	}
	panic(first)
}

// Span returns the range [lo, hi) of chunks that worker w of workers runs
// when a kernel covers chunks chunks: [chunks*w/workers,
// chunks*(w+1)/workers), contiguous, ascending, and as even as integer
// division allows (an empty range when chunks < workers leaves w idle).
// Pure; safe from any goroutine.
func Span(chunks, workers, w int) (lo, hi int) {
	return chunks * w / workers, chunks * (w + 1) / workers
}

// Run calls fn(worker, chunk) once for every chunk in 0..chunks-1 and returns
// when all calls have returned: one completion per call. Worker w runs the
// chunks of Span(chunks, Workers(), w), in ascending order; worker 0 is the
// calling goroutine. With one worker or one chunk every call runs inline as
// worker 0; chunks <= 0 returns at once. It allocates nothing.
//
// Call it from one goroutine at a time, never from inside fn: a Run that
// starts while another Run of the pool is in progress panics at once with
// ErrNestedRun, whatever the worker count (see the package doc, "Nested
// Run"). It panics on a closed pool (programmer misuse: do not run kernels
// after World.Close).
//
// Panics: when fn panics, on any worker, the worker stops its range (its
// later chunks are not run), the other workers finish theirs, and Run then
// panics on the calling goroutine with a *PanicError naming the worker and
// chunk and holding the original value (errors.Is ErrKernelPanic). A host
// recovers it there whatever the worker count; the pool stays usable.
// Chunks that were not run are not retried.
func (p *Pool) Run(chunks int, fn func(worker, chunk int)) {
	if p.closed {
		panic("kernels: Run on a closed pool; create a new pool (or World) instead of reusing a closed one")
	}
	if !p.busy.CompareAndSwap(false, true) {
		panic(ErrNestedRun)
	}
	if chunks <= 0 {
		p.busy.Store(false)
		return
	}
	if p.perm != nil {
		p.order = p.perm.Next(chunks, p.workers)
	}
	if p.workers == 1 || chunks == 1 {
		p.runRange(0, 0, chunks, fn)
		p.finish()
		return
	}
	p.fn, p.chunks = fn, chunks
	p.done.Add(p.workers - 1)
	for _, ch := range p.start {
		ch <- struct{}{}
	}
	p.span(0)
	p.done.Wait()
	p.fn = nil
	p.finish()
}

// Close stops the pool's goroutines and waits for them; no goroutine of the
// pool outlives it. It returns nil (the helpers never fail); calling it
// again is a no-op returning nil. Call it from the goroutine that calls Run,
// never while Run runs.
func (p *Pool) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	for _, ch := range p.start {
		close(ch)
	}
	return p.group.Wait()
}

// Scalar calls fn(0, chunk) for every chunk in 0..chunks-1, in ascending
// order, on the calling goroutine: the scalar kernel, with the same shape
// as Pool.Run. It allocates nothing. When fn panics, Scalar stops and
// panics with a *PanicError (worker 0, the chunk, the original value), as
// Pool.Run does.
func Scalar(chunks int, fn func(worker, chunk int)) {
	if e := walk(0, 0, chunks, nil, fn); e != nil {
		panic(e)
	}
}

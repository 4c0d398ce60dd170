package kernels

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/internal/workerpolicy"
)

// MaxWorkers bounds a pool's worker count, the caller's goroutine included.
const MaxWorkers = 256

// priorOverNS is the hand-off cost a pool assumes before it has measured
// one (Pool.RunCost): a few µs, what waking a helper costs here.
const priorOverNS = 5000

// spinFor is how long an idle helper, and a Run waiting for its chunks,
// spin before they park (see the package doc, "Hand-off"). It covers the
// gaps between the kernel runs of a frame, so that most hand-offs find the
// helpers awake.
const spinFor = 100 * time.Microsecond

// spinBatch is the number of loads of the watched word between two checks
// of the clock (each followed by a runtime.Gosched).
const spinBatch = 64

// spinGap is the longest time between two clock checks of a spin that says
// the spinning goroutine kept its CPU: a batch takes well under a µs, so a
// longer gap means that the OS ran another thread there (a busy machine).
// A spin that sees one stops and parks, and the goroutine parks at once
// for its next spinRest waits: spinning pays only on a CPU nobody else
// wants, and on a busy one it takes the CPU from the caller's goroutine
// or the other program (package doc, "Hand-off").
const spinGap = 20 * time.Microsecond

// spinRest is how many waits a goroutine parks at once after a spin of its
// saw a gap longer than spinGap.
const spinRest = 64

// claimsPerWorker is how many claims a worker makes in a Run of evenly
// costly chunks, about: a claim takes max(1, chunks/(claimsPerWorker*n))
// chunks (package doc, "Work claiming").
const claimsPerWorker = 8

// The state word of a pool: the number of workers of the current Run in the
// low bits, the stop bit, and an epoch that every Run, the end of every
// Run and Close advance, so that two consecutive states always differ. A
// state with 0 workers is a closed Run: no helper joins it.
const (
	stateWorkers = 1<<9 - 1 // bits 0..8: workers of the Run (1..MaxWorkers), 0 between Runs
	stateStop    = 1 << 9   // Close was called
	stateEpoch   = 1 << 10  // one epoch
)

// raceHook, when not nil, is called at the points of the hand-off where a
// goroutine switch exposes a broken protocol: between announcing a park
// and checking the state, between waking two helpers, between a helper's
// join and its check of the state, and between a chunk's completion and
// the look at the caller's flag. Tests set it to runtime.Gosched
// (export_test.go) to widen those windows; it is nil otherwise.
var raceHook func()

// stallHook, when not nil, is called by helper w after it saw a Run
// (before it joins) with at false, and after it joined with at true. Tests
// block in it to play a helper the OS has descheduled (export_test.go).
var stallHook func(w int, joined bool)

// helper is one helper goroutine's wake-up slot, on its own cache line.
type helper struct {
	parked atomic.Bool   // set by the helper before it blocks on wake
	wake   chan struct{} // capacity 1: at most one token is ever pending
	// inflight is the size of the claim the helper is running, 0 between
	// claims: what lost completes when a kernel ends the goroutine.
	inflight int
	joined   bool // the helper is inside a Run (between join and leave)
	rest     int  // waits left that park at once (spinRest)
	_        [32]byte
}

// Pool runs kernels over chunks on a fixed set of goroutines: workers-1
// helpers started by NewPool plus the goroutine that calls Run. See the
// package doc for work claiming, the hand-off, the worker policy and the
// concurrency and allocation contract.
type Pool struct {
	workers int
	procs   int  // GOMAXPROCS when the pool was made
	spin    bool // procs > 1: idle helpers spin before parking
	policy  Policy
	group   errgroup.Group
	closed  bool

	// state is the published Run (see the state constants). The Run's
	// fields below are written before state is stored and read by helpers
	// once they have joined it; they stay put until no helper is joined.
	state atomic.Uint64
	_     [56]byte
	// cursor is the position of the next chunk to claim; a claim adds its
	// size. It runs past chunks when the Run's chunks are all claimed.
	cursor atomic.Int64
	_      [56]byte
	// remaining counts the chunks of the Run not yet done (run, or
	// skipped after a panic); the worker that takes it to 0 wakes the
	// caller when it waits (waiting).
	remaining atomic.Int64
	waiting   atomic.Bool // the Run's caller is parked on done
	_         [48]byte
	// joined counts the helpers inside a Run: a helper joins before it
	// looks at the Run's fields and leaves after its last claim. A Run
	// starts only when it is 0 (see the package doc, "Hand-off").
	joined  atomic.Int32
	_       [60]byte
	helpers []helper // helpers[i] is worker i+1's
	done    chan struct{}
	rest    int // the caller's waits for its chunks left that park at once (spinRest)

	fn     func(worker, chunk int)
	chunks int
	batch  int // chunks per claim
	active int // workers of the current Run

	// peak is the most workers a Run used since TakePeak last read it.
	peak int
	// overNS is the moving average of what Runs on more than one worker
	// cost beyond their chunks (Cost.sample), over every kernel run with
	// a Cost; fixed: RunCost never goes below the policy's count (a
	// test-only switch is on: internal/workerpolicy or internal/chunkorder).
	overNS float64
	fixed  bool
	// warmN is the sudogs prewarm made at NewPool; rewarm says the first
	// Run on more than one worker has not come yet: it makes them again
	// when a GC (which empties the runtime's central sudog cache) ran since
	// (warmGC: the GC count then), as when a world's set-up allocated its
	// tables after the pool was made.
	warmN  int
	warmGC uint64
	rewarm bool

	// panics[w] is set by worker w when its kernel panicked during the
	// current Run; panicked says that one is set. Both are written before
	// the worker completes its claim and read by Run once remaining is 0.
	panics   []*PanicError
	panicked atomic.Bool
	// busy is set while a Run is in progress; a Run that finds it set
	// panics with ErrNestedRun (see the package doc, "Nested Run").
	busy atomic.Bool
	// broken is set when a helper's goroutine exited through runtime.Goexit:
	// every later Run panics with errGoexit.
	broken atomic.Bool
	// perm is the test-only chunk order (internal/chunkorder), nil for
	// work claiming; order is its permutation for the current Run, dealt
	// to the workers by Span instead of claimed.
	perm  *chunkorder.Perm
	order []int
}

// NewPool starts a pool of workers goroutines counting the caller: workers-1
// are started here and live until Close (none for workers = 1). Its policy
// is defaultPolicy (SetPolicy changes it); it reads GOMAXPROCS once, here.
// It returns an error wrapping ErrWorkers (errors.Is) when workers is
// outside 1..MaxWorkers. It allocates; call it at set-up.
func NewPool(workers int) (*Pool, error) {
	if workers < 1 || workers > MaxWorkers {
		return nil, fmt.Errorf("%w: got %d", ErrWorkers, workers)
	}
	procs := runtime.GOMAXPROCS(0)
	p := &Pool{workers: workers, procs: procs, spin: procs > 1, policy: defaultPolicy,
		helpers: make([]helper, workers-1), done: make(chan struct{}, 1),
		panics: make([]*PanicError, workers), perm: chunkorder.ForNewPool()}
	if workerpolicy.Forced() {
		p.policy = AllWorkers
	}
	p.fixed = workerpolicy.Forced() || p.perm != nil
	p.overNS = priorOverNS
	if workers > 1 {
		p.warmN = min(sudogsPerP*min(procs, workers), maxPrewarm)
		prewarm(p.warmN)
		p.warmGC, p.rewarm = gcCycles(), true
	}
	for i := range p.helpers {
		p.helpers[i].wake = make(chan struct{}, 1)
		w := i + 1
		p.group.Go(func() error {
			p.helper(w)
			return nil
		})
	}
	return p, nil
}

// Workers is the number of workers, the caller included: worker indexes
// passed to a kernel are 0..Workers()-1 (a Run may use fewer: Policy.Workers).
// Safe from any goroutine.
func (p *Pool) Workers() int { return p.workers }

// Policy is the pool's worker policy, the one Run applies. Read it from
// the goroutine that calls SetPolicy and Run (it is a plain field).
func (p *Pool) Policy() Policy { return p.policy }

// SetPolicy makes pol the policy of later Runs. Call it from the goroutine
// that calls Run, never during a Run (set-up, typically). A test-only
// switch (internal/workerpolicy) can make NewPool start with AllWorkers.
func (p *Pool) SetPolicy(pol Policy) { p.policy = pol }

// activeFor is the number of workers a Run of chunks chunks under policy pol
// uses on this pool: pol.Workers(chunks, p.Workers(), GOMAXPROCS as read by
// NewPool). Workers 0..activeFor-1 take part; which chunks each runs is
// claimed at run time (package doc, "Work claiming"). Pure; safe from any
// goroutine.
func (p *Pool) activeFor(pol Policy, chunks int) int { return pol.Workers(chunks, p.workers, p.procs) }

// TakePeak returns the most workers any Run of the pool was given since
// the previous TakePeak (1 for a Run on the caller's goroutine alone, 0
// when there was no Run) and starts counting anew. Call it from the
// goroutine that calls Run, between Runs; it allocates nothing.
// Exported for the scheduler's frame report (SystemReport.Workers).
func (p *Pool) TakePeak() int {
	n := p.peak
	p.peak = 0
	return n
}

// sudogsPerP is how many sudogs prewarm makes per P the pool can run on:
// twice the runtime's per-P sudog cache (128), so that every P's cache can
// be full with as many again in the central cache.
const sudogsPerP = 256

// maxPrewarm bounds the goroutines prewarm starts at once.
const maxPrewarm = 8192

// prewarm makes the Go runtime allocate n sudogs now, at set-up, instead
// of one now and then in the frame loop: it blocks n goroutines on a
// channel receive at once (each takes a sudog, allocating it when the
// caches are dry), then releases them (each puts its sudog back in its P's
// cache, the surplus in the central one). A goroutine that parks on a
// channel takes a sudog from its P's cache and gives it back to the P it
// wakes on, so the caches of the Ps where helpers park run dry and, with
// no spare sudog in the central cache, the runtime allocates one (about
// 100 B) every few dozen parks until enough circulate; with n of them in
// circulation from the start, Runs that wake parked helpers allocate
// nothing (TestParkWakeAllocatesZeroBytes). A GC empties the central
// cache (not the per-P ones), so after one the parks can allocate again
// until the caches refill: at most a few hundred sudogs per GC, and a
// frame loop that allocates nothing has no GC but the runtime's forced one
// every two minutes (package doc, "Allocation").
func prewarm(n int) {
	release := make(chan struct{})
	var parked atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			parked.Add(1)
			<-release
		})
	}
	for parked.Load() < int32(n) {
		runtime.Gosched()
	}
	for range 4 { // let the last ones reach their receive
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
}

// gcCycles is the number of GC cycles the runtime has completed.
func gcCycles() uint64 {
	s := [1]metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s[:])
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}

// helper is the loop of worker w's goroutine: wait for a new state, join
// the Run when it includes worker w and is still open, claim and run
// chunks until none is left, leave; return on Close.
func (p *Pool) helper(w int) {
	h := &p.helpers[w-1]
	var seen uint64 // the state NewPool left: any other state is news
	exited := true  // cleared on every normal return: still set means runtime.Goexit
	defer func() {
		if exited {
			p.lost(w)
		}
	}()
	for {
		s := p.await(h, seen)
		seen = s
		if s&stateStop != 0 {
			exited = false
			return
		}
		if int(s&stateWorkers) <= w {
			continue // between Runs, or this Run does not use worker w
		}
		if stallHook != nil {
			stallHook(w, false)
		}
		// Join, then check that the Run is still the one seen: the caller
		// closes a Run (a new state) before it looks at joined, so either
		// it sees this helper joined and waits for it to leave before the
		// next Run, or this helper sees the new state and leaves.
		p.joined.Add(1)
		h.joined = true
		if raceHook != nil {
			raceHook()
		}
		if p.state.Load() == s {
			if stallHook != nil {
				stallHook(w, true)
			}
			p.work(w, h)
		}
		h.joined = false
		p.joined.Add(-1)
	}
}

// lost completes worker w's part of the current Run after a kernel called
// runtime.Goexit on its goroutine (which goes on exiting): it records
// errGoexit as w's panic, breaks the pool, counts the claim it was running
// as done and leaves the Run, so the Run returns (and panics) instead of
// waiting for w for ever.
func (p *Pool) lost(w int) {
	h := &p.helpers[w-1]
	p.broken.Store(true)
	p.panics[w] = &PanicError{Worker: w, Chunk: -1, Value: errGoexit}
	p.panicked.Store(true)
	if k := h.inflight; k > 0 {
		h.inflight = 0
		p.complete(k)
	}
	if h.joined {
		h.joined = false
		p.joined.Add(-1)
	}
}

// work runs worker w's part of the current Run: claims of p.batch chunks
// from the cursor until every chunk is claimed, each claim's chunks in
// ascending order (so a worker's chunks ascend over the whole Run); under
// a test-only chunk order, the positions of span(chunks, active, w)
// instead. A claim in which the kernel panicked ends the handing out of
// chunks: the rest of it and every chunk not yet claimed are skipped
// (under a test order, the rest of w's span). h is w's slot (nil for the
// caller): it records the claim in flight for lost.
func (p *Pool) work(w int, h *helper) (ran int) {
	if p.order != nil {
		lo, hi := span(p.chunks, p.active, w)
		p.runClaim(w, h, lo, hi)
		return hi - lo
	}
	b, n := p.batch, p.chunks
	for {
		hi := int(p.cursor.Add(int64(b)))
		lo := hi - b
		if lo >= n {
			return ran
		}
		ran += min(hi, n) - lo
		if !p.runClaim(w, h, lo, min(hi, n)) {
			// A kernel panicked: claim every chunk left at once and count
			// it done unrun, so that the Run ends once the claims in
			// flight on other workers are done.
			if c := int(p.cursor.Add(int64(n))) - n; c < n {
				p.complete(n - c)
			}
			return ran
		}
	}
}

// runClaim runs the chunks at positions [lo, hi) as worker w and counts
// them done; it reports false when a kernel panicked (the panic is
// recorded as p.panics[w] and the rest of the claim skipped).
func (p *Pool) runClaim(w int, h *helper, lo, hi int) bool {
	if lo >= hi {
		return true // an empty span of a test order: nothing to count
	}
	if h != nil {
		h.inflight = hi - lo
	}
	e := walk(w, lo, hi, p.order, p.fn)
	if e != nil {
		p.panics[w] = e
		p.panicked.Store(true)
	}
	if h != nil {
		h.inflight = 0
	}
	p.complete(hi - lo)
	return e == nil
}

// complete counts k chunks of the Run done; the worker that finishes the
// last one wakes the caller when it is parked.
func (p *Pool) complete(k int) {
	last := p.remaining.Add(-int64(k)) == 0
	if raceHook != nil {
		raceHook()
	}
	if last && p.waiting.Load() && p.waiting.CompareAndSwap(true, false) {
		p.done <- struct{}{}
	}
}

// await returns the pool's state once it differs from seen: it spins for
// up to spinFor (when the pool spins), then parks on h.wake. The parking
// protocol (package doc, "Hand-off") neither loses a wake-up nor acts on a
// stale one: the helper announces itself (parked = true) before it checks
// the state a last time, and a waker publishes the state before it looks at
// parked, so one of the two always sees the other; and a token can come
// from a Run whose work this helper already did (the Run's waker reached it
// late, after it had seen the state while spinning and parked again), so
// after every token the helper checks the state again and parks anew when
// it has not changed.
func (p *Pool) await(h *helper, seen uint64) uint64 {
	if p.spin && rested(&h.rest) {
		if s, ok := spinUntil(&p.state, seen, &h.rest); ok {
			return s
		}
	}
	for {
		announce(&h.parked)
		if raceHook != nil {
			raceHook()
		}
		if s := p.state.Load(); s != seen && h.parked.CompareAndSwap(true, false) {
			return s // withdrawn before any waker saw the announcement
		}
		// Parked, or a waker cleared parked: its token is sent or on its way.
		<-h.wake
		if s := p.state.Load(); s != seen {
			return s
		}
	}
}

// rested reports whether a goroutine whose rest count is *rest may spin
// now: when the count is 0; otherwise it counts one wait down.
func rested(rest *int) bool {
	if *rest > 0 {
		*rest--
		return false
	}
	return true
}

// spinUntil loads w until it differs from seen, for up to spinFor, with a
// runtime.Gosched every spinBatch loads (so that a spinning goroutine never
// keeps the one it waits for off its P). It returns the new value and true,
// or false when the time is up or when two clock checks were more than
// spinGap apart (the OS descheduled the thread): then it sets *rest to
// spinRest.
func spinUntil(w *atomic.Uint64, seen uint64, rest *int) (uint64, bool) {
	start := time.Now()
	last := start
	for {
		for range spinBatch {
			if s := w.Load(); s != seen {
				return s, true
			}
		}
		now := time.Now()
		if now.Sub(last) > spinGap {
			*rest = spinRest
			return 0, false
		}
		if now.Sub(start) > spinFor {
			return 0, false
		}
		last = now
		runtime.Gosched()
	}
}

// waitDone returns once every chunk of the current Run is done: it spins
// like an idle helper, then parks on p.done under the same protocol (the
// worker that finishes the last chunk wakes it).
func (p *Pool) waitDone() {
	if p.spin && rested(&p.rest) && spinUntilZero(&p.remaining, &p.rest) {
		return
	}
	for p.remaining.Load() != 0 {
		announce(&p.waiting)
		if raceHook != nil {
			raceHook()
		}
		if p.remaining.Load() == 0 && p.waiting.CompareAndSwap(true, false) {
			return // withdrawn: no worker saw the announcement
		}
		// A token is sent or on its way from the worker that finished the
		// last chunk. Count again after every token all the same (a
		// token is never stale today: see docs/architecture.md, "Kernel
		// hand-off").
		<-p.done
	}
}

// spinUntilZero is spinUntil for a counter: it reports whether n reached 0
// within spinFor, and gives up on a gap longer than spinGap likewise.
func spinUntilZero(n *atomic.Int64, rest *int) bool {
	start := time.Now()
	last := start
	for {
		for range spinBatch {
			if n.Load() == 0 {
				return true
			}
		}
		now := time.Now()
		if now.Sub(last) > spinGap {
			*rest = spinRest
			return false
		}
		if now.Sub(start) > spinFor {
			return false
		}
		last = now
		runtime.Gosched()
	}
}

// waitLeft returns once no helper is joined to a Run: the helpers of the
// previous Run that joined it late, or finished its last chunks, have left.
// It is one load when they have (the usual case, since a Run ends only
// when its chunks are done); otherwise it yields, then sleeps, until they
// have: a helper's remaining steps are a few instructions, so this waits
// only when the OS descheduled it there.
func (p *Pool) waitLeft() {
	for i := 0; p.joined.Load() != 0; i++ {
		if i < 1000 {
			runtime.Gosched()
		} else {
			time.Sleep(10 * time.Microsecond)
		}
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

// span returns the range [lo, hi) of chunks that worker w of workers gets
// when chunks chunks are dealt out in contiguous, ascending ranges as even
// as integer division allows: [chunks*w/workers, chunks*(w+1)/workers) (an
// empty range when chunks < workers leaves w idle). A Pool no longer deals
// this way (it claims: package doc, "Work claiming"); the test-only chunk
// orders of internal/chunkorder do (its own copy of the formula). Pure;
// safe from any goroutine.
func span(chunks, workers, w int) (lo, hi int) {
	return chunks * w / workers, chunks * (w + 1) / workers
}

// Run calls fn(worker, chunk) once for every chunk in 0..chunks-1 under the
// pool's policy (RunPolicy with Policy()) and returns when all calls have
// returned. See RunPolicy.
// Exported for a host that runs kernels on a pool of its own (a world's
// systems use systems.Parallel).
func (p *Pool) Run(chunks int, fn func(worker, chunk int)) { p.RunPolicy(p.policy, chunks, fn) }

// RunPolicy calls fn(worker, chunk) once for every chunk in 0..chunks-1 and
// returns when all calls have returned: one completion per call. It offers
// the chunks to n = Active(pol, chunks) workers (package doc, "Worker
// policy"), worker 0 being the calling goroutine, which claim them in
// ascending batches (package doc, "Work claiming"): each worker's chunks
// ascend, and which worker runs which chunk depends on timing. With n = 1
// every call runs inline as worker 0 and no helper is woken; chunks <= 0
// returns at once. It allocates nothing.
//
// Call it from one goroutine at a time, never from inside fn: a Run that
// starts while another Run of the pool is in progress panics at once with
// ErrNestedRun, whatever the worker count (see the package doc, "Nested
// Run"). It panics on a closed pool (programmer misuse: do not run kernels
// after World.Close).
//
// Panics: when fn panics, on any worker, the Run stops handing out chunks:
// that worker skips the rest of its claim, the chunks not yet claimed are
// not run, and the claims other workers are running finish. Run then
// panics on the calling goroutine with a *PanicError naming the worker and
// chunk and holding the original value (errors.Is ErrKernelPanic), the
// panics of other workers attached. A host recovers it there whatever the
// worker count; the pool stays usable. Chunks that were skipped are not
// retried.
func (p *Pool) RunPolicy(pol Policy, chunks int, fn func(worker, chunk int)) {
	p.run(p.activeFor(pol, chunks), chunks, fn, nil)
}

// RunCost is RunPolicy for a kernel whose cost c measures: when the
// policy gives the Run n > 1 workers but c says that its chunks would save
// less on n workers than the hand-off costs, the Run stays on the
// caller's goroutine (one worker); otherwise it is RunPolicy. Every Run
// adds its timing to c (package doc, "Measured cost"). Results do not
// change: they never depend on the worker count. pol.Fixed, or a nil c,
// makes it RunPolicy. It allocates nothing; same contract as RunPolicy
// otherwise.
// Exported for systems.Parallel, which keeps a Cost per call site, and for
// hosts that run their own kernels on a world's pool.
func (p *Pool) RunCost(pol Policy, c *Cost, chunks int, fn func(worker, chunk int)) {
	n := p.activeFor(pol, chunks)
	if c != nil && !pol.Fixed && !p.fixed && n > 1 {
		n = c.workers(n, chunks, p.overNS)
	}
	if pol.Fixed || p.fixed {
		c = nil
	}
	p.run(n, chunks, fn, c)
}

// run is RunPolicy once the worker count n is chosen; c, when not nil,
// gets the Run's timing.
func (p *Pool) run(n, chunks int, fn func(worker, chunk int), c *Cost) {
	if p.closed {
		panic("kernels: Run on a closed pool; create a new pool (or World) instead of reusing a closed one")
	}
	if p.broken.Load() {
		panic(errGoexit)
	}
	if !p.busy.CompareAndSwap(false, true) {
		panic(ErrNestedRun)
	}
	if chunks <= 0 {
		p.busy.Store(false)
		return
	}
	p.peak = max(p.peak, n)
	if p.joined.Load() != 0 {
		p.waitLeft() // before the fields a late helper may still read change
	}
	if p.perm != nil {
		p.order = p.perm.Next(chunks, n)
	}
	var t0 time.Time
	if c != nil {
		t0 = time.Now()
	}
	if n == 1 {
		if e := walk(0, 0, chunks, p.order, fn); e != nil {
			p.panics[0] = e
			p.panicked.Store(true)
		}
		if c != nil {
			c.sample(1, chunks, float64(time.Since(t0))/float64(chunks), 0)
		}
		p.finish()
		return
	}
	if p.rewarm {
		p.rewarm = false
		if gcCycles() != p.warmGC {
			prewarm(p.warmN)
		}
	}
	p.fn, p.chunks, p.active = fn, chunks, n
	p.batch = max(1, chunks/(claimsPerWorker*n))
	p.cursor.Store(0)
	p.remaining.Store(int64(chunks))
	s := (p.state.Load()&^stateWorkers + stateEpoch) | uint64(n)
	publish(&p.state, s) // publishes the fields above to the helpers that load it
	p.wakeHelpers(n - 1)
	var t1 time.Time
	if c != nil {
		t1 = time.Now()
	}
	ran := p.work(0, nil)
	if c != nil {
		t2 := time.Now()
		p.waitDone()
		perChunk := 0.0 // the helpers ran every chunk: the Run's wall still counts
		if ran > 0 {
			perChunk = float64(t2.Sub(t1)) / float64(ran)
		}
		if over := c.sample(n, chunks, perChunk, float64(time.Since(t0))); over >= 0 {
			p.overNS += (over - p.overNS) * costWeight
		}
	} else {
		p.waitDone()
	}
	// Close the Run: a helper that sees it only now does not join, and one
	// that joined in time leaves before the next Run changes the fields.
	// The fields stay as they are (a helper that joined late may read
	// them until it leaves): the next Run or Close changes them.
	publish(&p.state, p.state.Load()&^stateWorkers+stateEpoch)
	p.finish()
}

// wakeHelpers hands a token to each of the first n helpers that announced
// it is parking; the others are spinning and see the new state themselves.
// Call it after storing the new state.
func (p *Pool) wakeHelpers(n int) {
	for i := range p.helpers[:n] {
		h := &p.helpers[i]
		if raceHook != nil {
			raceHook()
		}
		if h.parked.Load() && h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{} // capacity 1 and no token pending: never blocks
		}
	}
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
	publish(&p.state, (p.state.Load()&^stateWorkers+stateEpoch)|stateStop)
	p.wakeHelpers(len(p.helpers))
	err := p.group.Wait()
	p.fn, p.order = nil, nil // the last Run's kernel is no longer held
	return err
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

// announce sets a parking flag (parked, waiting) and publish stores the
// state word: the stores of the hand-off's Dekker pairs, each followed by a
// load of the other side's word. Both are swaps, read-modify-writes, not
// plain stores (docs/architecture.md, "Kernel hand-off", Fences);
// TestHandOffStoresFence checks it where it matters, under make arm64.
// The join (joined.Add, a read-modify-write) pairs with the close of a Run
// (publish) in the same way.
func announce(f *atomic.Bool) { f.Swap(true) }

func publish(w *atomic.Uint64, v uint64) { w.Swap(v) }

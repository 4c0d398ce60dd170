// Package kernels walks the chunks of tables: scalar, or spread over a pool
// of goroutines with exactly one completion per call. It knows nothing of
// tables: a kernel is a func(worker, chunk int) and a chunk count, and the
// caller maps chunk c to rows c*ChunkRows .. (c+1)*ChunkRows-1 (see package
// ephemeral).
//
// Who calls it: a system's author runs kernels through systems.Parallel,
// and a host picks a [Policy] for a world (runtime.WithKernelPolicy); this
// package is for a host that runs kernels on a [Pool] of its own.
//
// # Pools
//
// [NewPool] starts workers-1 long-lived goroutines (the caller is worker 0)
// under a golang.org/x/sync errgroup. [Pool.Run] (the pool's [Policy]) and
// [Pool.RunPolicy] (an explicit one) choose n workers for the Run (below;
// [Pool.RunCost] may choose fewer on measured cost),
// offer them its chunks, which they claim (below), and return once, when
// every chunk is done. A Run of one worker runs inline on the caller's
// goroutine as worker 0 and wakes no helper. [Scalar] is the same walk
// without a pool. [Pool.Close] stops the goroutines; a runtime World owns
// its pool and closes it in World.Close.
//
// # Worker policy
//
// A Run of c chunks uses n = min(pool workers, Max, c/Grain) workers, at
// least 1 ([Policy.Workers], a pool's worker count): there are Grain chunks or more
// per worker, and no Run uses more workers than GOMAXPROCS (read by NewPool)
// unless Max says so. The default (the zero Policy) has Grain
// [DefaultGrain], chosen by measurement so that a Run too small to pay for
// the hand-off stays on one worker and costs what a one-worker pool costs
// (docs/benchmarks.md, "Kernels"). A system overrides it per Run with
// RunPolicy (systems.ParallelPolicy), a host per pool with
// [Pool.SetPolicy] (runtime.WithKernelPolicy); [AllWorkers] uses every
// worker. n depends only on the chunk count and the policy, never on timing
// (results never depend on n anyway: Determinism, below). Chunks
// are not split below one chunk: a table's chunk is the unit of work. Every
// parallel kernel, hand-written or generated, runs through Run or
// RunPolicy, so all of them share this policy and the hand-off below.
//
// # Measured cost
//
// [Pool.RunCost] (what systems.Parallel and generated kernels use, with a
// [Cost] per call site) lowers the policy's count to one worker when the
// kernel's measured chunks would save less on n workers than the
// hand-off costs: it keeps a moving average of the ns per chunk (on the
// caller's goroutine; for a Run on one worker, the whole Run's), which
// falls by 1/8 of a cheaper sample's difference and rises by 1/32 of a
// dearer one's, so that it stays near the chunks' cost on a CPU of their
// own when the OS takes the CPU away now and then; and a moving average
// (weight 1/8) of each Run's overhead, its wall time beyond chunks x
// ns-per-chunk / n, with the kernel's average ns per chunk (this Run's
// when lower), so that a Run slowed by a shared CPU, or one whose helpers
// came too late to claim a chunk, counts as the loss it was (the pool's
// average over every kernel until the kernel has its own, 5 µs before
// any). It runs on n workers when chunks x ns-per-chunk x (1 - 1/n)
// exceeds that overhead. A Run whose helpers ran every chunk measures its
// wall against the average (in a kernel's first Run, its wall per chunk
// is the cost). A kernel kept on one
// worker 64 Runs in a row is offered to n workers once again, so a grown
// table or a cheaper hand-off is seen. The choice depends on timing but
// the results do not (Determinism, below); Policy.Fixed, [AllWorkers] and
// the test-only switches turn it off. SystemReport.Workers (package
// scheduler) says what each system's kernels were given. Nothing is
// promised about the speed of any one choice: a Run the model keeps on
// one worker costs what a one-worker pool costs, and one it spreads may
// still lose when the OS takes a CPU away (a late helper's share is
// claimed by the others: below).
//
// # Work claiming
//
// The workers of a Run claim its chunks from one shared atomic cursor, in
// claims of max(1, chunks/(8n)) consecutive chunks (about eight claims
// per worker), until every chunk is claimed: a worker that is late, because
// it was parked or the OS descheduled its thread, finds its share done by
// the others, and the Run returns when the last chunk is done, without
// waiting for a helper that never joined (TestStalledHelperDoesNotHoldRun
// stops one on purpose). What a late helper can still hold up is the claim
// it is running. Each worker's chunks ascend over the whole Run, since the
// cursor only grows. Which worker runs which chunk depends on timing, so a
// worker no longer walks the same chunks in every Run: on the arena at
// 100 000 and 1 000 000 units on a busy 2-core machine, the static split's
// cache affinity did not show against claiming (docs/benchmarks.md,
// "Kernels"; an idle machine is not measured yet). span is the static
// split, kept for hosts that deal chunks out themselves and for the
// test-only orders (below).
//
// # Hand-off
//
// A Run publishes its work with one atomic store of the pool's state word
// (an epoch, the worker count and a stop bit) and closes it with another
// once its chunks are done. An idle helper spins on that word for up to
// 100 µs, yielding (runtime.Gosched) every few loads so it never keeps the
// goroutine it waits for off a P, then parks on its own channel; the
// caller, once the cursor is spent, waits for the last chunk the same way.
// A spin that finds two of its clock checks more than 20 µs apart has lost
// its CPU to another thread (a busy machine): it parks at once, and that
// goroutine parks without spinning for its next 64 waits, since a spin on
// a CPU that others want takes it from the caller or from the other
// program (TestSpinParksWhenCPUTaken).
// A helper joins a Run (an atomic count) before it reads the Run's fields
// and checks that the Run is still open; the next Run starts only when
// every helper that joined has left. Helpers do not spin when GOMAXPROCS
// is 1. The protocol, and why it neither loses a wake-up nor acts on a
// stale one, is in docs/architecture.md, "Kernel hand-off";
// TestStressHandOff runs a million Runs under make stress (-cpu 1,2,4,8),
// and under the race detector, with a watchdog.
//
// # Determinism
//
// Which worker runs which chunk never changes the result of a kernel that
// follows the rules of the runtime: a kernel writes only rows of the chunk it
// was given, and records commands and emits events into per-worker segments
// keyed by chunk index, which playback and event merges put back in chunk
// order (see packages commands and events); per-worker state (counts,
// scratch) is indexed by the worker a chunk ran on, and one goroutine is
// worker w for the whole Run. What a pool must keep is that each worker
// walks its chunks in ascending order: the event merge's overflow rule
// depends on it (events.Segment.Begin), and claims from one growing cursor
// keep it. The module's determinism tests check the rest under claiming
// and under pools that deal chunks out to workers instead, in order,
// reversed or shuffled, each worker still ascending (a test-only switch,
// internal/chunkorder, that normal pools do not pay for).
//
// # Allocation
//
// Run allocates nothing, also when it wakes parked helpers: a goroutine
// that parks on a channel takes a sudog from the Go runtime's caches, which
// allocate when they run dry, so NewPool makes enough of them at once
// (prewarm, 256 per P the pool runs on; made again by the first Run on
// more than one worker when a GC ran since, as a world's set-up that
// allocates after Build makes likely) and Runs that wake parked helpers
// then allocate 0 B (TestParkWakeAllocatesZeroBytes: 1, 2, 4 and 8
// workers, 600 Runs). A GC empties the runtime's central sudog cache, so
// after one a park can allocate again until the caches refill (a few
// hundred sudogs at most; a frame loop that allocates nothing sees only
// the runtime's forced GC, every two minutes). NewPool with more than one
// worker starts and ends that many goroutines (under a millisecond here).
// Pass Run a func made once at set-up: a closure literal written at the
// call site captures variables and escapes, so it allocates on every call.
//
// # Errors
//
// [NewPool] returns an error matching [ErrWorkers] under errors.Is for a
// worker count outside 1..[MaxWorkers]. [Pool.Run] on a closed pool, and a
// nested Run (below), panic (programmer misuse); Run has no error to return.
//
// # Panics in kernels
//
// A kernel that panics on a pool goroutine does not kill the process: the
// worker recovers it, skips the rest of its claim and claims every chunk
// left so that none is run any more; the claims other workers are running
// finish, and [Pool.Run] then panics on the caller's goroutine with a [*PanicError]
// (errors.Is [ErrKernelPanic]) that names the worker and chunk and holds the
// original value and the stack where it was raised. [Scalar], and Run with
// one worker or one chunk, panic with the same type, so a host recovers a
// kernel's panic the same way for every worker count. The pool stays usable
// after such a Run; chunks that were skipped are not run again. A kernel
// that calls runtime.Goexit on a helper worker breaks the pool instead
// (errGoexit).
//
// # Nested Run
//
// A kernel must not start a kernel. [Pool.Run] called while a Run of the
// same pool is in progress (from inside fn, on any worker, or from another
// goroutine) panics at once with [ErrNestedRun], for every worker count, one
// included; it never waits for workers that are busy running its caller.
// Inside a kernel that panic is the kernel's own, so it follows the rule
// above: the kernel stops, the outer Run finishes its other chunks and
// panics on its caller with a [*PanicError] whose Value is ErrNestedRun
// (errors.Is(err, ErrNestedRun) holds, and its message says what to do
// instead: split the work into two systems, or into two Run calls made one
// after the other from the system's Run). The pool stays usable. The check
// is one atomic compare-and-swap per Run; it allocates nothing.
//
// # Concurrency
//
// One Run at a time per pool: Run, RunPolicy, SetPolicy and Close are called
// from one goroutine only (the frame loop's). fn runs concurrently with itself on different
// chunks, on the pool's goroutines; Run returns only after every call has
// returned, so what fn wrote is visible to the caller afterwards.
package kernels

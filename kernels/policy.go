package kernels

// DefaultGrain is the least number of chunks a worker gets under the
// default policy. Chosen by measurement (docs/benchmarks.md, "Kernels"): a
// hand-off costs about 1 µs, and three chunks of the lightest kernel
// measured (a float32 add per row) cost as much at 1 024 rows a chunk and
// three times as much at the default 4 096, so no run under the default
// policy costs more on two workers than on one.
// Exported for hosts that build a Policy from the default.
const DefaultGrain = 3

// Policy decides how many workers a Run uses from the work in it (package
// doc, "Worker policy"). The zero Policy is defaultPolicy. A small value;
// copy it freely.
type Policy struct {
	// Grain is the least number of chunks a worker is given: a Run of c
	// chunks uses at most c/Grain workers, at least one. 0 or less means
	// DefaultGrain. Raise it for kernels whose chunks are cheap, lower it
	// (1) for kernels whose chunks are expensive.
	Grain int
	// Max caps the workers of a Run. 0 or less means GOMAXPROCS as read by
	// NewPool: more goroutines than Ps only take turns. The pool's worker
	// count caps it in every case.
	Max int
	// Fixed makes Pool.RunCost use the policy's worker count as it is,
	// never fewer on measured cost (package doc, "Measured cost").
	Fixed bool
}

// defaultPolicy is the policy of a new pool: DefaultGrain chunks per
// worker at least, at most GOMAXPROCS workers.
var defaultPolicy = Policy{}

// AllWorkers runs every Run on every worker of the pool, one chunk per
// worker at least, whatever the measured cost: the split the pool made
// before it had a policy. Tests use it to exercise every worker whatever
// the machine.
var AllWorkers = Policy{Grain: 1, Max: MaxWorkers, Fixed: true}

// Workers returns the number of workers a Run of chunks chunks uses on a
// pool of workers workers on procs Ps: min(workers, Max or procs,
// chunks/Grain), at least 1. It depends on nothing else (Pool.RunCost may
// then run fewer on measured cost: package doc, "Measured cost"). Pure.
func (pol Policy) Workers(chunks, workers, procs int) int {
	g := pol.Grain
	if g <= 0 {
		g = DefaultGrain
	}
	m := pol.Max
	if m <= 0 {
		m = procs
	}
	return max(1, min(workers, m, chunks/g))
}

// Cost is what a pool measured of one kernel's Runs: the time its chunks
// take and what running it on more than one worker cost beyond that.
// Pool.RunCost reads it to run a kernel whose chunks are too few or too
// cheap to pay for the hand-off on the caller's goroutine alone (package
// doc, "Measured cost"). The zero Cost has measured nothing. Keep one per
// kernel (a call site of a system) and pass the same one to every Run of
// it; it is read and written by RunCost only, on the goroutine that calls
// Run.
type Cost struct {
	chunkNS float64 // ns per chunk, moving average; 0: not measured yet
	overNS  float64 // ns a Run on n > 1 workers took beyond chunks*chunkNS/n, moving average; 0: not measured yet
	skipped int     // Runs kept on one worker by the cost since the last Run on more
}

// costWeight is the weight of a new sample in the moving averages of Cost
// and of the pool's hand-off cost.
const costWeight = 1.0 / 8

// costRise is the weight of a sample of a kernel's ns per chunk above the
// average (Cost.sample): the cost rises slowly, so that Runs slowed by the
// OS taking the CPU away do not make the chunks look dearer than they are.
const costRise = 1.0 / 32

// probeEvery is how many Runs in a row the measured cost keeps on one
// worker before one runs on the policy's count again, so that a kernel
// whose chunks grew, or a pool whose hand-off got cheaper, is seen.
const probeEvery = 64

// workers is the worker count of a Run of chunks chunks that the policy
// gives n > 1 workers: n, or 1 when the measured chunks would save less on
// n workers than the hand-off costs (over, ns: the kernel's own measure,
// or the pool's over every kernel before the kernel has one).
func (c *Cost) workers(n, chunks int, poolOver float64) int {
	if c.chunkNS == 0 {
		return n // nothing measured yet: the policy's count
	}
	over := poolOver
	if c.overNS > 0 {
		over = c.overNS
	}
	work := c.chunkNS * float64(chunks)
	if work-work/float64(n) > over {
		c.skipped = 0
		return n
	}
	if c.skipped++; c.skipped >= probeEvery {
		c.skipped = 0
		return n
	}
	return 1
}

// sample adds a Run's measure to the averages: serial, the ns per chunk of
// a Run on one worker; or, for a Run on n > 1 workers, perChunk (the ns
// per chunk on the caller's goroutine, 0 when the helpers ran every chunk)
// and wall, the Run's wall time, of which what exceeds chunks x
// ns-per-chunk / n is the hand-off's. It returns that overhead (or -1 when
// the Run was serial or gave no figure) for the pool's own average.
//
// The ns per chunk is the kernel's cost on a CPU of its own: a sample
// above the average moves it by costRise only (one below by costWeight),
// since a Run whose goroutine the OS descheduled, or whose helper shared
// its CPU, measures the same chunks as dearer. The overhead is measured
// against that average (this Run's perChunk when lower), not against the
// Run's own perChunk alone, so that such a Run counts as the loss it was
// (package doc, "Measured cost"); a Run whose caller ran no chunk counts
// its wall against the average too (or, in the kernel's first Run, gives
// the cost as its wall per chunk).
func (c *Cost) sample(n, chunks int, perChunk, wall float64) float64 {
	prior := c.chunkNS
	switch {
	case perChunk <= 0 && n == 1:
		return -1
	case perChunk <= 0 && prior == 0:
		// The helpers ran every chunk of the kernel's first Run: the
		// Run's wall per chunk bounds the cost from above.
		perChunk = wall / float64(chunks)
		c.chunkNS = perChunk
	case perChunk <= 0:
		perChunk = prior
	case prior == 0:
		c.chunkNS = perChunk
	case perChunk < prior:
		c.chunkNS += (perChunk - prior) * costWeight
	default:
		c.chunkNS += (perChunk - prior) * costRise
	}
	if n == 1 {
		return -1
	}
	if prior == 0 {
		prior = perChunk
	}
	over := max(0, wall-min(prior, perChunk)*float64(chunks)/float64(n))
	if c.overNS == 0 {
		c.overNS = max(over, 1)
	} else {
		c.overNS += (over - c.overNS) * costWeight
	}
	return over
}

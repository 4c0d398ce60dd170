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
// doc, "Worker policy"). The zero Policy is DefaultPolicy. A small value;
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
}

// DefaultPolicy is the policy of a new pool: DefaultGrain chunks per
// worker at least, at most GOMAXPROCS workers.
var DefaultPolicy = Policy{}

// AllWorkers runs every Run on every worker of the pool, one chunk per
// worker at least: the split the pool made before it had a policy. Tests
// use it to exercise every worker whatever the machine.
var AllWorkers = Policy{Grain: 1, Max: MaxWorkers}

// Workers returns the number of workers a Run of chunks chunks uses on a
// pool of workers workers on procs Ps: min(workers, Max or procs,
// chunks/Grain), at least 1. It depends on nothing else, so the same table
// gets the same split in every Run (package doc, "Cache affinity"). Pure.
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

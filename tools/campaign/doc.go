// Command campaign measures whether 2 kernel workers beat 1 on the arena:
// it builds cmd/arena-headless once, runs it N times per unit count, and
// prints each run's frame p50 and p99 at 1 and at 2 workers, their ratios
// (1-worker time over 2-worker time: above 1 means 2 workers are faster)
// and the median of each column over the runs. `make scaling-campaign`
// runs it; it is not part of `make test`.
//
// # Usage
//
//	go run ./tools/campaign [-runs 7] [-units 100000,1000000] [-busy]
//	                        [-mode joint|pair] [-frames 1200] [-warmup 120]
//	                        [-bin PATH]
//
// -busy starts a second process before the runs and kills it after them:
// the campaign binary itself with -spin and GOMAXPROCS=1, one goroutine
// spinning, which keeps one core busy as another program on a shared
// machine would. -bin runs an arena-headless built already instead of
// building one (`go build` into a temporary directory).
//
// # Modes
//
// -mode joint (the default) runs `arena-headless -workers 1,2 -impl
// runtime` once per run: one process measures both counts, alternating
// blocks of 60 frames (cmd/arena-headless, "Measurement"). -mode pair runs
// `-workers 1` and `-workers 2` as two processes, alternating which goes
// first from run to run. Joint is the fairer comparison on a shared
// machine: the two counts' frames interleave at a granularity of 60 frames
// (tens of milliseconds), so a neighbour's build or a frequency change
// that lasts longer than that hits both alike, while in pair mode it can
// fall on one process of the pair only (each runs for seconds). What
// joint shares between the counts (one heap, one process's threads) is
// idle for the count not running: the other world's helpers are parked
// and its frames allocate nothing. Pair mode remains to check that the
// joint figures are not an artefact of sharing a process.
//
// # Output
//
// Before each run the 1-minute load average (/proc/loadavg, "-" where
// there is none), then one line per run, then the medians and how many
// runs had 2 workers slower than 1 at p50 and at p99. Every figure is a
// wall time in µs from arena-headless's -json report.
//
// # Exit status
//
// 0 when every run completed (whatever the figures say), 1 when a build or
// a run failed or its digests differ, 2 for bad flags.
package main

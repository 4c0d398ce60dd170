// Package allockit is for tests: it measures what a piece of code
// allocates so that the Go runtime's own background allocations (a thread
// started now and then, a GC worker, the testing package) cannot fail a
// zero-allocation test, while a real allocation of the code still does.
// It is internal to Tickwork and not part of any stable API; like every
// package of internal/testkit, only tests import it.
//
// # Windows
//
// [Heap] runs a window (a loop of many operations) up to tries times and
// returns the heap bytes, objects and GC cycles (runtime.MemStats, every
// goroutine's) of the first window that allocated nothing, or of the
// cleanest one when none did. Code that allocates on every
// operation, or every few dozen, allocates in every window, so the test
// still fails; a background allocation lands in one window, rarely two in
// a row. [PerOp] does the same with testing.AllocsPerRun (objects per
// operation, averaged over the runs and truncated, as AllocsPerRun does).
//
// # Concurrency
//
// Not for tests that run in parallel with others (t.Parallel): the
// counters are process wide.
package allockit

import (
	"runtime"
	"testing"
)

// DefaultTries is the number of windows a zero-allocation test measures
// at most.
const DefaultTries = 3

// Window is what one window allocated: heap bytes and objects
// (runtime.MemStats TotalAlloc and Mallocs) and the GC cycles that
// completed during it (NumGC).
type Window struct{ Bytes, Objects, GCs uint64 }

// Heap runs window up to tries times (at least once) and returns what the
// first window that allocated nothing and saw no GC allocated, or the
// window with the fewest bytes when none was clean.
func Heap(tries int, window func()) Window {
	best := Window{Bytes: ^uint64(0)}
	for range max(1, tries) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		window()
		runtime.ReadMemStats(&after)
		w := Window{Bytes: after.TotalAlloc - before.TotalAlloc, Objects: after.Mallocs - before.Mallocs,
			GCs: uint64(after.NumGC - before.NumGC)}
		if w.Bytes < best.Bytes || (w.Bytes == best.Bytes && w.GCs < best.GCs) {
			best = w
		}
		if w.Bytes == 0 && w.GCs == 0 {
			break
		}
	}
	return best
}

// PerOp returns testing.AllocsPerRun(runs, f) of the first of up to tries
// measurements that is 0, or the smallest.
func PerOp(tries, runs int, f func()) float64 {
	best := -1.0
	for range max(1, tries) {
		a := testing.AllocsPerRun(runs, f)
		if best < 0 || a < best {
			best = a
		}
		if a == 0 {
			break
		}
	}
	return best
}

// FirstCall measures the heap allocations of the first call of a function
// that setup makes afresh (state and all): up to tries times it calls
// setup and counts the objects allocated by the first call of what setup
// returned, and it returns the first count that is 0, or the smallest.
// For one-shot checks ("the first playback allocates nothing") that cannot
// be repeated on the same state; setup itself is not counted.
func FirstCall(tries int, setup func() (call func())) float64 {
	best := -1.0
	for range max(1, tries) {
		call := setup()
		calls := 0
		a := testing.AllocsPerRun(1, func() { // its warm-up call does nothing: measure the first real one
			if calls++; calls > 1 {
				call()
			}
		})
		if best < 0 || a < best {
			best = a
		}
		if a == 0 {
			break
		}
	}
	return best
}

// Package workerpolicy is a test-only switch that makes the kernels.Pool
// values made from then on use every one of their workers in every Run
// (kernels.AllWorkers) instead of the default policy, which runs small
// kernels on fewer workers, never more than GOMAXPROCS. Determinism and
// stress tests set it so that the parallel hand-off and every worker's
// segments are exercised whatever the size of their tables and the
// machine. It is internal to Tickwork and not part of any stable API.
//
// # Concurrency
//
// Force and Forced are safe from any goroutine, but the setting is process
// wide: a test that calls Force must not run in parallel (t.Parallel) with
// tests that make pools. kernels.NewPool reads it once.
package workerpolicy

import "sync/atomic"

var forced atomic.Bool

// Force makes the pools made from now on use every worker in every Run and
// returns a func that restores the previous setting (pass it to t.Cleanup
// or call it once the pools are made). Tests only.
func Force() (restore func()) {
	old := forced.Swap(true)
	return func() { forced.Store(old) }
}

// Forced reports whether Force is in effect.
func Forced() bool { return forced.Load() }

// Package kernels walks the chunks of tables: scalar, or spread over a pool
// of goroutines with exactly one completion per call.
//
// # Pools
//
// [NewPool] starts workers-1 long-lived goroutines (the caller is worker 0)
// under a golang.org/x/sync errgroup. [Pool.Run] hands chunk c to worker
// c*workers/chunks (contiguous ranges, so each worker walks neighbouring
// memory) and returns once, when every chunk is done. A pool of one worker
// runs everything inline on the caller's goroutine.
//
// # Determinism
//
// Which worker runs which chunk never changes the result of a kernel that
// follows the rules of the runtime: a kernel writes only rows of the chunk it
// was given, and records commands and emits events into per-worker segments
// keyed by chunk index, which playback and event merges put back in chunk
// order (see packages commands and events).
//
// # Allocation
//
// Run allocates nothing. Pass it a func made once at set-up: a closure
// literal written at the call site captures variables and escapes, so it
// allocates on every call.
//
// # Concurrency
//
// One Run at a time per pool: Run, Close and Workers may be called from one
// goroutine only (the frame loop's). fn runs concurrently with itself on
// different chunks.
package kernels

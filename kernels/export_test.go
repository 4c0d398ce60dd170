package kernels

import (
	"runtime"
	"sync/atomic"
)

// SetRaceHook makes the hand-off yield (runtime.Gosched) at its racy
// points when on is true (see raceHook), for the stress test; it returns a
// func that turns the hook off again. Not safe while a pool runs.
func SetRaceHook(on bool) (restore func()) {
	old := raceHook
	raceHook = nil
	if on {
		raceHook = runtime.Gosched
	}
	return func() { raceHook = old }
}

// Announce and Publish are the hand-off's fencing stores (pool.go), for
// TestHandOffStoresFence.
var (
	Announce = announce
	Publish  = publish
)

// SpinFor is how long an idle helper spins before it parks (spinFor).
const SpinFor = spinFor

// SetStallHook makes helper w call fn(w, joined) when it sees a Run: with
// joined false before it joins the Run, with joined true right after (see
// stallHook). A test blocks in fn to play a helper the OS descheduled. It
// returns a func that removes the hook. Not safe while a pool runs.
func SetStallHook(fn func(w int, joined bool)) (restore func()) {
	old := stallHook
	stallHook = fn
	return func() { stallHook = old }
}

// ChunkNS is the measured time of one of the kernel's chunks, in ns (0
// before its first Run), for the cost tests.
func (c *Cost) ChunkNS() float64 { return c.chunkNS }

// DefaultPolicy, ErrGoexit, Span and Active are defaultPolicy, errGoexit,
// span and activeFor, for the tests.
var (
	DefaultPolicy = defaultPolicy
	ErrGoexit     = errGoexit
	Span          = span
)

// Active is activeFor (the workers a Run of chunks chunks under pol uses).
func (p *Pool) Active(pol Policy, chunks int) int { return p.activeFor(pol, chunks) }

// SpinGap and SpinRest are spinGap and spinRest: the clock gap that makes
// a spin give up, and the waits that then park at once.
const (
	SpinGap  = spinGap
	SpinRest = spinRest
)

// SpinUntil is spinUntil, for TestSpinParksWhenCPUTaken.
func SpinUntil(w *atomic.Uint64, seen uint64, rest *int) (uint64, bool) {
	return spinUntil(w, seen, rest)
}

// Sample is Cost.sample and OverNS the kernel's measured overhead, for
// TestCostSample.
func (c *Cost) Sample(n, chunks int, perChunk, wall float64) float64 {
	return c.sample(n, chunks, perChunk, wall)
}

// OverNS is the kernel's measured overhead of a Run on more than one
// worker, in ns (0 before one).
func (c *Cost) OverNS() float64 { return c.overNS }

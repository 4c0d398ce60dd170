// Package chunkorder is a test-only switch for the order in which a
// kernels.Pool hands the chunks of a Run to its workers. It exists so that
// determinism tests can check that what a kernel produces does not depend
// on that order: the merges of command buffers and staged events must put
// chunks back in key order whatever order they ran in. It is internal to
// Tickwork and not part of any stable API.
//
// # Orders
//
// The zero [Order] is the pool's normal work claiming (package kernels,
// "Work claiming": which worker runs which chunk depends on timing). The
// other orders deal the chunks of every Run out instead, by the spans of
// positions of kernels.span, so that which worker runs which chunk is
// fixed: [Dealt] deals the chunks themselves (worker w gets chunks
// Span(chunks, n, w), for tests that need to know which worker runs which
// chunk), [Reversed] and [Shuffled] a permutation of them. Each worker
// walks its chunks in ascending order. That is the pool's
// contract (package kernels, Run), and the event merge relies on it: which
// events a full worker staging drops is decided by that walk (see
// events.Segment.Begin). [Alternatives] lists the orders the determinism
// tests run under.
//
// # Setting
//
// [Set] chooses the order of the pools kernels.NewPool makes from then on
// (a runtime World's pool, made by Build, included); pools made before keep
// theirs. A pool made under the zero Order costs nothing: it holds a nil
// [*Perm] and runs exactly as without this package.
//
// # Concurrency
//
// Set and Current are safe from any goroutine, but the setting is process
// wide: a test that calls Set must not run in parallel (t.Parallel) with
// tests that make pools. A Perm belongs to one pool and is used only by the
// goroutine that calls Run.
package chunkorder

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
)

// Order is an order in which a pool hands out chunks. The zero Order is the
// normal work claiming.
type Order struct {
	kind kind
	seed uint64
}

type kind uint8

const (
	span kind = iota
	reversed
	shuffled
	dealt
)

// Span is the normal work claiming, the zero Order. (The name is the one
// the static split that preceded claiming had.)
func Span() Order { return Order{} }

// Dealt deals the chunks out in order: worker w gets the chunks of
// kernels.span(chunks, n, w).
func Dealt() Order { return Order{kind: dealt} }

// Reversed hands the spans out in reverse: worker 0 gets the highest
// chunks, the last worker the lowest.
func Reversed() Order { return Order{kind: reversed} }

// Shuffled deals the chunks of every Run out at random, from a PCG stream
// seeded with seed: the same seed gives the same sequence of permutations,
// Run after Run, whatever the worker count.
func Shuffled(seed uint64) Order { return Order{kind: shuffled, seed: seed} }

// Alternatives are the orders other than the normal claiming that the
// determinism tests run under: Dealt, Reversed and three seeded shuffles.
func Alternatives() []Order {
	return []Order{Dealt(), Reversed(), Shuffled(1), Shuffled(2), Shuffled(3)}
}

// IsSpan reports whether o is the normal work claiming.
func (o Order) IsSpan() bool { return o.kind == span }

// String names the order for test names: "span", "dealt", "reversed" or
// "shuffled-<seed>".
func (o Order) String() string {
	switch o.kind {
	case dealt:
		return "dealt"
	case reversed:
		return "reversed"
	case shuffled:
		return "shuffled-" + strconv.FormatUint(o.seed, 10)
	}
	return "span"
}

var current atomic.Pointer[Order] // nil: the normal claiming

// Set makes o the order of the pools made from now on and returns a func
// that restores the previous setting (pass it to t.Cleanup). Tests only;
// see the package doc for concurrency.
func Set(o Order) (restore func()) {
	var p *Order
	if !o.IsSpan() {
		p = &o
	}
	old := current.Swap(p)
	return func() { current.Store(old) }
}

// Current is the order set by Set, the normal claiming when none is.
func Current() Order {
	if p := current.Load(); p != nil {
		return *p
	}
	return Order{}
}

// ForNewPool returns the permutation source of a pool being made,
// Current().Perm(): nil under the normal claiming (the pool then claims,
// at no cost). kernels.NewPool calls it once.
func ForNewPool() *Perm { return Current().Perm() }

// Perm returns a new permutation source of order o, nil for the normal
// claiming. Two Perms of one order give the same sequence of permutations.
func (o Order) Perm() *Perm {
	if o.IsSpan() {
		return nil
	}
	p := &Perm{order: o}
	if o.kind == shuffled {
		p.rng = rand.New(rand.NewPCG(o.seed, 0x9e3779b97f4a7c15))
	}
	return p
}

// Perm makes the chunk permutation of each Run of one pool.
type Perm struct {
	order Order
	rng   *rand.Rand
	buf   []int
}

// Next returns the chunk order of the next Run of chunks chunks on workers
// workers: a permutation of 0..chunks-1 in which worker w runs the chunks
// at positions [chunks*w/workers, chunks*(w+1)/workers) (kernels.span),
// sorted ascending within each such span. The slice is the Perm's own and
// is overwritten by the next call. It allocates only when chunks exceeds
// every earlier count.
func (p *Perm) Next(chunks, workers int) []int {
	if cap(p.buf) < chunks {
		p.buf = make([]int, chunks)
	}
	s := p.buf[:chunks]
	for i := range s {
		s[i] = chunks - 1 - i
		if p.order.kind == dealt {
			s[i] = i
		}
	}
	if p.order.kind == shuffled {
		for i := chunks - 1; i > 0; i-- { // Fisher–Yates
			j := int(p.rng.Uint64N(uint64(i + 1)))
			s[i], s[j] = s[j], s[i]
		}
	}
	for w := range workers {
		slices.Sort(s[chunks*w/workers : chunks*(w+1)/workers])
	}
	return s
}

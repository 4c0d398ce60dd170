// Package chunkdrive is for tests: the ways a determinism test shares the
// chunks of a kernel among workers. Interleaved goroutines take chunk c on
// worker c%workers; pooled drivers run a kernels.Pool under each order of
// package chunkorder. A test runs its kernel under every driver of [All] and
// checks that the result equals one worker's. It is internal to Tickwork and
// not part of any stable API; like every package of internal/testkit, only
// tests import it.
package chunkdrive

import (
	"sync"

	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/kernels"
)

// TB is the part of testing.TB a driver uses: it fails the test when it
// cannot make its pool.
type TB interface{ Fatal(args ...any) }

// Driver runs kernel(w, c) for every chunk c in 0..chunks-1 on workers
// workers and returns when every call has.
type Driver struct {
	Name string
	Run  func(tb TB, workers, chunks int, kernel func(w, c int))
}

// Interleaved starts one goroutine per worker; worker w takes the chunks c
// with c%workers == w, in ascending order.
var Interleaved = Driver{Name: "interleaved", Run: func(tb TB, workers, chunks int, kernel func(w, c int)) {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for c := w; c < chunks; c += workers {
				kernel(w, c)
			}
		})
	}
	wg.Wait()
}}

// Pooled runs the kernel on a kernels.Pool made under order o (the normal
// split, reversed or shuffled).
func Pooled(o chunkorder.Order) Driver {
	return Driver{Name: "pool-" + o.String(), Run: func(tb TB, workers, chunks int, kernel func(w, c int)) {
		restore := chunkorder.Set(o)
		p, err := kernels.NewPool(workers)
		restore()
		if err != nil {
			tb.Fatal(err)
		}
		defer p.Close()
		p.RunPolicy(kernels.AllWorkers, chunks, kernel) // every worker takes part, however few the chunks
	}}
}

// All is Interleaved, then a pool under the normal split and under every
// order of chunkorder.Alternatives.
func All() []Driver {
	out := []Driver{Interleaved, Pooled(chunkorder.Span())}
	for _, o := range chunkorder.Alternatives() {
		out = append(out, Pooled(o))
	}
	return out
}

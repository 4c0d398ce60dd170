package kernels_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/kernels"
)

// Scalar is the one-worker kernel: every chunk in ascending order, as
// worker 0, on the calling goroutine.
func ExampleScalar() {
	var order []int
	kernels.Scalar(4, func(worker, chunk int) { order = append(order, chunk) })
	fmt.Println(order)
	// Output: [0 1 2 3]
}

// A kernel's panic reaches the goroutine that called Run as a
// *PanicError, whichever worker ran the kernel (pe.Worker names it), once
// the claims in flight are done; the host recovers it there.
func ExamplePanicError() {
	pool, _ := kernels.NewPool(4)
	defer pool.Close()
	pool.SetPolicy(kernels.AllWorkers) // every Run on all 4 workers, whatever GOMAXPROCS
	fn := func(worker, chunk int) {
		if chunk == 6 {
			panic("bad chunk")
		}
	}
	func() {
		defer func() {
			if pe, ok := recover().(*kernels.PanicError); ok {
				fmt.Println("chunk", pe.Chunk, "value", pe.Value, errors.Is(pe, kernels.ErrKernelPanic))
			}
		}()
		pool.Run(8, fn)
	}()
	pool.Run(8, func(int, int) {}) // the pool is still usable
	fmt.Println("ok")
	// Output:
	// chunk 6 value bad chunk true
	// ok
}

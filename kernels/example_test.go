package kernels_test

import (
	"fmt"

	"github.com/tickwork/tickwork/kernels"
)

// Span is how Pool.Run shares chunks among workers: each worker gets a
// contiguous, ascending range, as even as integer division allows.
func ExampleSpan() {
	for w := range 3 {
		lo, hi := kernels.Span(10, 3, w)
		fmt.Printf("worker %d: chunks [%d, %d)\n", w, lo, hi)
	}
	// Output:
	// worker 0: chunks [0, 3)
	// worker 1: chunks [3, 6)
	// worker 2: chunks [6, 10)
}

// Scalar is the one-worker kernel: every chunk in ascending order, as
// worker 0, on the calling goroutine.
func ExampleScalar() {
	var order []int
	kernels.Scalar(4, func(worker, chunk int) { order = append(order, chunk) })
	fmt.Println(order)
	// Output: [0 1 2 3]
}

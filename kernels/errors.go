package kernels

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrWorkers: a worker count below 1 or above MaxWorkers. NewPool returns an
// error that wraps it (errors.Is) and names the count.
var ErrWorkers = errors.New("kernels: workers must be between 1 and MaxWorkers (" + strconv.Itoa(MaxWorkers) + ")")

// ErrKernelPanic: a kernel panicked. Pool.Run and Scalar re-panic on the
// caller's goroutine with a *PanicError, which matches it under errors.Is.
var ErrKernelPanic = errors.New("kernels: kernel panicked")

// ErrNestedRun: Pool.Run called while a Run of the same pool is in progress,
// from inside a kernel or from another goroutine. Run panics with it (see
// the package doc, "Nested Run"); inside a kernel it reaches the outer Run's
// caller as the Value of a *PanicError, so errors.Is(err, ErrNestedRun)
// holds for that panic too.
var ErrNestedRun = errors.New("kernels: Run called from inside a kernel (or while another Run of the same pool is in progress); " +
	"a kernel must not start a kernel: split the work into two systems, or into two Run calls from the system's Run")

// errGoexit: a kernel called runtime.Goexit (t.FailNow, log.Fatal's
// cousins in tests) on a helper worker. That worker's goroutine is gone, so
// the Run completes without it and panics on its caller with a *PanicError
// whose Value is errGoexit, and the pool is broken: every later Run panics
// with errGoexit too. Close it and make a new pool (or World).
var errGoexit = errors.New("kernels: a kernel called runtime.Goexit (t.FailNow?) on a helper worker, which ended its goroutine; " +
	"kernels must return or panic, never exit their goroutine: close this pool (or World) and make a new one")

// PanicError is the value Pool.Run and Scalar panic with, on the caller's
// goroutine, when a kernel panics: whatever the worker count and whichever
// goroutine ran the kernel, a host recovers it the same way. It matches
// ErrKernelPanic under errors.Is, and unwraps to Value when Value is an
// error (so errors.Is and errors.As reach the kernel's own error).
type PanicError struct {
	Worker int    // worker whose kernel panicked; 0 is the goroutine that called Run
	Chunk  int    // chunk the kernel was given
	Value  any    // the kernel's panic value, as recover returned it
	Stack  []byte // the panicking goroutine's stack, taken when the panic was recovered
	// Others are the panics of other workers in the same Run, by ascending
	// chunk (each worker stops at its first panic). Empty in most runs.
	Others []*PanicError
}

// Error returns one line, "kernels: kernel panicked on worker W, chunk C:
// <Value>", with the count of other panics when there are any; the stack
// of the panicking goroutine is in Stack, not in the message (print it to
// see where the kernel failed).
func (e *PanicError) Error() string {
	s := fmt.Sprintf("kernels: kernel panicked on worker %d, chunk %d: %v", e.Worker, e.Chunk, e.Value)
	if n := len(e.Others); n > 0 {
		s += fmt.Sprintf(" (and %d more on other workers)", n)
	}
	return s
}

// Is reports whether target is ErrKernelPanic.
func (e *PanicError) Is(target error) bool { return target == ErrKernelPanic }

// Unwrap returns Value when it is an error, else nil.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

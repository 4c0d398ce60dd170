package kernels

import "errors"

// ErrWorkers: a worker count below 1 or above MaxWorkers. NewPool returns an
// error that wraps it (errors.Is) and names the count.
var ErrWorkers = errors.New("kernels: workers must be between 1 and MaxWorkers")

// ErrClosed names a closed pool. No function of this package returns it
// today: Run on a closed pool panics, since running kernels after Close is
// a programmer error.
var ErrClosed = errors.New("kernels: pool is closed")

package kernels

import "errors"

// ErrWorkers: a worker count below 1 or above MaxWorkers.
var ErrWorkers = errors.New("kernels: workers must be between 1 and MaxWorkers")

// ErrClosed: Run on a closed pool.
var ErrClosed = errors.New("kernels: pool is closed")

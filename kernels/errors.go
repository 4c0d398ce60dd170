package kernels

import "errors"

// ErrWorkers: a worker count below 1 or above MaxWorkers. NewPool returns an
// error that wraps it (errors.Is) and names the count.
var ErrWorkers = errors.New("kernels: workers must be between 1 and MaxWorkers")

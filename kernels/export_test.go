package kernels

import "runtime"

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

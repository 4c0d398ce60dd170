package kernels_test

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/kernels"
)

// TestHandOffStoresFence runs the store-buffering litmus test on the
// hand-off's own stores (kernels.Announce, kernels.Publish): one goroutine
// announces a flag and then loads the state word, the other publishes the
// word and then loads the flag, in lock-step rounds. If neither load ever
// sees the other side's store, a parking helper and its waker would both
// miss each other and the pool would hang (docs/architecture.md, "Kernel
// hand-off", Fences). Go's memory model forbids that outcome; plain atomic
// stores give it in about one round in ten under qemu's arm64 emulation
// (make arm64 runs this test there), the swaps never.
func TestHandOffStoresFence(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two Ps to run both sides at once")
	}
	rounds := 100000
	if testing.Short() {
		rounds = 20000
	}
	var flag atomic.Bool
	var word atomic.Uint64
	var start, done atomic.Int64
	var sawWord atomic.Bool // what the announcing side's load saw, per round
	go func() {
		for i := int64(1); i <= int64(rounds); i++ {
			for start.Load() != i {
			}
			kernels.Announce(&flag)
			sawWord.Store(word.Load() != 0)
			done.Store(i)
		}
	}()
	missed := 0
	for i := int64(1); i <= int64(rounds); i++ {
		flag.Store(false)
		word.Store(0)
		start.Store(i)
		kernels.Publish(&word, uint64(i))
		sawFlag := flag.Load()
		for done.Load() != i {
		}
		if !sawFlag && !sawWord.Load() {
			missed++
		}
	}
	assert.Zero(t, missed, "rounds of %d in which both sides missed the other's store", rounds)
}

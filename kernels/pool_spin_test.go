package kernels_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/kernels"
)

// TestSpinParksWhenCPUTaken: a spin whose goroutine loses its CPU for
// longer than SpinGap between two clock checks gives up before SpinFor and
// rests (the next SpinRest waits park at once); one that keeps its CPU
// spins its full SpinFor and does not rest. On one P, a goroutine that
// runs 200 µs bursts between yields takes the CPU at every Gosched of the
// spin, as another thread of a busy machine would.
func TestSpinParksWhenCPUTaken(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	before := runtime.NumGoroutine()
	var w atomic.Uint64

	// Alone: on a loaded machine the OS may take the CPU anyway, so the
	// first of up to 50 spins that kept it is the one checked.
	kept := false
	for try := 0; try < 50 && !kept; try++ {
		rest := 0
		_, ok := kernels.SpinUntil(&w, 0, &rest)
		assert.False(t, ok, "the word never changed")
		kept = rest == 0
		if try > 0 && kept {
			t.Logf("alone: the spin kept its CPU on try %d", try+1)
		}
	}
	assert.True(t, kept, "a spin that kept its CPU does not rest")

	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			for t0 := time.Now(); time.Since(t0) < 10*kernels.SpinGap; {
			}
			runtime.Gosched()
		}
	}()
	runtime.Gosched() // let the burster start
	rest := 0
	_, ok := kernels.SpinUntil(&w, 0, &rest)
	stop.Store(true)
	<-done
	// The burster may still be exiting: later tests count goroutines.
	assert.LessOrEqual(t, goroutinesSettle(before, 2*time.Second), before)
	assert.False(t, ok)
	assert.Equal(t, kernels.SpinRest, rest, "a spin that lost its CPU rests")
}

package querykit_test

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used (user and
// system, RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuClock measures a benchmark loop's thread CPU time: startCPU locks the
// goroutine to its OS thread, stop unlocks it and reports the CPU time per
// call as cpu-ns/op, which leaves out the time the thread waited for a
// core (the wall clock of a shared machine counts it).
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock {
	runtime.LockOSThread()
	return cpuClock{threadCPU()}
}

func (c cpuClock) stop(b *testing.B, calls int) {
	d := threadCPU() - c.start
	runtime.UnlockOSThread()
	if calls > 0 {
		b.ReportMetric(float64(d)/float64(calls), "cpu-ns/op")
	}
}

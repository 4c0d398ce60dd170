//go:build !linux

package querykit_test

import "testing"

// cpuClock reports nothing off Linux (no per-thread CPU time).
type cpuClock struct{}

func startCPU() cpuClock { return cpuClock{} }

func (cpuClock) stop(*testing.B, int) {}

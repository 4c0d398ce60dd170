package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// src drives a model test: n(k) is the next choice in 0..k-1, from a
// seeded generator or a fuzzer's bytes.
type src interface {
	n(k int) int
	done() bool
}

type randSrc struct {
	r    *rand.Rand
	left int
}

func newRandSrc(seed uint64, ops int) *randSrc {
	return &randSrc{r: rand.New(rand.NewPCG(seed, seed^0x5eed)), left: ops}
}

func (s *randSrc) n(k int) int { return s.r.IntN(k) }
func (s *randSrc) done() bool  { s.left--; return s.left < 0 }

type byteSrc struct {
	b []byte
	i int
}

func (s *byteSrc) n(k int) int {
	if s.i >= len(s.b) {
		return 0
	}
	v := int(s.b[s.i])
	s.i++
	if k > 256 {
		v = v<<8 | int(s.next())
	}
	return v % k
}

func (s *byteSrc) next() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

func (s *byteSrc) done() bool { return s.i >= len(s.b) }

// pickRow favours the ends, 0 and capacity-1.
func pickRow(s src, capacity int) int32 {
	switch s.n(8) {
	case 0:
		return 0
	case 1:
		return int32(capacity - 1)
	}
	return int32(s.n(capacity))
}

// same is equality that takes NaN for NaN and tells -0 from +0.
func same(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// mustPanic runs f and checks it panics with a message containing want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want one containing %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q, want one containing %q", msg, want)
		}
	}()
	f()
}

func TestCheckRow(t *testing.T) {
	checkRow("Insert", 0, 1)
	checkRow("Insert", 9, 10)
	for _, row := range []int32{-1, 10, math.MaxInt32, math.MinInt32} {
		mustPanic(t, fmt.Sprintf("Insert of row %d out of range 0..9", row), func() { checkRow("Insert", row, 10) })
	}
}

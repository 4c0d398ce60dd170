package scheduler

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestSelectK(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 300; n += 7 {
		for _, spread := range []int64{3, 1 << 40} {
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = r.Int64N(spread)
			}
			sorted := slices.Sorted(slices.Values(vals))
			for _, p := range []int{1, 50, 99, 100} {
				k := rank(n, p)
				buf := slices.Clone(vals)
				if got := selectK(buf, k); got != sorted[k] {
					t.Fatalf("n %d p%d: selectK = %d, want %d", n, p, got, sorted[k])
				}
			}
		}
	}
	if rank(128, 50) != 63 || rank(128, 99) != 126 || rank(1, 99) != 0 || rank(100, 99) != 98 {
		t.Fatalf("rank: %d %d %d %d", rank(128, 50), rank(128, 99), rank(1, 99), rank(100, 99))
	}
}

func TestAllocMeterNoAlloc(t *testing.T) {
	for _, exact := range []bool{false, true} {
		m := newAllocMeter(exact)
		b0, o0 := m.read()
		if n := testing.AllocsPerRun(100, func() { m.read() }); n != 0 {
			t.Fatalf("exact %v: allocMeter.read allocates %v times", exact, n)
		}
		sink := make([][]byte, 0, 64)
		for range 64 {
			sink = append(sink, make([]byte, 4096))
		}
		b1, o1 := m.read()
		want := uint64(48 * 4096) // counted per span: a span cached before b0 was counted then
		if exact {
			want = 64 * 4096 // every cache flushed at both reads
		}
		if b1-b0 < want {
			t.Fatalf("exact %v: meter saw %d bytes for 256 KiB allocated", exact, b1-b0)
		}
		if exact && o1-o0 < 64 {
			t.Fatalf("exact: meter saw %d objects for 64 allocated", o1-o0)
		}
		_ = sink
	}
}

func TestStepNanos(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want int64
	}{{0.01, 10_000_000}, {0.015, 15_000_000}, {1.0 / 60, 16_666_666}, {1.0 / 64, 15_625_000}, {1.0 / 30, 33_333_333}, {1e-6, 1000}, {0.1, 100_000_000}, {0.3, 300_000_000}} {
		if got := stepNanos(c.s); got != c.want {
			t.Errorf("stepNanos(%v) = %d, want %d", c.s, got, c.want)
		}
	}
	// k steps of 1/60 s, each delta rounded to the nanosecond, run k ticks.
	c := clock{maxTicks: 8, t: Time{Step: time.Duration(stepNanos(1.0 / 60))}}
	for k := 1; k <= 8; k++ {
		if n, _ := c.plan(nanos(float64(k) / 60)); n != k {
			t.Fatalf("delta %d/60 s ran %d ticks", k, n)
		}
		c.t.Remaining = 0
	}
}

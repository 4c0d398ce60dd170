package bench_test

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/bench"
)

// arenaUnits are the unit counts of BenchmarkArena.
var arenaUnits = []int{10000, 100000, 1000000}

// BenchmarkArena runs the arena (arena rules v1, default shots and seed)
// on each implementation of bench.Impls at each of arenaUnits: after the
// default warm-up (120 frames), one frame per op, with the bytes and
// objects allocated per frame and the frame time's p50 and p99
// ("p50-ns/frame", "p99-ns/frame"). `make bench` prints the results side
// by side (cmd/benchtable).
func BenchmarkArena(b *testing.B) {
	for _, units := range arenaUnits {
		b.Run(fmt.Sprintf("units=%d", units), func(b *testing.B) {
			for _, impl := range bench.Impls(goruntime.GOMAXPROCS(0)) {
				b.Run(impl.Name, func(b *testing.B) {
					benchArena(b, impl, units)
				})
			}
		})
	}
}

func benchArena(b *testing.B, impl bench.Impl, units int) {
	cfg := rules.Config{Units: units, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: impl.Workers}
	sim, err := impl.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer sim.Close()
	for range rules.DefaultWarmup {
		if err := sim.Frame(); err != nil {
			b.Fatal(err)
		}
	}
	times := bench.NewFrameTimes(1 << 18)
	goruntime.GC()
	b.ReportAllocs()
	for b.Loop() {
		t := time.Now()
		if err := sim.Frame(); err != nil {
			b.Fatal(err)
		}
		times.Add(time.Since(t))
	}
	b.ReportMetric(float64(times.Quantile(0.50)), "p50-ns/frame")
	b.ReportMetric(float64(times.Quantile(0.99)), "p99-ns/frame")
}

package arenagen_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// declared are the systems arena.tw declares, whose times
// BenchmarkKernels reports.
var declared = []string{"ApplyHits", "Collision", "IntegrateBodies", "IntegrateProjectiles", "Clock"}

// BenchmarkKernels runs the arena's frames with the five declared systems
// generated from arena.tw (sub-benchmark generated, the four others
// hand-written beside them) and package arena itself, today's
// hand-written systems (hand), on the same configuration: both reach the
// same digest, so after the same warm-up the same frames do the same
// work. Run it with a fixed -benchtime Nx so both lanes run the same
// frames. Besides ns/op (one frame), it reports each declared system's
// mean wall time per frame (NAME-ns/frame) from the frame reports.
func BenchmarkKernels(b *testing.B) {
	for _, workers := range []int{1, 2} {
		cfg := rules.Config{Units: rules.DefaultUnits, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: workers}
		for _, lane := range []string{"generated", "hand"} {
			b.Run(fmt.Sprintf("workers=%d/%s", workers, lane), func(b *testing.B) {
				var w *tickwork.World
				var frame func() error
				switch lane {
				case "generated":
					sim, err := newGenSim(cfg)
					if err != nil {
						b.Fatal(err)
					}
					defer sim.world.Close()
					w, frame = sim.world, sim.frame
				default:
					sim, err := arena.New(cfg)
					if err != nil {
						b.Fatal(err)
					}
					defer sim.Close()
					w, frame = sim.World(), sim.Frame
				}
				for range rules.DefaultWarmup {
					if err := frame(); err != nil {
						b.Fatal(err)
					}
				}
				totals := map[string]time.Duration{}
				frames := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := frame(); err != nil {
						b.Fatal(err)
					}
					for _, sr := range w.Report().Systems {
						totals[sr.Name] += sr.Total
					}
					frames++
				}
				for _, name := range declared {
					b.ReportMetric(float64(totals[name].Nanoseconds())/float64(frames), name+"-ns/frame")
				}
			})
		}
	}
}

package arena

import (
	"testing"
	"time"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// benchSystem measures one streaming system's chunk kernel over every chunk
// of its table, as the system runs it with one worker (Parallel calls the
// kernel chunk by chunk on the caller's goroutine), at the default config
// after the default warm-up: sub-benchmark "simd" in the best lane of this
// build and CPU (skipped when that is scalar), "scalar" in the scalar lane,
// in the same run.
func benchSystem(b *testing.B, kernel func(s *Sim) (func(w, c int), int)) {
	for _, sub := range []struct {
		name string
		lane tickwork.Lane
	}{{"simd", tickwork.BestLane()}, {"scalar", tickwork.LaneScalar}} {
		b.Run(sub.name, func(b *testing.B) {
			if sub.name == "simd" && sub.lane == tickwork.LaneScalar {
				b.Skip("no SIMD lane in this build or on this CPU (build with GOEXPERIMENT=simd on amd64)")
			}
			cfg := rules.DefaultConfig()
			cfg.Lane = sub.lane.String()
			// Without indexes: a kernel run here is not followed by the
			// index syncs of a frame, so IntegrateBodies' fused marks
			// would test each body against a cell filed many passes ago;
			// the marks' cost is BenchmarkFrameIndexes'.
			s := warmSim(b, cfg, nil, tickwork.WithoutIndexes())
			k, chunks := kernel(s)
			b.ReportAllocs()
			for b.Loop() {
				for c := range chunks {
					k(0, c)
				}
			}
		})
	}
}

// BenchmarkIntegrateBodies: the generated IntegrateBodies over 100 000
// units (the Body table's chunks): its SIMD variant (simd) and its scalar
// loop (scalar).
func BenchmarkIntegrateBodies(b *testing.B) {
	benchSystem(b, func(s *Sim) (func(w, c int), int) {
		k := s.sys.IntegrateBodies
		k.dt32 = rules.DT
		return chunkOf(s.t.Body.Table, k.simd, k, (*IntegrateBodies).span), s.t.Body.Table.Chunks()
	})
}

// chunkOf is a generated dense kernel's run of one chunk, as
// tickwork.ChunkKernel makes it: the lane's SIMD variant (when not nil) on
// the whole vectors of rows 0..LiveEnd, span on the rest.
func chunkOf[S any](t *tickwork.Table, simd func(*S, int, int) int, k *S, span func(*S, int, int)) func(w, c int) {
	rows := t.ChunkRows()
	return func(_, c int) {
		lo := c * rows
		hi := lo + t.LiveEnd(c)
		if simd != nil {
			lo = simd(k, lo, hi)
		}
		span(k, lo, hi)
	}
}

// BenchmarkPresentationSync: 100 000 slots (the Unit table's chunks).
func BenchmarkPresentationSync(b *testing.B) {
	benchSystem(b, func(s *Sim) (func(w, c int), int) {
		k := s.presentKernel(*s.pres.Get())
		return k.chunk, s.t.Unit.Table.Chunks()
	})
}

// BenchmarkIntegrateProjectiles: the generated IntegrateProjectiles over
// the steady projectile population of the default config (about S*TTL =
// 24 576 rows): its SIMD variant (simd) and its scalar loop (scalar).
func BenchmarkIntegrateProjectiles(b *testing.B) {
	benchSystem(b, func(s *Sim) (func(w, c int), int) {
		k := s.sys.IntegrateProjectiles
		k.dt32 = rules.DT
		return chunkOf(s.t.Projectile.Table, k.simd, k, (*IntegrateProjectiles).span), s.t.Projectile.Table.Chunks()
	})
}

// BenchmarkCollision runs the arena's frames (default config, 100 000
// units, one worker, after the default warm-up) with Collision in the
// best lane of this build and CPU (simd, skipped when that is scalar) and
// in the scalar lane (scalar), the other systems in the scalar lane; both
// lanes compute the same bits, so the same frames do the same work. Its
// metrics are Collision's own wall time per frame from the frame reports,
// 10th percentile and median (Collision-p10-ns, Collision-p50-ns): the
// kernel alone; ns/op is the whole frame.
func BenchmarkCollision(b *testing.B) {
	for _, sub := range []struct {
		name string
		lane tickwork.Lane
	}{{"simd", tickwork.BestLane()}, {"scalar", tickwork.LaneScalar}} {
		b.Run(sub.name, func(b *testing.B) {
			if sub.name == "simd" && sub.lane == tickwork.LaneScalar {
				b.Skip("no SIMD lane in this build or on this CPU (build with GOEXPERIMENT=simd on amd64)")
			}
			cfg := rules.DefaultConfig()
			cfg.Workers, cfg.Lane = 1, sub.lane.String()
			// Without indexes: a kernel run here is not followed by the
			// index syncs of a frame, so IntegrateBodies' fused marks
			// would test each body against a cell filed many passes ago;
			// the marks' cost is BenchmarkFrameIndexes'.
			s := warmSim(b, cfg, nil, tickwork.WithoutIndexes())
			times := make([]time.Duration, 0, 1<<16) // per frame, made before the loop
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Frame(); err != nil {
					b.Fatal(err)
				}
				if len(times) < cap(times) {
					times = append(times, s.World().Report().System("Collision").Total)
				}
			}
			reportQuantiles(b, times, "Collision-")
		})
	}
}

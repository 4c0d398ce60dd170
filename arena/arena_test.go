package arena_test

import (
	"errors"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
)

// availableLanes are the lanes this build and CPU run, by name: "scalar"
// always, "avx2" and "avx512" in a GOEXPERIMENT=simd build on a CPU that
// has them (make test runs the arena's tests in both builds).
func availableLanes() []string {
	var names []string
	for _, l := range []tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512} {
		if _, err := tickwork.SelectLane(l); err == nil {
			names = append(names, l.String())
		}
	}
	return names
}

// run runs sim for frames frames and returns its digest and counters.
func run(t testing.TB, sim rules.Sim, frames int) (uint64, rules.Counters) {
	t.Helper()
	for range frames {
		require.NoError(t, sim.Frame())
	}
	c := sim.Counters()
	return rules.Digest(sim.Presentation(), sim.Frames(), c, sim.ProjectileChecksum()), c
}

func TestSameDigestAsBaseline(t *testing.T) {
	cases := []struct {
		name   string
		cfg    rules.Config
		frames int
	}{
		{"1000x200", rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200},
		{"1000x200-256shots", rules.Config{Units: 1000, Shots: 256, Seed: 7}, 200},
		{"10000x100", rules.Config{Units: 10000, Shots: 256, Seed: 42}, 100},
		{"200x300-dense", rules.Config{Units: 200, Shots: 128, Seed: 3}, 300},
		{"2-units", rules.Config{Units: 2, Shots: 8, Seed: 1}, 50},
		{"no-shots", rules.Config{Units: 500, Shots: 0, Seed: 9}, 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, err := soa.New(tc.cfg)
			require.NoError(t, err)
			want, wantC := run(t, base, tc.frames)
			for _, lane := range availableLanes() {
				for _, workers := range []int{1, 2, 4} {
					cfg := tc.cfg
					cfg.Workers, cfg.Lane = workers, lane
					sim, err := arena.New(cfg)
					require.NoError(t, err)
					got, gotC := run(t, sim, tc.frames)
					require.NoError(t, sim.Close())
					assert.Equal(t, wantC, gotC, "lane %s, workers %d: counters", lane, workers)
					assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(got), "lane %s, workers %d: digest", lane, workers)
					assert.Equal(t, gotC.ShotsFired, gotC.Hits+gotC.Lost+gotC.Expired+gotC.LiveProjectiles, "counter invariant")
				}
			}
		})
	}
}

// TestGolden pins the runtime arena's digest for a small configuration, in
// every lane this build runs; the value is the baseline's (arena/soa
// TestGolden) and must never change unless the rules do.
func TestGolden(t *testing.T) {
	for _, lane := range availableLanes() {
		t.Run(lane, func(t *testing.T) {
			sim, err := arena.New(rules.Config{Units: 1000, Shots: 64, Seed: 42, Lane: lane})
			require.NoError(t, err)
			defer sim.Close()
			assert.Equal(t, lane, sim.Lane().String())
			d, c := run(t, sim, 200)
			assert.Equal(t, "fe9494823c44d61e", rules.FormatDigest(d))
			assert.Equal(t, rules.Counters{ShotsFired: 12788, Hits: 104, Deaths: 35, Lost: 198, Expired: 6387, LiveProjectiles: 6099}, c)
		})
	}
}

// TestPresentationSameInEveryLane: after every frame the whole
// presentation buffer (Health and dead slots' stale values included, which
// the digest does not cover) and the live projectiles are the same in every
// lane.
func TestPresentationSameInEveryLane(t *testing.T) {
	cfg := rules.Config{Units: 3000, Shots: 256, Seed: 5}
	var sims []*arena.Sim
	for _, lane := range availableLanes() {
		c := cfg
		c.Lane = lane
		sim, err := arena.New(c)
		require.NoError(t, err)
		defer sim.Close()
		sims = append(sims, sim)
	}
	if len(sims) < 2 {
		t.Skip("one lane in this build (run with GOEXPERIMENT=simd on an AVX2 CPU)")
	}
	for frame := range 150 {
		for _, sim := range sims {
			require.NoError(t, sim.Frame())
		}
		for _, sim := range sims[1:] {
			arena.RequireSamePresentation(t, sims[0].Presentation(), sim.Presentation(), "frame ", frame, ", lane ", sim.Lane())
			require.Equal(t, sims[0].Projectiles(nil), sim.Projectiles(nil), "frame %d, lane %s", frame, sim.Lane())
		}
	}
}

// TestLaneChoice: the world picks the best lane unless told, refuses a lane
// it cannot run with a typed error, and the frame report and SystemTimes
// say which lane the streaming systems ran.
func TestLaneChoice(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 100, Shots: 8, Seed: 1})
	require.NoError(t, err)
	defer sim.Close()
	assert.Equal(t, tickwork.BestLane(), sim.Lane())
	best := tickwork.BestLane().String()
	// The generated systems are plain Go ("scalar"), but the integrations
	// and Collision run in the lane (the lanes path in a SIMD lane:
	// SIMD variants, Collision's scan); the hand-written systems other
	// than PresentationSync do not say.
	want := map[string]string{"IntegrateBodies": best, "IntegrateProjectiles": best, "PresentationSync": best,
		"Collision": best, "ApplyHits": "scalar", "Clock": "scalar"}
	check := func(when string) {
		for _, st := range sim.SystemTimes(nil) {
			assert.Equal(t, want[st.Name], st.Lane, "%s: SystemTimes lane of %s", when, st.Name)
		}
	}
	check("before the first frame")
	require.NoError(t, sim.Frame())
	check("after a frame")
	for name, lane := range want {
		assert.Equal(t, lane, sim.World().Report().System(name).Lane, "report lane of %s", name)
	}

	_, err = arena.New(rules.Config{Units: 100, Lane: "neon"})
	assert.ErrorIs(t, err, arena.ErrUnknownLane)
	assert.EqualError(t, err, `arena: unknown lane "neon" (want scalar, avx2 or avx512)`)
	for _, l := range []tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512} {
		sim, err := arena.New(rules.Config{Units: 100, Lane: strings.ToUpper(l.String())}) // any case
		if _, unavailable := tickwork.SelectLane(l); unavailable == nil {
			require.NoError(t, err)
			assert.Equal(t, l, sim.Lane())
			require.NoError(t, sim.Close())
		} else {
			// New returns SelectLane's error (errors.Is tickwork.ErrLaneUnavailable).
			assert.EqualError(t, err, unavailable.Error(), "lane %s", l)
		}
	}
}

func TestEveryOutcomeHappens(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 1000, Shots: 64, Seed: 42})
	require.NoError(t, err)
	defer sim.Close()
	_, c := run(t, sim, 200)
	// Units killed in a frame show as dead in that frame's presentation
	// (Respawn brings them back from the next frame on); all others alive.
	checked := 0
	for range 300 {
		before := sim.Counters().Deaths
		require.NoError(t, sim.Frame())
		died := sim.Counters().Deaths - before
		alive := 0
		for _, s := range sim.Presentation() {
			alive += int(s.Alive)
		}
		assert.Equal(t, 1000-int(died), alive)
		if died > 0 {
			checked++
		}
	}
	assert.Positive(t, checked, "some frame had deaths")
	c = sim.Counters()
	assert.Positive(t, c.Hits)
	assert.Positive(t, c.Deaths)
	assert.Positive(t, c.Lost)
	assert.Positive(t, c.Expired)
	assert.Positive(t, c.LiveProjectiles)
	got := sim.Projectiles(nil)
	assert.Len(t, got, 2*int(c.LiveProjectiles))
}

func TestFrameAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		sim, err := arena.New(rules.Config{Units: 5000, Shots: 256, Seed: 42, Workers: workers})
		require.NoError(t, err)
		run(t, sim, 150) // warm-up: projectiles reach their steady count, buffers their size
		var times []rules.SystemTime
		allocs := testing.AllocsPerRun(100, func() {
			if err := sim.Frame(); err != nil {
				t.Fatal(err)
			}
			times = sim.SystemTimes(times[:0])
		})
		assert.Zero(t, allocs, "workers %d", workers)
		assert.Len(t, times, 9)
		require.NoError(t, sim.Close())
	}
}

func TestSystemOrder(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 10, Shots: 1, Seed: 1})
	require.NoError(t, err)
	defer sim.Close()
	names := []string{}
	for _, st := range sim.SystemTimes(nil) {
		names = append(names, st.Name)
	}
	assert.Equal(t, []string{"ResolveRespawns", "ApplyHits", "Fire", "Collision", "IntegrateBodies",
		"IntegrateProjectiles", "Clock", "PresentationSync", "Respawn"}, names)
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []rules.Config{{Units: 0}, {Units: 10, Shots: -1}, {Units: 10, Workers: -2}} {
		_, err := arena.New(cfg)
		assert.True(t, errors.Is(err, rules.ErrBadConfig), "%+v: %v", cfg, err)
	}
}

// BenchmarkFrame compares one arena frame on the runtime against the
// hand-written baseline, at 100 000 units after the default warm-up.
func BenchmarkFrame(b *testing.B) {
	cfg := rules.DefaultConfig()
	for _, impl := range []struct {
		name string
		new  func(rules.Config) (rules.Sim, error)
	}{
		{"tickwork", func(c rules.Config) (rules.Sim, error) { return arena.New(c) }},
		{"soa", func(c rules.Config) (rules.Sim, error) { return soa.New(c) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			sim, err := impl.new(cfg)
			require.NoError(b, err)
			defer sim.Close()
			run(b, sim, rules.DefaultWarmup)
			b.ReportAllocs()
			for b.Loop() {
				if err := sim.Frame(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSteadyStateAllocatesZeroBytes counts bytes, not just allocations per
// run (testing.AllocsPerRun rounds down): after the default warm-up (120
// frames), 600 frames allocate nothing at all at 1, 2, 4 and 8 workers.
// Helpers that park on a channel (idle longer than kernels.SpinFor) make
// the Go runtime take sudogs from its caches; the pool fills them when it
// is made (package kernels, "Allocation"), where it once took 5 000 frames
// of warm-up at two workers for them to fill (docs/benchmarks.md,
// "Kernels").
func TestSteadyStateAllocatesZeroBytes(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 8} {
		if workers > 2 && raceEnabled {
			continue // slow under the race detector; the plain run checks them
		}
		// No GC from the pool's making on (see below): as in a frame loop
		// that allocates nothing, which sees only the runtime's forced GC.
		goruntime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		sim, err := arena.New(rules.Config{Units: 20000, Shots: 256, Seed: 42, Workers: workers})
		require.NoError(t, err)
		var times []rules.SystemTime
		for range rules.DefaultWarmup {
			require.NoError(t, sim.Frame())
			times = sim.SystemTimes(times[:0])
		}
		// The count is the process's. The Go runtime allocates an M (a few
		// KB) when it starts an OS thread, e.g. while the test binary
		// shares the CPU with others (a CI run saw 5 576 B in one 1-worker
		// window that way). So steady state is that some window of 600
		// frames allocates nothing, out of 3 in a row (allockit.Heap): a
		// per-frame allocation of Tickwork's would show in every window.
		// A GC empties the runtime's central sudog cache, which the pool
		// filled when it was made (package kernels, "Allocation"); after
		// one, parking helpers allocate a sudog (112 B) now and then:
		// with GC on, this test saw 224 B in every window at 4 workers in
		// 1 of 20 runs in one process.
		got := allockit.Heap(allockit.DefaultTries, func() {
			for range 600 {
				if err := sim.Frame(); err != nil {
					t.Fatal(err)
				}
				times = sim.SystemTimes(times[:0])
			}
		})
		assert.Zero(t, got.Bytes, "workers %d: bytes allocated by 600 frames after the default warm-up (cleanest of %d windows, %d objects)", workers, allockit.DefaultTries, got.Objects)
		assert.Zero(t, got.GCs, "workers %d: GC cycles", workers)
		require.NoError(t, sim.Close())
	}
}

// TestSchemaConstants: the constants arena.tw declares are the rules'.
func TestSchemaConstants(t *testing.T) {
	assert.Equal(t, rules.W, arena.W)
	assert.Equal(t, rules.R2, arena.R2)
	assert.Equal(t, rules.Health, arena.Health)
	assert.Equal(t, rules.TTL, arena.TTL)
}

// TestCountersInFrameReport: the rules' counters are the systems'
// counters, each frame's in the frame report: summed over every frame they
// are Sim.Counters, with one worker and two, and the last frame's values
// are what the totals grew by in it.
func TestCountersInFrameReport(t *testing.T) {
	for _, workers := range []int{1, 2} {
		sim, err := arena.New(rules.Config{Units: 1000, Shots: 64, Seed: 42, Workers: workers})
		require.NoError(t, err)
		var sum rules.Counters
		for range 200 {
			before := sim.Counters()
			require.NoError(t, sim.Frame())
			r := sim.World().Report()
			get := func(system, name string) int64 {
				v, ok := r.Counter(system, name)
				require.True(t, ok, "%s has no counter %s", system, name)
				return v
			}
			frame := rules.Counters{ShotsFired: get("Fire", "shots"), Hits: get("Collision", "hits"),
				Deaths: get("ApplyHits", "deaths"), Lost: get("Collision", "lost"), Expired: get("Collision", "expired")}
			after := sim.Counters()
			assert.Equal(t, rules.Counters{ShotsFired: after.ShotsFired - before.ShotsFired, Hits: after.Hits - before.Hits,
				Deaths: after.Deaths - before.Deaths, Lost: after.Lost - before.Lost, Expired: after.Expired - before.Expired}, frame)
			sum.ShotsFired += frame.ShotsFired
			sum.Hits += frame.Hits
			sum.Deaths += frame.Deaths
			sum.Lost += frame.Lost
			sum.Expired += frame.Expired
		}
		sum.LiveProjectiles = 6099
		assert.Equal(t, rules.Counters{ShotsFired: 12788, Hits: 104, Deaths: 35, Lost: 198, Expired: 6387, LiveProjectiles: 6099}, sum, "workers %d", workers)
		require.NoError(t, sim.Close())
	}
}

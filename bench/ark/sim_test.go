package ark_test

import (
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/bench/ark"
)

// run runs sim for frames frames and returns its digest as arena-headless
// computes it.
func run(t testing.TB, sim rules.Sim, frames int) uint64 {
	t.Helper()
	for range frames {
		require.NoError(t, sim.Frame())
	}
	return rules.Digest(sim.Presentation(), sim.Frames(), sim.Counters(), sim.ProjectileChecksum())
}

func newArk(t testing.TB, cfg rules.Config) *ark.Sim {
	t.Helper()
	s, err := ark.New(cfg)
	require.NoError(t, err)
	return s
}

func newSoA(t testing.TB, cfg rules.Config) *soa.Sim {
	t.Helper()
	s, err := soa.New(cfg)
	require.NoError(t, err)
	return s
}

// TestSameDigestAsBaseline: Ark's arena ends in soa's digest and counters,
// from tiny, dense rosters (shooter == target, stale targets, deaths every
// frame) to 1000 units at 200 frames.
func TestSameDigestAsBaseline(t *testing.T) {
	for _, tt := range []struct {
		cfg    rules.Config
		frames int
	}{
		{rules.Config{Units: 1, Shots: 4, Seed: 1}, 20},
		{rules.Config{Units: 2, Shots: 64, Seed: 1}, 200},
		{rules.Config{Units: 10, Shots: 0, Seed: 3}, 50},
		{rules.Config{Units: 40, Shots: 256, Seed: 5}, 160},
		{rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200},
		{rules.Config{Units: 1000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed}, 200},
	} {
		t.Run(fmt.Sprintf("N%d_S%d_seed%d", tt.cfg.Units, tt.cfg.Shots, tt.cfg.Seed), func(t *testing.T) {
			a, b := newArk(t, tt.cfg), newSoA(t, tt.cfg)
			// Frame by frame, so a divergence names its frame.
			for f := range tt.frames {
				da, db := run(t, a, 1), run(t, b, 1)
				require.Equalf(t, b.Counters(), a.Counters(), "counters after frame %d", f)
				require.Equalf(t, db, da, "digest after frame %d", f)
			}
			c := a.Counters()
			assert.Equal(t, c.ShotsFired, c.Hits+c.Lost+c.Expired+c.LiveProjectiles)
		})
	}
}

// TestSameDigestAsRuntime: Ark, soa and the runtime's arena (1 worker)
// agree at 1000 units and 200 frames.
func TestSameDigestAsRuntime(t *testing.T) {
	cfg := rules.Config{Units: 1000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: 1}
	rt, err := arena.New(cfg)
	require.NoError(t, err)
	defer rt.Close()
	want := run(t, rt, 200)
	assert.Equal(t, want, run(t, newArk(t, cfg), 200))
	assert.Equal(t, want, run(t, newSoA(t, cfg), 200))
}

// TestDefaultConfigDigest: at the default config (100 000 units, 720
// frames) Ark's digest is soa's, which is the golden of the default
// config (docs/benchmarks.md). Skipped under -short.
func TestDefaultConfigDigest(t *testing.T) {
	if testing.Short() {
		t.Skip("100 000 units for 720 frames: skipped with -short")
	}
	cfg := rules.DefaultConfig()
	frames := rules.DefaultWarmup + rules.DefaultFrames
	a := newArk(t, cfg)
	got := run(t, a, frames)
	assert.Equal(t, run(t, newSoA(t, cfg), frames), got)
	assert.Equal(t, "9f22501ea555e752", rules.FormatDigest(got))
}

// TestSteadyStateAllocatesZeroBytes: after the default warm-up (the
// projectile count is steady after TTL+1 frames) a frame allocates
// nothing. Bytes are counted over 200 frames: a real per-frame allocation
// (at least 8 bytes) would add up to at least 1600, while a one-off of the
// Go runtime's own (a few hundred bytes at most) stays below the bound.
func TestSteadyStateAllocatesZeroBytes(t *testing.T) {
	const frames = 200
	s := newArk(t, rules.Config{Units: 10000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed})
	run(t, s, rules.DefaultWarmup)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	for range frames {
		if err := s.Frame(); err != nil {
			t.Fatal(err)
		}
	}
	goruntime.ReadMemStats(&after)
	bytes := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, bytes, uint64(8*frames), "bytes allocated over %d frames", frames)
	t.Logf("%d B over %d frames (%d objects)", bytes, frames, after.Mallocs-before.Mallocs)
}

// TestNewRejectsBadConfig: a bad config is a typed error, not a panic.
func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []rules.Config{{Units: 0, Shots: 1}, {Units: 10, Shots: -1}, {Units: rules.MaxUnits + 1}} {
		_, err := ark.New(cfg)
		assert.ErrorIs(t, err, rules.ErrBadConfig, "%+v", cfg)
		var ce *rules.ConfigError
		assert.ErrorAs(t, err, &ce)
	}
}

package arenagen_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/internal/chunkorder"
)

// baseline runs the hand-written struct-of-arrays arena.
func baseline(t *testing.T, cfg rules.Config, frames int) (uint64, rules.Counters) {
	t.Helper()
	sim, err := soa.New(cfg)
	require.NoError(t, err)
	for range frames {
		require.NoError(t, sim.Frame())
	}
	c := sim.Counters()
	return rules.Digest(sim.Presentation(), sim.Frames(), c, sim.ProjectileChecksum()), c
}

func runGen(t *testing.T, cfg rules.Config, frames int) (uint64, rules.Counters) {
	t.Helper()
	sim, err := newGenSim(cfg)
	require.NoError(t, err)
	defer sim.world.Close()
	for range frames {
		require.NoError(t, sim.frame())
	}
	return sim.digest(), sim.counters()
}

// TestSameDigestAsBaseline: the arena with its five declared systems
// generated from arena.tw reaches the baseline's digest and counters, for
// 1, 2 and 4 workers and under reversed and shuffled chunk dealing: the
// generated kernels keep today's semantics to the bit.
func TestSameDigestAsBaseline(t *testing.T) {
	cases := []struct {
		name   string
		cfg    rules.Config
		frames int
	}{
		{"1000x200", rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200},
		{"10000x100", rules.Config{Units: 10000, Shots: 256, Seed: 42}, 100},
		{"200x300-dense", rules.Config{Units: 200, Shots: 128, Seed: 3}, 300},
		{"2-units", rules.Config{Units: 2, Shots: 8, Seed: 1}, 50},
	}
	for _, tc := range cases {
		want, wantC := baseline(t, tc.cfg, tc.frames)
		for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
			for _, workers := range []int{1, 2, 4} {
				t.Run(fmt.Sprintf("%s/%v/workers=%d", tc.name, o, workers), func(t *testing.T) {
					if !o.IsSpan() && workers == 1 {
						t.Skip("one worker deals every chunk to itself")
					}
					cfg := tc.cfg
					cfg.Workers = workers
					restore := chunkorder.Set(o)
					defer restore()
					got, gotC := runGen(t, cfg, tc.frames)
					assert.Equal(t, wantC, gotC, "counters")
					assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(got), "digest")
				})
			}
		}
	}
}

// TestGolden: the golden digest of package arena's TestGolden.
func TestGolden(t *testing.T) {
	d, c := runGen(t, rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200)
	assert.Equal(t, "fe9494823c44d61e", rules.FormatDigest(d))
	assert.Equal(t, rules.Counters{ShotsFired: 12788, Hits: 104, Deaths: 35, Lost: 198, Expired: 6387, LiveProjectiles: 6099}, c)
}

// TestAllocatesNothing: after warm-up a frame allocates nothing.
func TestAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		sim, err := newGenSim(rules.Config{Units: 1000, Shots: 64, Seed: 42, Workers: workers})
		require.NoError(t, err)
		for range 150 {
			require.NoError(t, sim.frame())
		}
		allocs := testing.AllocsPerRun(50, func() {
			if err := sim.frame(); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "workers %d", workers)
		require.NoError(t, sim.world.Close())
	}
}

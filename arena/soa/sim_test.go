package soa_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// run builds a Sim for cfg and runs it for frames frames.
func run(t testing.TB, cfg rules.Config, frames int) *soa.Sim {
	t.Helper()
	s, err := soa.New(cfg)
	require.NoError(t, err)
	for range frames {
		require.NoError(t, s.Frame())
	}
	return s
}

func digest(s rules.Sim) uint64 {
	return rules.Digest(s.Presentation(), s.Frames(), s.Counters(), s.ProjectileChecksum())
}

func checkInvariant(t *testing.T, c rules.Counters) {
	t.Helper()
	assert.Equalf(t, c.ShotsFired, c.Hits+c.Lost+c.Expired+c.LiveProjectiles,
		"shots_fired != hits+lost+expired+live_projectiles; counters %+v", c)
}

// skipLongInShort skips configs of more than 2000 units under -short (they
// take seconds under -race).
func skipLongInShort(t *testing.T, cfg rules.Config) {
	t.Helper()
	if testing.Short() && cfg.Units > 2000 {
		t.Skipf("%d units: long test, skipped with -short", cfg.Units)
	}
}

func TestDeterministic(t *testing.T) {
	cfg := rules.Config{Units: 2000, Shots: 128, Seed: 7}
	a := run(t, cfg, 150)
	b := run(t, cfg, 150)
	assert.Equal(t, digest(a), digest(b))
	assert.Equal(t, a.Counters(), b.Counters())
	other := run(t, rules.Config{Units: 2000, Shots: 128, Seed: 8}, 150)
	assert.NotEqual(t, digest(a), digest(other), "different seeds, same digest")
}

// TestMatchesReference compares the baseline with the line-by-line model of
// sim_reference_test.go, frame by frame.
func TestMatchesReference(t *testing.T) {
	tests := []struct {
		cfg    rules.Config
		frames int
	}{ // configs with more than 2000 units are skipped with -short
		{rules.Config{Units: 1, Shots: 4, Seed: 1}, 20},
		{rules.Config{Units: 2, Shots: 64, Seed: 1}, 200},
		{rules.Config{Units: 10, Shots: 0, Seed: 3}, 50},
		{rules.Config{Units: 40, Shots: 256, Seed: 5}, 160}, // dense: many deaths and lost shots
		{rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200},
		{rules.Config{Units: 5000, Shots: 256, Seed: 9}, 150},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("N%d_S%d_seed%d", tt.cfg.Units, tt.cfg.Shots, tt.cfg.Seed), func(t *testing.T) {
			skipLongInShort(t, tt.cfg)
			s, err := soa.New(tt.cfg)
			require.NoError(t, err)
			ref := newRef(tt.cfg)
			for f := range tt.frames {
				require.NoError(t, s.Frame())
				ref.frame()
				require.Equalf(t, ref.c, s.Counters(), "counters after frame %d", f)
				require.Equalf(t, ref.digest(), digest(s), "digest after frame %d", f)
			}
			checkInvariant(t, s.Counters())
		})
	}
}

func TestCounterInvariant(t *testing.T) {
	for _, cfg := range []rules.Config{
		{Units: 1, Shots: 0, Seed: 1},
		{Units: 1, Shots: 16, Seed: 1},
		{Units: 3, Shots: 300, Seed: 2},
		{Units: 100, Shots: 400, Seed: 3},
		{Units: 1000, Shots: 64, Seed: 42},
		{Units: 20000, Shots: 256, Seed: 4},
	} {
		t.Run(fmt.Sprintf("N%d_S%d", cfg.Units, cfg.Shots), func(t *testing.T) {
			skipLongInShort(t, cfg)
			s, err := soa.New(cfg)
			require.NoError(t, err)
			for range 250 {
				require.NoError(t, s.Frame())
				checkInvariant(t, s.Counters())
			}
		})
	}
}

// TestEveryOutcomeHappens checks that the small golden config exercises every
// arm of the rules, with real values.
func TestEveryOutcomeHappens(t *testing.T) {
	s := run(t, rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200)
	c := s.Counters()
	assert.Positive(t, c.ShotsFired)
	assert.Positive(t, c.Hits)
	assert.Positive(t, c.Deaths)
	assert.Positive(t, c.Lost)
	assert.Positive(t, c.Expired)
	assert.Positive(t, c.LiveProjectiles)
	assert.LessOrEqual(t, c.Deaths, c.Hits, "every death takes at least one hit")
	// 200 ticks of at most 64 shots, and at most 64*(TTL+1) live at once.
	assert.LessOrEqual(t, c.ShotsFired, int64(200*64))
	assert.LessOrEqual(t, c.LiveProjectiles, int64(64*(rules.TTL+1)))

	pres := s.Presentation()
	require.Len(t, pres, 1000)
	alive := 0
	for _, p := range pres {
		if p.Alive == 1 {
			alive++
			assert.True(t, p.X >= 0 && p.X <= rules.W && p.Y >= 0 && p.Y <= rules.W, "unit at (%v, %v) outside the arena", p.X, p.Y)
			assert.True(t, p.Health > 0 && p.Health <= rules.Health, "live unit with health %d", p.Health)
		}
	}
	assert.Greater(t, alive, 900, "live units")
	assert.Len(t, s.Projectiles(nil), int(2*c.LiveProjectiles))
	assert.Equal(t, int64(200), s.Frames())
}

func TestDeadShowInPresentation(t *testing.T) {
	// A unit killed in frame t is alive=0 in frame t's presentation and alive
	// again (respawned) in frame t+1's.
	s, err := soa.New(rules.Config{Units: 1000, Shots: 64, Seed: 42})
	require.NoError(t, err)
	for f := 0; f < 400; f++ {
		before := s.Counters().Deaths
		require.NoError(t, s.Frame())
		died := s.Counters().Deaths - before
		if died == 0 {
			continue
		}
		var deadSlots []int
		for i, p := range s.Presentation() {
			if p.Alive == 0 {
				deadSlots = append(deadSlots, i)
			}
		}
		require.Len(t, deadSlots, int(died), "dead slots after frame %d", f)
		require.NoError(t, s.Frame())
		for _, i := range deadSlots {
			p := s.Presentation()[i]
			assert.Equalf(t, uint8(1), p.Alive, "slot %d a frame after its death", i)
		}
		return
	}
	t.Fatal("no unit died in 400 frames")
}

func TestNoAllocationPerFrame(t *testing.T) {
	for _, cfg := range []rules.Config{
		{Units: 1000, Shots: 64, Seed: 42},
		{Units: 50, Shots: 500, Seed: 1}, // many hits and deaths per frame
	} {
		s := run(t, cfg, 120)
		allocs := testing.AllocsPerRun(100, func() {
			if err := s.Frame(); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zerof(t, allocs, "allocations per Frame, config %+v", cfg)
	}
}

// TestProjectileBound checks that the live projectiles reach, and never pass,
// S*(TTL+1), the capacity New preallocates: with many units and few shots
// nearly every shot fires and nearly none hits.
func TestProjectileBound(t *testing.T) {
	const shots = 2
	s, err := soa.New(rules.Config{Units: 20000, Shots: shots, Seed: 1})
	require.NoError(t, err)
	var most int64
	for range 150 {
		require.NoError(t, s.Frame())
		most = max(most, s.Counters().LiveProjectiles)
	}
	assert.Equal(t, int64(shots*(rules.TTL+1)), most, "most live projectiles")
}

func TestSystemTimes(t *testing.T) {
	s := run(t, rules.Config{Units: 100, Shots: 8, Seed: 1}, 3)
	st := s.SystemTimes(nil)
	names := make([]string, len(st))
	for i, x := range st {
		names[i] = x.Name
		assert.GreaterOrEqual(t, x.Nanos, int64(0))
	}
	assert.Equal(t, []string{"ResolveRespawns", "ApplyHits", "Fire", "Collision", "IntegrateBodies",
		"IntegrateProjectiles", "Clock", "PresentationSync", "Respawn"}, names)
	allocs := testing.AllocsPerRun(10, func() { st = s.SystemTimes(st[:0]) })
	assert.Zero(t, allocs)
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []rules.Config{{Units: 0}, {Units: 1, Shots: -1}, {Units: 1, Workers: -1}} {
		_, err := soa.New(cfg)
		assert.ErrorIsf(t, err, rules.ErrBadConfig, "New(%+v)", cfg)
	}
}

func TestName(t *testing.T) {
	s := run(t, rules.Config{Units: 1}, 0)
	assert.Equal(t, "soa", s.Name())
	assert.NoError(t, s.Close())
}

// Golden digests, recorded once from this package and cross-checked against
// the reference model of sim_reference_test.go (the small one frame by frame in
// TestMatchesReference). Regenerate with
//
//	go test ./arena/soa -run TestGolden -v
//
// which prints the digests it got; change them only with a change of the rules.
func TestGolden(t *testing.T) {
	tests := []struct {
		name   string
		cfg    rules.Config
		frames int
		want   string
		c      rules.Counters
	}{
		{"small", rules.Config{Units: 1000, Shots: 64, Seed: 42}, 200, "fe9494823c44d61e",
			rules.Counters{ShotsFired: 12788, Hits: 104, Deaths: 35, Lost: 198, Expired: 6387, LiveProjectiles: 6099}},
		{"default", rules.DefaultConfig(), rules.DefaultWarmup + rules.DefaultFrames, "9f22501ea555e752",
			rules.Counters{ShotsFired: 184315, Hits: 2062, Deaths: 702, Lost: 169, Expired: 157414, LiveProjectiles: 24670}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.name == "default" {
				t.Skip("default config takes about a second")
			}
			s := run(t, tt.cfg, tt.frames)
			got := rules.FormatDigest(digest(s))
			t.Logf("%s: digest %s counters %+v", tt.name, got, s.Counters())
			assert.Equal(t, tt.want, got, "digest")
			assert.Equal(t, tt.c, s.Counters(), "counters")
		})
	}
}

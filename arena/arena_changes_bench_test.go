package arena

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// changeWatch is a LateUpdate system that reads the changes of Body.X
// and Unit.Health since its last run (tickwork.Changed), chunk by chunk:
// what a frame with change detection on the arena's columns adds.
type changeWatch struct{ chunks, units int }

func newChangeWatchedSim(cfg rules.Config) (*Sim, *changeWatch, error) {
	cw := &changeWatch{}
	s, err := newSimWith(cfg, nil, func(s *Sim, b *tickwork.Builder) {
		b.System("WatchChanges", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
			x, hp := tickwork.Changed(d, s.t.Body.X), tickwork.Changed(d, s.t.Unit.Health)
			return func(*tickwork.Context) {
				for range x.Chunks() {
					cw.chunks++
				}
				for c := range hp.Chunks() {
					cw.units += s.t.Unit.Table.ChunkLen(c)
				}
			}
		})
	})
	return s, cw, err
}

// The change readers change nothing in the simulation (same presentation
// and counters as New), see Body.X change in every chunk of bodies each
// frame (IntegrateBodies writes it) and allocate nothing.
func TestChangeWatchedArenaMatches(t *testing.T) {
	cfg := rules.Config{Units: 3000, Shots: 256, Seed: 9, Workers: 2}
	plain, err := New(cfg)
	require.NoError(t, err)
	defer plain.Close()
	s, cw, err := newChangeWatchedSim(cfg)
	require.NoError(t, err)
	defer s.Close()
	for range 100 {
		require.NoError(t, plain.Frame())
		require.NoError(t, s.Frame())
	}
	requireSamePresentation(t, plain.Presentation(), s.Presentation())
	require.Equal(t, plain.Counters(), s.Counters())
	before := cw.chunks
	require.NoError(t, s.Frame())
	assert.Equal(t, s.t.Body.Table.UsedChunks(), cw.chunks-before, "Body.X chunks changed in one frame")
	assert.NotZero(t, cw.units)
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = s.Frame() }))
}

// changeSims are BenchmarkFrameChanges's two worlds, built and warmed up
// once per process, so that with -count the sub-benchmarks alternate on
// the same two worlds (a machine's drift then touches both alike).
var changeSims = map[bool]*Sim{}

func changeSim(b *testing.B, watched bool) *Sim {
	if s := changeSims[watched]; s != nil {
		return s
	}
	cfg := rules.DefaultConfig()
	var s *Sim
	var err error
	if watched {
		s, _, err = newChangeWatchedSim(cfg)
	} else {
		s, err = New(cfg)
	}
	require.NoError(b, err)
	for range rules.DefaultWarmup {
		require.NoError(b, s.Frame())
	}
	changeSims[watched] = s
	return s
}

// changeRounds is how many times BenchmarkFrameChanges runs its pair of
// sub-benchmarks in one process, alternating (Go's -count repeats each
// sub-benchmark in a row, so a machine's drift would favour one).
var changeRounds = flag.Int("changes.rounds", 1, "BenchmarkFrameChanges: rounds of its two sub-benchmarks, alternating")

// BenchmarkFrameChanges is the cost of change detection in the arena
// frame: one frame at 100 000 units after the default warm-up, with a
// LateUpdate reader of the changes of Body.X and Unit.Health (tickwork:
// their writers bump the chunks after each run) against the arena
// without readers (off), in one run; -changes.rounds=N runs the pair N
// times, alternating (docs/benchmarks.md, Change detection).
func BenchmarkFrameChanges(b *testing.B) {
	for range *changeRounds {
		frameChangesRound(b)
	}
}

func frameChangesRound(b *testing.B) {
	for _, impl := range []struct {
		name    string
		watched bool
	}{{"tickwork", true}, {"off", false}} {
		b.Run(impl.name, func(b *testing.B) {
			sim := changeSim(b, impl.watched)
			b.ReportAllocs()
			for b.Loop() {
				if err := sim.Frame(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

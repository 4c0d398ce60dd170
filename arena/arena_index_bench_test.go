package arena

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/index"
)

// arenaIndexes are the arena's indexes: the two arena.tw declares, and
// the grid of issue 23 over the bodies' positions when asked (declared by
// hand: arena.tw leaves it out, docs/benchmarks.md "Indexes in the arena
// frame").
type arenaIndexes struct {
	health *tickwork.SortedIndex[int32]
	hits   *tickwork.EventIndex[HitEvent, tickwork.Handle]
	bodies *tickwork.GridIndex // nil without the grid
}

// newIndexedSim is New and its indexes; with grid, plus the hand-declared
// grid BodiesByPos on Body(X, Y) of 64-unit cells, which the world keeps
// by its diff of X and Y after IntegrateBodies (the generated kernel
// marks only the indexes arena.tw declares).
func newIndexedSim(cfg rules.Config, grid bool, opts ...tickwork.Option) (*Sim, *arenaIndexes, error) {
	var g *tickwork.GridIndex
	var extra func(s *Sim, b *tickwork.Builder)
	if grid {
		extra = func(s *Sim, b *tickwork.Builder) {
			g = tickwork.AddGridIndex(b, "BodiesByPos", s.t.Body.X, s.t.Body.Y, 64)
		}
	}
	s, err := newSimWith(cfg, nil, extra, opts...)
	if err != nil {
		return nil, nil, err
	}
	ix := s.t.Indexes
	return s, &arenaIndexes{health: ix.UnitsByHealth, hits: ix.HitsByTarget, bodies: g}, nil
}

// The indexes change nothing in the simulation (same presentation, bit
// for bit, and same counters as the same program built WithoutIndexes,
// which keeps none), and after the frames each index equals one rebuilt
// from the tables: the sorted (kept by ApplyHits' fused marks and
// playback), the event hash, and the hand grid kept by the world's diff
// after IntegrateBodies. A world WithoutIndexes refuses to be read.
func TestIndexedArenaMatches(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := rules.Config{Units: 3000, Shots: 256, Seed: 9, Workers: workers}
		t.Run("declared", func(t *testing.T) { indexedArenaMatches(t, cfg, false) })
		t.Run("grid", func(t *testing.T) { indexedArenaMatches(t, cfg, true) })
	}
}

func indexedArenaMatches(t *testing.T, cfg rules.Config, grid bool) {
	plain, err := newSimWith(cfg, nil, nil, tickwork.WithoutIndexes())
	require.NoError(t, err)
	defer plain.Close()
	s, ix, err := newIndexedSim(cfg, grid)
	require.NoError(t, err)
	defer s.Close()
	for range 150 {
		require.NoError(t, plain.Frame())
		require.NoError(t, s.Frame())
	}
	requireSamePresentation(t, plain.Presentation(), s.Presentation())
	require.Equal(t, plain.Counters(), s.Counters())
	require.PanicsWithValue(t, "tickwork: index UnitsByHealth is not kept: the world was built WithoutIndexes; build it without that option to read the index or run a query it serves",
		func() { plain.t.Indexes.UnitsByHealth.Sorted() })

	u := s.t.Unit
	n := u.Table.Chunks() * u.Table.ChunkRows()
	want, _ := index.NewSorted[int32](n)
	bodies := s.t.Body
	wantGrid, _ := index.NewGrid(n, 64)
	hp, xs, ys := u.Health.All(), bodies.X.All(), bodies.Y.All()
	for r := range n {
		if _, ok := u.Table.HandleAt(r); ok {
			want.Insert(int32(r), hp[r])
		}
		if _, ok := bodies.Table.HandleAt(r); ok {
			wantGrid.Insert(int32(r), xs[r], ys[r])
		}
	}
	got := ix.health.Sorted()
	for r := range int32(n) {
		gk, gok := got.Key(r)
		wk, wok := want.Key(r)
		require.Equal(t, wok, gok, "row %d filed", r)
		require.Equal(t, wk, gk, "row %d health", r)
		if !grid {
			continue
		}
		gc, gok := ix.bodies.Grid().Key(r)
		wc, wok := wantGrid.Key(r)
		require.Equal(t, wok, gok, "row %d filed in the grid", r)
		require.Equal(t, wc, gc, "row %d cell", r)
	}
	hits := s.t.HitEvent.Read()
	require.NotEmpty(t, hits)
	h := ix.hits.Hash()
	require.Equal(t, len(hits), h.Len())
	for i := range hits {
		k, ok := h.Key(int32(i))
		require.True(t, ok)
		require.Equal(t, hits[i].Target, k)
	}
}

// indexSims are BenchmarkFrameIndexes' worlds, built and warmed once per
// process (by sub-benchmark name), so that rounds alternate on them.
var indexSims = map[string]*Sim{}

// indexRounds is how many times BenchmarkFrameIndexes runs its
// sub-benchmarks in one process, alternating (Go's -count repeats each
// sub-benchmark in a row, so a machine's drift would favour one).
var indexRounds = flag.Int("indexes.rounds", 1, "BenchmarkFrameIndexes: rounds of its sub-benchmarks, alternating")

// indexWorkers is BenchmarkFrameIndexes' worker count (0: the default).
var indexWorkers = flag.Int("indexes.workers", 0, "BenchmarkFrameIndexes: kernel workers (0: the default, GOMAXPROCS)")

// BenchmarkFrameIndexes is the cost of the arena's indexes in its frame:
// one frame at 100 000 units after the default warm-up, the arena as
// declared (tickwork: arena.tw's two indexes), the same program built
// tickwork.WithoutIndexes (noindex, the baseline) and the arena plus the
// hand grid BodiesByPos kept by the world's diff (grid: issue 23's three
// indexes), in one run, at the default worker count (-indexes.workers=N
// another) and the build's best lane; -indexes.rounds=N runs them N
// times, alternating (docs/benchmarks.md, Indexes in the arena frame).
func BenchmarkFrameIndexes(b *testing.B) {
	for range *indexRounds {
		for _, impl := range []struct {
			name string
			grid bool
			opts []tickwork.Option
		}{{"tickwork", false, nil}, {"noindex", false, []tickwork.Option{tickwork.WithoutIndexes()}}, {"grid", true, nil}} {
			b.Run(impl.name, func(b *testing.B) {
				sim := indexSims[impl.name]
				if sim == nil {
					cfg := rules.DefaultConfig()
					if *indexWorkers > 0 {
						cfg.Workers = *indexWorkers
					}
					var err error
					sim, _, err = newIndexedSim(cfg, impl.grid, impl.opts...)
					require.NoError(b, err)
					for range rules.DefaultWarmup {
						require.NoError(b, sim.Frame())
					}
					indexSims[impl.name] = sim
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := sim.Frame(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

package arena

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/index"
)

// newUnindexedSim is New built tickwork.WithoutIndexes: the same program,
// its three indexes declared and not kept (the generated kernels' marks
// off), the baseline of the indexes' cost.
func newUnindexedSim(cfg rules.Config) (*Sim, error) {
	return newSimWith(cfg, nil, nil, tickwork.WithoutIndexes())
}

// The indexes change nothing in the simulation (same presentation, bit
// for bit, and same counters as the world that keeps none), and after the
// frames each of arena.tw's three indexes equals one rebuilt from the
// tables: the sorted UnitsByHealth, the grid BodiesByPos (kept by
// IntegrateBodies' fused marks: a row its kernel does not mark when it
// crosses a cell is filed in its old cell, and this fails) and the event
// hash HitsByTarget. The lane is the build's best (scalar, or a SIMD
// variant's vector marks under GOEXPERIMENT=simd: make lanes).
func TestIndexedArenaMatches(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := rules.Config{Units: 3000, Shots: 256, Seed: 9, Workers: workers}
		plain, err := newUnindexedSim(cfg)
		require.NoError(t, err)
		defer plain.Close()
		s, err := New(cfg)
		require.NoError(t, err)
		defer s.Close()
		for range 150 {
			require.NoError(t, plain.Frame())
			require.NoError(t, s.Frame())
		}
		require.Equal(t, plain.Presentation(), s.Presentation())
		require.Equal(t, plain.Counters(), s.Counters())
		require.PanicsWithValue(t, "tickwork: index UnitsByHealth is not kept: the world was built WithoutIndexes; build it without that option to read the index or run a query it serves",
			func() { plain.t.Indexes.UnitsByHealth.Sorted() })
		indexesMatchTables(t, s)
	}
}

func indexesMatchTables(t *testing.T, s *Sim) {
	t.Helper()
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
	ix := s.t.Indexes
	got, gotGrid := ix.UnitsByHealth.Sorted(), ix.BodiesByPos.Grid()
	for r := range int32(n) {
		gk, gok := got.Key(r)
		wk, wok := want.Key(r)
		require.Equal(t, wok, gok, "row %d filed", r)
		require.Equal(t, wk, gk, "row %d health", r)
		gc, gok := gotGrid.Key(r)
		wc, wok := wantGrid.Key(r)
		require.Equal(t, wok, gok, "row %d filed in the grid", r)
		require.Equal(t, wc, gc, "row %d cell", r)
	}
	hits := s.t.HitEvent.Read()
	require.NotEmpty(t, hits)
	h := ix.HitsByTarget.Hash()
	require.Equal(t, len(hits), h.Len())
	for i := range hits {
		k, ok := h.Key(int32(i))
		require.True(t, ok)
		require.Equal(t, hits[i].Target, k)
	}
}

// BenchmarkFrameIndexes is the cost of arena.tw's three indexes in the
// arena frame: one frame at 100 000 units after the default warm-up, the
// arena as declared (tickwork) against the same program built
// tickwork.WithoutIndexes (noindex), in one run, at the default worker
// count and the build's best lane (docs/benchmarks.md, Indexes in the
// arena frame).
func BenchmarkFrameIndexes(b *testing.B) {
	cfg := rules.DefaultConfig()
	for _, impl := range []struct {
		name string
		make func(rules.Config) (*Sim, error)
	}{{"tickwork", New}, {"noindex", newUnindexedSim}} {
		b.Run(impl.name, func(b *testing.B) {
			sim, err := impl.make(cfg)
			require.NoError(b, err)
			defer sim.Close()
			for range rules.DefaultWarmup {
				require.NoError(b, sim.Frame())
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

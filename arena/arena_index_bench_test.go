package arena

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/index"
)

// arenaIndexes are issue 23's three indexes of the arena, as arena.tw
// declares them.
type arenaIndexes struct {
	health *tickwork.SortedIndex[int32]
	bodies *tickwork.GridIndex
	hits   *tickwork.EventIndex[HitEvent, tickwork.Handle]
}

// newIndexedSim is New and its indexes; diffed, IntegrateBodies is a
// hand copy of the generated kernel that does not mark (no
// MaintainIndex), so the world keeps the grid by its diff after the
// system instead of the generated kernel's marks.
func newIndexedSim(cfg rules.Config, diffed ...bool) (*Sim, *arenaIndexes, error) {
	var replace func(s *Sim) []tickwork.System
	if len(diffed) > 0 && diffed[0] {
		replace = func(s *Sim) []tickwork.System {
			m := &markedBodies{t: s.t, inv: 1.0 / 64}
			return []tickwork.System{{Name: "IntegrateBodies", Phase: tickwork.FixedUpdate, Declare: m.declare}}
		}
	}
	s, err := newSimWith(cfg, replace, nil)
	if err != nil {
		return nil, nil, err
	}
	ix := s.t.Indexes
	return s, &arenaIndexes{health: ix.UnitsByHealth, bodies: ix.BodiesByPos, hits: ix.HitsByTarget}, nil
}

// markedBodies is IntegrateBodies (the generated span, scalar) with the
// grid's upkeep left to the world's diff (no marks).
type markedBodies struct {
	t                *Tables
	inv              float64
	bX, bY, bVX, bVY []float32
	dt32             float32
}

func (s *markedBodies) declare(d *tickwork.Decl) tickwork.RunFunc {
	s.bX = tickwork.Write(d, s.t.Body.X).All()
	s.bY = tickwork.Write(d, s.t.Body.Y).All()
	s.bVX = tickwork.Write(d, s.t.Body.VX).All()
	s.bVY = tickwork.Write(d, s.t.Body.VY).All()
	return tickwork.DenseKernel(d, s.t.Body.Table, 0, s, (*markedBodies).span).World(&s.dt32, nil, nil).Run
}

func (k *markedBodies) span(lo, hi int) {
	dt32 := k.dt32
	bXs := k.bX[lo:hi]
	bYs, bVXs, bVYs := k.bY[lo:hi][:len(bXs)], k.bVX[lo:hi][:len(bXs)], k.bVY[lo:hi][:len(bXs)]
	for i := range bXs {
		bX, bY, bVX, bVY := bXs[i], bYs[i], bVXs[i], bVYs[i]
		bX += float32(bVX * dt32)
		bY += float32(bVY * dt32)
		switch {
		case bX < 0:
			bX = -bX
			bVX = -bVX
			bVXs[i] = bVX
		case bX > W:
			bX = 4096 - bX
			bVX = -bVX
			bVXs[i] = bVX
		}
		switch {
		case bY < 0:
			bY = -bY
			bVY = -bVY
			bVYs[i] = bVY
		case bY > W:
			bY = 4096 - bY
			bVY = -bVY
			bVYs[i] = bVY
		}
		bXs[i], bYs[i] = bX, bY
	}
}

// The grid's upkeep by the world's diff changes nothing against the
// generated kernel's marks (same presentation, bit for bit, and same
// counters), and after the frames each index equals one rebuilt from the
// tables, either way.
func TestIndexedArenaMatches(t *testing.T) {
	cfg := rules.Config{Units: 3000, Shots: 256, Seed: 9, Workers: 2}
	t.Run("marked", func(t *testing.T) { indexedArenaMatches(t, cfg, false) })
	t.Run("diffed", func(t *testing.T) { indexedArenaMatches(t, cfg, true) })
}

func indexedArenaMatches(t *testing.T, cfg rules.Config, diffed bool) {
	plain, err := New(cfg)
	require.NoError(t, err)
	defer plain.Close()
	s, ix, err := newIndexedSim(cfg, diffed)
	require.NoError(t, err)
	defer s.Close()
	for range 150 {
		require.NoError(t, plain.Frame())
		require.NoError(t, s.Frame())
	}
	require.Equal(t, plain.Presentation(), s.Presentation())
	require.Equal(t, plain.Counters(), s.Counters())

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
	got, gotGrid := ix.health.Sorted(), ix.bodies.Grid()
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
	h := ix.hits.Hash()
	require.Equal(t, len(hits), h.Len())
	for i := range hits {
		k, ok := h.Key(int32(i))
		require.True(t, ok)
		require.Equal(t, hits[i].Target, k)
	}
}

// BenchmarkFrameIndexes is the cost of keeping the grid of issue 23 by
// the world's diff after IntegrateBodies (diffed) against the generated
// kernel's marks (tickwork): one arena frame at 100 000 units, after the
// default warm-up, in one run (docs/benchmarks.md, Indexes in the arena
// frame). The arena without indexes is the previous build's
// (arena-headless, same section).
func BenchmarkFrameIndexes(b *testing.B) {
	cfg := rules.DefaultConfig()
	for _, impl := range []struct {
		name   string
		diffed bool
	}{{"tickwork", false}, {"diffed", true}} {
		b.Run(impl.name, func(b *testing.B) {
			sim, _, err := newIndexedSim(cfg, impl.diffed)
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

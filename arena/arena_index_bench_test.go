package arena

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/index"
)

// handIndexes are issue 23's three indexes of the arena, declared by hand
// through the face's API (the schema's own come with arena.tw).
type handIndexes struct {
	health *tickwork.SortedIndex[int32]
	bodies *tickwork.GridIndex
	hits   *tickwork.EventIndex[HitEvent, tickwork.Handle]
}

// newIndexedSim is New with the three indexes declared; marked, the
// grid is kept by marks (MaintainIndex) of a hand-fused IntegrateBodies
// (markedBodies) instead of the diff after the generated one.
func newIndexedSim(cfg rules.Config, marked ...bool) (*Sim, *handIndexes, error) {
	ix := &handIndexes{}
	var replace func(s *Sim) []tickwork.System
	if len(marked) > 0 && marked[0] {
		replace = func(s *Sim) []tickwork.System {
			m := &markedBodies{t: s.t, grid: ix.bodies, inv: 1.0 / 64}
			return []tickwork.System{{Name: "IntegrateBodies", Phase: tickwork.FixedUpdate, Declare: m.declare}}
		}
	}
	s, err := newSimWith(cfg, replace, func(s *Sim, b *tickwork.Builder) {
		ix.health = tickwork.AddSortedIndex(b, "UnitsByHealth", s.t.Unit.Health)
		ix.bodies = tickwork.AddGridIndex(b, "BodiesByPos", s.t.Body.X, s.t.Body.Y, 64)
		ix.hits = tickwork.AddEventIndex(b, "HitsByTarget", s.t.HitEvent, func(e *HitEvent) tickwork.Handle { return e.Target })
	})
	return s, ix, err
}

// markedBodies is IntegrateBodies (the generated span, scalar) fused with
// the grid's upkeep as the generator would fuse it (MaintainIndex): it
// marks the bodies whose cell changed.
type markedBodies struct {
	t                *Tables
	grid             *tickwork.GridIndex
	marks            tickwork.IndexMarks
	inv              float64
	bX, bY, bVX, bVY []float32
	dt32             float32
}

func (s *markedBodies) declare(d *tickwork.Decl) tickwork.RunFunc {
	s.bX = tickwork.Write(d, s.t.Body.X).All()
	s.bY = tickwork.Write(d, s.t.Body.Y).All()
	s.bVX = tickwork.Write(d, s.t.Body.VX).All()
	s.bVY = tickwork.Write(d, s.t.Body.VY).All()
	s.marks = tickwork.MaintainIndex(d, s.grid)
	return tickwork.DenseKernel(d, s.t.Body.Table, 0, s, (*markedBodies).span).World(&s.dt32, nil, nil).Run
}

func (k *markedBodies) span(lo, hi int) {
	dt32, inv := k.dt32, k.inv
	bXs := k.bX[lo:hi]
	bYs, bVXs, bVYs := k.bY[lo:hi][:len(bXs)], k.bVX[lo:hi][:len(bXs)], k.bVY[lo:hi][:len(bXs)]
	for i := range bXs {
		bX, bY, bVX, bVY := bXs[i], bYs[i], bVXs[i], bVYs[i]
		ox, oy := bX, bY
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
		if cellCoord(ox, inv) != cellCoord(bX, inv) || cellCoord(oy, inv) != cellCoord(bY, inv) {
			k.marks.Mark(lo + i)
		}
	}
}

// cellCoord is floor(v*inv), the grid's cell coordinate, by truncation
// (exact within ±2^31 cells: the arena's bodies stay in [0, W]).
func cellCoord(v float32, inv float64) int32 {
	f := float64(v) * inv
	c := int32(f)
	if float64(c) > f {
		c--
	}
	return c
}

// The indexes change nothing of the simulation (same presentation, bit
// for bit, and same counters), and after the frames each equals one
// rebuilt from the tables.
func TestIndexedArenaMatches(t *testing.T) {
	cfg := rules.Config{Units: 3000, Shots: 256, Seed: 9, Workers: 2}
	for _, marked := range []bool{false, true} {
		t.Run(map[bool]string{false: "diffed", true: "marked"}[marked], func(t *testing.T) { indexedArenaMatches(t, cfg, marked) })
	}
}

func indexedArenaMatches(t *testing.T, cfg rules.Config, marked bool) {
	plain, err := New(cfg)
	require.NoError(t, err)
	defer plain.Close()
	s, ix, err := newIndexedSim(cfg, marked)
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

// BenchmarkFrameIndexes is the cost of issue 23's three indexes (units by
// health, bodies by position in 64-unit cells, hits by target): one arena
// frame at 100 000 units with them (tickwork) and without (plain), after
// the default warm-up, in one run (docs/benchmarks.md, Indexes); marked
// keeps the grid by a hand-fused IntegrateBodies's marks (MaintainIndex)
// in place of the diff after the generated kernel.
func BenchmarkFrameIndexes(b *testing.B) {
	cfg := rules.DefaultConfig()
	for _, impl := range []struct {
		name string
		new  func(rules.Config) (*Sim, error)
	}{
		{"tickwork", func(c rules.Config) (*Sim, error) { s, _, err := newIndexedSim(c); return s, err }},
		{"marked", func(c rules.Config) (*Sim, error) { s, _, err := newIndexedSim(c, true); return s, err }},
		{"plain", New},
	} {
		b.Run(impl.name, func(b *testing.B) {
			sim, err := impl.new(cfg)
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

// BenchmarkFrameIndexesInterleaved runs the frames of the three worlds
// of BenchmarkFrameIndexes in turn (one frame of each per iteration), so
// that a shared machine's load falls on all three alike, and reports each
// one's frame p50 (tickwork-p50-ns, marked-p50-ns, plain-p50-ns) and the
// ratios to plain's.
func BenchmarkFrameIndexesInterleaved(b *testing.B) {
	cfg := rules.DefaultConfig()
	news := []func(rules.Config) (*Sim, error){
		func(c rules.Config) (*Sim, error) { s, _, err := newIndexedSim(c); return s, err },
		func(c rules.Config) (*Sim, error) { s, _, err := newIndexedSim(c, true); return s, err },
		New,
	}
	sims := make([]*Sim, len(news))
	for i, nw := range news {
		s, err := nw(cfg)
		require.NoError(b, err)
		defer s.Close()
		for range rules.DefaultWarmup {
			require.NoError(b, s.Frame())
		}
		sims[i] = s
	}
	times := make([][]time.Duration, len(sims))
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range sims {
			t0 := time.Now()
			if err := s.Frame(); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(t0))
		}
	}
	p50 := make([]float64, len(sims))
	for i, ts := range times {
		slices.Sort(ts)
		p50[i] = float64(ts[len(ts)/2])
	}
	b.ReportMetric(p50[0], "tickwork-p50-ns")
	b.ReportMetric(p50[1], "marked-p50-ns")
	b.ReportMetric(p50[2], "plain-p50-ns")
	b.ReportMetric(p50[0]/p50[2], "tickwork/plain")
	b.ReportMetric(p50[1]/p50[2], "marked/plain")
}

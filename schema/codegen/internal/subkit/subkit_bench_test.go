package subkit_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/subkit"
)

// benchRows is the table's size in BenchmarkGeneratedSubscription.
const benchRows = 100_000

// benchWorld is a world of subkit.tw at benchRows live rows with the
// declared systems, subscribing (or not) one subscription, and the
// host's writes of 1 % of the rows a frame.
type benchWorld struct {
	w      *tickwork.World
	tb     *subkit.Tables
	q      *subkit.Queries
	hs     []tickwork.Handle
	rng    *rand.Rand
	read   func() // the subscription's Read; nil without one
	change int
}

func newBenchWorld(b *testing.B, subscribe func(*tickwork.Builder, *subkit.Tables) func(), change int, systems bool) *benchWorld {
	bw := &benchWorld{rng: rand.New(rand.NewPCG(1, 2)), change: change}
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tb, err := subkit.Declare(bl, subkit.Sizes{Folk: subkit.DefaultSizes().Folk, Unit: benchRows})
	if err != nil {
		b.Fatal(err)
	}
	if systems {
		bl.Add(subkit.NewSystems(tb).All()...)
	}
	if subscribe != nil {
		bw.read = subscribe(bl, tb)
	}
	w, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	bw.w, bw.tb, bw.q = w, tb, subkit.NewQueries(tb)
	u := tb.Unit
	for i := range benchRows {
		h, err := u.Table.Insert()
		if err != nil {
			b.Fatal(err)
		}
		u.Pos.X.Set(h, float32(i%200-100))
		u.Pos.Y.Set(h, float32(i%40-20))
		u.Team.Set(h, int32(i%8))
		u.Hp.Set(h, int32(i%50))
		u.Gold.Set(h, int64(i%900))
		u.On.Set(h, i%3 > 0)
		bw.hs = append(bw.hs, h)
	}
	bw.frame()
	return bw
}

// frame writes Hp and Pos.X of change random rows (values the declared
// systems leave alone: no heal, no cull, no fixed tick), runs a frame
// and reads the subscription.
func (bw *benchWorld) frame() {
	u := bw.tb.Unit
	for range bw.change {
		h := bw.hs[bw.rng.IntN(len(bw.hs))]
		u.Hp.Set(h, int32(bw.rng.IntN(50)))
		u.Pos.X.Set(h, float32(bw.rng.IntN(200)-100))
	}
	if err := bw.w.Frame(0); err != nil {
		panic(err)
	}
	if bw.read != nil {
		bw.read()
	}
}

// BenchmarkGeneratedSubscription compares, per kind, a generated
// subscription's frame and Read (tickwork) with the same frame and the
// declared query's Run (recompute) and with the frame alone (frame), at
// 100 000 rows, 1 % of them written by the host a frame (change1pct),
// none (unchanged), or none but with the declared systems Heal and Cull
// running (systems: their kernels write Hp and On in a match arm, which
// bumps every chunk they run over). docs/benchmarks.md, Subscriptions of
// declared queries.
func BenchmarkGeneratedSubscription(b *testing.B) {
	var boxRows []subkit.InBoxRow
	var teamRows []subkit.TeamGoldRow
	var weakRows []subkit.WeakestRow
	kinds := []struct {
		name      string
		subscribe func(*tickwork.Builder, *subkit.Tables) func()
		run       func(q *subkit.Queries)
	}{
		{"box", func(b *tickwork.Builder, t *subkit.Tables) func() {
			s := subkit.SubscribeBox(b, t, boxX0, boxX1, boxY0, boxY1)
			return func() { s.Read() }
		}, func(q *subkit.Queries) { boxRows = q.InBox.Run(boxRows, boxX0, boxX1, boxY0, boxY1) }},
		{"count", func(b *tickwork.Builder, t *subkit.Tables) func() {
			s := subkit.SubscribeWeakCount(b, t, weakMax)
			return func() { s.Read() }
		}, func(q *subkit.Queries) { q.Weak.Run(weakMax) }},
		{"group", func(b *tickwork.Builder, t *subkit.Tables) func() {
			s := subkit.SubscribeTeamSum(b, t, teamMin)
			return func() { s.Read() }
		}, func(q *subkit.Queries) { teamRows = q.TeamGold.Run(teamRows, teamMin) }},
		{"top10", func(b *tickwork.Builder, t *subkit.Tables) func() {
			s := subkit.SubscribeWeakTop(b, t, 10)
			return func() { s.Read() }
		}, func(q *subkit.Queries) { weakRows = q.Weakest.Run(weakRows, 10) }},
	}
	for _, k := range kinds {
		for _, c := range []struct {
			name    string
			change  int
			systems bool
		}{{"change1pct", benchRows / 100, false}, {"unchanged", 0, false}, {"systems", 0, true}} {
			b.Run(k.name+"/"+c.name+"/tickwork", func(b *testing.B) {
				bw := newBenchWorld(b, k.subscribe, c.change, c.systems)
				b.ReportAllocs()
				for b.Loop() {
					bw.frame()
				}
			})
			b.Run(k.name+"/"+c.name+"/recompute", func(b *testing.B) {
				bw := newBenchWorld(b, nil, c.change, c.systems)
				b.ReportAllocs()
				for b.Loop() {
					bw.frame()
					k.run(bw.q)
				}
			})
			b.Run(k.name+"/"+c.name+"/frame", func(b *testing.B) {
				bw := newBenchWorld(b, nil, c.change, c.systems)
				b.ReportAllocs()
				for b.Loop() {
					bw.frame()
				}
			})
		}
	}
}

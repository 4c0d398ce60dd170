package subs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/bench/subs"
)

const (
	benchRows  = 100_000
	boxX0      = 100
	boxX1      = 400
	boxY0      = 200
	boxY1      = 500
	frameCycle = 64 // the frames of changes, cycled
)

// world is a world of benchRows units whose system "churn" writes HP,
// Score and X of the same changing rows each frame (WriteTracked, so that
// each write stamps its row), the rows chosen at random beforehand.
type world struct {
	w      *tickwork.World
	t      *subs.Tables
	q      *subs.Queries
	frames [][]int
	f      int
}

func newWorld(b *testing.B, changing int, subscribe func(*tickwork.Builder, *subs.Tables) func() int) (*world, func() int) {
	g := &world{}
	rng := rand.New(rand.NewPCG(1, 2))
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	t, err := subs.Declare(bl, subs.Sizes{Unit: benchRows})
	if err != nil {
		b.Fatal(err)
	}
	g.t = t
	for range frameCycle {
		rows := make([]int, changing)
		for i := range rows {
			rows[i] = rng.IntN(benchRows)
		}
		g.frames = append(g.frames, rows)
	}
	bl.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		hp, sc, x := tickwork.WriteTracked(s, t.Unit.HP), tickwork.WriteTracked(s, t.Unit.Score), tickwork.WriteTracked(s, t.Unit.X)
		return func(*tickwork.Context) {
			g.f++
			for i, r := range g.frames[g.f%len(g.frames)] {
				hp.SetRow(r, int32((r+g.f+i)%100))
				sc.SetRow(r, int32((r*7+g.f)%1000))
				x.SetRow(r, float32((r+g.f*13)%1000))
			}
		}
	})
	var read func() int
	if subscribe != nil {
		read = subscribe(bl, t)
	}
	u := &t.Unit
	for i := range benchRows {
		h, err := u.Table.Insert()
		if err != nil {
			b.Fatal(err)
		}
		u.Team.Set(h, int32(i%subs.Teams))
		u.Score.Set(h, int32(rng.IntN(1000)))
		u.HP.Set(h, int32(rng.IntN(100)))
		u.X.Set(h, float32(rng.IntN(1000)))
		u.Y.Set(h, float32(rng.IntN(1000)))
	}
	if g.w, err = bl.Build(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = g.w.Close() })
	g.q = subs.NewQueries(t)
	return g, read
}

// kind is one subscribed query: subscribe declares the subscription and
// returns its Read (a count of what it handed out, so that nothing is
// optimised away); recompute runs the declared query.
type kind struct {
	name      string
	subscribe func(*tickwork.Builder, *subs.Tables) func() int
	recompute func(q *subs.Queries) func() int
}

var kinds = []kind{
	{"count",
		func(b *tickwork.Builder, t *subs.Tables) func() int {
			s := subs.SubscribeHealthyCount(b, t)
			return func() int { return s.Read().After }
		},
		func(q *subs.Queries) func() int { return func() int { return int(q.Healthy.Run().Count) } }},
	{"groupsum",
		func(b *tickwork.Builder, t *subs.Tables) func() int {
			s := subs.SubscribeTeamTotals(b, t)
			return func() int { return len(s.Read()) }
		},
		func(q *subs.Queries) func() int {
			var dst []subs.TeamScoreRow
			return func() int { dst = q.TeamScore.Run(dst); return len(dst) }
		}},
	{"top10",
		func(b *tickwork.Builder, t *subs.Tables) func() int {
			s := subs.SubscribeTop10(b, t)
			return func() int { d := s.Read(); return len(d.Entered) + len(s.Top()) }
		},
		func(q *subs.Queries) func() int {
			var dst []subs.TopScoreRow
			return func() int { dst = q.TopScore.Run(dst); return len(dst) }
		}},
	{"box",
		func(b *tickwork.Builder, t *subs.Tables) func() int {
			s := subs.SubscribeBox(b, t, boxX0, boxX1, boxY0, boxY1)
			return func() int { d := s.Read(); return len(d.Entered) + len(d.Left) + len(d.Changed) }
		},
		func(q *subs.Queries) func() int {
			var dst []subs.InBoxRow
			return func() int { dst = q.InBox.Run(dst, boxX0, boxX1, boxY0, boxY1); return len(dst) }
		}},
}

// BenchmarkSubscription compares, per kind of subscription, a frame that
// keeps a declared query's result by deltas and reads it (tickwork) with
// the same frame and the declared query's compiled Run (recompute), over
// 100 000 units at 1 worker, when 1 % of the rows change a frame
// (change1pct: HP, Score and X of 1 000 random rows, through
// WriteTracked) and when none does (unchanged); frame is the frame alone,
// which both pay. docs/benchmarks.md, Subscriptions in bench/.
func BenchmarkSubscription(b *testing.B) {
	for _, k := range kinds {
		for _, ch := range []struct {
			name string
			rows int
		}{{"change1pct", benchRows / 100}, {"unchanged", 0}} {
			b.Run(k.name+"/"+ch.name+"/tickwork", func(b *testing.B) {
				g, read := newWorld(b, ch.rows, k.subscribe)
				loop(b, g, read)
			})
			b.Run(k.name+"/"+ch.name+"/recompute", func(b *testing.B) {
				g, _ := newWorld(b, ch.rows, nil)
				loop(b, g, k.recompute(g.q))
			})
			b.Run(k.name+"/"+ch.name+"/frame", func(b *testing.B) {
				g, _ := newWorld(b, ch.rows, nil)
				loop(b, g, func() int { return 0 })
			})
		}
	}
}

// loop warms g past its cycle of frames (every delta list at its largest),
// then times frames, each followed by after.
func loop(b *testing.B, g *world, after func() int) {
	for range 2 * frameCycle {
		if err := g.w.Frame(1.0 / 60); err != nil {
			b.Fatal(err)
		}
		after()
	}
	sink := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := g.w.Frame(1.0 / 60); err != nil {
			b.Fatal(err)
		}
		sink += after()
	}
	_ = sink
}

package tickwork_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork"
)

// benchUnit is the subscribed row of BenchmarkSubscription.
type benchUnit struct {
	Team  int32
	Score int32
	HP    int32
	X, Y  float32
}

const (
	subBenchRows  = 100_000
	subBenchTeams = 8
)

func benchHealthy(u *benchUnit) bool { return u.HP > 50 }
func benchInBox(u *benchUnit) bool   { return u.X >= 100 && u.X < 400 && u.Y >= 200 && u.Y < 500 }

// subBench is a world of subBenchRows units whose system "churn" writes
// HP, Score and X of changing rows each frame (WriteTracked), rows
// chosen at random beforehand.
type subBench struct {
	w            *tickwork.World
	unit         *tickwork.Table
	team, sc, hp *tickwork.Column[int32]
	x, y         *tickwork.Column[float32]
	frames       [][]int // the rows each frame changes, cycled
	f            int
	handles      []tickwork.Handle
	rows         []tickwork.SubRow[benchUnit] // a recompute's filter result, reused
}

func newSubBench(b *testing.B, changing int, subscribe func(b *tickwork.Builder, t *tickwork.Table)) *subBench {
	g := &subBench{}
	rng := rand.New(rand.NewPCG(1, 2))
	bl := tickwork.NewBuilder()
	g.unit = bl.Table(tickwork.TableSpec{Name: "Unit", Capacity: subBenchRows})
	g.team = tickwork.AddColumn[int32](bl, g.unit, "Team")
	g.sc = tickwork.AddColumn[int32](bl, g.unit, "Score")
	g.hp = tickwork.AddColumn[int32](bl, g.unit, "HP")
	g.x = tickwork.AddColumn[float32](bl, g.unit, "X")
	g.y = tickwork.AddColumn[float32](bl, g.unit, "Y")
	for range 64 {
		rows := make([]int, changing)
		for i := range rows {
			rows[i] = rng.IntN(subBenchRows)
		}
		g.frames = append(g.frames, rows)
	}
	bl.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		hp, sc, x := tickwork.WriteTracked(s, g.hp), tickwork.WriteTracked(s, g.sc), tickwork.WriteTracked(s, g.x)
		return func(*tickwork.Context) {
			g.f++
			for i, r := range g.frames[g.f%len(g.frames)] {
				hp.SetRow(r, int32((r+g.f+i)%100))
				sc.SetRow(r, int32((r*7+g.f)%1000))
				x.SetRow(r, float32((r+g.f*13)%1000))
			}
		}
	})
	if subscribe != nil {
		subscribe(bl, g.unit)
	}
	for i := range subBenchRows {
		h, err := g.unit.Insert()
		if err != nil {
			b.Fatal(err)
		}
		g.team.Set(h, int32(i%subBenchTeams))
		g.sc.Set(h, int32(rng.IntN(1000)))
		g.hp.Set(h, int32(rng.IntN(100)))
		g.x.Set(h, float32(rng.IntN(1000)))
		g.y.Set(h, float32(rng.IntN(1000)))
		g.handles = append(g.handles, h)
	}
	var err error
	if g.w, err = bl.Build(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = g.w.Close() })
	return g
}

// scan calls f with each live row and its values, as a recompute reads
// them.
func (g *subBench) scan(f func(r int, u *benchUnit)) {
	team, sc, hp, x, y := g.team.All(), g.sc.All(), g.hp.All(), g.x.All(), g.y.All()
	var u benchUnit
	for c := range g.unit.UsedChunks() {
		for lo, hi := range g.unit.Runs(c) {
			for r := lo; r < hi; r++ {
				u = benchUnit{Team: team[r], Score: sc[r], HP: hp[r], X: x[r], Y: y[r]}
				f(r, &u)
			}
		}
	}
}

func (g *subBench) scanFilter(where func(*benchUnit) bool) int {
	g.rows = g.rows[:0]
	g.scan(func(r int, u *benchUnit) {
		if where(u) {
			h, _ := g.unit.HandleAt(r)
			g.rows = append(g.rows, tickwork.SubRow[benchUnit]{Handle: h, Row: r, Value: *u})
		}
	})
	return len(g.rows)
}

type subKind struct {
	name      string
	subscribe func(b *tickwork.Builder, t *tickwork.Table) func() int // declares, returns the Read
	recompute func(g *subBench) int
}

var subKinds = []subKind{
	{"count", func(b *tickwork.Builder, t *tickwork.Table) func() int {
		s := tickwork.SubscribeCount(b, t, tickwork.FilterSpec[benchUnit]{Name: "healthy", Where: benchHealthy})
		return func() int { return s.Read().After }
	}, func(g *subBench) int {
		n := 0
		g.scan(func(_ int, u *benchUnit) {
			if benchHealthy(u) {
				n++
			}
		})
		return n
	}},
	{"filter", func(b *tickwork.Builder, t *tickwork.Table) func() int {
		s := tickwork.SubscribeFilter(b, t, tickwork.FilterSpec[benchUnit]{Name: "healthy", Where: benchHealthy})
		return func() int { d := s.Read(); return len(d.Entered) + len(d.Left) + len(d.Changed) }
	}, func(g *subBench) int { return g.scanFilter(benchHealthy) }},
	{"box", func(b *tickwork.Builder, t *tickwork.Table) func() int {
		s := tickwork.SubscribeFilter(b, t, tickwork.FilterSpec[benchUnit]{Name: "box", Where: benchInBox})
		return func() int { d := s.Read(); return len(d.Entered) + len(d.Left) + len(d.Changed) }
	}, func(g *subBench) int { return g.scanFilter(benchInBox) }},
	{"groupsum", func(b *tickwork.Builder, t *tickwork.Table) func() int {
		s := tickwork.SubscribeGroupSum(b, t, tickwork.GroupSumSpec[benchUnit, int32, int64]{Name: "score by team", Where: benchHealthy,
			Key: func(u *benchUnit) int32 { return u.Team }, Sum: func(u *benchUnit) int64 { return int64(u.Score) }})
		return func() int { return len(s.Read()) }
	}, func(g *subBench) int {
		var sums [subBenchTeams]int64 // the fastest recompute: the keys are small
		var rows [subBenchTeams]int
		g.scan(func(_ int, u *benchUnit) {
			if benchHealthy(u) {
				sums[u.Team] += int64(u.Score)
				rows[u.Team]++
			}
		})
		return int(sums[0]) + rows[1]
	}},
	{"top10", func(b *tickwork.Builder, t *tickwork.Table) func() int {
		s := tickwork.SubscribeTopN(b, t, tickwork.TopSpec[benchUnit, int32]{Name: "top score", N: 10, Where: benchHealthy,
			Key: func(u *benchUnit) int32 { return u.Score }})
		return func() int { d := s.Read(); return len(d.Entered) + len(s.Top()) }
	}, func(g *subBench) int {
		var top [10]struct{ key, row int32 } // descending key, ties by row ascending
		n := 0
		g.scan(func(r int, u *benchUnit) {
			if !benchHealthy(u) || n == 10 && u.Score <= top[9].key {
				return
			}
			i := min(n, 9)
			for i > 0 && top[i-1].key < u.Score {
				if i < 10 {
					top[i] = top[i-1]
				}
				i--
			}
			top[i] = struct{ key, row int32 }{u.Score, int32(r)}
			n = min(n+1, 10)
		})
		return int(top[0].row)
	}},
}

// BenchmarkSubscription compares, per kind of subscription, a frame that
// keeps the result by deltas and reads it (tickwork) with the same frame
// and the result recomputed by a scan (recompute), over 100 000 rows, when
// 1 % of the rows change a frame (change1pct: HP, Score and X of 1 000
// random rows, through WriteTracked) and when none does (unchanged); frame
// is the frame alone (its writes, no result), which both pay.
// docs/benchmarks.md, Subscriptions.
func BenchmarkSubscription(b *testing.B) {
	for _, k := range subKinds {
		for _, ch := range []struct {
			name string
			rows int
		}{{"change1pct", subBenchRows / 100}, {"unchanged", 0}} {
			b.Run(k.name+"/"+ch.name+"/tickwork", func(b *testing.B) {
				var read func() int
				g := newSubBench(b, ch.rows, func(bl *tickwork.Builder, t *tickwork.Table) { read = k.subscribe(bl, t) })
				for range 2 * 64 { // past the largest delta of the cycle of frames
					_ = g.w.Frame(1.0 / 60)
					read()
				}
				sink := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
					sink += read()
				}
				_ = sink
			})
			b.Run(k.name+"/"+ch.name+"/frame", func(b *testing.B) {
				g := newSubBench(b, ch.rows, nil)
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(k.name+"/"+ch.name+"/recompute", func(b *testing.B) {
				g := newSubBench(b, ch.rows, nil)
				sink := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
					sink += k.recompute(g)
				}
				_ = sink
			})
		}
	}
}

package runq_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

const subBenchRows = 100_000

// subBenchSchema is the catalog of BenchmarkSubscribe's world.
const subBenchSchema = "table Unit(capacity: 100000) {\n\tTeam: int32\n\tScore: int32\n\tHP: int32\n\tX: float32\n\tY: float32\n}\n"

// subBenchWorld is a world of subBenchRows units whose system "churn"
// writes HP, Score and X of changing rows each frame (WriteTracked), rows
// drawn at random beforehand (64 frames' lists, cycled), with its catalog
// bound before Build.
type subBenchWorld struct {
	w   *tickwork.World
	cat *runq.Catalog
}

func newSubBenchWorld(b *testing.B, changing int, subscribe func(bl *tickwork.Builder, cat *runq.Catalog)) *subBenchWorld {
	g := &subBenchWorld{}
	rng := rand.New(rand.NewPCG(1, 2))
	bl := tickwork.NewBuilder()
	unit := bl.Table(tickwork.TableSpec{Name: "Unit", Capacity: subBenchRows})
	team := tickwork.AddColumn[int32](bl, unit, "Team")
	sc := tickwork.AddColumn[int32](bl, unit, "Score")
	hp := tickwork.AddColumn[int32](bl, unit, "HP")
	x := tickwork.AddColumn[float32](bl, unit, "X")
	y := tickwork.AddColumn[float32](bl, unit, "Y")
	var frames [][]int
	for range 64 {
		rows := make([]int, changing)
		for i := range rows {
			rows[i] = rng.IntN(subBenchRows)
		}
		frames = append(frames, rows)
	}
	f := 0
	bl.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		hp, sc, x := tickwork.WriteTracked(s, hp), tickwork.WriteTracked(s, sc), tickwork.WriteTracked(s, x)
		return func(*tickwork.Context) {
			f++
			for i, r := range frames[f%len(frames)] {
				hp.SetRow(r, int32((r+f+i)%100))
				sc.SetRow(r, int32((r*7+f)%1000))
				x.SetRow(r, float32((r+f*13)%1000))
			}
		}
	})
	var err error
	if g.cat, err = runq.NewCatalog("bench.tw", subBenchSchema); err != nil {
		b.Fatal(err)
	}
	for _, e := range []error{g.cat.BindTable("Unit", unit), runq.BindColumn(g.cat, "Unit", "Team", team),
		runq.BindColumn(g.cat, "Unit", "Score", sc), runq.BindColumn(g.cat, "Unit", "HP", hp),
		runq.BindColumn(g.cat, "Unit", "X", x), runq.BindColumn(g.cat, "Unit", "Y", y)} {
		if e != nil {
			b.Fatal(e)
		}
	}
	if subscribe != nil {
		subscribe(bl, g.cat)
	}
	for i := range subBenchRows {
		h, err := unit.Insert()
		if err != nil {
			b.Fatal(err)
		}
		team.Set(h, int32(i%8))
		sc.Set(h, int32(rng.IntN(1000)))
		hp.Set(h, int32(rng.IntN(100)))
		x.Set(h, float32(rng.IntN(1000)))
		y.Set(h, float32(rng.IntN(1000)))
	}
	if g.w, err = bl.Build(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = g.w.Close() })
	return g
}

// subBenchKinds are BenchmarkSubscribe's queries, one per kind.
var subBenchKinds = []struct {
	name, text string
	args       []runq.Value
}{
	{"count", "query C() { from Unit u where u.HP > 50 select count() }", nil},
	{"filter", "query F() { from Unit u where u.HP > 50 select u, u.Team, u.Score, u.HP, u.X, u.Y }", nil},
	{"box", "query B(x0: float32, x1: float32, y0: float32, y1: float32) { from Unit u where u.X >= x0 and u.X < x1 and u.Y >= y0 and u.Y < y1 select u, u.X, u.Y }",
		[]runq.Value{runq.F32(100), runq.F32(400), runq.F32(200), runq.F32(500)}},
	{"groupsum", "query G() { from Unit u where u.HP > 50 group by u.Team select u.Team, count(), sum(u.Score) }", nil},
	{"top10", "query T() { from Unit u where u.HP > 50 select u, u.Score order by u.Score desc limit 10 }", nil},
}

// BenchmarkSubscribe compares, per kind, a frame that keeps a run-time
// query's result by deltas and reads it (tickwork: Subscribe, Read) with
// the same frame and the result recomputed by the interpreter (recompute:
// Prepare once, Run per frame), over 100 000 rows, when 1 % of the rows
// change a frame (change1pct) and when none does (unchanged); frame is
// the frame alone, which both pay. docs/benchmarks.md, Run-time query
// subscriptions.
func BenchmarkSubscribe(b *testing.B) {
	for _, k := range subBenchKinds {
		for _, ch := range []struct {
			name string
			rows int
		}{{"change1pct", subBenchRows / 100}, {"unchanged", 0}} {
			b.Run(k.name+"/"+ch.name+"/tickwork", func(b *testing.B) {
				var s *runq.Subscription
				g := newSubBenchWorld(b, ch.rows, func(bl *tickwork.Builder, cat *runq.Catalog) {
					var err error
					if s, err = runq.Subscribe(bl, cat, k.text, k.args); err != nil {
						b.Fatal(err)
					}
				})
				for range 3 {
					_ = g.w.Frame(1.0 / 60)
					s.Read()
				}
				sink := 0
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
					d := s.Read()
					sink += d.Entered.Len() + int(d.After)
				}
				_ = sink
			})
			b.Run(k.name+"/"+ch.name+"/frame", func(b *testing.B) {
				g := newSubBenchWorld(b, ch.rows, nil)
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(k.name+"/"+ch.name+"/recompute", func(b *testing.B) {
				g := newSubBenchWorld(b, ch.rows, nil)
				q, err := runq.Prepare(g.cat, k.text)
				if err != nil {
					b.Fatal(err)
				}
				var rows []runq.Value
				for range 3 {
					_ = g.w.Frame(1.0 / 60)
					rows, _ = q.Run(rows, k.args)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := g.w.Frame(1.0 / 60); err != nil {
						b.Fatal(err)
					}
					if rows, err = q.Run(rows, k.args); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A box subscription: the units inside a square, kept from the frame's
// changes. After each frame, Read hands out the units that entered,
// left or moved inside the box since the previous Read, in row order.
func ExampleSubscribeFilter() {
	type Pos struct{ X, Y float32 }
	b := tickwork.NewBuilder()
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	x := tickwork.AddColumn[float32](b, units, "X")
	y := tickwork.AddColumn[float32](b, units, "Y")
	b.System("walk", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.Write(s, x) // a bulk writer: the box re-examines its chunks
		return func(*tickwork.Context) {
			for lo, hi := range units.Runs(0) {
				for r := lo; r < hi; r++ {
					w.All()[r] += 4
				}
			}
		}
	})
	box := tickwork.SubscribeFilter(b, units, tickwork.FilterSpec[Pos]{Name: "box",
		Where: func(p *Pos) bool { return p.X >= 0 && p.X < 10 && p.Y >= 0 && p.Y < 10 }})
	for _, at := range []float32{1, 5, 20} { // the third unit is never inside
		h, _ := units.Insert()
		y.Set(h, at)
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for frame := range 3 {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		d := box.Read()
		fmt.Println("frame", frame, "entered", len(d.Entered), "changed", len(d.Changed), "left", len(d.Left), "inside", box.Len())
	}
	// Output:
	// frame 0 entered 2 changed 0 left 0 inside 2
	// frame 1 entered 0 changed 2 left 0 inside 2
	// frame 2 entered 0 changed 0 left 2 inside 0
}

// A count, a grouped sum and a top-2 over one table: each Read hands out
// what changed since the previous one (rank 1 keeps its entry, so the
// second top-2 delta names rank 0 only).
func ExampleSubscribeGroupSum() {
	type Unit struct{ Team, Score int32 }
	b := tickwork.NewBuilder()
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	team := tickwork.AddColumn[int32](b, units, "Team")
	score := tickwork.AddColumn[int32](b, units, "Score")
	n := tickwork.SubscribeCount(b, units, tickwork.FilterSpec[Unit]{Name: "scorers",
		Where: func(u *Unit) bool { return u.Score > 0 }})
	sums := tickwork.SubscribeGroupSum(b, units, tickwork.GroupSumSpec[Unit, int32, int64]{Name: "team score",
		Key: func(u *Unit) int32 { return u.Team }, Sum: func(u *Unit) int64 { return int64(u.Score) }})
	top := tickwork.SubscribeTopN(b, units, tickwork.TopSpec[Unit, int32]{Name: "best", N: 2,
		Key: func(u *Unit) int32 { return u.Score }})
	var hs []tickwork.Handle
	for i := range 4 {
		h, _ := units.Insert()
		team.Set(h, int32(i%2))
		score.Set(h, int32(i))
		hs = append(hs, h)
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	show := func() {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		fmt.Println("count", n.Read())
		for _, g := range sums.Read() {
			fmt.Println(" team", g.Key, g.Before, "->", g.After)
		}
		d := top.Read()
		for _, e := range d.Entered {
			fmt.Println(" rank", e.Rank, "row", e.Row, "score", e.Key)
		}
	}
	show()
	score.Set(hs[0], 9) // the host's write, seen at the next frame's end
	units.Delete(hs[3])
	show()
	// Output:
	// count {0 3}
	//  team 0 0 -> 2
	//  team 1 0 -> 4
	//  rank 0 row 3 score 3
	//  rank 1 row 2 score 2
	// count {3 3}
	//  team 0 2 -> 11
	//  team 1 4 -> 1
	//  rank 0 row 0 score 9
}

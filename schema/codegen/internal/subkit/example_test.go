package subkit_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema/codegen/internal/subkit"
)

// A declared box and a declared top-N, subscribed with their queries'
// parameters: after each frame, Read hands out what changed since the
// previous Read, and Result turns it into the query's row.
func ExampleSubscribeBox() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tb, err := subkit.Declare(b, subkit.DefaultSizes())
	if err != nil {
		panic(err)
	}
	box := subkit.SubscribeBox(b, tb, -20, 20, -10, 10) // subscription Box of InBox(x0, x1, y0, y1)
	weak := subkit.SubscribeWeakTop(b, tb, 2)           // subscription WeakTop of Weakest(n): order by u.Hp limit n
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	u := tb.Unit
	var hs []tickwork.Handle
	for i := range 3 {
		h, _ := u.Table.Insert()
		u.Pos.X.Set(h, float32(i*15)) // 0, 15, 30: the third is outside the box
		u.Hp.Set(h, int32(30-i*10))   // 30, 20, 10
		u.On.Set(h, true)
		hs = append(hs, h)
	}
	frame := func() {
		if err := w.Frame(0); err != nil { // no fixed tick: Drift stays
			panic(err)
		}
		d := box.Read()
		for _, e := range d.Entered {
			fmt.Printf("entered box: hp %d, x2 %v\n", box.Result(e).Hp, box.Result(e).X2)
		}
		for _, e := range d.Left {
			fmt.Printf("left box: hp %d\n", box.Result(e).Hp)
		}
		for _, e := range weak.Read().Entered {
			fmt.Printf("weakest rank %d: hp %d\n", e.Rank, weak.Result(e).Hp)
		}
	}
	frame()
	u.Pos.X.Set(hs[0], 25) // leaves the box
	u.Hp.Set(hs[1], 5)     // becomes the weakest
	frame()
	// Output:
	// entered box: hp 30, x2 0
	// entered box: hp 20, x2 30
	// weakest rank 0: hp 10
	// weakest rank 1: hp 20
	// left box: hp 30
	// weakest rank 0: hp 5
	// weakest rank 1: hp 10
}

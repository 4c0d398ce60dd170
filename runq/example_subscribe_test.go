package runq_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

// A run-time query subscribed to before Build: the world keeps the two
// weakest units from the frames' changes, and each Read hands out the
// ranks that changed since the previous one (the old entry in Left, the
// new one in Entered), as Values in the query's select order.
func ExampleSubscribe() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 64})
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	health := tickwork.AddColumn[int32](b, unit, "Health")
	// The tables and columns exist from Declare on: bind the catalog before Build.
	cat, err := runq.NewCatalog("game.tw", "domain Actors(capacity: 64)\ntable Unit(domain: Actors) { Health: int32 }\n")
	if err != nil {
		panic(err)
	}
	_ = cat.BindTable("Unit", unit)
	_ = runq.BindColumn(cat, "Unit", "Health", health)
	weakest, err := runq.Subscribe(b, cat, "query Weakest(n: int32) { from Unit u select u, u.Health order by u.Health limit n }",
		[]runq.Value{runq.I32(2)})
	if err != nil {
		panic(err)
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	var units []tickwork.Handle
	for _, hp := range []int32{40, 5, 70, 12} {
		h, _ := unit.Insert()
		health.Set(h, hp)
		units = append(units, h)
	}
	show := func(what string, l *runq.Rows) {
		for i := range l.Len() {
			fmt.Printf("  %s rank %d: unit %d health %v\n", what, l.Rank[i], l.Row[i], l.Values[i*2+1])
		}
	}
	for frame := range 2 {
		if frame == 1 {
			health.Set(units[2], 1) // unit 2 becomes the weakest
		}
		_ = w.Frame(1.0 / 60)
		delta := weakest.Read()
		fmt.Println(weakest.Kind(), "frame", frame)
		show("left", &delta.Left)
		show("entered", &delta.Entered)
	}
	result := weakest.Result(nil) // Run's buffer format: handle, health per row
	fmt.Println("result: unit", result[0].Handle().Index(), result[1], "then unit", result[2].Handle().Index(), result[3])
	// Output:
	// top-N frame 0
	//   entered rank 0: unit 1 health 5
	//   entered rank 1: unit 3 health 12
	// top-N frame 1
	//   left rank 0: unit 1 health 5
	//   left rank 1: unit 3 health 12
	//   entered rank 0: unit 2 health 1
	//   entered rank 1: unit 1 health 5
	// result: unit 2 1 then unit 1 5
}

// On a Builder that had already failed, Subscribe declares nothing and
// says so: ErrBuilder, wrapping the earlier error (here a root
// subscription over a nil table), after the query's own checks.
func ExampleSubscribe_builderFailed() {
	b := tickwork.NewBuilder()
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 8})
	health := tickwork.AddColumn[int32](b, unit, "Health")
	cat, err := runq.NewCatalog("game.tw", "table Unit(capacity: 8) { Health: int32 }\n")
	if err != nil {
		panic(err)
	}
	_ = cat.BindTable("Unit", unit)
	_ = runq.BindColumn(cat, "Unit", "Health", health)
	tickwork.SubscribeCount(b, nil, tickwork.FilterSpec[int]{Name: "Broken"}) // records an error on b
	_, err = runq.Subscribe(b, cat, "query Low() { from Unit u where u.Health < 10 select count() as N, count() as M }", nil)
	fmt.Println(errors.Is(err, runq.ErrBuilder), errors.Is(err, tickwork.ErrSubscription))
	fmt.Println(err)
	// Output:
	// true true
	// runq: subscription Low is not declared: the Builder had already failed (tickwork: subscription "Broken": nil table (the Table call that made it failed: its error comes first)); fix that error first (Builder.Err)
}

package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A table's lifecycle events: each ball that falls below the floor is
// deleted, and its delete event, read by an observer the frame after the
// playback that deleted it, still holds the ball's last height.
func ExampleLifecycle() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(0.1))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 16})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	type last struct{ Y float64 } // the columns a delete event keeps
	life := tickwork.Lifecycle[last](b, balls, tickwork.LifecycleSpec{Name: "BallLife", Capacity: 16,
		On: tickwork.Created | tickwork.Deleted})
	b.System("drop", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(d, y)
		q := tickwork.NewQuery1(tickwork.Write(d, y))
		rec := tickwork.Record(d, balls)
		return func(ctx *tickwork.Context) {
			if ctx.Tick() < 2 {
				sp.Spawn(1 + float64(ctx.Tick())) // one ball at height 1, then one at 2
			}
			for r, h := range q.All() {
				if *r.Get() -= 0.75; *r.Get() < 0 {
					rec.Delete(h)
				}
			}
		}
	})
	tickwork.Observe(b, life, func(e *tickwork.LifecycleEvent[last]) {
		if e.Change == tickwork.Deleted {
			fmt.Printf("%v of slot %d, last Y %.2f\n", e.Change, e.Handle.Index(), e.Row.Y)
			return
		}
		fmt.Printf("%v of slot %d\n", e.Change, e.Handle.Index())
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for range 6 {
		if err := w.Frame(0.1); err != nil {
			panic(err)
		}
	}
	// Output:
	// create of slot 0
	// create of slot 1
	// delete of slot 0, last Y -0.50
	// delete of slot 1, last Y -0.25
}

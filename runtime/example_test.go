package runtime_test

import (
	"fmt"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// A world with one table and two systems: spawn creates a ball every fixed
// tick, fall moves every live ball; fall runs after spawn because both touch
// Ball.Y. Each takes what it touches through its Context (a recorder of a
// Creates table, a declared written column), so the scheduler checks both
// against their manifests. The host checks only Build's error among the
// declarations (a failed one returns nil, which later calls refuse without
// panicking) and steps the world at 30 frames per second with a 1/60 s
// step.
func Example() {
	b := runtime.NewBuilder(runtime.WithFixedStep(1.0 / 60))
	balls, _ := b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 1024})
	y, _ := runtime.AddColumn[float64](b, balls, "Y")
	_ = b.Add(systems.System{Name: "spawn", Phase: systems.FixedUpdate,
		Manifest: systems.Manifest{Creates: []*ephemeral.Table{balls}, Writes: []systems.ColumnRef{systems.Col(y)}},
		Run: func(ctx *systems.Context) error {
			rec, err := ctx.Recorder(balls)
			if err == nil {
				commands.Set(rec, y, rec.Create(), 100) // played back after the tick
			}
			return err
		}},
		systems.System{Name: "fall", Phase: systems.FixedUpdate, After: []string{"spawn"},
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(y)}},
			Run: func(ctx *systems.Context) error {
				ys, err := systems.Write(ctx, y) // the whole column, by row, as the manifest allows
				if err != nil {
					return err
				}
				for c := range balls.Chunks() {
					base := c * balls.ChunkRows()
					ephemeral.EachRun(balls.Enabled(c), func(lo, hi int) {
						for r := lo; r < hi; r++ {
							ys[base+r] -= 9.8 * ctx.FixedDT()
						}
					})
				}
				return nil
			}})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for range 30 {
		if err := w.Frame(1.0 / 30); err != nil { // a host's loop passes its measured delta, seconds
			panic(err)
		}
	}
	r := w.Report()
	fmt.Println(w.Frames(), "frames,", w.Time().Ticks, "ticks,", r.FixedTicks, "ticks in the last frame")
	fmt.Println(balls.Len(), "balls;", r.Commands.Created, "created in the last frame;", len(r.Systems), "systems timed")
	// Output:
	// 30 frames, 60 ticks, 2 ticks in the last frame
	// 60 balls; 2 created in the last frame; 2 systems timed
}

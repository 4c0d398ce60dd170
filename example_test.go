package tickwork_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// A world with one table and two systems: spawn creates a ball every fixed
// tick, fall moves every live ball. The spawn's creates land at the tick's
// boundary, so the two need no order. The host checks only Build's error
// among the declarations and steps the world at 30 frames per second with
// a 1/60 s step.
func Example() {
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0 / 60))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 1024})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	b.System("spawn", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(s, y)
		return func(*tickwork.Context) { sp.Spawn(100) } // played back after the tick
	})
	b.System("fall", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewQuery1(tickwork.Write(s, y))
		return func(ctx *tickwork.Context) {
			for r := range q.All() {
				*r.Get() -= 9.8 * ctx.DT() // DT is the fixed step in FixedUpdate
			}
		}
	})
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

// A host's loop tells the errors after which no frame can run (IsFatal:
// a closed or poisoned world) from those the next frame recovers from: a
// full table (a create that did not fit) or events dropped by overflow.
// Here a spawner overfills a table of 4 rows (frame 1) and an emitter an
// event table of 2 events (frames 2 and 3); the loop logs and goes on.
func ExampleIsFatal() {
	b := tickwork.NewBuilder()
	tab := b.Table(tickwork.TableSpec{Name: "Box", Capacity: 4})
	n := tickwork.AddColumn[int32](b, tab, "N")
	noise := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Noise", Capacity: 2})
	b.System("fill", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(s, n)
		return func(ctx *tickwork.Context) {
			for i := 0; i < 3 && ctx.Frame() < 2; i++ { // 3 rows in frames 0 and 1
				sp.Spawn(int32(ctx.Frame()))
			}
		}
	})
	b.System("shout", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		e := tickwork.Emit(s, noise)
		return func(ctx *tickwork.Context) {
			for range ctx.Frame() + 1 {
				e.Emit(1)
			}
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	for frame := range 4 {
		err := w.Frame(1.0 / 60)
		switch {
		case tickwork.IsFatal(err):
			fmt.Println("fatal:", err)
			return
		case errors.Is(err, tickwork.ErrCapacity):
			fmt.Println(frame, "table full:", tab.Len(), "rows")
		case errors.Is(err, tickwork.ErrOverflow):
			fmt.Println(frame, "events dropped:", w.Report().EventsDropped)
		case err != nil:
			fmt.Println(frame, "error:", err)
		default:
			fmt.Println(frame, "ok:", tab.Len(), "rows")
		}
	}
	_ = w.Close()
	fmt.Println("after Close, fatal:", tickwork.IsFatal(w.Frame(1.0/60)))
	// Output:
	// 0 ok: 3 rows
	// 1 table full: 4 rows
	// 2 events dropped: 1
	// 3 events dropped: 2
	// after Close, fatal: true
}

// A system declares named counters on its Decl and adds to them from its
// body; the frame report shows what the frame's runs added (here two
// fixed ticks a frame, so two runs), and Counter.Total what every frame
// added.
func ExampleCounter() {
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0 / 60))
	var rolls, sixes tickwork.Counter
	n := 0
	b.System("dice", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		rolls, sixes = d.Counter("rolls"), d.Counter("sixes")
		return func(*tickwork.Context) {
			six := int64(0)
			for range 3 {
				n++
				if n%6 == 0 {
					six++
				}
			}
			rolls.Add(3)
			sixes.Add(six) // once per run, after the loop
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for range 3 {
		if err := w.Frame(1.0 / 30); err != nil {
			panic(err)
		}
	}
	r := w.Report()
	inFrame, _ := r.Counter("dice", "rolls")
	six, _ := r.Counter("dice", "sixes")
	fmt.Println("last frame:", inFrame, "rolls,", six, "sixes")
	fmt.Println("all frames:", rolls.Total(), "rolls,", sixes.Total(), "sixes")
	fmt.Println(r.System("dice").Counters)
	// Output:
	// last frame: 6 rolls, 1 sixes
	// all frames: 18 rolls, 3 sixes
	// [{rolls 6} {sixes 1}]
}

// Chain orders systems in one line: here three systems added in the other
// order run a, b, c.
func ExampleBuilder_Chain() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	for _, name := range []string{"c", "b", "a"} {
		b.System(name, tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
			return func(*tickwork.Context) { fmt.Print(name, " ") }
		})
	}
	b.Chain("a", "b", "c")
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	if err := w.Frame(1.0 / 60); err != nil {
		panic(err)
	}
	fmt.Println()
	// Output: a b c
}

// Observe hands each event to a host callback once, at the end of the
// frame that delivers it: here a NextFrame event emitted every fixed tick,
// counted without a consumer system. Frame 2 runs no tick and frame 3
// three; the count follows one frame behind the ticks.
func ExampleObserve() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(0.5))
	bumps := tickwork.AddEvents[uint64](b, tickwork.EventSpec{Name: "Bump", Capacity: 16})
	b.System("bump", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		em := tickwork.Emit(d, bumps)
		return func(ctx *tickwork.Context) { em.Emit(ctx.Tick()) }
	})
	seen := 0
	tickwork.Observe(b, bumps, func(*uint64) { seen++ })
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for _, dt := range []float64{0.5, 0, 1.5, 0} {
		if err := w.Frame(dt); err != nil {
			panic(err)
		}
		fmt.Println(w.Time().Ticks, "ticks,", seen, "seen")
	}
	// Output:
	// 1 ticks, 0 seen
	// 1 ticks, 1 seen
	// 4 ticks, 1 seen
	// 4 ticks, 4 seen
}

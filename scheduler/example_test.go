package scheduler_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Seal refuses two systems of one phase that touch the same column, one of
// them writing it, unless a constraint orders them. Here a hook (host code
// that did not write either system) orders them, and the second scheduler
// seals.
func ExampleScheduler_Seal() {
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Capacity: 64})
	x, _ := ephemeral.AddColumn[float32](body, "x")
	move := systems.System{Name: "move", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
		xs := systems.Write(s, x)
		return func(*systems.Context) { _ = xs }
	}}
	look := systems.System{Name: "look", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
		xs := systems.Read(s, x)
		return func(*systems.Context) { _ = xs }
	}}

	s, _ := scheduler.New(scheduler.Config{})
	_ = s.Add(move)
	_ = s.Add(look)
	err := s.Seal()
	fmt.Println(errors.Is(err, scheduler.ErrConflict))
	fmt.Println(err)

	s, _ = scheduler.New(scheduler.Config{})
	_ = s.Add(look) // registered first, but ordered after move below
	_ = s.Add(move)
	_ = s.Hook(func(h *scheduler.Hook) error { return h.Order("move", "look") })
	fmt.Println(s.Seal(), s.Order(systems.FixedUpdate))
	// Output:
	// true
	// scheduler: 1 conflict(s) between unordered systems; order each pair with Before/After:
	// 	FixedUpdate: "move" (write) and "look" (read) both touch Body.x
	// <nil> [move look]
}

// With Accumulate pacing, each frame runs the whole fixed steps its delta
// has accumulated, at most MaxTicksPerFrame (8 by default); whole steps
// beyond the cap are dropped and reported, and the remainder below one step
// carries over. The clock's account balances in integer nanoseconds.
func ExampleScheduler_Frame() {
	ticks := 0
	s, _ := scheduler.New(scheduler.Config{FixedStep: 0.010}) // 10 ms
	_ = s.Add(systems.System{Name: "tick", Phase: systems.FixedUpdate, Declare: func(*systems.Decl) systems.RunFunc {
		return func(*systems.Context) { ticks++ }
	}})
	if err := s.Seal(); err != nil {
		panic(err)
	}
	for _, dt := range []float64{0.025, 0.004, 0.200} { // seconds
		if err := s.Frame(dt); err != nil {
			panic(err)
		}
		r := s.Report()
		fmt.Printf("dt %v s: %d ticks, %v dropped, %v remaining\n", dt, r.FixedTicks, r.Dropped, r.Remaining)
	}
	t := s.Time()
	fmt.Println("fed", t.Fed, "= simulated", t.Simulated, "+ dropped", t.Dropped, "+ remaining", t.Remaining)
	fmt.Println(ticks, "runs of tick")
	// Output:
	// dt 0.025 s: 2 ticks, 0s dropped, 5ms remaining
	// dt 0.004 s: 0 ticks, 0s dropped, 9ms remaining
	// dt 0.2 s: 8 ticks, 120ms dropped, 9ms remaining
	// fed 229ms = simulated 100ms + dropped 120ms + remaining 9ms
	// 10 runs of tick
}

// A panic in a kernel leaves Frame as a *scheduler.PanicError naming the
// system and phase; errors.As reaches the kernel's *kernels.PanicError
// (worker and chunk) and the kernel's own error. The scheduler is poisoned.
func ExamplePanicError() {
	pool, _ := kernels.NewPool(2)
	defer pool.Close()
	pool.SetPolicy(kernels.AllWorkers) // both workers, whatever GOMAXPROCS
	errBad := errors.New("bad row")
	s, _ := scheduler.New(scheduler.Config{Pool: pool})
	_ = s.Add(systems.System{Name: "move", Phase: systems.Update, Declare: func(*systems.Decl) systems.RunFunc {
		return func(ctx *systems.Context) {
			systems.Parallel(ctx, 4, errBad, func(bad *error, w, c int) {
				if c == 3 {
					panic(*bad)
				}
			})
		}
	}})
	_ = s.Seal()
	func() {
		defer func() {
			pe, _ := recover().(*scheduler.PanicError)
			var kpe *kernels.PanicError
			fmt.Println(pe.System, pe.Phase, errors.As(pe, &kpe), kpe.Chunk, errors.Is(pe, errBad)) // kpe.Worker: whichever claimed chunk 3
		}()
		_ = s.Frame(1.0 / 60)
	}()
	fmt.Println(s.Frame(1.0 / 60))
	// Output:
	// move Update true 3 true
	// scheduler: a panic left the previous frame unfinished; close this world and build a new one
}

package runtime_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// Build refuses a world whose unordered systems touch the same data, and
// reports a bad option; both errors match their package's sentinel.
func ExampleBuilder_Build() {
	b := tickwork.NewBuilder()
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 64})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	b.System("fall", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		ys := tickwork.Write(s, y)
		return func(*tickwork.Context) { _ = ys }
	})
	b.System("draw", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		ys := tickwork.Read(s, y)
		return func(*tickwork.Context) { _ = ys }
	})
	_, err := b.Build()
	fmt.Println(errors.Is(err, tickwork.ErrConflict))
	fmt.Println(err)

	_, err = tickwork.NewBuilder(tickwork.WithWorkers(0)).Build()
	fmt.Println(errors.Is(err, tickwork.ErrOption), err)
	// Output:
	// true
	// scheduler: 1 conflict(s) between unordered systems; order each pair with Before/After:
	// 	Update: "fall" (write) and "draw" (read) both touch Ball.Y
	// true runtime: WithWorkers(0): want 1..256 workers
}

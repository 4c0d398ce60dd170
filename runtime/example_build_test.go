package runtime_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Build refuses a world whose unordered systems touch the same data, and
// reports a bad option; both errors match their package's sentinel.
func ExampleBuilder_Build() {
	noop := func(*systems.Context) error { return nil }

	b := runtime.NewBuilder()
	balls, _ := b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 64})
	y, _ := runtime.AddColumn[float64](b, balls, "Y")
	_ = b.Add(
		systems.System{Name: "fall", Phase: systems.Update, Run: noop,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(y)}}},
		systems.System{Name: "draw", Phase: systems.Update, Run: noop,
			Manifest: systems.Manifest{Reads: []systems.ColumnRef{systems.Col(y)}}})
	_, err := b.Build()
	fmt.Println(errors.Is(err, scheduler.ErrConflict))

	_, err = runtime.NewBuilder(runtime.WithWorkers(0)).Build()
	fmt.Println(errors.Is(err, runtime.ErrOption), err)
	// Output:
	// true
	// true runtime: WithWorkers(0): want 1..kernels.MaxWorkers (256) workers
}

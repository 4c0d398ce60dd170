package runtime_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// A world's declarations are charged to its memory budget, summed; the one
// past it is refused before it allocates, and Build returns that error.
func ExampleWithMemoryBudget() {
	b := tickwork.NewBuilder(tickwork.WithMemoryBudget(64 << 20)) // 64 MiB
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 1 << 20})
	tickwork.AddColumn[float32](b, units, "X") // 4 MiB
	fmt.Println(b.Budget().Used(), "bytes used")
	tickwork.AddEvents[[24]byte](b, tickwork.EventSpec{Name: "Hit", Capacity: 1 << 20}) // 2 buffers of 24 MiB
	tickwork.AddColumn[[2]float64](b, units, "Vel")                                     // 16 MiB: past the budget, refused
	_, err := b.Build()
	fmt.Println(errors.Is(err, tickwork.ErrMemoryBudget))
	fmt.Println(err)
	// Output:
	// 12854312 bytes used
	// true
	// memory: table "Unit" column "Vel" asks for 16777216 bytes (16.0 MiB), but the memory budget of 67108864 bytes (64.0 MiB) has 3922904 bytes (3.7 MiB) left (63185960 bytes (60.3 MiB) used); lower the capacity, or raise the world's budget (WithMemoryBudget)
}

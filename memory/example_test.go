package memory_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/memory"
)

// Standalone tables and event tables share one budget when their specs
// name it; the definition that does not fit is refused before it
// allocates, with the bytes it asks for and what is left.
func ExampleBudget() {
	b := memory.NewBudget(1 << 20) // 1 MiB
	balls, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Ball", Capacity: 4096, Budget: b})
	_, _ = ephemeral.AddColumn[[2]float64](balls, "Pos")
	_, _ = events.New[uint64](events.Spec{Name: "Bounce", Capacity: 1024, Budget: b})
	fmt.Println(b.Used(), "of", b.Limit(), "bytes used")

	_, err := ephemeral.AddColumn[[64]float32](balls, "Trail") // 4096 rows of 256 bytes
	var be *memory.BudgetError
	fmt.Println(errors.As(err, &be), errors.Is(err, memory.ErrBudget), be.Bytes, be.Used)
	fmt.Println(err)
	// Output:
	// 115748 of 1048576 bytes used
	// true true 1048576 115748
	// memory: table "Ball" column "Trail" asks for 1048576 bytes (1.0 MiB), but the memory budget of 1048576 bytes (1.0 MiB) has 932828 bytes left (115748 bytes used); lower the capacity, or raise the limit of the Budget given to the spec (memory.NewBudget)
}

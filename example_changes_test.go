package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A system reads only what changed since its own last run: the rows whose
// Health a tracked writer set, and the rows added.
func ExampleChanged() {
	b := tickwork.NewBuilder()
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 1024})
	health := tickwork.AddColumn[int32](b, units, "Health")
	var hit tickwork.Handle
	b.System("hit", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, health) // stamps each row it writes
		return func(*tickwork.Context) {
			if p := hp.Ptr(hit); p != nil {
				*p -= 10
			}
		}
	})
	b.System("show", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		changed, added := tickwork.Changed(s, health), tickwork.Added(s, units)
		hp := tickwork.Read(s, health)
		return func(*tickwork.Context) {
			n := 0
			for range added.Rows() {
				n++
			}
			for r := range changed.Rows() {
				fmt.Println("row", r, "health", hp.At(r), "added", n)
			}
		}
	})
	for i := range 3 {
		h, _ := units.Insert()
		health.Set(h, 100)
		if i == 1 {
			hit = h
		}
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for range 2 {
		_ = w.Frame(1.0 / 60)
	}
	// Output:
	// row 0 health 100 added 3
	// row 1 health 90 added 3
	// row 2 health 100 added 3
	// row 1 health 80 added 0
}

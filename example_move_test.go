package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// Ants change state by changing table: a forager that reaches food
// becomes a carrier. Move does it in one record, carrying the columns both
// tables have (X) and starting the others at zero (Load); the ant keeps
// its handle. Remove of its only row then Attach does the same, as long as
// both are recorded by one system in one frame phase: an entity may have
// no row until its system's commands have played back.
func ExampleMove() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	ants := b.Domain(tickwork.DomainSpec{Name: "Ant", Capacity: 64})
	forager := b.Table(tickwork.TableSpec{Name: "Forager", Domain: ants})
	carrier := b.Table(tickwork.TableSpec{Name: "Carrier", Domain: ants})
	fx := tickwork.AddColumn[float32](b, forager, "X")
	cx := tickwork.AddColumn[float32](b, carrier, "X")
	load := tickwork.AddColumn[int32](b, carrier, "Load")
	b.System("forage", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewQuery1(tickwork.Read(s, fx))
		fr, cr := tickwork.Record(s, forager), tickwork.Record(s, carrier)
		return func(*tickwork.Context) {
			for r, h := range q.All() {
				if *r.Get() >= 2 { // at the food
					tickwork.Move(h, fr, cr)
				}
			}
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	hs := make([]tickwork.Handle, 4)
	if err := forager.InsertN(hs); err != nil {
		panic(err)
	}
	for i, h := range hs {
		fx.All()[h.Index()] = float32(i)
	}
	if err := w.Frame(1.0 / 60); err != nil {
		panic(err)
	}
	fmt.Println("foragers", forager.Len(), "carriers", carrier.Len(), "moved", w.Report().Commands.Moved)
	fmt.Println("ant 3: carrier", carrier.IsAlive(hs[3]), "X", cx.All()[hs[3].Index()], "Load", load.All()[hs[3].Index()])
	// Output:
	// foragers 2 carriers 2 moved 2
	// ant 3: carrier true X 3 Load 0
}

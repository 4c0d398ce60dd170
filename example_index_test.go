package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/index"
)

// Indexes declared on the Builder and kept by the world: a sorted index
// of units by health walked for the weakest, a grid of their positions
// asked for a box, a hash index of hits by target. The damage system
// writes Health, so the world diffs it after the system; the move system
// marks the rows it moves (MaintainIndex), so only those are refiled; the
// report system reads the indexes (ReadIndex), which orders it after both
// (docs/architecture.md, Indexes).
func Example_indexes() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 256})
	hp := tickwork.AddColumn[int32](b, units, "Health")
	x := tickwork.AddColumn[float32](b, units, "X")
	y := tickwork.AddColumn[float32](b, units, "Y")
	hits := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Hit", Capacity: 64, Lifetime: tickwork.NextFrame})

	byHealth := tickwork.AddSortedIndex(b, "UnitsByHealth", hp)
	byPos := tickwork.AddGridIndex(b, "UnitsByPos", x, y, 64)
	hitsByTarget := tickwork.AddEventIndex(b, "HitsByTarget", hits, func(target *int32) int32 { return *target })

	b.System("damage", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		h := tickwork.Write(d, hp)
		emit := tickwork.Emit(d, hits)
		return func(*tickwork.Context) {
			h.All()[2] -= 30 // row 2 takes a hit
			emit.Emit(2)
			emit.Emit(2)
			emit.Emit(1)
		}
	})
	b.System("move", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		xs := tickwork.Write(d, x)
		tickwork.Write(d, y)
		marks := tickwork.MaintainIndex(d, byPos)
		return func(*tickwork.Context) {
			xs.All()[0] += 100 // row 0 crosses into the next cell
			marks.Mark(0)
		}
	})
	b.System("report", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		tickwork.ReadIndex(d, byHealth)
		tickwork.ReadIndex(d, byPos)
		return func(*tickwork.Context) {
			s := byHealth.Sorted()
			fmt.Print("weakest:")
			for r, n := s.First(), 0; r != index.NoRow && n < 2; r, n = s.Next(r), n+1 {
				k, _ := s.Key(r)
				fmt.Print(" row ", r, " (", k, ")")
			}
			fmt.Println()
			fmt.Println("in the box:", byPos.Grid().AppendBox(nil, 0, 0, 63, 63))
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for i := range 3 {
		h, _ := units.Insert()
		hp.Set(h, int32(50+10*i)) // typed writes: the world follows them
		x.Set(h, float32(20*i))
	}
	if err := w.Frame(1.0 / 60); err != nil {
		panic(err)
	}
	// Between frames the host reads the delivered hits through the event index.
	if err := w.Frame(1.0 / 60); err != nil {
		panic(err)
	}
	hs := hitsByTarget.Hash()
	fmt.Println("hits on row 2:", hs.Count(2), "on row 1:", hs.Count(1))
	// Output:
	// weakest: row 2 (40) row 0 (50)
	// in the box: [1 2]
	// weakest: row 2 (10) row 0 (50)
	// in the box: [1 2]
	// hits on row 2: 2 on row 1: 1
}

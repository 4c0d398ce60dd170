package arena_test

import (
	"fmt"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// The host runs the arena's declared queries (arena.tw) between frames:
// NewQueries once, then each query into a reused buffer.
func ExampleNewQueries() {
	s, err := arena.New(rules.Config{Units: 1000, Shots: 64, Seed: 3, Workers: 1})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	for range 60 {
		if err := s.Frame(); err != nil {
			panic(err)
		}
	}
	q := arena.NewQueries(s.Tables())
	fmt.Println("units:", q.CountUnits.Run().Count)
	var weak []arena.WeakestUnitsRow
	weak = q.WeakestUnits.Run(weak, 3)
	for _, r := range weak {
		fmt.Printf("weak: slot %d, health %d\n", r.Unit.Index(), r.Health)
	}
	c := rules.W / 2
	in := q.BodiesInBox.Run(nil, c-200, c-200, c+200, c+200)
	fmt.Println("in the box:", len(in))
	fmt.Println(q.WeakestUnits.Plan())
	fmt.Println(q.HitTotalsByTarget.Plan())
	// Output:
	// units: 1000
	// weak: slot 22, health 1
	// weak: slot 764, health 1
	// weak: slot 767, health 1
	// in the box: 41
	// index UnitsByHealth (sorted on Unit(Health)): ascending walk in (Health, index), first n
	// index HitsByTarget (hash on HitEvent(Target)): a walk per group of Target (each in ascending emission position; the scan instead when the events are fewer than 64 a group); group by Target: a dense array over the capacity of domain Actors; groups in key order: a pass over the slots, or a sort
}

package runq_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

// A query text prepared once against a world's catalog and run with two
// arguments: the three units of least health at or above min.
func Example() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 64})
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	health := tickwork.AddColumn[int32](b, unit, "Health")
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for _, hp := range []int32{40, 5, 70, 12, 33, 12} {
		h, _ := unit.Insert()
		health.Set(h, hp)
	}

	cat, err := runq.NewCatalog("game.tw", "domain Actors(capacity: 64)\ntable Unit(domain: Actors) { Health: int32 }\n")
	if err != nil {
		panic(err)
	}
	_ = cat.BindTable("Unit", unit)
	_ = runq.BindColumn(cat, "Unit", "Health", health)

	q, err := runq.Prepare(cat, "query Weakest(min: int32, n: int32) { from Unit u where u.Health >= min select u, u.Health order by u.Health limit n }")
	if err != nil {
		panic(err)
	}
	rows, err := q.Run(nil, []runq.Value{runq.I32(10), runq.I32(3)})
	if err != nil {
		panic(err)
	}
	for i := 0; i < len(rows); i += len(q.Columns()) {
		fmt.Println(rows[i].Handle().Index(), rows[i+1])
	}
	fmt.Println(q.Plan())

	_, err = runq.Prepare(cat, "query Bad() { from Unit u select u.Mana }")
	fmt.Println(err)
	// Output:
	// 3 12
	// 5 12
	// 4 33
	// scan Unit (ascending index); filter; stable sort by the order keys (ties: index); limit
	// query:1:36: unknown column "Mana" in u.Mana (u is a row of table Unit); its columns are Health
}

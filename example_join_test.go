package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A system joins two tables of one domain, Body (positions) and Motion
// (velocities), and skips the entities tagged Frozen, a tag table with no
// columns; another system tags the entities that passed x = 2, through a
// recorder of the tag table, and they stop. The host counts the tags with
// a join of the tag alone.
func ExampleNewJoin2() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithPacing(tickwork.OneTickPerFrame))
	herd := b.Domain(tickwork.DomainSpec{Name: "Herd", Capacity: 8})
	body := b.Table(tickwork.TableSpec{Name: "Body", Domain: herd})
	motion := b.Table(tickwork.TableSpec{Name: "Motion", Domain: herd})
	frozen := b.Table(tickwork.TableSpec{Name: "Frozen", Domain: herd}) // a tag table
	x := tickwork.AddColumn[float32](b, body, "X")
	v := tickwork.AddColumn[float32](b, motion, "V")
	b.System("move", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin2(tickwork.Write(s, x), tickwork.Read(s, v), tickwork.Without(frozen))
		return func(*tickwork.Context) {
			for r := range q.All() {
				px, pv := r.Get()
				*px += *pv
			}
		}
	})
	b.System("freeze", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin1(tickwork.Read(s, x), tickwork.Without(frozen))
		tag := tickwork.Record(s, frozen)
		return func(*tickwork.Context) {
			for r, h := range q.All() {
				if *r.Get() > 2 {
					tag.Attach(h) // played back after Update
				}
			}
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for i := range 4 {
		h, _ := body.Insert()
		if i > 0 { // entity 0 has no motion row: the join skips it
			_ = motion.Attach(h)
			v.Set(h, float32(i))
		}
	}
	for range 3 {
		_ = w.Frame(1.0 / 60)
	}
	q, _ := tickwork.HostJoin1(x)
	for r, h := range q.All() {
		fmt.Println("entity", h.Index(), "x", *r.Get(), "frozen", frozen.IsAlive(h))
	}
	tags, _ := tickwork.HostJoin(tickwork.With(frozen))
	fmt.Println(tags.Count(), "frozen")
	// Output:
	// entity 0 x 0 frozen false
	// entity 1 x 3 frozen true
	// entity 2 x 4 frozen true
	// entity 3 x 3 frozen true
	// 3 frozen
}

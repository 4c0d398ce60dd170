package ephemeral_test

import (
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
)

// A join moves the entities of a domain that have a Body and a Motion row
// and no Frozen row; Frozen is a tag table (no columns). Entity 0 has no
// motion, entity 2 is frozen: the join visits 1 and 3, in row order.
func ExampleNewJoin2() {
	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: dom})
	motion, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Motion", Domain: dom})
	frozen, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Frozen", Domain: dom})
	x, _ := ephemeral.AddColumn[float32](body, "x")
	v, _ := ephemeral.AddColumn[float32](motion, "v")

	hs := make([]ephemeral.Handle, 4)
	_ = body.InsertN(hs)
	for i, h := range hs[1:] {
		_ = motion.Attach(h)
		v.Set(h, float32(i+1))
	}
	_ = frozen.Attach(hs[2])

	q, err := ephemeral.NewJoin2(x, v, ephemeral.Without(frozen))
	if err != nil {
		panic(err)
	}
	for r, h := range q.All() {
		px, pv := r.Get()
		*px += *pv
		fmt.Println("moved entity", h.Index(), "to", *px)
	}
	tags, _ := ephemeral.NewJoin(ephemeral.With(frozen))
	for h := range tags.All() {
		fmt.Println("frozen:", h.Index())
	}
	alone, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Alone", Capacity: 8}) // a domain of its own
	_, err = ephemeral.NewJoin1(x, ephemeral.With(alone))
	fmt.Println(err)
	// Output:
	// moved entity 1 to 1
	// moved entity 3 to 3
	// frozen: 2
	// ephemeral: table "Alone": a join's tables must belong to one domain (table "Alone" is of domain "Alone", table "Body" of domain "units")
}

// A join of five columns over three tables of one domain: from five
// columns a row is the wide form (the row index and the join's columns),
// whose Get returns a pointer per column as a narrow row's does. Entity 1
// has no Mass row: the join skips it.
func ExampleNewJoin5() {
	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: dom})
	motion, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Motion", Domain: dom})
	mass, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Mass", Domain: dom})
	x, _ := ephemeral.AddColumn[float32](body, "x")
	y, _ := ephemeral.AddColumn[float32](body, "y")
	vx, _ := ephemeral.AddColumn[float32](motion, "vx")
	vy, _ := ephemeral.AddColumn[float32](motion, "vy")
	m, _ := ephemeral.AddColumn[float32](mass, "m")

	hs := make([]ephemeral.Handle, 3)
	_ = body.InsertN(hs)
	for i, h := range hs {
		_ = motion.Attach(h)
		vx.Set(h, float32(i+1))
		vy.Set(h, -1)
		if i != 1 {
			_ = mass.Attach(h)
			m.Set(h, 2)
		}
	}

	q, err := ephemeral.NewJoin5(x, y, vx, vy, m)
	if err != nil {
		panic(err)
	}
	for r, h := range q.All() {
		px, py, pvx, pvy, pm := r.Get()
		*px += *pvx / *pm
		*py += *pvy / *pm
		fmt.Println("entity", h.Index(), "at", *px, *py)
	}
	// Output:
	// entity 0 at 0.5 -0.5
	// entity 2 at 1.5 -0.5
}

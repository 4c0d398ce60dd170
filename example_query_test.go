package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// Vec2 is a struct column's element.
type Vec2 struct{ X, Y float32 }

// A host query over all five columns of a table sets every column of the
// rows it inserts: Insert from one value per column, InsertN for many rows
// through a callback that gets each new row's handle and a pointer per
// column (nil: rows of zero values). Set-up, between frames; neither
// allocates.
func ExampleQuery5_Insert() {
	b := tickwork.NewBuilder()
	birds := b.Table(tickwork.TableSpec{Name: "Bird", Capacity: 5000})
	pos := tickwork.AddColumn[Vec2](b, birds, "Pos")
	vel := tickwork.AddColumn[Vec2](b, birds, "Vel")
	age := tickwork.AddColumn[int32](b, birds, "Age")
	flock := tickwork.AddColumn[uint16](b, birds, "Flock")
	mass := tickwork.AddColumn[float32](b, birds, "Mass")
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()

	q := tickwork.HostQuery5(pos, vel, age, flock, mass) // a bad query's error comes from its first Insert
	leader, err := q.Insert(Vec2{0, 0}, Vec2{1, 0}, 0, 7, 2.5)
	if err != nil {
		panic(err)
	}
	err = q.InsertN(4000, func(h tickwork.Handle, p, v *Vec2, a *int32, f *uint16, m *float32) {
		i := float32(h.Index())
		*p, *v, *a, *f, *m = Vec2{i, -i}, Vec2{0, 1}, 0, uint16(h.Index()%8), 1
	})
	if err != nil {
		panic(err)
	}
	if err := q.InsertN(10, nil); err != nil { // zero values in every column
		panic(err)
	}
	fmt.Println(birds.Len(), "birds; leader at slot", leader.Index())
	for r, h := range q.All() {
		if i := h.Index(); i == 0 || i == 3 || i == 4001 {
			p, v, a, f, m := r.Get()
			fmt.Println(i, *p, *v, *a, *f, *m)
		}
	}
	fmt.Println(q.InsertN(1000, nil)) // does not fit: none inserted
	// Output:
	// 4011 birds; leader at slot 0
	// 0 {0 0} {1 0} 0 7 2.5
	// 3 {3 -3} {0 1} 0 3 1
	// 4001 {0 0} {0 0} 0 0 0
	// ephemeral: table "Bird" is full: capacity 5000 rows, 4011 live, 1000 requested
}

// A system spawns entities with a value for each of a table's five
// columns; Reserve, in the declaration, makes room for a run's spawns so
// that spawning frames allocate nothing. The creates play back at the end
// of the phase.
func ExampleSpawner5() {
	b := tickwork.NewBuilder()
	birds := b.Table(tickwork.TableSpec{Name: "Bird", Capacity: 5000})
	pos := tickwork.AddColumn[Vec2](b, birds, "Pos")
	vel := tickwork.AddColumn[Vec2](b, birds, "Vel")
	age := tickwork.AddColumn[int32](b, birds, "Age")
	flock := tickwork.AddColumn[uint16](b, birds, "Flock")
	mass := tickwork.AddColumn[float32](b, birds, "Mass")
	b.System("hatch", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner5(d, pos, vel, age, flock, mass)
		sp.Reserve(2)
		return func(ctx *tickwork.Context) {
			f := float32(ctx.Frame())
			sp.Spawn(Vec2{f, 0}, Vec2{0, 1}, 0, 1, 1.5)
			sp.Spawn(Vec2{f, 1}, Vec2{0, -1}, 0, 2, 0.5)
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for range 3 {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
	}
	q := tickwork.HostQuery5(pos, vel, age, flock, mass)
	for r := range q.All() {
		p, v, a, f, m := r.Get()
		fmt.Println(*p, *v, *a, *f, *m)
	}
	// Output:
	// {0 0} {0 1} 0 1 1.5
	// {0 1} {0 -1} 0 2 0.5
	// {1 0} {0 1} 0 1 1.5
	// {1 1} {0 -1} 0 2 0.5
	// {2 0} {0 1} 0 1 1.5
	// {2 1} {0 -1} 0 2 0.5
}

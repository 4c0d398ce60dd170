package schema_test

import (
	"fmt"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// A struct column is one engine column per field, and a body that reads
// a resource has it in its access (so in its manifest).
func ExampleLoad() {
	src := `
const Half = 0.5
struct Vec2 { X: float32  Y: float32 }
resource Flock { Drag: float32 = 0.99  Wind: Vec2 }
table Boid(capacity: 1000) { Pos: Vec2  Vel: Vec2 }
system Steer(phase: fixed_update) {
	from Boid b
	set b.Vel *= Flock.Drag, b.Vel += Flock.Wind * @dt, b.Pos += b.Vel * @dt * Half
}
`
	s, err := schema.Load("flock.tw", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	var names []string
	for _, c := range s.Tables[0].Columns {
		names = append(names, c.Name)
	}
	fmt.Println(strings.Join(names, " "))
	a := s.Systems[0].Access
	fmt.Println("writes", len(a.Writes), "reads", len(a.Reads), "resources", a.Resources[0].Name)
	fmt.Println(s.Consts[0].Name, s.Consts[0].Type)
	// Output:
	// Pos.X Pos.Y Vel.X Vel.Y
	// writes 4 reads 0 resources Flock
	// Half untyped float
}

// Declared systems that would conflict at Build are refused with their
// schema positions.
func ExampleLoad_order() {
	src := `table T(capacity: 8) { X: float32 }
system A(phase: update) { from T t set t.X += 1 }
system B(phase: update) { from T t set t.X *= 2 }
`
	_, err := schema.Load("x.tw", []byte(src))
	fmt.Println(err)
	// Output:
	// x.tw:3:8: systems A (x.tw:2:8) and B of phase update are not ordered, and both write T.X; order them: add after: A to system B, or before: B to system A
}

package systems_test

import (
	"fmt"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/systems"
)

// Declare runs a system's declaration and derives its manifest from the
// accessors it asked for; Conflicts compares two manifests as the
// scheduler does at seal. A written column conflicts with a read of it; a
// recorder of a domain conflicts with another recorder of it, but not with
// reads or writes (its commands land at the boundary); a consumer of a
// NextFrame event table reads last frame's events, so it does not
// conflict with this frame's emitter.
func ExampleConflicts() {
	units, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	unit, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: units})
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: units})
	health, _ := ephemeral.AddColumn[int32](unit, "health")
	x, _ := ephemeral.AddColumn[float32](body, "x")
	hits, _ := events.New[ephemeral.Handle](events.Spec{Name: "hits", Capacity: 8}) // NextFrame

	manifest := func(name string, declare func(s *systems.Decl)) *systems.Manifest {
		d, err := systems.Declare(systems.System{Name: name, Phase: systems.Update,
			Declare: func(s *systems.Decl) systems.RunFunc { declare(s); return func(*systems.Context) {} }}, nil)
		if err != nil {
			panic(err)
		}
		return &d.Manifest
	}
	move := manifest("move", func(s *systems.Decl) { systems.Write(s, x); systems.Emit(s, hits) })
	look := manifest("look", func(s *systems.Decl) { systems.Read(s, x); systems.Consume(s, hits) })
	kill := manifest("kill", func(s *systems.Decl) { systems.Read(s, health); systems.Record(s, unit) })
	grow := manifest("grow", func(s *systems.Decl) { systems.Record(s, body) })

	fmt.Println(systems.Conflicts(nil, move, look))
	fmt.Println(systems.Conflicts(nil, kill, look), systems.Conflicts(nil, kill, move))
	fmt.Println(systems.Conflicts(nil, kill, grow))
	// Output:
	// [write/read Body.x]
	// [] []
	// [record Unit/record Body Unit|Body]
}

package systems_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/systems"
)

// Conflicts compares two manifests as the scheduler does at seal: a written
// column against a read of it, and a delete in a domain against any access
// to a table of that domain. A consumer of a NextFrame event table reads
// only events published at an earlier boundary, so it does not conflict
// with an emitter.
func ExampleConflicts() {
	units, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	unit, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: units})
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: units})
	health, _ := ephemeral.AddColumn[int32](unit, "health")
	x, _ := ephemeral.AddColumn[float32](body, "x")
	hits, _ := events.New[ephemeral.Handle](events.Spec{Name: "hits", Capacity: 8}) // NextFrame

	move := systems.Manifest{Writes: []systems.ColumnRef{systems.Col(x)}, Emits: []events.Buffer{hits}}
	look := systems.Manifest{Reads: []systems.ColumnRef{systems.Col(x)}, Consumes: []events.Buffer{hits}}
	kill := systems.Manifest{Reads: []systems.ColumnRef{systems.Col(health)}, Deletes: []*ephemeral.Table{unit}}

	fmt.Println(systems.Conflicts(nil, &move, &look))
	fmt.Println(systems.Conflicts(nil, &kill, &look))
	// Output:
	// [write/read Body.x]
	// [delete Unit/read Body.x]
}

// A system's Context hands out only what its manifest declares. Outside a
// world (in a test, say) a Context is built with NewEnv and NewContext; the
// scheduler does the same at seal and plays the recorded commands back.
func ExampleContext() {
	balls, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Ball", Capacity: 64})
	y, _ := ephemeral.AddColumn[float64](balls, "y")
	vy, _ := ephemeral.AddColumn[float64](balls, "vy")

	sys := systems.System{Name: "spawn", Phase: systems.FixedUpdate,
		Manifest: systems.Manifest{Creates: []*ephemeral.Table{balls}, Writes: []systems.ColumnRef{systems.Col(y)}},
		Run:      func(*systems.Context) error { return nil }}
	playback := commands.NewPlayback(nil)
	env := systems.NewEnv(nil, playback, 1.0/60) // no pool: kernels run inline
	ctx, err := systems.NewContext(&sys, env, 16)
	if err != nil {
		panic(err)
	}

	rec, _ := ctx.Recorder(balls) // declared: Creates
	h := rec.Create()
	commands.Set(rec, y, h, 100)
	_, err = systems.Write(ctx, vy) // not declared
	fmt.Println(err)
	fmt.Println(errors.Is(err, systems.ErrNotDeclared))

	playback.Play(ctx.CommandBuffer()) // the scheduler does this after the phase
	ball, ok := ctx.Resolve(h)
	row, _ := balls.Lease().Row(ball)
	fmt.Println(ok, balls.Len(), y.All()[row])
	// Output:
	// systems: system "spawn" may not write column "Ball.vy": not declared in its manifest
	// true
	// true 1 100
}

package commands_test

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// A system records a spawn and a delete while kernels run; the boundary
// plays them back.
func Example() {
	units, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 4})
	hp, _ := ephemeral.AddColumn[int32](units, "hp")
	old, _ := units.Insert()

	pb := commands.NewPlayback(nil)         // set-up: one playback per world
	buf, err := pb.NewBuffer("spawner", 64) // and one buffer per system
	if err != nil {
		panic(err)
	}

	rec := buf.Recorder(units) // once per system run
	spawn := rec.Create()
	commands.Set(rec, hp, spawn, 100)
	rec.Delete(old)
	fmt.Println("provisional alive:", units.IsAlive(spawn), "rows:", units.Len())

	st := pb.PlayAll([]*commands.Buffer{buf}) // the boundary
	real, _ := pb.Resolve(spawn)
	v, _ := hp.Get(real)
	fmt.Printf("created %d, deleted %d, rows %d, hp %d\n", st.Created, st.Deleted, units.Len(), v)
	// Output:
	// provisional alive: false rows: 1
	// created 1, deleted 1, rows 1, hp 100
}

// A create that does not fit is reported; the rest of the buffer plays.
func ExamplePlayback_PlayAll_capacity() {
	units, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 1})
	pb := commands.NewPlayback(nil)
	buf, _ := pb.NewBuffer("", 8)
	rec := buf.Recorder(units)
	first := rec.Create()
	rec.Create() // no room: fails at playback
	rec.Delete(first)
	st := pb.PlayAll([]*commands.Buffer{buf})
	fmt.Println(errors.Is(st.Err, ephemeral.ErrCapacity), st.CapacityErrors, st.Deleted, units.Len())
	fmt.Println(st.Err)
	// Output:
	// true 1 1 0
	// tickwork: buffer 0: create 2 in table "units" (record 1 of creates and sets): ephemeral: table "units" is full: capacity 1 rows, 1 live, 1 requested
}

// Workers of a parallel kernel record into their own buffers, one keyed
// segment per chunk; PlayMerged plays them in chunk order, so the handles do
// not depend on the worker count.
func ExamplePlayback_PlayMerged() {
	units, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "units", Capacity: 8})
	id, _ := ephemeral.AddColumn[int32](units, "chunk")
	const workers, chunks = 2, 4
	pb := commands.NewPlayback(nil)
	bufs := make([]*commands.Buffer, workers)
	for w := range bufs {
		bufs[w], _ = pb.NewBuffer("kernel", 16)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(b *commands.Buffer) {
			defer wg.Done()
			rec := b.Recorder(units)
			for c := w; c < chunks; c += workers {
				b.Begin(c)
				commands.Set(rec, id, rec.Create(), int32(c))
			}
		}(bufs[w])
	}
	wg.Wait()
	pb.PlayMerged(bufs)
	for row := 0; row < chunks; row++ {
		h, _ := units.HandleAt(row)
		c, _ := id.Get(h)
		fmt.Print(h.Index(), ":", h.Generation(), " chunk ", c, "; ")
	}
	fmt.Println()
	// Output:
	// 0:1 chunk 0; 1:1 chunk 1; 2:1 chunk 2; 3:1 chunk 3;
}

// An ant changes table, forager to carrier, in one record: its position
// (the columns both tables have) comes along, its cargo starts at zero.
// Remove then Attach does the same without carrying values: the entity
// has no row in between, which is allowed until the buffer's playback
// ends.
func ExampleMove() {
	ants, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "ants", Capacity: 8})
	forager, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Forager", Domain: ants})
	carrier, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Carrier", Domain: ants})
	fx, _ := ephemeral.AddColumn[float32](forager, "x")
	cx, _ := ephemeral.AddColumn[float32](carrier, "x")
	cargo, _ := ephemeral.AddColumn[int32](carrier, "cargo")
	a, _ := forager.Insert()
	b, _ := forager.Insert()
	fx.Set(a, 1.5)
	fx.Set(b, 2.5)

	pb := commands.NewPlayback(nil)
	buf, _ := pb.NewBuffer("forage", 16)
	fr, cr := buf.Recorder(forager), buf.Recorder(carrier)
	commands.Move(a, fr, cr)
	fr.Remove(b) // b's only row...
	cr.Attach(b) // ...and a new one: b lives on
	st := pb.PlayAll([]*commands.Buffer{buf})

	x, _ := cx.Get(a)
	c, _ := cargo.Get(a)
	xb, _ := cx.Get(b)
	fmt.Println("moved", st.Moved, "emptied", st.Emptied, "carriers", carrier.Len(), "foragers", forager.Len())
	fmt.Println("a: x", x, "cargo", c, "; b: x", xb)
	// Output:
	// moved 1 emptied 0 carriers 2 foragers 0
	// a: x 1.5 cargo 0 ; b: x 0
}

// A recorder refuses a create its table could not hold after playback, at
// the call; a delete recorded before it makes room.
func ExampleRecorder_TryCreate() {
	birds, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Bird", Capacity: 2})
	old, _ := birds.Insert()
	pb := commands.NewPlayback(nil)
	buf, _ := pb.NewBuffer("spawn", 8)
	rec := buf.Recorder(birds)
	_, err1 := rec.TryCreate()
	_, err2 := rec.TryCreate()
	rec.Delete(old)
	_, err3 := rec.TryCreate()
	fmt.Println(err1, "|", err2, "|", err3)
	st := pb.PlayAll([]*commands.Buffer{buf})
	fmt.Println("created", st.Created, "refused", st.CapacityErrors, "rows", birds.Len())
	// Output:
	// <nil> | ephemeral: table "Bird" is full: capacity 2 rows, 2 live, 1 requested | <nil>
	// created 2 refused 1 rows 2
}

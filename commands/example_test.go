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
	// commands: buffer 0 record 1: create in table "units": ephemeral: table "units" is full: capacity 1 rows, 1 live, 1 requested
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

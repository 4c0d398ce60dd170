package journal_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/journal"
)

// A world whose only input is a burst of spawns. The host appends inputs
// (from any goroutine; Append returns once they are durable), each frame
// takes the inputs durable when it begins, and a journal reopened on the
// same store (here a MemStore; stores/sqlite for a file) brings a fresh
// world back to the same frame and state: the last checkpoint restored,
// the frames after it re-run with their inputs.
func Example() {
	type burst struct {
		X float32
		N int32
	}
	build := func() (*tickwork.World, *journal.Inputs[burst], *tickwork.Resource[int64]) {
		b := tickwork.NewBuilder()
		in := journal.AddInputs[burst](b, journal.InputSpec{Name: "burst", Capacity: 64})
		total := tickwork.AddResource(b, "spawned", int64(0))
		b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			r := tickwork.Consume(d, in.Events())
			n := tickwork.WriteResource(d, total)
			return func(*tickwork.Context) {
				for _, e := range r.Read() {
					*n += int64(e.Value.N)
				}
			}
		})
		w, err := b.Build()
		if err != nil {
			panic(err)
		}
		return w, in, total
	}

	store := journal.NewMemStore()
	w, in, total := build()
	j, err := journal.Open(w, store, journal.Options{CheckpointEvery: 4}, in)
	if err != nil {
		panic(err)
	}
	for f := range 10 {
		if _, err := in.Append(burst{X: 1, N: int32(f)}); err != nil {
			panic(err)
		}
		if err := j.Frame(1.0 / 60); err != nil {
			panic(err)
		}
	}
	fmt.Println("frames", w.Frames(), "spawned", *total.Get())
	if err := j.Close(); err != nil {
		panic(err)
	}
	w.Close()

	// A new process: the same declarations, the same store.
	w2, in2, total2 := build()
	defer w2.Close()
	j2, err := journal.Open(w2, store.Reopen(), journal.Options{CheckpointEvery: 4}, in2)
	if err != nil {
		panic(err)
	}
	defer j2.Close()
	fmt.Println("recovered: frames", w2.Frames(), "spawned", *total2.Get())
	// Output:
	// frames 10 spawned 45
	// recovered: frames 10 spawned 45
}

package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A row system in one call: Each2 declares the columns its arguments name
// (Writes, Reads) and the uses after its function (here a recorder), and
// calls the function with every live row each run.
func ExampleEach2() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(0.5))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 8})
	y, vy := tickwork.AddColumn[float64](b, balls, "Y"), tickwork.AddColumn[float64](b, balls, "VY")
	rec := tickwork.Records(balls)
	tickwork.Each2(b, "fall", tickwork.FixedUpdate, tickwork.Writes(y), tickwork.Reads(vy), func(ctx *tickwork.Context, h tickwork.Handle, y, vy *float64) {
		if *y += *vy * ctx.DT(); *y <= 0 {
			rec.Delete(h) // played back after the tick
		}
	}, rec)
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	q := tickwork.HostQuery2(y, vy)
	for _, start := range []float64{1, 2, 3} {
		if _, err := q.Insert(start, -1); err != nil {
			panic(err)
		}
	}
	for range 3 {
		if err := w.Frame(1); err != nil { // two ticks a frame
			panic(err)
		}
		q.Each(func(h tickwork.Handle, y, _ *float64) { fmt.Print(h.Index(), ":", *y, " ") })
		fmt.Println("-", balls.Len(), "balls")
	}
	// Output:
	// 1:1 2:2 - 2 balls
	// 2:1 - 1 balls
	// - 0 balls
}

// ParallelEach2 runs a row system's rows on the kernel workers; each
// worker records and emits through its Worker (At), merged in chunk order,
// so the events come in row order at any worker count.
func ExampleParallelEach2() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2), tickwork.WithKernelPolicy(tickwork.KernelPolicy{Grain: 1, Fixed: true}))
	cells := b.Table(tickwork.TableSpec{Name: "Cell", Capacity: 256, ChunkRows: 64})
	heat, rate := tickwork.AddColumn[int32](b, cells, "Heat"), tickwork.AddColumn[int32](b, cells, "Rate")
	hot := tickwork.AddEvents[uint32](b, tickwork.EventSpec{Name: "Hot", Capacity: 256, Lifetime: tickwork.ThisFrame})
	em := tickwork.EmitsParallel(hot)
	tickwork.ParallelEach2(b, "warm", tickwork.Update, tickwork.Writes(heat), tickwork.Reads(rate), func(w tickwork.Worker, h tickwork.Handle, heat, rate *int32) {
		if *heat += *rate; *heat >= 100 {
			em.At(w).Emit(h.Index())
			*heat = 0
		}
	}, em)
	var got []uint32
	tickwork.Observe(b, hot, func(i *uint32) { got = append(got, *i) })
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	if err := tickwork.HostQuery2(heat, rate).InsertN(256, func(h tickwork.Handle, _, rate *int32) { *rate = int32(h.Index() % 50) }); err != nil {
		panic(err)
	}
	for range 3 {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
	}
	fmt.Println(len(got), "hot cells, the first", got[:4])
	// Output: 80 hot cells, the first [34 35 36 37]
}

// A host query has no error result: a bad one (a column of a failed
// AddColumn) keeps its error, which its first Insert returns.
func ExampleQuery1_Err() {
	b := tickwork.NewBuilder()
	t := b.Table(tickwork.TableSpec{Name: "T", Capacity: 4})
	bad := tickwork.AddColumn[int](b, t, "") // an empty name: nil
	w, _ := b.Build()
	if w != nil {
		defer w.Close()
	}
	q := tickwork.HostQuery1(bad)
	_, err := q.Insert(1)
	fmt.Println(err == q.Err(), err != nil)
	// Output: true true
}

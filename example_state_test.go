package tickwork_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/tickwork/tickwork"
)

// Snapshots for a save game and for rollback. The world spawns a ball per
// tick at a height drawn from its random stream, a *rand.PCG resource (a
// codec: encoding.BinaryAppender and BinaryUnmarshaler), so the stream is
// part of every snapshot. A save taken at frame 10 and restored after
// frame 20 brings back the balls, their handles and the stream: the next
// frames repeat exactly. A Rollback ring of 4 snapshots, saved before
// every frame, rewinds 3 frames and re-simulates them to the same state;
// a damaged save is refused with a typed error and changes nothing.
func Example_snapshot() {
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 1024})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	rng := tickwork.AddResource(b, "rng", rand.NewPCG(1, 2))
	b.System("spawn", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(s, y)
		src := *tickwork.WriteResource(s, rng)
		return func(*tickwork.Context) { sp.Spawn(float64(src.Uint64() % 100)) }
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	run := func(n int) {
		for range n {
			if err := w.Frame(1.0 / 60); err != nil {
				panic(err)
			}
		}
	}
	sum := func() (s float64) {
		q, _ := tickwork.HostQuery1(y)
		for r := range q.All() {
			s += *r.Get()
		}
		return s
	}

	run(10)
	save, err := w.Snapshot(nil) // a save game: write it to a file
	if err != nil {
		panic(err)
	}
	run(10)
	fmt.Println("frame", w.Frames(), "balls", balls.Len(), "sum", sum())
	if err := w.Restore(save); err != nil {
		panic(err)
	}
	fmt.Println("restored: frame", w.Frames(), "balls", balls.Len())
	run(10)
	fmt.Println("frame", w.Frames(), "balls", balls.Len(), "sum", sum())

	ring, err := tickwork.NewRollback(w, 4)
	if err != nil {
		panic(err)
	}
	for range 3 {
		if err := ring.Save(); err != nil {
			panic(err)
		}
		run(1)
	}
	want := sum()
	if err := ring.Rewind(3); err != nil {
		panic(err)
	}
	run(3) // re-simulate (a game would apply corrected inputs here)
	fmt.Println("rolled back 3 frames and re-simulated: frame", w.Frames(), "same sum:", sum() == want)

	save[len(save)/2] ^= 1
	err = w.Restore(save)
	fmt.Println(errors.Is(err, tickwork.ErrCorrupt), "frame", w.Frames())
	// Output:
	// frame 20 balls 20 sum 1092
	// restored: frame 10 balls 10
	// frame 20 balls 20 sum 1092
	// rolled back 3 frames and re-simulated: frame 23 same sum: true
	// true frame 23
}

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
		q := tickwork.HostQuery1(y)
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

// A host configuration in every snapshot, and declared sizes. Worlds of
// the same declarations run with other parameters (a difficulty the host
// chose); each carries its own as host configuration, so a save of one is
// refused by another with both byte strings, for a message that names the
// parameter. A queue resource declared with at most 4 entries and checked
// for entries in range refuses a save whose queue breaks the check (the
// check runs at Restore, before anything changes).
func Example_hostConfig() {
	build := func(difficulty string) (*tickwork.World, *tickwork.Resource[[]int32]) {
		b := tickwork.NewBuilder(tickwork.WithHostConfig([]byte("difficulty=" + difficulty)))
		q := tickwork.AddSliceResource(b, "queue", []int32{1, 2}, 0, 4)
		tickwork.CheckResource(b, q, func(v *[]int32) error {
			for i, x := range *v {
				if x < 0 || x >= 100 {
					return fmt.Errorf("entry %d: %d outside 0..99", i, x)
				}
			}
			return nil
		})
		w, err := b.Build()
		if err != nil {
			panic(err)
		}
		return w, q
	}
	easy, q := build("easy")
	hard, _ := build("hard")
	other, _ := build("easy")
	defer easy.Close()
	defer hard.Close()
	defer other.Close()
	save, err := easy.Snapshot(nil)
	if err != nil {
		panic(err)
	}
	err = hard.Restore(save)
	var he *tickwork.HostConfigError
	if errors.Is(err, tickwork.ErrHostConfig) && errors.As(err, &he) {
		fmt.Printf("refused: saved with %s, this world has %s\n", he.Saved, he.Want)
	}
	fmt.Println("within MaxSnapshotSize:", len(save) <= easy.MaxSnapshotSize())

	*q.Get() = append(*q.Get(), 200)
	save, _ = easy.Snapshot(save[:0])
	err = other.Restore(save)
	fmt.Println(errors.Is(err, tickwork.ErrCorrupt), err)
	// Output:
	// refused: saved with difficulty=easy, this world has difficulty=hard
	// within MaxSnapshotSize: true
	// true runtime: snapshot corrupted (resource queue): systems: resource "queue": its check refused the restored value: entry 2: 200 outside 0..99
}

package events

import (
	"errors"
	"fmt"
	"sync"
)

// A hit emitted in one frame is read once, by a consumer of the next frame.
func Example() {
	type Hit struct {
		Target uint64
		Damage int32
	}
	hits, err := New[Hit](Spec{Name: "hits", Capacity: 2, Lifetime: NextFrame})
	if err != nil {
		panic(err)
	}
	applyHits := hits.NewReader(PerFrame) // set-up: one reader per consumer
	for frame := 1; frame <= 3; frame++ {
		hits.beginFrame()                    // the runtime, at the start of the frame
		for _, h := range applyHits.Read() { // e.g. ApplyHits in FrameStart
			fmt.Printf("frame %d: unit %d takes %d\n", frame, h.Target, h.Damage)
		}
		applyHits.Done() // the runtime, when the consumer's run ends
		if frame == 1 {  // e.g. Collision in FixedUpdate
			_ = hits.Emit(Hit{Target: 7, Damage: 30})
			_ = hits.Emit(Hit{Target: 9, Damage: 10})
			if err := hits.Emit(Hit{Target: 4, Damage: 5}); errors.Is(err, ErrOverflow) {
				fmt.Println("frame 1:", err)
			}
		}
		hits.endFrame() // the runtime, at the end of the frame
		if d := hits.takeDropped(); d > 0 {
			fmt.Printf("frame %d report: %d hit dropped\n", frame, d)
		}
	}
	// Output:
	// frame 1: events: table "hits" is full: it holds its capacity of 2 events (unread, or emitted this frame); event dropped
	// frame 1 report: 1 hit dropped
	// frame 2: unit 7 takes 30
	// frame 2: unit 9 takes 10
}

// A FixedUpdate consumer (PerTick) reads each event once, at the first
// fixed tick after its emit, however many ticks each frame runs: frames
// without a tick keep the events for it.
func ExampleReader() {
	hits, _ := New[int](Spec{Name: "hits", Capacity: 8})
	fixed := hits.NewReader(PerTick)
	for frame, ticks := range []int{0, 0, 2} {
		for tick := range ticks {
			hits.beginTick() // the runtime, before each fixed tick
			fmt.Printf("frame %d, tick %d reads %v\n", frame, tick, fixed.Read())
			fixed.Done()
		}
		_ = hits.Emit(10 * frame) // e.g. a system in Update
		hits.endFrame()
	}
	fmt.Println("held:", hits.Held())
	// Output:
	// frame 2, tick 0 reads [0 10]
	// frame 2, tick 1 reads []
	// held: 1
}

// A ThisFrame table passes events to later systems of the same frame.
func ExampleThisFrame() {
	dead, _ := New[int](Spec{Name: "dead slots", Capacity: 8, Lifetime: ThisFrame})
	_ = dead.Emit(3) // FrameStart: slot 3 died
	_ = dead.Emit(5)
	fmt.Println("FrameEnd reads", dead.Read())
	dead.endFrame()
	fmt.Println("next frame reads", dead.Read())
	// Output:
	// FrameEnd reads [3 5]
	// next frame reads []
}

// Workers of a parallel kernel emit into keyed segments; Merge orders them
// by chunk index whatever the worker count.
func ExampleParallel() {
	tab, _ := New[string](Spec{Name: "log", Capacity: 16, Lifetime: ThisFrame})
	const workers, chunks = 2, 4
	par, err := tab.Parallel(workers) // set-up: staging of 16 events per worker
	if err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seg *Segment[string]) {
			defer wg.Done()
			for c := w; c < chunks; c += workers {
				seg.Begin(c)
				_ = seg.Emit(fmt.Sprintf("chunk %d", c))
			}
		}(par.Worker(w))
	}
	wg.Wait()
	par.Merge()
	fmt.Println(tab.Read())
	// Output:
	// [chunk 0 chunk 1 chunk 2 chunk 3]
}

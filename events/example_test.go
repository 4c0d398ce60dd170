package events_test

import (
	"fmt"
	"sync"

	"github.com/tickwork/tickwork/events"
)

// Workers of a parallel kernel emit into keyed segments; Merge orders them
// by chunk index whatever the worker count.
func ExampleParallel() {
	tab, _ := events.New[string](events.Spec{Name: "log", Capacity: 16, Lifetime: events.ThisFrame})
	const workers, chunks = 2, 4
	par, err := tab.Parallel(workers) // set-up: staging of 16 events per worker
	if err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seg *events.Segment[string]) {
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

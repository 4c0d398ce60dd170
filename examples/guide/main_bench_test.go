package main

import (
	"fmt"
	"testing"
)

// BenchmarkFrame runs frames of the whole game (2 000 walkers at set-up,
// warmed up past the set-up walkers' expiry at tick 600, so about 1 200
// walkers in 5 chunks) on 1 and 2 workers, alternating, so the two are
// compared in one run.
func BenchmarkFrame(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			g := newFullGame(2000, workers, 1)
			if err := g.build(); err != nil {
				b.Fatal(err)
			}
			defer g.w.Close()
			if err := g.run(700); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := g.w.Frame(1.0 / 60); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

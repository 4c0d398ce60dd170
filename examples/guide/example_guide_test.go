package main

import "fmt"

// The guide's steps, each a world of its own (docs/guide.md quotes them).

func Example_guide2Move() {
	g := newGame(1000, 1, 1)
	g.addMove()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	if err := g.run(60); err != nil {
		panic(err)
	}
	p := g.pos.All()[0]
	fmt.Println(g.w.Time().Ticks, "ticks,", g.walkers.Len(), "walkers")
	fmt.Printf("walker 0 at (%.2f, %.2f)\n", p.X, p.Y)
	// Output:
	// 60 ticks, 1000 walkers
	// walker 0 at (17.14, 16.19)
}

func Example_guide3Grid() {
	g := newGame(1000, 1, 1)
	g.addMove()
	g.addGrid()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	if err := g.run(60); err != nil {
		panic(err)
	}
	grid, crowded := g.grid.Get(), 0
	for _, n := range grid.Count {
		if n >= crowd {
			crowded++
		}
	}
	fmt.Println(crowded, "of", len(grid.Count), "cells crowded")
	// Output:
	// 16 of 256 cells crowded
}

func Example_guide4Events() {
	g := newGame(1000, 1, 1)
	g.addMove()
	g.addGrid()
	g.addEvents()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	if err := g.run(60); err != nil {
		panic(err)
	}
	fmt.Println(g.score.Get().Crowded, "cells became crowded")
	// Output:
	// 41 cells became crowded
}

func Example_guide5Life() {
	g := newGame(1000, 1, 1)
	g.addMove()
	g.addGrid()
	g.addEvents()
	g.addLife()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	for _, frames := range []int{600, 1, 599} {
		if err := g.run(frames); err != nil {
			panic(err)
		}
		c := g.w.Report().Commands
		fmt.Println(g.w.Time().Ticks, "ticks:", g.walkers.Len(), "walkers;", c.Created, "created,", c.Deleted, "deleted in the last frame")
	}
	// Output:
	// 600 ticks: 2200 walkers; 2 created, 0 deleted in the last frame
	// 601 ticks: 1200 walkers; 2 created, 1002 deleted in the last frame
	// 1200 ticks: 1200 walkers; 2 created, 2 deleted in the last frame
}

func Example_guide6Workers() {
	for _, workers := range []int{1, 2, 4} {
		g := newGame(1000, workers, 1)
		g.addMoveKernel()
		g.addGrid()
		g.addEvents()
		g.addLife()
		if err := g.build(); err != nil {
			panic(err)
		}
		if err := g.run(900); err != nil {
			panic(err)
		}
		fmt.Printf("%d workers: digest %016x\n", g.w.Workers(), g.digest())
		g.w.Close()
	}
	// Output:
	// 1 workers: digest 297b823f8c304583
	// 2 workers: digest 297b823f8c304583
	// 4 workers: digest 297b823f8c304583
}

func Example_guide7Report() {
	g := newGame(1000, 2, 1)
	g.addMoveKernel()
	g.addGrid()
	g.addEvents()
	g.addLife()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	if err := g.run(601); err != nil {
		panic(err)
	}
	r := g.w.Report()
	fmt.Println("frame", r.Frame, "ran", r.FixedTicks, "tick;", r.Commands.Created, "created,", r.Commands.Deleted, "deleted")
	became, _ := r.Counter("watch", "became")
	fmt.Println(became, "cells became crowded in it; events dropped:", r.EventsDropped)
	for _, s := range r.Systems {
		fmt.Println(s.Phase, s.Name, s.Runs)
	}
	// Output:
	// frame 600 ran 1 tick; 2 created, 1002 deleted
	// 3 cells became crowded in it; events dropped: 0
	// FixedUpdate move 1
	// FixedUpdate grid 1
	// FixedUpdate steer 1
	// FixedUpdate watch 1
	// FixedUpdate expire 1
	// FixedUpdate spawn 1
	// Update tally 1
}

func Example_guide8Declared() {
	g := newGame(1000, 2, 1)
	g.addMoveKernel()
	g.addGrid()
	g.addEvents()
	g.addLife()
	g.addPuffs()
	if err := g.build(); err != nil {
		panic(err)
	}
	defer g.w.Close()
	if err := g.run(600); err != nil {
		panic(err)
	}
	faded, _ := g.w.Report().Counter("Fade", "faded")
	fmt.Println(g.puffs.Puff.Table.Len(), "puffs;", faded, "faded in the last frame")
	// Output:
	// 94 puffs; 2 faded in the last frame
}

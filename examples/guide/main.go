// Command guide is the game docs/guide.md builds step by step: walkers
// cross a wrap-around field, a grid of cells counted every fixed tick
// turns the ones in crowded cells, a cell that becomes crowded is an
// event, walkers are born and expire through command buffers, the moves
// run on kernel workers, and a declared system (puffs.tw) fades the puffs
// that mark the crowded cells. Each step's function is quoted by the
// guide and run by an Example in example_guide_test.go.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"math"

	"github.com/tickwork/tickwork"
)

// Step 2: a table, a system, frames.

// Vec is a position (metres) or a velocity (metres per second).
type Vec struct{ X, Y float32 }

const (
	side         = 64     // the field's side, metres; it wraps around
	births, life = 2, 600 // step 5: walkers born per fixed tick; fixed ticks a walker lives
)

// game is what the steps declare, for the systems' declarations and the host.
type game struct {
	b        *tickwork.Builder
	n        int // walkers at set-up
	walkers  *tickwork.Table
	pos, vel *tickwork.Column[Vec]
	rng      *tickwork.Resource[*tickwork.Rand]
	grid     *tickwork.Resource[Grid]  // step 3
	crowded  *tickwork.Events[Crowded] // step 4
	score    *tickwork.Resource[Score] // step 4
	born     *tickwork.Column[uint64]  // step 5
	puffs    *Tables                   // step 8
	w        *tickwork.World
}

// newGame declares the Walker table, its columns and a seeded random
// stream for a world of n walkers on workers kernel workers.
func newGame(n, workers int, seed uint64) *game {
	g := &game{b: tickwork.NewBuilder(tickwork.WithWorkers(workers)), n: n}
	g.walkers = g.b.Table(tickwork.TableSpec{Name: "Walker", Capacity: n + births*(life+1), ChunkRows: 256}) // room for the births of step 5
	g.pos = tickwork.AddColumn[Vec](g.b, g.walkers, "Pos")
	g.vel = tickwork.AddColumn[Vec](g.b, g.walkers, "Vel")
	g.rng = tickwork.AddResource(g.b, "rng", tickwork.NewRand(seed, 1))
	return g
}

// addMove declares move: every fixed tick each walker steps by its
// velocity, wrapping around the field's edges.
func (g *game) addMove() {
	tickwork.Each2(g.b, "move", tickwork.FixedUpdate, tickwork.Writes(g.pos), tickwork.Reads(g.vel), func(ctx *tickwork.Context, _ tickwork.Handle, p, v *Vec) {
		dt := float32(ctx.DT()) // the fixed step, seconds
		p.X, p.Y = wrap(p.X+float32(v.X*dt)), wrap(p.Y+float32(v.Y*dt))
	})
}

// wrap brings x back into [0, side).
func wrap(x float32) float32 {
	if x < 0 {
		x += side
	}
	if x >= side {
		x -= side
	}
	return x
}

// build seals the world and inserts the n walkers of the set-up, at
// random places with random velocities.
func (g *game) build() error {
	w, err := g.b.Build()
	if err != nil {
		return err
	}
	r := *g.rng.Get()
	if err := tickwork.HostQuery2(g.pos, g.vel).InsertN(g.n, func(_ tickwork.Handle, p, v *Vec) { *p, *v = place(r), velocity(r) }); err != nil {
		w.Close()
		return err
	}
	g.w = w
	return nil
}

func place(r *tickwork.Rand) Vec    { return Vec{r.Float32() * side, r.Float32() * side} }
func velocity(r *tickwork.Rand) Vec { return Vec{r.Float32()*4 - 2, r.Float32()*4 - 2} }

// run runs frames frames of 1/60 s, one fixed tick each.
func (g *game) run(frames int) error {
	for range frames {
		if err := g.w.Frame(1.0 / 60); err != nil {
			return err
		}
	}
	return nil
}

// Step 3: a grid rebuilt every fixed tick.

const (
	cellSide = 4               // metres
	cells    = side / cellSide // per row and per column
	crowd    = 8               // walkers that make a cell crowded
)

// Grid counts the walkers in each cell, row-major: Count this tick, Last
// the tick before.
type Grid struct{ Count, Last [cells * cells]int32 }

func cellOf(p Vec) int { return int(p.Y/cellSide)*cells + int(p.X/cellSide) }

// addGrid declares grid, which counts the walkers per cell after they
// moved, and steer, which turns the walkers of crowded cells a quarter
// turn left.
func (g *game) addGrid() {
	g.grid = tickwork.AddResource(g.b, "grid", Grid{})
	g.b.System("grid", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("move")
		q, grid := tickwork.NewQuery1(tickwork.Read(d, g.pos)), tickwork.WriteResource(d, g.grid)
		return func(*tickwork.Context) {
			grid.Last, grid.Count = grid.Count, [cells * cells]int32{}
			q.Each(func(_ tickwork.Handle, p *Vec) { grid.Count[cellOf(*p)]++ })
		}
	})
	grid := tickwork.ReadsResource(g.grid)
	tickwork.Each2(g.b, "steer", tickwork.FixedUpdate, tickwork.Reads(g.pos), tickwork.Writes(g.vel), func(_ *tickwork.Context, _ tickwork.Handle, p, v *Vec) {
		if grid.V.Count[cellOf(*p)] >= crowd {
			*v = Vec{-v.Y, v.X}
		}
	}, grid, tickwork.Orders("grid"))
}

// Step 4: events.

// Crowded is the event of a cell that became crowded in a fixed tick.
type Crowded struct{ Cell int32 }

// Score is what the host reads: the cells that became crowded so far.
type Score struct{ Crowded int }

// addEvents declares watch, which emits a Crowded event for each cell
// that reached crowd walkers in the tick, and tally, which counts them
// in the frame they happened.
func (g *game) addEvents() {
	g.crowded = tickwork.AddEvents[Crowded](g.b, tickwork.EventSpec{Name: "Crowded", Capacity: 4096, Lifetime: tickwork.ThisFrame})
	g.score = tickwork.AddResource(g.b, "score", Score{})
	g.b.System("watch", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("grid")
		grid, out, became := tickwork.ReadResource(d, g.grid), tickwork.Emit(d, g.crowded), d.Counter("became")
		return func(*tickwork.Context) {
			for c, n := range grid.Count {
				if n >= crowd && grid.Last[c] < crowd {
					out.Emit(Crowded{Cell: int32(c)})
					became.Add(1) // the frame report's count (step 7)
				}
			}
		}
	})
	g.b.System("tally", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		in, score := tickwork.Consume(d, g.crowded), tickwork.WriteResource(d, g.score)
		return func(*tickwork.Context) { score.Crowded += len(in.Read()) }
	})
}

// Step 5: spawn and despawn.

// addLife declares expire, which deletes the walkers that have lived
// life ticks, and spawn, which makes births new ones every tick.
func (g *game) addLife() {
	g.born = tickwork.AddColumn[uint64](g.b, g.walkers, "Born") // the tick of birth: 0 for the set-up's walkers
	rec := tickwork.Records(g.walkers)
	tickwork.Each1(g.b, "expire", tickwork.FixedUpdate, tickwork.Reads(g.born), func(ctx *tickwork.Context, h tickwork.Handle, born *uint64) {
		if ctx.Tick()-*born >= life {
			rec.Delete(h) // played back after the tick
		}
	}, rec)
	g.b.System("spawn", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("expire") // both record Walker
		sp, r := tickwork.NewSpawner3(d, g.pos, g.vel, g.born), *tickwork.WriteResource(d, g.rng)
		return func(ctx *tickwork.Context) {
			for range births {
				sp.Spawn(place(r), velocity(r), ctx.Tick())
			}
		}
	})
}

// Step 6: workers.

// addMoveKernel declares move as addMove does, its rows on the workers.
func (g *game) addMoveKernel() {
	tickwork.ParallelEach2(g.b, "move", tickwork.FixedUpdate, tickwork.Writes(g.pos), tickwork.Reads(g.vel), func(w tickwork.Worker, _ tickwork.Handle, p, v *Vec) {
		dt := float32(w.DT()) // the fixed step, seconds
		p.X, p.Y = wrap(p.X+float32(v.X*dt)), wrap(p.Y+float32(v.Y*dt))
	})
}

// Step 8: a declared system.

//go:generate go run ../../cmd/tickwork-gen -o puffs_gen.go puffs.tw

// addPuffs declares the schema's Puff table and Fade system (puffs.tw),
// and puff, which marks the centre of each cell that became crowded with
// a puff.
func (g *game) addPuffs() {
	t, err := Declare(g.b, DefaultSizes())
	if err != nil {
		return // Build returns the builder's error
	}
	g.b.Add(NewSystems(t).All()...)
	g.b.System("puff", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		in, sp := tickwork.Consume(d, g.crowded), tickwork.NewSpawner3(d, t.Puff.X, t.Puff.Y, t.Puff.TTL)
		return func(*tickwork.Context) {
			for _, e := range in.Read() {
				x, y := float32(e.Cell%cells), float32(e.Cell/cells)
				sp.Spawn(float32(x*cellSide)+cellSide/2, float32(y*cellSide)+cellSide/2, PuffTicks)
			}
		}
	})
	g.puffs = t
}

// digest hashes the walkers' rows and positions, in row order: two runs
// that end in the same digest agree bit for bit.
func (g *game) digest() uint64 {
	q := tickwork.HostQuery1(g.pos)
	h, b := fnv.New64a(), make([]byte, 12)
	for r, w := range q.All() {
		p := r.Get()
		binary.LittleEndian.PutUint32(b[0:], w.Index())
		binary.LittleEndian.PutUint32(b[4:], math.Float32bits(p.X))
		binary.LittleEndian.PutUint32(b[8:], math.Float32bits(p.Y))
		h.Write(b)
	}
	return h.Sum64()
}

// newFullGame declares every step: the game main runs.
func newFullGame(n, workers int, seed uint64) *game {
	g := newGame(n, workers, seed)
	g.addMoveKernel()
	g.addGrid()
	g.addEvents()
	g.addLife()
	g.addPuffs()
	return g
}

func main() {
	n := flag.Int("n", 2000, "walkers at set-up")
	frames := flag.Int("frames", 1200, "frames to run, 1/60 s each")
	workers := flag.Int("workers", 2, "kernel workers")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	g := newFullGame(*n, *workers, *seed)
	if err := g.build(); err != nil {
		log.Fatal(err)
	}
	defer g.w.Close()
	if err := g.run(*frames); err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.w.Report())
	fmt.Printf("%d walkers, %d puffs, %d cells became crowded\n", g.walkers.Len(), g.puffs.Puff.Table.Len(), g.score.Get().Crowded)
}

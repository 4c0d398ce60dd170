package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/tickwork/tickwork"
)

const (
	cell, cols   = 8, int(Side) / 8 // grid cells of 8 m: 32×32, a boid's neighbours are in its 3×3
	radius2      = 8 * 8            // neighbours within 8 m
	apart2, near = 2 * 2, 1 * 1     // separation below 2 m; a Near event below 1 m
	perTick      = 8                // boids born every fixed tick
	life         = 600              // fixed ticks a boid lives
)

// grid is the per-tick spatial index: the live rows sorted by cell, the
// rows of cell c at order[start[c]:start[c+1]]. Made at set-up, refilled
// every tick by the Grid system: no allocation in the frame.
type grid struct{ start, cur, order []int32 }

func cellOf(x, y float32) int { return min(int(y)/cell, cols-1)*cols + min(int(x)/cell, cols-1) }

// Counts are the boids born and expired, which systems count.
type Counts struct{ Born, Expired int }

type flock struct {
	w      *tickwork.World
	t      *Tables
	counts *tickwork.Resource[Counts]
	near   int // the Near events the host observed
}

// wrap is the shortest offset from a to b on the wrapping axis.
func wrap(d float32) float32 {
	if d > Side/2 {
		return d - Side
	} else if d < -Side/2 {
		return d + Side
	}
	return d
}

const kCohere, kAlign, kSeparate, kFriction = float32(0.5), float32(0.8), float32(4), float32(0.05)

func randomBoid(r *tickwork.Rand) (x, y, vx, vy float32) {
	return r.Float32() * Side, r.Float32() * Side, r.Float32()*8 - 4, r.Float32()*8 - 4
}

func newFlock(n, workers int, seed uint64) (*flock, error) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
	t, err := Declare(b, DefaultSizes())
	if err != nil {
		return nil, err
	}
	f := &flock{t: t, counts: tickwork.AddResource(b, "counts", Counts{})}
	rows := t.Boid.Table.Cap()
	g := tickwork.AddResource(b, "grid", grid{make([]int32, cols*cols+1), make([]int32, cols*cols), make([]int32, rows)})
	rng := tickwork.AddResource(b, "rng", tickwork.NewRand(seed, 1))
	b.System("Grid", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		q, g := tickwork.NewQuery2(tickwork.Read(d, t.Boid.X), tickwork.Read(d, t.Boid.Y)), tickwork.WriteResource(d, g)
		return func(*tickwork.Context) { // a counting sort of the live rows by cell, in row order
			clear(g.start)
			q.Each(func(_ tickwork.Handle, x, y *float32) { g.start[cellOf(*x, *y)+1]++ })
			for c := range cols * cols {
				g.start[c+1] += g.start[c]
			}
			copy(g.cur, g.start)
			q.Each(func(h tickwork.Handle, x, y *float32) {
				c := cellOf(*x, *y)
				g.order[g.cur[c]], g.cur[c] = int32(h.Index()), g.cur[c]+1
			})
		}
	})
	x, y, vx, vy, gr, em := t.Boid.X.All(), t.Boid.Y.All(), t.Boid.VX.All(), t.Boid.VY.All(), tickwork.ReadsResource(g), tickwork.EmitsParallel(t.Near)
	tickwork.ParallelEach6(b, "Steer", tickwork.FixedUpdate, tickwork.Reads(t.Boid.X), tickwork.Reads(t.Boid.Y), tickwork.Reads(t.Boid.VX), tickwork.Reads(t.Boid.VY),
		tickwork.Writes(t.Boid.AX), tickwork.Writes(t.Boid.AY), func(w tickwork.Worker, h tickwork.Handle, _, _, _, _, pax, pay *float32) {
			i := int(h.Index()) // the row: neighbours are read across the whole columns
			var n, sx, sy, svx, svy, px, py float32
			cx, cy := cellOf(x[i], y[i])%cols, cellOf(x[i], y[i])/cols
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nc := (cy+dy+cols)%cols*cols + (cx+dx+cols)%cols
					for _, j := range gr.V.order[gr.V.start[nc]:gr.V.start[nc+1]] {
						ox, oy := wrap(x[j]-x[i]), wrap(y[j]-y[i])
						d2 := float32(ox*ox) + float32(oy*oy) // products rounded as written: no FMA
						if int(j) == i || d2 >= radius2 {
							continue
						}
						n, sx, sy, svx, svy = n+1, sx+ox, sy+oy, svx+vx[j], svy+vy[j]
						if d2 < apart2 {
							px, py = px-ox/max(d2, 0.01), py-oy/max(d2, 0.01)
						}
						if d2 < near && int(j) > i {
							other, _ := t.Boid.Table.HandleAt(int(j))
							em.At(w).Emit(Near{A: h, B: other})
						}
					}
				}
			}
			ax, ay := -float32(kFriction*vx[i]), -float32(kFriction*vy[i])
			if n > 0 {
				ax += float32(kCohere*(sx/n)) + float32(kAlign*(svx/n-vx[i])) + float32(kSeparate*px)
				ay += float32(kCohere*(sy/n)) + float32(kAlign*(svy/n-vy[i])) + float32(kSeparate*py)
			}
			*pax, *pay = ax, ay
		}, gr, em, tickwork.Orders("Grid"))
	rec, c := tickwork.Records(t.Boid.Table), tickwork.WritesResource(f.counts)
	tickwork.Each1(b, "Expire", tickwork.FixedUpdate, tickwork.Reads(t.Boid.Born), func(ctx *tickwork.Context, h tickwork.Handle, born *int64) {
		if *born+life <= int64(ctx.Tick()) {
			rec.Delete(h) // played back after the tick, with the spawns
			c.V.Expired++
		}
	}, rec, c)
	b.System("Spawn", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("Expire") // both record Boid and write counts
		sp := tickwork.NewSpawner5(d, t.Boid.X, t.Boid.Y, t.Boid.VX, t.Boid.VY, t.Boid.Born)
		r, c := *tickwork.WriteResource(d, rng), tickwork.WriteResource(d, f.counts)
		return func(ctx *tickwork.Context) {
			for range perTick {
				x, y, vx, vy := randomBoid(r)
				sp.Spawn(x, y, vx, vy, int64(ctx.Tick()))
			}
			c.Born += perTick
		}
	})
	tickwork.Observe(b, t.Near, func(*Near) { f.near++ })
	b.Add(NewSystems(t).All()...)
	if f.w, err = b.Build(); err != nil {
		return nil, err
	}
	r := *rng.Get()
	return f, tickwork.HostQuery5(t.Boid.X, t.Boid.Y, t.Boid.VX, t.Boid.VY, t.Boid.Born).InsertN(n, func(_ tickwork.Handle, x, y, vx, vy *float32, born *int64) {
		*x, *y, *vx, *vy = randomBoid(r)
		*born = -r.Int64N(life) // staggered: the first expire over the first life ticks
	})
}

// run builds a flock of n and runs frames frames of 1/60 s.
func run(n, workers, frames int, seed uint64) (*flock, error) {
	f, err := newFlock(n, workers, seed)
	for i := 0; err == nil && i < frames; i++ {
		err = f.w.Frame(1.0 / 60)
	}
	return f, err
}

func main() {
	n := flag.Int("n", 4096, "boids at the start (the table holds 8192)")
	frames := flag.Int("frames", 600, "frames of 1/60 s")
	workers := flag.Int("workers", 2, "kernel workers")
	flag.Parse()
	f, err := run(*n, *workers, *frames, 42)
	if err != nil {
		log.Fatal(err)
	}
	c := f.counts.Get()
	fmt.Printf("%v\n%d ticks: %d born, %d expired, %d live, %d near misses\n", f.w.Report(), f.w.Time().Ticks, c.Born, c.Expired, f.t.Boid.Table.Len(), f.near)
}

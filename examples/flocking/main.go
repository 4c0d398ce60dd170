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

// Counts are what the host reads: boids born and expired, Near events counted.
type Counts struct{ Born, Expired, Near int }

type flock struct {
	w      *tickwork.World
	t      *Tables
	counts *tickwork.Resource[Counts]
}

// steer is the steering kernel's state, handed to tickwork.Parallel by value.
type steer struct {
	t                    *tickwork.Table
	x, y, vx, vy         []float32 // every boid's, read
	ax, ay               []float32 // the chunk's own rows, written
	g                    *grid
	near                 *tickwork.ParallelEmitter[Near]
	handle               func(row int) (tickwork.Handle, bool)
	kCohere, kAlign      float32
	kSeparate, kFriction float32
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

func (k *steer) chunk(w, c int) {
	emit, base := k.near.Worker(w, c), c*k.t.ChunkRows()
	for lo, hi := tickwork.NextRun(k.t.Enabled(c), 0); lo < hi; lo, hi = tickwork.NextRun(k.t.Enabled(c), hi) {
		for i := base + lo; i < base+hi; i++ {
			var n, sx, sy, svx, svy, px, py float32
			cx, cy := cellOf(k.x[i], k.y[i])%cols, cellOf(k.x[i], k.y[i])/cols
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nc := (cy+dy+cols)%cols*cols + (cx+dx+cols)%cols
					for _, j := range k.g.order[k.g.start[nc]:k.g.start[nc+1]] {
						ox, oy := wrap(k.x[j]-k.x[i]), wrap(k.y[j]-k.y[i])
						d2 := float32(ox*ox) + float32(oy*oy) // products rounded as written: no FMA
						if int(j) == i || d2 >= radius2 {
							continue
						}
						n, sx, sy, svx, svy = n+1, sx+ox, sy+oy, svx+k.vx[j], svy+k.vy[j]
						if d2 < apart2 {
							px, py = px-ox/max(d2, 0.01), py-oy/max(d2, 0.01)
						}
						if d2 < near && int(j) > i {
							a, _ := k.handle(i)
							b, _ := k.handle(int(j))
							emit.Emit(Near{A: a, B: b})
						}
					}
				}
			}
			ax, ay := -float32(k.kFriction*k.vx[i]), -float32(k.kFriction*k.vy[i])
			if n > 0 {
				ax += float32(k.kCohere*(sx/n)) + float32(k.kAlign*(svx/n-k.vx[i])) + float32(k.kSeparate*px)
				ay += float32(k.kCohere*(sy/n)) + float32(k.kAlign*(svy/n-k.vy[i])) + float32(k.kSeparate*py)
			}
			k.ax[i], k.ay[i] = ax, ay
		}
	}
}

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
			for r := range q.All() {
				x, y := r.Get()
				g.start[cellOf(*x, *y)+1]++
			}
			for c := range cols * cols {
				g.start[c+1] += g.start[c]
			}
			copy(g.cur, g.start)
			for r, h := range q.All() {
				x, y := r.Get()
				c := cellOf(*x, *y)
				g.order[g.cur[c]], g.cur[c] = int32(h.Index()), g.cur[c]+1
			}
		}
	})
	b.System("Steer", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("Grid")
		k := steer{t: t.Boid.Table, x: tickwork.Read(d, t.Boid.X).All(), y: tickwork.Read(d, t.Boid.Y).All(),
			vx: tickwork.Read(d, t.Boid.VX).All(), vy: tickwork.Read(d, t.Boid.VY).All(),
			ax: tickwork.Write(d, t.Boid.AX).All(), ay: tickwork.Write(d, t.Boid.AY).All(),
			g: tickwork.ReadResource(d, g), near: tickwork.EmitParallel(d, t.Near), handle: t.Boid.Table.HandleAt,
			kCohere: 0.5, kAlign: 0.8, kSeparate: 4, kFriction: 0.05}
		return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, t.Boid.Table.Chunks(), k, (*steer).chunk) }
	})
	b.System("Expire", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		q, rec, c := tickwork.NewQuery1(tickwork.Read(d, t.Boid.Born)), tickwork.Record(d, t.Boid.Table), tickwork.WriteResource(d, f.counts)
		return func(ctx *tickwork.Context) {
			for r, h := range q.All() {
				if *r.Get()+life <= int64(ctx.Tick()) {
					rec.Delete(h) // played back after the tick, with the spawns
					c.Expired++
				}
			}
		}
	})
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
	b.System("CountNear", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		in, c := tickwork.Consume(d, t.Near), tickwork.WriteResource(d, f.counts)
		return func(*tickwork.Context) { c.Near += len(in.Read()) }
	})
	b.Add(NewSystems(t).All()...)
	if f.w, err = b.Build(); err != nil {
		return nil, err
	}
	spawn := tickwork.HostQuery5(t.Boid.X, t.Boid.Y, t.Boid.VX, t.Boid.VY, t.Boid.Born)
	r := *rng.Get()
	return f, spawn.InsertN(n, func(_ tickwork.Handle, x, y, vx, vy *float32, born *int64) {
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
	fmt.Printf("%v\n%d ticks: %d born, %d expired, %d live, %d near misses\n", f.w.Report(), f.w.Time().Ticks, c.Born, c.Expired, f.t.Boid.Table.Len(), c.Near)
}

// Command particles is the program of issue 10 on the typed API: 20 000
// particles move every fixed tick on 2 kernel workers; 50 are born every
// tick and the expired ones deleted through command buffers, each expiry
// an Expired event counted in the next frame; 600 frames run with seeded
// jittered deltas and one 200 ms hitch. It prints the last frame's report
// and the counts. Its line count beside Ark's: docs/benchmarks.md.
package main

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/tickwork/tickwork"
)

// Vec is a position (metres) or a velocity (metres per second).
type Vec struct{ X, Y float32 }

// Counts are the totals: particles born and expired.
type Counts struct{ Born, Expired int }

const initial, born, life = 20000, 50, 400 // particles, per tick, ticks of life

// sim is the world and what the host reads between frames.
type sim struct {
	w       *tickwork.World
	pos     *tickwork.Column[Vec]
	counts  *tickwork.Resource[Counts]
	counted int // the Expired events the host observed
}

func velocity(r *rand.Rand) Vec { return Vec{r.Float32()*2 - 1, r.Float32()*2 - 1} }

func newSim(workers int, seed uint64) (*sim, error) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
	parts := b.Table(tickwork.TableSpec{Name: "Particle", Capacity: 2 * initial})
	s := &sim{pos: tickwork.AddColumn[Vec](b, parts, "Pos"), counts: tickwork.AddResource(b, "counts", Counts{})}
	vel, death := tickwork.AddColumn[Vec](b, parts, "Vel"), tickwork.AddColumn[uint64](b, parts, "Death")  // the tick it expires
	expired := tickwork.AddEvents[tickwork.Handle](b, tickwork.EventSpec{Name: "Expired", Capacity: 4096}) // expired particles
	rng := tickwork.AddResource(b, "rng", rand.New(rand.NewPCG(seed, 1)))
	tickwork.ParallelEach2(b, "move", tickwork.FixedUpdate, tickwork.Writes(s.pos), tickwork.Reads(vel), func(w tickwork.Worker, _ tickwork.Handle, p, v *Vec) {
		dt := float32(w.DT())    // the fixed step
		p.X += float32(v.X * dt) // the conversion keeps the product unfused: same bits everywhere
		p.Y += float32(v.Y * dt)
	})
	rec, ev, c := tickwork.Records(parts), tickwork.Emits(expired), tickwork.WritesResource(s.counts)
	tickwork.Each1(b, "expire", tickwork.FixedUpdate, tickwork.Reads(death), func(ctx *tickwork.Context, h tickwork.Handle, t *uint64) {
		if *t <= ctx.Tick() {
			rec.Delete(h) // played back after the tick
			ev.Emit(h)
			c.V.Expired++
		}
	}, rec, ev, c)
	b.System("spawn", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.After("expire") // both record Particle, and both write counts
		sp, r, c := tickwork.NewSpawner3(d, s.pos, vel, death), *tickwork.WriteResource(d, rng), tickwork.WriteResource(d, s.counts)
		return func(ctx *tickwork.Context) {
			for range born {
				sp.Spawn(Vec{}, velocity(r), ctx.Tick()+life)
			}
			c.Born += born
		}
	})
	tickwork.Observe(b, expired, func(*tickwork.Handle) { s.counted++ })
	var err error
	if s.w, err = b.Build(); err != nil {
		return nil, err
	}
	r := *rng.Get() // the initial particles, in place before the first frame
	return s, tickwork.HostQuery3(s.pos, vel, death).InsertN(initial, func(_ tickwork.Handle, _, v *Vec, t *uint64) { *v, *t = velocity(r), r.Uint64N(life) })
}

// run builds the world and runs frames frames of 1/60 s with ±2 ms of
// jitter (seeded), the middle one 200 ms. It stops at the first error after
// which no frame can run (tickwork.IsFatal); the others (a full table,
// dropped events) are logged and the loop goes on.
func run(workers, frames int, seed uint64) (*sim, error) {
	s, err := newSim(workers, seed)
	jitter := rand.New(rand.NewPCG(seed, 2))
	for f := 0; err == nil && f < frames; f++ {
		dt := 1.0/60 + (jitter.Float64()-0.5)*0.004
		if f == frames/2 {
			dt = 0.2 // the hitch
		}
		if err = s.w.Frame(dt); err != nil && !tickwork.IsFatal(err) {
			log.Println("frame", f, "recovered:", err)
			err = nil
		}
	}
	return s, err
}

func main() {
	s, err := run(2, 600, 42)
	if err != nil {
		log.Fatal(err)
	}
	c := s.counts.Get()
	fmt.Printf("%v\n%d ticks: %d born, %d expired, %d counted, %d live\n", s.w.Report(), s.w.Time().Ticks, c.Born, c.Expired, s.counted, s.pos.Table().Len())
}

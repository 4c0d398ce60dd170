package arenagen_test

import (
	"fmt"
	"testing"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/lanes"
	"github.com/tickwork/tickwork/schema/codegen/internal/arenagen"
	"github.com/tickwork/tickwork/systems"
)

// BenchmarkKernels runs each generated kernel (sub-benchmark generated)
// and today's hand-written one (hand: the kernels of package arena,
// arena/kernels.go, copied onto arenagen's tables, the integrations in the
// arena's lane, lanes.Best(): Scalar unless built with GOEXPERIMENT=simd)
// on the same world: the
// default arena after 200 frames. Each run is one system run outside the
// scheduler: commands are discarded instead of played back and the hit
// events cleared, so every run does the same work.
func BenchmarkKernels(b *testing.B) {
	for _, workers := range []int{1, 2} {
		sim, err := newGenSim(rules.Config{Units: rules.DefaultUnits, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		for range 200 {
			if err := sim.frame(); err != nil {
				b.Fatal(err)
			}
		}
		var pool *kernels.Pool
		if workers > 1 {
			if pool, err = kernels.NewPool(workers); err != nil {
				b.Fatal(err)
			}
		}
		env := systems.NewEnv(pool, nil, float64(rules.DT))
		hand := newHand(sim.t)
		for _, k := range []struct {
			name      string
			generated systems.System
			hand      systems.RunFunc
		}{
			{"IntegrateBodies", sim.sys.IntegrateBodies.System(), hand.integrateBodies},
			{"IntegrateProjectiles", sim.sys.IntegrateProjectiles.System(), hand.integrateProjectiles},
			{"Collision", sim.sys.Collision.System(), hand.collision},
		} {
			for _, lane := range []struct {
				name string
				run  systems.RunFunc
			}{{"generated", k.generated.Run}, {"hand", k.hand}} {
				b.Run(fmt.Sprintf("%s/workers=%d/%s", k.name, workers, lane.name), func(b *testing.B) {
					sys := k.generated // one manifest for both lanes
					sys.Run = lane.run
					ctx, err := systems.NewContext(&sys, env, 1024)
					if err != nil {
						b.Fatal(err)
					}
					if err := lane.run(ctx); err != nil { // warm-up: first-run state
						b.Fatal(err)
					}
					discard(ctx, sim.t.HitEvent)
					b.ReportAllocs()
					for b.Loop() {
						if err := lane.run(ctx); err != nil {
							b.Fatal(err)
						}
						discard(ctx, sim.t.HitEvent)
					}
				})
			}
		}
		if pool != nil {
			pool.Close()
		}
		sim.world.Close()
	}
}

// discard ends a run without playback: staged events merged then
// cleared, recorded commands dropped.
func discard(ctx *systems.Context, hits *events.Table[arenagen.HitEvent]) {
	ctx.EndRun()
	hits.Reset()
	if buf := ctx.CommandBuffer(); buf != nil {
		buf.Reset()
	}
	for _, buf := range ctx.WorkerBuffers() {
		buf.Reset()
	}
}

// hand holds the hand-written kernels of package arena (arena/kernels.go,
// main), on arenagen's tables.
type hand struct {
	t                                       *arenagen.Tables
	bodiesKernel, projKernel, collideKernel func(w, c int)
	collide                                 collideRun
	counts                                  []workerCounts
	lost, hits, expired                     int64
	reserved                                bool
	lane                                    lanes.Lane // the arena's: lanes.Best()
}

type collideRun struct {
	body ephemeral.Lease
	recs systems.WorkerRecorders
	emit *events.Parallel[arenagen.HitEvent]
}

type workerCounts struct {
	lost, hits, expired int64
	_                   [40]byte
}

func newHand(t *arenagen.Tables) *hand {
	h := &hand{t: t, lane: lanes.Best()}
	h.bodiesKernel, h.projKernel, h.collideKernel = h.integrateBodiesChunk, h.integrateProjectilesChunk, h.collisionChunk
	return h
}

func (h *hand) integrateBodies(ctx *systems.Context) error {
	ctx.RunKernel(h.t.Body.Table.Chunks(), h.bodiesKernel)
	return nil
}

func (h *hand) integrateBodiesChunk(_, c int) {
	t := h.t
	hi := liveEnd(t.Body.Table.Enabled(c))
	x, y, vx, vy := t.Body.X.Span(c), t.Body.Y.Span(c), t.Body.VX.Span(c), t.Body.VY.Span(c)
	lanes.MoveBounce(h.lane, x[:hi], y[:hi], vx[:hi], vy[:hi], rules.DT, rules.W)
}

func liveEnd(mask bitmap.Bitmap) int {
	for w := len(mask) - 1; w >= 0; w-- {
		if mask[w] != 0 {
			return (w + 1) << 6
		}
	}
	return 0
}

func (h *hand) integrateProjectiles(ctx *systems.Context) error {
	ctx.RunKernel(h.t.Projectile.Table.Chunks(), h.projKernel)
	return nil
}

func (h *hand) integrateProjectilesChunk(_, c int) {
	p := &h.t.Projectile
	hi := liveEnd(p.Table.Enabled(c))
	x, y, vx, vy, ttl := p.X.Span(c)[:hi], p.Y.Span(c)[:hi], p.VX.Span(c)[:hi], p.VY.Span(c)[:hi], p.TTL.Span(c)[:hi]
	lanes.Advance(h.lane, x, y, vx, vy, ttl, rules.DT)
}

func (h *hand) collision(ctx *systems.Context) error {
	t, run := h.t, &h.collide
	var err error
	if run.body, err = ctx.Lease(t.Body.Table); err != nil {
		return err
	}
	if len(h.counts) != ctx.Workers() {
		h.counts = make([]workerCounts, ctx.Workers())
	}
	clear(h.counts)
	if run.recs, err = ctx.WorkerRecorders(t.Projectile.Table); err != nil {
		return err
	}
	if run.emit, err = systems.ParallelEmitter(ctx, t.HitEvent); err != nil {
		return err
	}
	if !h.reserved {
		for w := range ctx.Workers() {
			run.recs.Chunk(w, 0).Buffer().Reserve(t.Projectile.Table.Cap())
		}
		h.reserved = true
	}
	ctx.RunKernel(t.Projectile.Table.Chunks(), h.collideKernel)
	for i := range h.counts {
		h.lost += h.counts[i].lost
		h.hits += h.counts[i].hits
		h.expired += h.counts[i].expired
	}
	return nil
}

func (h *hand) collisionChunk(w, c int) {
	t, run := h.t, &h.collide
	p := &t.Projectile
	rec := run.recs.Chunk(w, c)
	emit := run.emit.Worker(w)
	emit.Begin(c)
	if p.Table.ChunkLen(c) == 0 {
		return
	}
	px, py, ttl, dmg, tgt := p.X.Span(c), p.Y.Span(c), p.TTL.Span(c), p.Damage.Span(c), p.Target.Span(c)
	bx, by := t.Body.X.All(), t.Body.Y.All()
	body := run.body
	cnt := &h.counts[w]
	base := c * p.Table.ChunkRows()
	ephemeral.EachRun(p.Table.Enabled(c), func(lo, hi int) {
		tgt := tgt[lo:hi]
		px, py, ttl, dmg := px[lo:hi][:len(tgt)], py[lo:hi][:len(tgt)], ttl[lo:hi][:len(tgt)], dmg[lo:hi][:len(tgt)]
		var lost, hits, expired int64
		for i, tg := range tgt {
			bi, ok := body.Row(tg)
			switch {
			case !ok:
				lost++
			case float32((bx[bi]-px[i])*(bx[bi]-px[i]))+float32((by[bi]-py[i])*(by[bi]-py[i])) <= rules.R2:
				_ = emit.Emit(arenagen.HitEvent{Target: tg, Damage: dmg[i]})
				hits++
			case ttl[i] <= 0:
				expired++
			default:
				continue
			}
			hd, _ := p.Table.HandleAt(base + lo + i)
			rec.Delete(hd)
		}
		cnt.lost += lost
		cnt.hits += hits
		cnt.expired += expired
	})
}

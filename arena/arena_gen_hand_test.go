package arena

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// The hand-written versions of the five systems arena.tw declares, as
// package arena had them before it ran the generated ones: the baseline
// (hand) of BenchmarkKernels, and nothing else. IntegrateBodies and
// IntegrateProjectiles are the path package arena ran in a SIMD lane
// before the generator wrote SIMD variants (laneBodies, laneProjectiles,
// in the Sim's lane: the hand kernels of arena_gen_hand_kernels_test.go). Each adds
// to the generated system's counters, so Sim.Counters and the digest are
// the same.

// handSystems returns the hand-written systems for newSim's replace.
func handSystems(s *Sim) []tickwork.System {
	return []tickwork.System{
		{Name: "ApplyHits", Phase: tickwork.FrameStart, Declare: s.handApplyHits},
		{Name: "Collision", Phase: tickwork.FixedUpdate, Declare: s.handCollision},
		s.laneBodies(),
		s.laneProjectiles(),
		{Name: "Clock", Phase: tickwork.Update, Declare: s.handClock},
	}
}

func (s *Sim) handApplyHits(d *tickwork.Decl) tickwork.RunFunc {
	d.After("ResolveRespawns")
	t := s.t
	hits := tickwork.Consume(d, t.HitEvent)
	health := tickwork.Write(d, t.Unit.Health)
	units := tickwork.Record(d, t.Unit.Table)
	units.Reserve(s.maxDeaths()) // one delete a death
	dead := tickwork.Emit(d, t.DeadSlot)
	s.sys.ApplyHits.Deaths = d.Counter("deaths")
	return func(*tickwork.Context) {
		// Health only falls, so the one hit that takes a unit from > 0 to
		// <= 0 is where it dies: it dies once, whatever the order of its hits.
		var deaths int64
		for _, h := range hits.Read() {
			hp := health.Ptr(h.Target)
			if hp == nil {
				continue
			}
			before := *hp
			*hp = before - h.Damage
			if before > 0 && before-h.Damage <= 0 {
				units.Delete(h.Target)
				dead.Emit(DeadSlot{Slot: int32(h.Target.Index())})
				deaths++
			}
		}
		s.sys.ApplyHits.Deaths.Add(deaths)
	}
}

// handCounts are one hand Collision worker's counters, padded to a cache line.
type handCounts struct {
	lost, hits, expired int64
	_                   [40]byte
}

// handCollide is the hand Collision's kernel state.
type handCollide struct {
	proj    tickwork.Query4[float32, float32, int32, int32] // X, Y, TTL, Damage
	target  tickwork.Query1[tickwork.Handle]
	bx, by  tickwork.ReadColumn[float32]
	rec     *tickwork.Recorder
	emit    *tickwork.ParallelEmitter[HitEvent]
	counts  []handCounts
	chunkSz int
}

func (s *Sim) handCollision(d *tickwork.Decl) tickwork.RunFunc {
	d.After("Fire")
	d.Before("IntegrateBodies", "IntegrateProjectiles")
	t := s.t
	p := &t.Projectile
	k := handCollide{
		proj:    tickwork.NewQuery4(tickwork.Read(d, p.X), tickwork.Read(d, p.Y), tickwork.Read(d, p.TTL), tickwork.Read(d, p.Damage)),
		target:  tickwork.NewQuery1(tickwork.Read(d, p.Target)),
		bx:      tickwork.Read(d, t.Body.X),
		by:      tickwork.Read(d, t.Body.Y),
		rec:     tickwork.Record(d, p.Table),
		emit:    tickwork.EmitParallel(d, t.HitEvent),
		counts:  make([]handCounts, max(s.cfg.Workers, 1)),
		chunkSz: p.Table.ChunkRows(),
	}
	k.rec.ReserveWorkers(p.Table.Cap())
	c := s.sys.Collision
	c.Lost, c.Hits, c.Expired = d.Counter("lost"), d.Counter("hits"), d.Counter("expired")
	return func(ctx *tickwork.Context) {
		clear(k.counts)
		tickwork.ParallelPolicy(ctx, tickwork.KernelPolicy{Grain: 1}, p.Table.UsedChunks(), k, (*handCollide).chunk)
		var lost, hits, expired int64
		for i := range k.counts {
			lost += k.counts[i].lost
			hits += k.counts[i].hits
			expired += k.counts[i].expired
		}
		c.Lost.Add(lost)
		c.Hits.Add(hits)
		c.Expired.Add(expired)
	}
}

func (k *handCollide) chunk(w, c int) {
	out := handOut{rec: k.rec.Worker(w, c), emit: k.emit.Worker(w, c), t: k.proj.Table()}
	if out.t.ChunkLen(c) == 0 {
		return
	}
	px, py, ttl, dmg := k.proj.Spans(c)
	tgt := k.target.Spans(c)
	cnt := &k.counts[w]
	for lo, hi := range k.proj.Runs(c) {
		out.first = c*k.chunkSz + lo
		lost, hits, expired := k.run(&out, tgt[lo:hi], px[lo:hi], py[lo:hi], ttl[lo:hi], dmg[lo:hi])
		cnt.lost += lost
		cnt.hits += hits
		cnt.expired += expired
	}
}

// handOut is where a run of the hand Collision records and emits.
type handOut struct {
	rec   *tickwork.Recorder
	emit  tickwork.WorkerEmitter[HitEvent]
	t     *tickwork.Table
	first int
}

// run checks one run of live projectiles, the rare path's state behind
// one pointer, so that the loop keeps its slices in registers.
func (k *handCollide) run(out *handOut, tgt []tickwork.Handle, px, py []float32, ttl, dmg []int32) (lost, hits, expired int64) {
	px, py, ttl, dmg = px[:len(tgt)], py[:len(tgt)], ttl[:len(tgt)], dmg[:len(tgt)]
	bx, by, body := k.bx.All(), k.by.All(), k.bx.Lease()
	for i, h := range tgt {
		bi := body.Find(h)
		switch {
		case bi < 0:
			lost++
		case float32((bx[bi]-px[i])*(bx[bi]-px[i]))+float32((by[bi]-py[i])*(by[bi]-py[i])) <= rules.R2:
			out.emit.Emit(HitEvent{Target: h, Damage: dmg[i]})
			hits++
		case ttl[i] <= 0:
			expired++
		default:
			continue
		}
		p, _ := out.t.HandleAt(out.first + i)
		out.rec.Delete(p)
	}
	return lost, hits, expired
}

func (s *Sim) handClock(d *tickwork.Decl) tickwork.RunFunc {
	tab := s.t.ArenaClock.Table
	ticks := tickwork.Write(d, s.t.ArenaClock.Tick)
	var row tickwork.Handle // the clock row, inserted after Build
	return func(*tickwork.Context) {
		if row == 0 {
			row, _ = tab.HandleAt(0)
		}
		*ticks.Ptr(row)++
	}
}

// TestHandBaselineSameDigest: the hand-written baseline reaches the
// generated systems' golden digest and counters, with one worker and two,
// so BenchmarkKernels' two sides do the same work frame by frame; in every
// lane, so the hand kernels' SIMD forms do too.
func TestHandBaselineSameDigest(t *testing.T) {
	forLanes(t, func(t *testing.T, l tickwork.Lane) {
		for _, workers := range []int{1, 2} {
			for _, hand := range []bool{false, true} {
				t.Run(fmt.Sprintf("workers=%d/hand=%v", workers, hand), func(t *testing.T) {
					cfg := rules.Config{Units: 1000, Shots: 64, Seed: 42, Workers: workers, Lane: l.String()}
					var replace func(*Sim) []tickwork.System
					if hand {
						replace = handSystems
					}
					s, err := newSim(cfg, replace)
					require.NoError(t, err)
					defer s.Close()
					for range 200 {
						require.NoError(t, s.Frame())
					}
					c := s.Counters()
					assert.Equal(t, "fe9494823c44d61e", rules.FormatDigest(rules.Digest(s.Presentation(), s.Frames(), c, s.ProjectileChecksum())))
					assert.Equal(t, rules.Counters{ShotsFired: 12788, Hits: 104, Deaths: 35, Lost: 198, Expired: 6387, LiveProjectiles: 6099}, c)
				})
			}
		}
	})
}

// kernelNames are the systems arena.tw declares, whose frame times
// BenchmarkKernels reports.
var kernelNames = []string{"ApplyHits", "Collision", "IntegrateBodies", "IntegrateProjectiles", "Clock"}

// BenchmarkKernels runs the arena's frames (default config, 100 000 units,
// scalar lane) with the five generated systems (generated) and with their
// hand-written versions above (hand), the four others the same: both
// reach the same digest, so after the same warm-up the same frames do the
// same work on the same world. Run it with a fixed -benchtime Nx so both
// run the same frames (at most 65 536). Besides ns/op (one frame) it
// reports each of the five systems' wall time per frame from the frame
// reports, its 10th percentile and median (NAME-p10-ns, NAME-p50-ns): the
// per-kernel comparison; percentiles, so that the other loads of a shared
// machine (a preempted run) weigh little.
func BenchmarkKernels(b *testing.B) {
	for _, workers := range []int{1, 2} {
		cfg := rules.DefaultConfig()
		cfg.Workers, cfg.Lane = workers, tickwork.LaneScalar.String()
		for _, side := range []string{"generated", "hand"} {
			b.Run(fmt.Sprintf("workers=%d/%s", workers, side), func(b *testing.B) {
				var replace func(*Sim) []tickwork.System
				if side == "hand" {
					replace = handSystems
				}
				s := warmSim(b, cfg, replace)
				var times [5][]time.Duration // per frame, made before the loop
				for i := range times {
					times[i] = make([]time.Duration, 0, 1<<16)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := s.Frame(); err != nil {
						b.Fatal(err)
					}
					r := s.World().Report()
					for i, name := range kernelNames {
						times[i] = append(times[i], r.System(name).Total)
					}
				}
				for i, name := range kernelNames {
					reportQuantiles(b, times[i], name+"-")
				}
			})
		}
	}
}

// reportQuantiles reports the 10th and 50th percentiles of ts (sorted in
// place) as metrics PREFIXp10-ns and PREFIXp50-ns: on a shared machine a
// low percentile is the kernel's own cost, the median what the machine
// let it have.
func reportQuantiles(b *testing.B, ts []time.Duration, prefix string) {
	if len(ts) == 0 {
		return
	}
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/10].Nanoseconds()), prefix+"p10-ns")
	b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds()), prefix+"p50-ns")
}

// BenchmarkDenseKernels runs the kernels of the three dense systems alone,
// over every used chunk of their table as one worker runs them, on
// one world (default config, after the default warm-up): the generated
// kernel (generated) and the hand-written one (hand: moveBounce and
// advance in the scalar lane, and Clock's increment through the
// row's pointer), in the same run. Both move the same columns, so the
// world drifts the same way under either. Besides ns/op it reports the
// 10th percentile and median of a call (p10-ns, p50-ns), except for Clock,
// a few nanoseconds, less than timing a call costs.
func BenchmarkDenseKernels(b *testing.B) {
	cfg := rules.DefaultConfig()
	cfg.Lane = tickwork.LaneScalar.String()
	s := warmSim(b, cfg, nil)
	t := s.t
	bq := tickwork.HostQuery4(t.Body.X, t.Body.Y, t.Body.VX, t.Body.VY)
	pos := tickwork.HostQuery3(t.Projectile.X, t.Projectile.Y, t.Projectile.TTL)
	vel := tickwork.HostQuery2(t.Projectile.VX, t.Projectile.VY)
	handBodies := bodies{q: bq, lane: tickwork.LaneScalar}
	handProj := projectiles{pos: pos, vel: vel, lane: tickwork.LaneScalar}
	ticks := t.ArenaClock.Tick
	clockRow, _ := t.ArenaClock.Table.HandleAt(0)
	genBodies, genProj, genClock := s.sys.IntegrateBodies.span, s.sys.IntegrateProjectiles.span, s.sys.Clock.span
	cases := []struct {
		name      string
		gen, hand func()
	}{
		{"IntegrateBodies", func() { denseChunks(t.Body.Table, genBodies) }, func() {
			for c := range t.Body.Table.UsedChunks() {
				handBodies.chunk(0, c)
			}
		}},
		{"IntegrateProjectiles", func() { denseChunks(t.Projectile.Table, genProj) }, func() {
			for c := range t.Projectile.Table.UsedChunks() {
				handProj.chunk(0, c)
			}
		}},
		{"Clock", func() { denseChunks(t.ArenaClock.Table, genClock) }, func() { *ticks.Ptr(clockRow)++ }},
	}
	for _, tc := range cases {
		for _, side := range []string{"generated", "hand"} {
			b.Run(tc.name+"/"+side, func(b *testing.B) {
				run := tc.gen
				if side == "hand" {
					run = tc.hand
				}
				b.ReportAllocs()
				if tc.name == "Clock" { // a few ns: timing each call would cost more than the call
					for b.Loop() {
						run()
					}
					return
				}
				times := make([]time.Duration, 0, 1<<20) // per call, made before the loop
				for b.Loop() {
					t0 := time.Now()
					run()
					if len(times) < cap(times) {
						times = append(times, time.Since(t0))
					}
				}
				reportQuantiles(b, times, "")
			})
		}
	}
}

// denseChunks runs a generated dense kernel's span over every used chunk
// of t, rows 0..LiveEnd of each, as tickwork.ChunkKernel runs it on one
// worker (in the scalar lane: no SIMD variant first).
func denseChunks(t *tickwork.Table, span func(lo, hi int)) {
	rows := t.ChunkRows()
	for c := range t.UsedChunks() {
		span(c*rows, c*rows+t.LiveEnd(c))
	}
}

// laneBodies is IntegrateBodies as package arena ran it in a SIMD lane
// before the generator wrote SIMD variants: the generated system's name,
// phase and manifest, its chunks through moveBounce (the same bits as the
// generated kernel: package lanes, "Bit identity").
func (s *Sim) laneBodies() tickwork.System {
	return tickwork.System{Name: "IntegrateBodies", Phase: tickwork.FixedUpdate, Declare: s.integrateBodies, Lane: s.lane.String()}
}

// bodies is laneBodies' kernel state.
type bodies struct {
	q    tickwork.Query4[float32, float32, float32, float32] // X, Y, VX, VY
	lane tickwork.Lane
}

// integrateBodies moves every live unit by its velocity over DT and bounces
// it off the arena's walls.
func (s *Sim) integrateBodies(d *tickwork.Decl) tickwork.RunFunc {
	b := &s.t.Body
	k := bodies{tickwork.NewQuery4(tickwork.Write(d, b.X), tickwork.Write(d, b.Y),
		tickwork.Write(d, b.VX), tickwork.Write(d, b.VY)), s.lane}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, b.Table.Chunks(), k, (*bodies).chunk) }
}

// chunk is a dense kernel: it integrates every row of the chunk up to its
// last live one, holes included (a hole's values are don't-care), as
// rules.MoveUnits in moveBounce.
func (k *bodies) chunk(_, c int) {
	hi := k.q.Table().LiveEnd(c)
	x, y, vx, vy := k.q.Spans(c)
	moveBounce(k.lane, x[:hi], y[:hi], vx[:hi], vy[:hi])
}

// laneProjectiles is IntegrateProjectiles in a SIMD lane, as laneBodies.
func (s *Sim) laneProjectiles() tickwork.System {
	return tickwork.System{Name: "IntegrateProjectiles", Phase: tickwork.FixedUpdate, Declare: s.integrateProjectiles, Lane: s.lane.String()}
}

// projectiles is laneProjectiles' kernel state.
type projectiles struct {
	pos  tickwork.Query3[float32, float32, int32] // X, Y, TTL
	vel  tickwork.Query2[float32, float32]        // VX, VY
	lane tickwork.Lane
}

// integrateProjectiles moves every projectile and ages it by one tick.
func (s *Sim) integrateProjectiles(d *tickwork.Decl) tickwork.RunFunc {
	p := &s.t.Projectile
	k := projectiles{
		pos:  tickwork.NewQuery3(tickwork.Write(d, p.X), tickwork.Write(d, p.Y), tickwork.Write(d, p.TTL)),
		vel:  tickwork.NewQuery2(tickwork.Read(d, p.VX), tickwork.Read(d, p.VY)),
		lane: s.lane,
	}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, p.Table.UsedChunks(), k, (*projectiles).chunk) }
}

// chunk is a dense kernel, like bodies.chunk: x += vx*DT, y += vy*DT,
// ttl-- (advance).
func (k *projectiles) chunk(_, c int) {
	hi := k.pos.Table().LiveEnd(c)
	x, y, ttl := k.pos.Spans(c)
	vx, vy := k.vel.Spans(c)
	advance(k.lane, x[:hi], y[:hi], vx[:hi], vy[:hi], ttl[:hi])
}

// warmSim builds the arena for cfg (its systems replaced as newSim does
// when replace is not nil), closed when tb ends, and runs the default
// warm-up frames: the world the benchmarks time.
func warmSim(tb testing.TB, cfg rules.Config, replace func(*Sim) []tickwork.System, opts ...tickwork.Option) *Sim {
	tb.Helper()
	s, err := newSimWith(cfg, replace, nil, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	for range rules.DefaultWarmup {
		if err := s.Frame(); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

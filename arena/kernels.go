package arena

import (
	"errors"
	"slices"
	"unsafe"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/lanes"
	"github.com/tickwork/tickwork/systems"
)

// errUnresolved: a respawned unit's provisional handle did not resolve; the
// runtime's boundary rules guarantee it does, so this is a bug.
var errUnresolved = errors.New("arena: a respawned unit's provisional handle did not resolve at the next FrameStart")

// errSlotBinding: a unit's entity index is not its roster slot. The Actors
// domain hands out the lowest free slot and Respawn creates the freed slots
// in ascending order, so this cannot happen unless the storage's slot policy
// changed.
var errSlotBinding = errors.New("arena: a unit's entity index differs from its slot; the lowest-free-slot policy of ephemeral domains no longer holds")

// collision checks every projectile that existed at the start of the tick:
// lost (target dead), hit (within R2: HitEvent), expired (ttl <= 0) — first
// matching arm wins; each outcome deletes the projectile.
func (s *Sim) collision(ctx *systems.Context) error {
	run := &s.collide
	var err error
	if run.body, err = ctx.Lease(s.body); err != nil {
		return err
	}
	for i := range s.counts {
		s.counts[i] = workerCounts{}
	}
	// Per-worker recorders and event segments, keyed by chunk, for any
	// worker count (one worker is the same mechanism with one segment list).
	if run.recs, err = ctx.WorkerRecorders(s.proj); err != nil {
		return err
	}
	if run.emit, err = systems.ParallelEmitter(ctx, s.hits); err != nil {
		return err
	}
	if !s.reservedCollision {
		// A tick deletes at most every projectile: size the worker buffers
		// once, so a new high never allocates later.
		for w := range ctx.Workers() {
			run.recs.Chunk(w, 0).Buffer().Reserve(s.proj.Cap())
		}
		s.reservedCollision = true
	}
	ctx.RunKernel(s.proj.Chunks(), s.collideKernel)
	for i := range s.counts {
		s.c.Lost += s.counts[i].lost
		s.c.Hits += s.counts[i].hits
		s.c.Expired += s.counts[i].expired
	}
	return nil
}

func (s *Sim) collisionChunk(w, c int) {
	run := &s.collide
	// Every chunk starts its segments, empty or not, so each worker's
	// segment count is the same every tick and nothing grows.
	rec := run.recs.Chunk(w, c)
	emit := run.emit.Worker(w)
	emit.Begin(c)
	if s.proj.ChunkLen(c) == 0 {
		return
	}
	px, py, ttl, dmg, tgt := s.px.Span(c), s.py.Span(c), s.pttl.Span(c), s.pdmg.Span(c), s.ptarget.Span(c)
	bx, by := s.bx.All(), s.by.All()
	body := run.body
	cnt := &s.counts[w]
	base := c * s.proj.ChunkRows()
	ephemeral.EachRun(s.proj.Enabled(c), func(lo, hi int) {
		tgt := tgt[lo:hi]
		px, py, ttl, dmg := px[lo:hi][:len(tgt)], py[lo:hi][:len(tgt)], ttl[lo:hi][:len(tgt)], dmg[lo:hi][:len(tgt)]
		var lost, hits, expired int64
		for i, t := range tgt {
			bi, ok := body.Row(t)
			switch {
			case !ok:
				lost++
			case float32((bx[bi]-px[i])*(bx[bi]-px[i]))+float32((by[bi]-py[i])*(by[bi]-py[i])) <= rules.R2:
				_ = emit.Emit(Hit{Target: t, Damage: dmg[i]}) // overflow is counted by the table
				hits++
			case ttl[i] <= 0:
				expired++
			default:
				continue
			}
			h, _ := s.proj.HandleAt(base + lo + i)
			rec.Delete(h)
		}
		cnt.lost += lost
		cnt.hits += hits
		cnt.expired += expired
	})
}

// maxDeaths bounds the units that can die in one frame: each death takes a
// hit, and each hit a live projectile.
func (s *Sim) maxDeaths() int { return min(s.cfg.Units, s.proj.Cap()) }

// integrateBodies moves every live unit by its velocity over DT and bounces
// it off the arena's walls.
func (s *Sim) integrateBodies(ctx *systems.Context) error {
	ctx.RunKernel(s.body.Chunks(), s.bodiesKernel)
	return nil
}

// integrateBodiesChunk is a dense kernel: it integrates every row of the
// chunk up to its last live one, holes included. A hole's values are
// don't-care (ephemeral zeroes a row when it is inserted), so moving them is
// harmless, and one straight loop beats walking the runs of live rows. It
// runs rules.MoveUnits as lanes.MoveBounce in the Sim's lane (same bits in
// every lane: see package lanes).
func (s *Sim) integrateBodiesChunk(_, c int) {
	hi := liveEnd(s.body.Enabled(c))
	x, y, vx, vy := s.bx.Span(c), s.by.Span(c), s.bvx.Span(c), s.bvy.Span(c)
	lanes.MoveBounce(s.lane, x[:hi], y[:hi], vx[:hi], vy[:hi], rules.DT, rules.W)
}

// liveEnd is one past the last row of mask's chunk whose word of the
// enabled bitmap has a live row (a multiple of 64; 0 for an empty chunk).
func liveEnd(mask bitmap.Bitmap) int {
	for w := len(mask) - 1; w >= 0; w-- {
		if mask[w] != 0 {
			return (w + 1) << 6
		}
	}
	return 0
}

// integrateProjectiles moves every projectile and ages it by one tick.
func (s *Sim) integrateProjectiles(ctx *systems.Context) error {
	ctx.RunKernel(s.proj.Chunks(), s.projKernel)
	return nil
}

// integrateProjectilesChunk is a dense kernel, like integrateBodiesChunk,
// in the Sim's lane: x += vx*DT, y += vy*DT, ttl-- (lanes.Advance).
func (s *Sim) integrateProjectilesChunk(_, c int) {
	hi := liveEnd(s.proj.Enabled(c))
	x, y, vx, vy, ttl := s.px.Span(c)[:hi], s.py.Span(c)[:hi], s.pvx.Span(c)[:hi], s.pvy.Span(c)[:hi], s.pttl.Span(c)[:hi]
	lanes.Advance(s.lane, x, y, vx, vy, ttl, rules.DT)
}

// clock advances the arena clock by one tick.
func (s *Sim) clock(ctx *systems.Context) error {
	ticks, err := systems.Write(ctx, s.clockTick)
	if err != nil {
		return err
	}
	ticks[s.clockRow.Index()]++
	return nil
}

// presentationSync writes the slot-indexed presentation buffer: entry s is
// row s of the Actors domain, alive when its enabled bit is set.
func (s *Sim) presentationSync(ctx *systems.Context) error {
	ctx.RunKernel(s.unit.Chunks(), s.presKernel)
	return nil
}

func (s *Sim) presentationChunk(_, c int) {
	lo := c * s.unit.ChunkRows()
	pres := s.pres[lo:min(lo+s.unit.ChunkRows(), len(s.pres))]
	x, y, health := s.bx.Span(c)[:len(pres)], s.by.Span(c)[:len(pres)], s.uHealth.Span(c)[:len(pres)]
	mask := s.unit.Enabled(c)
	if s.lane != lanes.Scalar && len(pres) > 0 {
		// A SIMD lane (amd64 only, so little-endian): the slots as records
		// of four 32-bit words, whose layout the guards below pin.
		words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(pres))), 4*len(pres))
		lanes.Slots(s.lane, words, x, y, health, mask)
		return
	}
	for i := range pres {
		// Branch-free: a dead row's values are stale, and the rules leave
		// them meaningless when Alive is 0.
		p := &pres[i]
		p.X, p.Y, p.Health, p.Alive = x[i], y[i], health[i], uint8(mask[i>>6]>>(i&63)&1)
	}
}

// These fail to compile unless rules.Slot is the record lanes.Slots
// writes: X, Y, Health at word offsets 0, 1, 2 and Alive the first byte of
// word 3, 16 bytes in all (on a little-endian machine the word 0 or 1 is
// Alive 0 or 1 and zero padding).
var (
	_ = [1]struct{}{}[unsafe.Sizeof(rules.Slot{})-16] // each index is 0 or fails
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.X)]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Y)-4]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Health)-8]
	_ = [1]struct{}{}[unsafe.Offsetof(rules.Slot{}.Alive)-12]
)

// respawn spawns a new unit for every slot that died this frame, in
// ascending slot order; they exist from the next frame.
func (s *Sim) respawn(ctx *systems.Context) error {
	dead, err := systems.Reader(ctx, s.dead)
	if err != nil {
		return err
	}
	units, err := ctx.Recorder(s.unit)
	if err != nil {
		return err
	}
	bodies, err := ctx.Recorder(s.body)
	if err != nil {
		return err
	}
	if !s.reservedRespawn {
		// Room for the most deaths a frame can have (one hit each), so a
		// bad frame never grows the buffer: 7 records and 5 values a unit.
		n := s.maxDeaths()
		commands.Reserve(units, s.uHealth, n)
		commands.Reserve(bodies, s.bx, n)
		commands.Reserve(bodies, s.by, n)
		commands.Reserve(bodies, s.bvx, n)
		commands.Reserve(bodies, s.bvy, n)
		units.Buffer().Reserve(7 * n)
		s.reservedRespawn = true
	}
	if len(dead) == 0 {
		return nil
	}
	slots := append(s.deadSort[:0], dead...)
	slices.Sort(slots)
	for _, slot := range slots {
		x, y, vx, vy := rules.Spawn(s.r)
		h := units.Create()
		bodies.Attach(h)
		commands.Set(units, s.uHealth, h, rules.Health)
		commands.Set(bodies, s.bx, h, x)
		commands.Set(bodies, s.by, h, y)
		commands.Set(bodies, s.bvx, h, vx)
		commands.Set(bodies, s.bvy, h, vy)
		s.respawns = append(s.respawns, respawn{slot: slot, unit: h})
	}
	s.deadSort = slots
	return nil
}

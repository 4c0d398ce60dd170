package arena

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/lanes"
)

// errUnresolved: a respawned unit's provisional handle did not resolve; the
// runtime's boundary rules guarantee it does, so this is a bug.
var errUnresolved = errors.New("arena: a respawned unit's provisional handle did not resolve at the next FrameStart")

// errSlotBinding: a unit's entity index is not its roster slot. The Actors
// domain hands out the lowest free slot and Respawn creates the freed slots
// in ascending order, so this cannot happen unless the storage's slot policy
// changed.
var errSlotBinding = errors.New("arena: a unit's entity index differs from its slot; the lowest-free-slot policy of ephemeral domains no longer holds")

// maxDeaths bounds the units that can die in one frame: each death takes a
// hit, and each hit a live projectile.
func (s *Sim) maxDeaths() int { return min(s.cfg.Units, s.proj.Cap()) }

// systems declares the arena's systems (see the package doc for the order).
// The streaming ones say the lane their kernels run (in the frame report).
func (s *Sim) systems(b *tickwork.Builder) {
	lane := s.lane.String()
	s.declared = []tickwork.System{
		{Name: "ResolveRespawns", Phase: tickwork.FrameStart, Declare: s.resolveRespawns},
		{Name: "ApplyHits", Phase: tickwork.FrameStart, Declare: s.applyHits},
		{Name: "Fire", Phase: tickwork.FixedUpdate, Declare: s.fire},
		{Name: "Collision", Phase: tickwork.FixedUpdate, Declare: s.collision},
		{Name: "IntegrateBodies", Phase: tickwork.FixedUpdate, Declare: s.integrateBodies, Lane: lane},
		{Name: "IntegrateProjectiles", Phase: tickwork.FixedUpdate, Declare: s.integrateProjectiles, Lane: lane},
		{Name: "Clock", Phase: tickwork.Update, Declare: s.clock},
		{Name: "PresentationSync", Phase: tickwork.LateUpdate, Declare: s.presentationSync, Lane: lane},
		{Name: "Respawn", Phase: tickwork.FrameEnd, Declare: s.respawn},
	}
	b.Add(s.declared...)
}

// resolveRespawns: the units created by the previous frame's Respawn become
// the live units of their slots.
func (s *Sim) resolveRespawns(d *tickwork.Decl) tickwork.RunFunc {
	respawns := tickwork.WriteResource(d, s.respawns)
	return func(ctx *tickwork.Context) {
		for _, p := range *respawns {
			h, ok := ctx.Resolve(p.unit)
			switch {
			case !ok:
				ctx.Fail(errUnresolved)
			case int32(h.Index()) != p.slot:
				ctx.Fail(errSlotBinding)
			}
		}
		*respawns = (*respawns)[:0]
	}
}

// applyHits subtracts every hit of the previous frame from its target; a unit
// whose health is then <= 0 dies once: deleted (Unit and Body), its slot
// emitted as a DeadSlot.
func (s *Sim) applyHits(d *tickwork.Decl) tickwork.RunFunc {
	d.After("ResolveRespawns")
	hits := tickwork.Consume(d, s.hits)
	health := tickwork.Write(d, s.uHealth)
	units := tickwork.Record(d, s.unit)
	units.Reserve(s.maxDeaths()) // one delete a death
	dead := tickwork.Emit(d, s.dead)
	c := tickwork.WriteResource(d, s.counters)
	return func(*tickwork.Context) {
		// Health only falls, so the one hit that takes a unit from > 0 to
		// <= 0 is where it dies: it dies once, whatever the order of its hits.
		for _, h := range hits.Read() {
			hp := health.Ptr(h.Target)
			if hp == nil {
				continue
			}
			before := *hp
			*hp = before - h.Damage
			if before > 0 && before-h.Damage <= 0 {
				units.Delete(h.Target)
				dead.Emit(int32(h.Target.Index()))
				c.Deaths++
			}
		}
	}
}

// shots are the projectiles Fire fires in one tick, column by column (room
// for S); ttl is always TTL.
type shots struct {
	x, y, vx, vy []float32
	ttl, damage  []int32
	target       []tickwork.Handle
	provs        []tickwork.Handle // their provisional handles
}

func newShots(n int) *shots {
	ttl := make([]int32, n)
	for i := range ttl {
		ttl[i] = rules.TTL
	}
	return &shots{x: make([]float32, n), y: make([]float32, n), vx: make([]float32, n), vy: make([]float32, n),
		ttl: ttl, damage: make([]int32, n), target: make([]tickwork.Handle, n), provs: make([]tickwork.Handle, n)}
}

// fire draws S shots (always all three draws) and records a projectile for
// each that fires; the projectiles exist from the end of this tick.
func (s *Sim) fire(d *tickwork.Decl) tickwork.RunFunc {
	xs, ys := tickwork.Read(d, s.bx), tickwork.Read(d, s.by)
	rec := tickwork.Record(d, s.proj)
	r := tickwork.WriteResource(d, s.rng).Rand
	c := tickwork.WriteResource(d, s.counters)
	f := newShots(s.cfg.Shots)
	units, body := s.cfg.Units, s.body
	shift, mask := bits.TrailingZeros(uint(body.ChunkRows())), body.ChunkRows()-1
	return func(*tickwork.Context) {
		n := 0
		for range s.cfg.Shots {
			shooter := r.IntN(units)
			target := r.IntN(units)
			damage := 1 + r.IntN(3)
			if shooter == target {
				continue
			}
			// Slot s is row s (see setup); the enabled bitmap says whether
			// it holds a live unit.
			if !body.Enabled(shooter>>shift).Contains(uint32(shooter&mask)) ||
				!body.Enabled(target>>shift).Contains(uint32(target&mask)) {
				continue
			}
			th, _ := body.HandleAt(target)
			sx, sy := xs.At(shooter), ys.At(shooter)
			dx := xs.At(target) - sx
			dy := ys.At(target) - sy
			d2 := float32(dx*dx) + float32(dy*dy)
			if d2 == 0 {
				continue
			}
			dist := float32(math.Sqrt(float64(d2)))
			f.x[n], f.y[n], f.vx[n], f.vy[n] = sx, sy, dx/dist*rules.Speed, dy/dist*rules.Speed
			f.damage[n], f.target[n] = int32(damage), th
			n++
		}
		c.ShotsFired += int64(n)
		if n == 0 {
			return
		}
		// Creates first, so playback inserts them as one bulk insert; then
		// the initial values, one SetN record per column.
		provs := f.provs[:n]
		for i := range provs {
			provs[i] = rec.Create()
		}
		tickwork.SetN(rec, s.px, provs, f.x[:n])
		tickwork.SetN(rec, s.py, provs, f.y[:n])
		tickwork.SetN(rec, s.pvx, provs, f.vx[:n])
		tickwork.SetN(rec, s.pvy, provs, f.vy[:n])
		tickwork.SetN(rec, s.pttl, provs, f.ttl[:n])
		tickwork.SetN(rec, s.pdmg, provs, f.damage[:n])
		tickwork.SetN(rec, s.ptarget, provs, f.target[:n])
	}
}

// workerCounts are one Collision worker's counters, padded to a cache line.
type workerCounts struct {
	lost, hits, expired int64
	_                   [40]byte
}

// collide is Collision's kernel state.
type collide struct {
	proj    tickwork.Query4[float32, float32, int32, int32] // X, Y, TTL, Damage
	target  tickwork.Query1[tickwork.Handle]
	bx, by  tickwork.ReadColumn[float32]
	rec     *tickwork.Recorder
	emit    *tickwork.ParallelEmitter[Hit]
	counts  []workerCounts
	chunkSz int
}

// collision checks every projectile that existed at the start of the tick:
// lost (target dead), hit (within R2: HitEvent), expired (ttl <= 0) — first
// matching arm wins; each outcome deletes the projectile.
func (s *Sim) collision(d *tickwork.Decl) tickwork.RunFunc {
	d.After("Fire")
	d.Before("IntegrateBodies", "IntegrateProjectiles")
	k := collide{
		proj: tickwork.NewQuery4(tickwork.Read(d, s.px), tickwork.Read(d, s.py),
			tickwork.Read(d, s.pttl), tickwork.Read(d, s.pdmg)),
		target:  tickwork.NewQuery1(tickwork.Read(d, s.ptarget)),
		bx:      tickwork.Read(d, s.bx),
		by:      tickwork.Read(d, s.by),
		rec:     tickwork.Record(d, s.proj),
		emit:    tickwork.EmitParallel(d, s.hits),
		counts:  make([]workerCounts, max(s.cfg.Workers, 1)),
		chunkSz: s.proj.ChunkRows(),
	}
	// A tick deletes at most every projectile: size the worker buffers once,
	// so a new high never allocates later.
	k.rec.ReserveWorkers(s.proj.Cap())
	c := tickwork.WriteResource(d, s.counters)
	return func(ctx *tickwork.Context) {
		clear(k.counts)
		// The probe runs on the workers; its outcomes drain in chunk order
		// (see the package doc, "Workers").
		tickwork.ParallelPolicy(ctx, collisionPolicy, usedChunks(s.proj), k, (*collide).chunk)
		for i := range k.counts {
			c.Lost += k.counts[i].lost
			c.Hits += k.counts[i].hits
			c.Expired += k.counts[i].expired
		}
	}
}

// collisionPolicy is Collision's worker policy: one chunk per worker at
// least, since a chunk of probes costs tens of µs (tickwork.KernelPolicy;
// the rest as the pool's default).
var collisionPolicy = tickwork.KernelPolicy{Grain: 1}

// usedChunks is one past t's last chunk that holds a live row (0 for an
// empty table). The Projectile table fills its lowest slots, so its top
// chunks are often empty: splitting only the used ones balances the
// workers. Kernels over them get the same split every frame while the
// count stays.
func usedChunks(t *tickwork.Table) int {
	n := t.Chunks()
	for n > 0 && t.ChunkLen(n-1) == 0 {
		n--
	}
	return n
}

func (k *collide) chunk(w, c int) {
	// Every chunk starts its segments, empty or not, so each worker's
	// segment count is the same every tick and nothing grows.
	out := collideOut{rec: k.rec.Worker(w, c), emit: k.emit.Worker(w, c), t: k.proj.Table()}
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

// collideOut is where a run of Collision records and emits: the chunk's
// worker recorder and emitter, the table and the run's first row.
type collideOut struct {
	rec   *tickwork.Recorder
	emit  tickwork.WorkerEmitter[Hit]
	t     *tickwork.Table
	first int
}

// run checks one run of live projectiles; kept apart from chunk, with the
// rare path's state behind one pointer, so that the loop keeps its slices
// in registers.
func (k *collide) run(out *collideOut, tgt []tickwork.Handle, px, py []float32, ttl, dmg []int32) (lost, hits, expired int64) {
	px, py, ttl, dmg = px[:len(tgt)], py[:len(tgt)], ttl[:len(tgt)], dmg[:len(tgt)]
	bx, by, body := k.bx.All(), k.by.All(), k.bx.Lease() // body: Body's lease, by a unit's slot
	for i, h := range tgt {
		bi, ok := body.Row(h)
		switch {
		case !ok:
			lost++
		case float32((bx[bi]-px[i])*(bx[bi]-px[i]))+float32((by[bi]-py[i])*(by[bi]-py[i])) <= rules.R2:
			out.emit.Emit(Hit{Target: h, Damage: dmg[i]}) // an overflow is counted and fails the frame
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

// bodies is IntegrateBodies' kernel state.
type bodies struct {
	q    tickwork.Query4[float32, float32, float32, float32] // X, Y, VX, VY
	lane lanes.Lane
}

// integrateBodies moves every live unit by its velocity over DT and bounces
// it off the arena's walls.
func (s *Sim) integrateBodies(d *tickwork.Decl) tickwork.RunFunc {
	k := bodies{tickwork.NewQuery4(tickwork.Write(d, s.bx), tickwork.Write(d, s.by),
		tickwork.Write(d, s.bvx), tickwork.Write(d, s.bvy)), s.lane}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, s.body.Chunks(), k, (*bodies).chunk) }
}

// chunk is a dense kernel: it integrates every row of the chunk up to its
// last live one, holes included. A hole's values are don't-care (ephemeral
// zeroes a row when it is inserted), so moving them is harmless, and one
// straight loop beats walking the runs of live rows. It runs
// rules.MoveUnits as lanes.MoveBounce in the Sim's lane (same bits in every
// lane: see package lanes).
func (k *bodies) chunk(_, c int) {
	hi := liveEnd(k.q.Table().Enabled(c))
	x, y, vx, vy := k.q.Spans(c)
	lanes.MoveBounce(k.lane, x[:hi], y[:hi], vx[:hi], vy[:hi], rules.DT, rules.W)
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

// projectiles is IntegrateProjectiles' kernel state.
type projectiles struct {
	pos  tickwork.Query3[float32, float32, int32] // X, Y, TTL
	vel  tickwork.Query2[float32, float32]        // VX, VY
	lane lanes.Lane
}

// integrateProjectiles moves every projectile and ages it by one tick.
func (s *Sim) integrateProjectiles(d *tickwork.Decl) tickwork.RunFunc {
	k := projectiles{
		pos:  tickwork.NewQuery3(tickwork.Write(d, s.px), tickwork.Write(d, s.py), tickwork.Write(d, s.pttl)),
		vel:  tickwork.NewQuery2(tickwork.Read(d, s.pvx), tickwork.Read(d, s.pvy)),
		lane: s.lane,
	}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, usedChunks(s.proj), k, (*projectiles).chunk) }
}

// chunk is a dense kernel, like bodies.chunk, in the Sim's lane:
// x += vx*DT, y += vy*DT, ttl-- (lanes.Advance).
func (k *projectiles) chunk(_, c int) {
	hi := liveEnd(k.pos.Table().Enabled(c))
	x, y, ttl := k.pos.Spans(c)
	vx, vy := k.vel.Spans(c)
	lanes.Advance(k.lane, x[:hi], y[:hi], vx[:hi], vy[:hi], ttl[:hi], rules.DT)
}

// clock advances the arena clock by one tick.
func (s *Sim) clock(d *tickwork.Decl) tickwork.RunFunc {
	ticks := tickwork.Write(d, s.clockTick)
	return func(*tickwork.Context) { *ticks.Ptr(s.clockRow)++ }
}

// present is PresentationSync's kernel state.
type present struct {
	body   tickwork.Query2[float32, float32] // X, Y
	health tickwork.Query1[int32]
	pres   []rules.Slot
	lane   lanes.Lane
}

func (s *Sim) presentKernel(pres []rules.Slot) present {
	body, _ := tickwork.HostQuery2(s.bx, s.by)
	health, _ := tickwork.HostQuery1(s.uHealth)
	return present{body, health, pres, s.lane}
}

// presentationSync writes the slot-indexed presentation buffer: entry s is
// row s of the Actors domain, alive when its enabled bit is set.
func (s *Sim) presentationSync(d *tickwork.Decl) tickwork.RunFunc {
	k := present{
		body:   tickwork.NewQuery2(tickwork.Read(d, s.bx), tickwork.Read(d, s.by)),
		health: tickwork.NewQuery1(tickwork.Read(d, s.uHealth)),
		pres:   *tickwork.WriteResource(d, s.pres),
		lane:   s.lane,
	}
	return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, s.unit.Chunks(), k, (*present).chunk) }
}

func (k *present) chunk(_, c int) {
	unit := k.health.Table()
	lo := c * unit.ChunkRows()
	pres := k.pres[lo:min(lo+unit.ChunkRows(), len(k.pres))]
	x, y := k.body.Spans(c)
	health, mask := k.health.Spans(c), unit.Enabled(c)
	if k.lane != lanes.Scalar && len(pres) > 0 {
		// A SIMD lane (amd64 only, so little-endian): the slots as records
		// of four 32-bit words, whose layout the guards below pin.
		x, y, health = x[:len(pres)], y[:len(pres)], health[:len(pres)]
		words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(pres))), 4*len(pres))
		lanes.Slots(k.lane, words, x, y, health, mask)
		return
	}
	presentRows(pres, x, y, health, mask)
}

// presentRows writes pres[i] from row i of x, y, health and the enabled
// mask: a leaf of its own, so that the loop gets the registers.
func presentRows(pres []rules.Slot, x, y []float32, health []int32, mask []uint64) {
	x, y, health = x[:len(pres)], y[:len(pres)], health[:len(pres)]
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
func (s *Sim) respawn(d *tickwork.Decl) tickwork.RunFunc {
	dead := tickwork.Consume(d, s.dead)
	units, bodies := tickwork.Record(d, s.unit), tickwork.Record(d, s.body)
	// Room for the most deaths a frame can have (one hit each), so a bad
	// frame never grows the buffer: 7 records and 5 values a unit.
	n := s.maxDeaths()
	tickwork.ReserveValues(units, s.uHealth, n)
	tickwork.ReserveValues(bodies, s.bx, n)
	tickwork.ReserveValues(bodies, s.by, n)
	tickwork.ReserveValues(bodies, s.bvx, n)
	tickwork.ReserveValues(bodies, s.bvy, n)
	units.Reserve(7 * n)
	r := tickwork.WriteResource(d, s.rng).Rand
	respawns := tickwork.WriteResource(d, s.respawns)
	sorted := make([]int32, 0, s.cfg.Units)
	return func(*tickwork.Context) {
		slots := append(sorted[:0], dead.Read()...)
		slices.Sort(slots)
		for _, slot := range slots {
			x, y, vx, vy := rules.Spawn(r)
			h := units.Create()
			bodies.Attach(h)
			tickwork.Set(units, s.uHealth, h, rules.Health)
			tickwork.Set(bodies, s.bx, h, x)
			tickwork.Set(bodies, s.by, h, y)
			tickwork.Set(bodies, s.bvx, h, vx)
			tickwork.Set(bodies, s.bvy, h, vy)
			*respawns = append(*respawns, respawn{slot: slot, unit: h})
		}
		sorted = slots
	}
}

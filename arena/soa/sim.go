package soa

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
)

// hit is a hit event waiting for the next frame's ApplyHits: the target's
// handle and the damage.
type hit struct {
	slot   int32
	gen    uint32
	damage int32
}

// projectiles is a set of projectiles in parallel arrays; entries [0, n) are
// live. Every array has the same length, the set's capacity.
type projectiles struct {
	n            int
	x, y, vx, vy []float32 // position (world units), velocity (world units/s)
	ttl, damage  []int32   // ticks left, damage points
	target       []int32   // target slot
	gen          []uint32  // target generation
}

func newProjectiles(capacity int) projectiles {
	return projectiles{
		x: make([]float32, capacity), y: make([]float32, capacity),
		vx: make([]float32, capacity), vy: make([]float32, capacity),
		ttl: make([]int32, capacity), damage: make([]int32, capacity),
		target: make([]int32, capacity), gen: make([]uint32, capacity),
	}
}

// move copies projectile i of src to index j of p.
func (p *projectiles) move(j int, src *projectiles, i int) {
	p.x[j], p.y[j], p.vx[j], p.vy[j] = src.x[i], src.y[i], src.vx[i], src.vy[i]
	p.ttl[j], p.damage[j], p.target[j], p.gen[j] = src.ttl[i], src.damage[i], src.target[i], src.gen[i]
}

// appendAll appends every projectile of src to p and empties src.
func (p *projectiles) appendAll(src *projectiles) {
	n, m := p.n, src.n
	if n+m > len(p.x) {
		panic("soa: projectile capacity exceeded; New sizes it to Shots*(TTL+1), the most that can be live")
	}
	copy(p.x[n:], src.x[:m])
	copy(p.y[n:], src.y[:m])
	copy(p.vx[n:], src.vx[:m])
	copy(p.vy[n:], src.vy[:m])
	copy(p.ttl[n:], src.ttl[:m])
	copy(p.damage[n:], src.damage[:m])
	copy(p.target[n:], src.target[:m])
	copy(p.gen[n:], src.gen[:m])
	p.n += m
	src.n = 0
}

// Sim is the struct-of-arrays arena. It implements [rules.Sim] under the name
// "soa". The zero value is not usable; call [New]. Not safe for concurrent use.
type Sim struct {
	cfg rules.Config
	r   *rand.Rand

	// Units, indexed by slot. alive is 1 for a live unit, else 0 (a uint8 so
	// that PresentationSync copies it without a branch). gen is the slot's
	// generation: it goes up by one when the slot's unit dies, which makes
	// every (slot, gen) handle to that unit stale. It would wrap only after
	// 2^32 deaths in one slot.
	x, y, vx, vy []float32
	health       []int32
	alive        []uint8
	gen          []uint32

	live  projectiles // projectiles that existed at the start of the tick
	fresh projectiles // projectiles fired this tick (at most S)

	hits []hit   // emitted by Collision, applied by the next frame's ApplyHits
	dead []int32 // slots that died this frame; after Respawn, the slots to resolve

	pres []rules.Slot

	tick, frames int64
	c            rules.Counters
	stages       rules.StageTimes
}

var _ rules.Sim = (*Sim)(nil)

// New validates cfg, spawns the N set-up units (arena rules v1, "Random
// numbers": spawn(s) for s = 0..N-1) and preallocates every buffer, so that
// [Sim.Frame] allocates nothing. cfg.Workers is ignored: the baseline is
// single-threaded. It returns an error matching [rules.ErrBadConfig] when cfg
// is invalid or has more than math.MaxInt32 units. The presentation buffer
// already shows the set-up units.
func New(cfg rules.Config) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Units > math.MaxInt32 {
		// Slots are stored as int32.
		return nil, &rules.ConfigError{Field: "Units", Value: cfg.Units, Want: "<= 2147483647 (soa)"}
	}
	n := cfg.Units
	maxLive := cfg.Shots * (int(rules.TTL) + 1)
	s := &Sim{
		cfg:    cfg,
		r:      rules.NewRand(cfg.Seed),
		x:      make([]float32, n),
		y:      make([]float32, n),
		vx:     make([]float32, n),
		vy:     make([]float32, n),
		health: make([]int32, n),
		alive:  make([]uint8, n),
		gen:    make([]uint32, n),
		live:   newProjectiles(maxLive),
		fresh:  newProjectiles(cfg.Shots),
		hits:   make([]hit, 0, maxLive),
		dead:   make([]int32, 0, min(n, maxLive)),
		pres:   make([]rules.Slot, n),
	}
	for i := range n {
		s.spawn(i)
		s.alive[i] = 1
	}
	s.presentationSync()
	return s, nil
}

// spawn draws a new unit into slot i (arena rules v1, spawn(slot)). It does
// not make the slot alive.
func (s *Sim) spawn(i int) {
	s.x[i], s.y[i], s.vx[i], s.vy[i] = rules.Spawn(s.r)
	s.health[i] = rules.Health
}

// Name returns "soa".
func (s *Sim) Name() string { return "soa" }

// Frames returns the number of frames run since set-up.
func (s *Sim) Frames() int64 { return s.frames }

// Counters returns the counters after the last completed frame.
func (s *Sim) Counters() rules.Counters { return s.c }

// Presentation returns the slot-indexed buffer (len Units) written by the last
// PresentationSync. X, Y and Health of a slot with Alive 0 are stale. The
// slice is owned by s and valid until the next Frame.
func (s *Sim) Presentation() []rules.Slot { return s.pres }

// Projectiles appends x, y (world units) of every live projectile to dst and
// returns it.
func (s *Sim) Projectiles(dst []float32) []float32 {
	p := &s.live
	for i := range p.n {
		dst = append(dst, p.x[i], p.y[i])
	}
	return dst
}

// ProjectileChecksum returns the wrapping sum of [rules.ProjectileHash] over
// every live projectile.
func (s *Sim) ProjectileChecksum() uint64 {
	p := &s.live
	var sum uint64
	for i := range p.n {
		sum += rules.ProjectileHash(p.x[i], p.y[i], p.ttl[i], p.damage[i])
	}
	return sum
}

// SystemTimes appends the wall time of each stage of the last frame to dst,
// in run order (ResolveRespawns, ApplyHits, Fire, Collision, IntegrateBodies,
// IntegrateProjectiles, Clock, PresentationSync, Respawn), and returns it.
func (s *Sim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	return s.stages.Append(dst)
}

// Close does nothing: the baseline holds no goroutines. It returns nil.
func (s *Sim) Close() error { return nil }

// Frame runs one frame (arena rules v1, "One frame"): FrameStart
// (ResolveRespawns, ApplyHits), one fixed tick (Fire, Collision,
// IntegrateBodies, IntegrateProjectiles), Clock, PresentationSync and Respawn.
// It always returns nil and allocates nothing.
func (s *Sim) Frame() error {
	t := time.Now()
	s.resolveRespawns()
	t = s.stages.Lap(rules.StageResolveRespawns, t)
	s.applyHits()
	t = s.stages.Lap(rules.StageApplyHits, t)
	s.fire()
	t = s.stages.Lap(rules.StageFire, t)
	s.collision()
	t = s.stages.Lap(rules.StageCollision, t)
	s.integrateBodies()
	t = s.stages.Lap(rules.StageIntegrateBodies, t)
	s.integrateProjectiles()
	t = s.stages.Lap(rules.StageIntegrateProjectiles, t)
	s.tick++
	t = s.stages.Lap(rules.StageClock, t)
	s.presentationSync()
	t = s.stages.Lap(rules.StagePresentationSync, t)
	s.respawn()
	s.stages.Lap(rules.StageRespawn, t)
	s.frames++
	s.c.LiveProjectiles = int64(s.live.n)
	return nil
}

// resolveRespawns makes the units spawned by the previous frame's Respawn the
// live units of their slots.
func (s *Sim) resolveRespawns() {
	for _, i := range s.dead {
		s.alive[i] = 1
	}
	s.dead = s.dead[:0]
}

// applyHits subtracts each hit's damage from its target; a target whose health
// drops to 0 or below dies once: its slot is dead for the rest of the frame and
// its generation goes up, so every handle to it is now stale. Later hits on
// the same dead unit are dropped, which equals summing damage per target.
func (s *Sim) applyHits() {
	health, alive, gen := s.health, s.alive, s.gen
	for _, h := range s.hits {
		i := h.slot
		// A stale handle means the unit already died from an earlier hit in
		// this loop (nothing else kills between Collision and ApplyHits).
		if gen[i] != h.gen {
			continue
		}
		health[i] -= h.damage
		if health[i] <= 0 {
			alive[i] = 0
			gen[i]++
			s.dead = append(s.dead, i)
		}
	}
	s.c.Deaths += int64(len(s.dead))
	s.hits = s.hits[:0]
}

// fire draws S shots and fires those whose shooter and target are distinct
// live units at distinct positions, into the fresh buffer.
func (s *Sim) fire() {
	r, n := s.r, s.cfg.Units
	x, y, alive, gen := s.x, s.y, s.alive, s.gen
	f := &s.fresh
	for range s.cfg.Shots {
		shooter := r.IntN(n)
		target := r.IntN(n)
		damage := 1 + r.IntN(3)
		if shooter == target || alive[shooter] == 0 || alive[target] == 0 {
			continue
		}
		sx, sy := x[shooter], y[shooter]
		dx := x[target] - sx
		dy := y[target] - sy
		d2 := float32(dx*dx) + float32(dy*dy)
		if d2 == 0 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		j := f.n
		f.x[j], f.y[j] = sx, sy
		f.vx[j], f.vy[j] = dx/d*rules.Speed, dy/d*rules.Speed
		f.ttl[j], f.damage[j] = rules.TTL, int32(damage)
		f.target[j], f.gen[j] = int32(target), gen[target]
		f.n++
	}
	s.c.ShotsFired += int64(f.n)
}

// collision resolves every projectile that existed at the start of the tick;
// first matching arm wins: stale target → lost; within the hit radius → hit
// event; ttl used up → expired. A deleted projectile is replaced by the last
// one (swap-remove), which is then examined in its place: only the few
// deleted projectiles cost a move, and the order of rows cannot change the
// digest. This tick's shots wait in the fresh buffer and are not seen here.
func (s *Sim) collision() {
	p := &s.live
	n := p.n
	px, py, ttl := p.x[:n], p.y[:n], p.ttl[:n]
	tgt, tgen, dmg := p.target[:n], p.gen[:n], p.damage[:n]
	x, y, gen := s.x, s.y, s.gen
	var lost, hits, expired int64
	for i := 0; i < n; {
		t := tgt[i]
		// A handle is live exactly when its generation is current: the
		// generation goes up at death, and a dead slot cannot be targeted.
		if gen[t] != tgen[i] {
			lost++
		} else if ex, ey := x[t]-px[i], y[t]-py[i]; float32(ex*ex)+float32(ey*ey) <= rules.R2 {
			s.hits = append(s.hits, hit{slot: t, gen: tgen[i], damage: dmg[i]})
			hits++
		} else if ttl[i] <= 0 {
			expired++
		} else {
			i++
			continue
		}
		n--
		p.move(i, p, n)
	}
	p.n = n
	s.c.Lost += lost
	s.c.Hits += hits
	s.c.Expired += expired
}

// integrateBodies moves every unit by one step and bounces it off the walls
// (rules.MoveUnits, the bounce of docs/arena-spec.md).
// It also moves the units of slots that died this frame: their position is
// never read before Respawn overwrites it, and skipping them would cost a
// branch per unit.
func (s *Sim) integrateBodies() {
	rules.MoveUnits(s.x, s.y, s.vx, s.vy)
}

// integrateProjectiles moves and ages every projectile that existed at the
// start of the tick, then adds this tick's fresh projectiles, untouched.
func (s *Sim) integrateProjectiles() {
	p := &s.live
	n := p.n
	x, y, vx, vy, ttl := p.x[:n], p.y[:n], p.vx[:n], p.vy[:n], p.ttl[:n]
	for i := range n {
		x[i] += vx[i] * rules.DT
		y[i] += vy[i] * rules.DT
		ttl[i]--
	}
	p.appendAll(&s.fresh)
}

// presentationSync copies every slot to the presentation buffer.
func (s *Sim) presentationSync() {
	n := len(s.pres)
	pres := s.pres[:n]
	x, y, health, alive := s.x[:n], s.y[:n], s.health[:n], s.alive[:n]
	for i := range pres {
		pres[i] = rules.Slot{X: x[i], Y: y[i], Health: health[i], Alive: alive[i]}
	}
}

// respawn spawns a new unit in every slot that died this frame, in ascending
// slot order; the slots become alive in the next frame's ResolveRespawns.
func (s *Sim) respawn() {
	slices.Sort(s.dead)
	for _, i := range s.dead {
		s.spawn(int(i))
	}
}

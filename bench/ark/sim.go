package ark

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mlange-42/ark/ecs"

	"github.com/tickwork/tickwork/arena/rules"
)

// Position is a unit's or a projectile's position, in world units.
type Position struct{ X, Y float32 }

// Velocity is a unit's or a projectile's velocity, in world units per second.
type Velocity struct{ X, Y float32 }

// Health is a unit's health, in damage points.
type Health struct{ Points int32 }

// Unit marks a unit and holds its roster slot, 0..N-1.
type Unit struct{ Slot int32 }

// Projectile is a projectile's own data: the target unit's entity (a stale
// one once the unit died, Ark's generation check), the ticks left and the
// damage it deals, in damage points.
type Projectile struct {
	Target ecs.Entity
	TTL    int32
	Damage int32
}

// hit is a hit event waiting for the next frame's ApplyHits.
type hit struct {
	target ecs.Entity
	damage int32
}

// shot is a projectile fired this tick, created after the tick.
type shot struct {
	pos    Position
	vel    Velocity
	target ecs.Entity
	damage int32
}

// respawned is a unit created by Respawn, awaiting ResolveRespawns.
type respawned struct {
	slot   int32
	entity ecs.Entity
}

// Sim is the arena on Ark. It implements [rules.Sim] under the name "ark".
// The zero value is not usable; call [New]. Not safe for concurrent use.
type Sim struct {
	cfg   rules.Config
	r     *rand.Rand
	world *ecs.World

	// Component access. units creates units, shots projectiles; the single
	// maps read one component of an entity found by handle.
	units     *ecs.Map4[Position, Velocity, Health, Unit]
	shots     *ecs.Map3[Position, Velocity, Projectile]
	positions *ecs.Map[Position]
	health    *ecs.Map[Health]
	slots     *ecs.Map[Unit]

	// Filters (registered: cached archetype lists).
	bodies      *ecs.Filter2[Position, Velocity] // units only
	projectiles *ecs.Filter3[Position, Velocity, Projectile]
	present     *ecs.Filter3[Position, Health, Unit]

	// roster[s] is the unit of slot s; the slot holds a live unit exactly
	// when world.Alive(roster[s]).
	roster []ecs.Entity

	hits    []hit        // emitted by Collision, applied by the next frame's ApplyHits
	fresh   []shot       // fired this tick; Ark creates them in one batch after the tick
	doomed  []ecs.Entity // projectiles Collision deletes, removed after its query
	dead    []int32      // slots that died this frame
	pending []respawned  // created by Respawn, resolved by the next frame's ResolveRespawns

	// The batch initialisers, bound once in New so that a frame makes no
	// closure; next is the index of the entry the next call fills.
	spawnFn func(ecs.Entity, *Position, *Velocity, *Health, *Unit)
	shotFn  func(ecs.Entity, *Position, *Velocity, *Projectile)
	spawnAt []int32 // slots the current spawn batch fills, in order
	next    int

	pres []rules.Slot

	tick, frames int64
	c            rules.Counters
	stages       rules.StageTimes
}

var _ rules.Sim = (*Sim)(nil)

// New validates cfg, builds the Ark world, spawns the N set-up units in slot
// order (arena rules v1, "Random numbers") and fills the presentation
// buffer. cfg.Workers and cfg.Lane are ignored: Ark runs on the caller's
// goroutine. It returns cfg.Validate's error (matching [rules.ErrBadConfig])
// for a bad config, or a [*rules.ConfigError] for more than math.MaxInt32
// units (slots are int32). The slices of the frame are sized at their
// bounds here, as package soa does; Ark's tables grow to the steady
// projectile count in the first TTL+1 frames.
func New(cfg rules.Config) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Units > math.MaxInt32 {
		return nil, &rules.ConfigError{Field: "Units", Value: cfg.Units, Want: "<= 2147483647 (ark)"}
	}
	n := cfg.Units
	maxLive := cfg.Shots * (int(rules.TTL) + 1)
	w := ecs.NewWorld()
	s := &Sim{
		cfg:       cfg,
		r:         rules.NewRand(cfg.Seed),
		world:     w,
		units:     ecs.NewMap4[Position, Velocity, Health, Unit](w),
		shots:     ecs.NewMap3[Position, Velocity, Projectile](w),
		positions: ecs.NewMap[Position](w),
		health:    ecs.NewMap[Health](w),
		slots:     ecs.NewMap[Unit](w),
		bodies:    ecs.NewFilter2[Position, Velocity](w).With(ecs.C[Unit]()).Register(),
		projectiles: ecs.NewFilter3[Position, Velocity, Projectile](w).
			Register(),
		present: ecs.NewFilter3[Position, Health, Unit](w).Register(),
		roster:  make([]ecs.Entity, n),
		hits:    make([]hit, 0, maxLive),
		fresh:   make([]shot, 0, cfg.Shots),
		doomed:  make([]ecs.Entity, 0, maxLive),
		dead:    make([]int32, 0, min(n, maxLive)),
		pending: make([]respawned, 0, n),
		pres:    make([]rules.Slot, n),
	}
	s.spawnFn = s.spawnOne
	s.shotFn = s.shotOne
	setup := make([]int32, n)
	for i := range setup {
		setup[i] = int32(i)
	}
	s.spawn(setup)
	s.resolveRespawns()
	s.presentationSync()
	return s, nil
}

// spawn creates one unit per slot of slots, in that order, in one Ark
// batch (arena rules v1, spawn(slot): the draws follow slots' order), and
// queues each for ResolveRespawns.
func (s *Sim) spawn(slots []int32) {
	if len(slots) == 0 {
		return
	}
	s.spawnAt, s.next = slots, 0
	s.units.NewBatchFn(len(slots), s.spawnFn)
}

// spawnOne initialises the next unit of the spawn batch.
func (s *Sim) spawnOne(e ecs.Entity, p *Position, v *Velocity, h *Health, u *Unit) {
	slot := s.spawnAt[s.next]
	s.next++
	p.X, p.Y, v.X, v.Y = rules.Spawn(s.r)
	h.Points = rules.Health
	u.Slot = slot
	s.pending = append(s.pending, respawned{slot: slot, entity: e})
}

// shotOne initialises the next projectile of the batch of this tick's shots.
func (s *Sim) shotOne(_ ecs.Entity, p *Position, v *Velocity, pr *Projectile) {
	f := &s.fresh[s.next]
	s.next++
	*p, *v = f.pos, f.vel
	*pr = Projectile{Target: f.target, TTL: rules.TTL, Damage: f.damage}
}

// Name returns "ark".
func (s *Sim) Name() string { return "ark" }

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
	q := s.projectiles.Query()
	for q.Next() {
		p, _, _ := q.Get()
		dst = append(dst, p.X, p.Y)
	}
	return dst
}

// ProjectileChecksum returns the wrapping sum of [rules.ProjectileHash] over
// every live projectile.
func (s *Sim) ProjectileChecksum() uint64 {
	var sum uint64
	q := s.projectiles.Query()
	for q.Next() {
		p, _, pr := q.Get()
		sum += rules.ProjectileHash(p.X, p.Y, pr.TTL, pr.Damage)
	}
	return sum
}

// SystemTimes appends the wall time of each stage of the last frame to dst,
// in run order (the rules' system names), and returns it.
func (s *Sim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	return s.stages.Append(dst)
}

// Close does nothing: Ark holds no goroutines. It returns nil.
func (s *Sim) Close() error { return nil }

// Frame runs one frame (arena rules v1, "One frame"): ResolveRespawns,
// ApplyHits, one fixed tick (Fire, Collision, IntegrateBodies,
// IntegrateProjectiles, then the batch of this tick's shots), Clock,
// PresentationSync and Respawn. It always returns nil.
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
	q := s.projectiles.Query()
	s.c.LiveProjectiles = int64(q.Count())
	q.Close()
	return nil
}

// resolveRespawns makes the units created by the previous frame's Respawn
// (or by set-up) the units of their slots.
func (s *Sim) resolveRespawns() {
	for _, p := range s.pending {
		s.roster[p.slot] = p.entity
	}
	s.pending = s.pending[:0]
	s.dead = s.dead[:0]
}

// applyHits subtracts each hit's damage from its target; a target whose
// health drops to 0 or below is removed from the world, which makes every
// handle to it stale: later hits on it are dropped (the same as summing
// damage per target), and projectiles aimed at it are lost.
func (s *Sim) applyHits() {
	w := s.world
	for _, h := range s.hits {
		if !w.Alive(h.target) {
			continue
		}
		hp := s.health.Get(h.target)
		hp.Points -= h.damage
		if hp.Points <= 0 {
			s.dead = append(s.dead, s.slots.Get(h.target).Slot)
			w.RemoveEntity(h.target)
		}
	}
	s.c.Deaths += int64(len(s.dead))
	s.hits = s.hits[:0]
}

// fire draws S shots and keeps those whose shooter and target are distinct
// live units at distinct positions; Ark creates them after the tick.
func (s *Sim) fire() {
	r, n, w := s.r, s.cfg.Units, s.world
	for range s.cfg.Shots {
		shooter := r.IntN(n)
		target := r.IntN(n)
		damage := 1 + r.IntN(3)
		se, te := s.roster[shooter], s.roster[target]
		if shooter == target || !w.Alive(se) || !w.Alive(te) {
			continue
		}
		sp, tp := s.positions.Get(se), s.positions.Get(te)
		dx := tp.X - sp.X
		dy := tp.Y - sp.Y
		d2 := float32(dx*dx) + float32(dy*dy)
		if d2 == 0 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		s.fresh = append(s.fresh, shot{
			pos:    *sp,
			vel:    Velocity{X: dx / d * rules.Speed, Y: dy / d * rules.Speed},
			target: te,
			damage: int32(damage),
		})
	}
	s.c.ShotsFired += int64(len(s.fresh))
}

// collision resolves every projectile that existed at the start of the tick
// (this tick's shots are not created yet); first matching arm wins: stale
// target → lost; within the hit radius → hit event; ttl used up → expired.
// The world is locked during the query, so the deleted projectiles are
// collected and removed after it.
func (s *Sim) collision() {
	w := s.world
	var lost, hits, expired int64
	q := s.projectiles.Query()
	for q.Next() {
		p, _, pr := q.Get()
		if !w.Alive(pr.Target) {
			lost++
		} else {
			b := s.positions.GetUnchecked(pr.Target)
			ex, ey := b.X-p.X, b.Y-p.Y
			switch {
			case float32(ex*ex)+float32(ey*ey) <= rules.R2:
				s.hits = append(s.hits, hit{target: pr.Target, damage: pr.Damage})
				hits++
			case pr.TTL <= 0:
				expired++
			default:
				continue
			}
		}
		s.doomed = append(s.doomed, q.Entity())
	}
	for _, e := range s.doomed {
		w.RemoveEntity(e)
	}
	s.doomed = s.doomed[:0]
	s.c.Lost += lost
	s.c.Hits += hits
	s.c.Expired += expired
}

// integrateBodies moves every unit by one step and bounces it off the walls
// (arena rules v1, IntegrateBodies). DT is a power of two, so every
// product is exact.
func (s *Sim) integrateBodies() {
	const w2 = 2 * rules.W
	q := s.bodies.Query()
	for q.Next() {
		p, v := q.Get()
		p.X += v.X * rules.DT
		p.Y += v.Y * rules.DT
		if p.X < 0 {
			p.X, v.X = -p.X, -v.X
		} else if p.X > rules.W {
			p.X, v.X = w2-p.X, -v.X
		}
		if p.Y < 0 {
			p.Y, v.Y = -p.Y, -v.Y
		} else if p.Y > rules.W {
			p.Y, v.Y = w2-p.Y, -v.Y
		}
	}
}

// integrateProjectiles moves and ages every projectile that existed at the
// start of the tick, then creates this tick's shots in one Ark batch.
func (s *Sim) integrateProjectiles() {
	q := s.projectiles.Query()
	for q.Next() {
		p, v, pr := q.Get()
		p.X += v.X * rules.DT
		p.Y += v.Y * rules.DT
		pr.TTL--
	}
	if len(s.fresh) > 0 {
		s.next = 0
		s.shots.NewBatchFn(len(s.fresh), s.shotFn)
	}
	s.fresh = s.fresh[:0]
}

// presentationSync writes every live unit into its slot's entry and marks
// the slots that died this frame (the only slots without a live unit now)
// not alive.
func (s *Sim) presentationSync() {
	pres := s.pres
	q := s.present.Query()
	for q.Next() {
		p, h, u := q.Get()
		pres[u.Slot] = rules.Slot{X: p.X, Y: p.Y, Health: h.Points, Alive: 1}
	}
	for _, slot := range s.dead {
		pres[slot].Alive = 0
	}
}

// respawn spawns a new unit in every slot that died this frame, in ascending
// slot order; the slots hold them from the next frame's ResolveRespawns.
func (s *Sim) respawn() {
	slices.Sort(s.dead)
	s.spawn(s.dead)
}

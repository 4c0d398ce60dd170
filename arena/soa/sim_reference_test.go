package soa_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tickwork/tickwork/arena/rules"
)

// The reference model follows the table of arena rules v1 line by line, with
// none of the baseline's tricks: units are heap objects and a handle is a
// pointer (a handle is live while its slot still points at the same object),
// dead units are not moved, damage is summed per target in a map, and new
// projectiles sit in their own list. It is slow and obviously right; the
// baseline must reach the same digest.

type refUnit struct {
	slot         int
	x, y, vx, vy float32
	health       int32
}

type refProjectile struct {
	x, y, vx, vy float32
	ttl, damage  int32
	target       *refUnit
}

type refHit struct {
	target *refUnit
	damage int32
}

type refSim struct {
	n, shots int
	r        *rand.Rand
	slots    []*refUnit // nil: dead
	pending  []*refUnit // spawned by Respawn, live from the next frame
	projs    []*refProjectile
	hits     []refHit
	frames   int64
	c        rules.Counters
	pres     []rules.Slot
}

func newRef(cfg rules.Config) *refSim {
	s := &refSim{n: cfg.Units, shots: cfg.Shots, r: rules.NewRand(cfg.Seed)}
	s.slots = make([]*refUnit, s.n)
	for i := range s.n {
		s.slots[i] = s.spawn(i)
	}
	return s
}

func (s *refSim) spawn(slot int) *refUnit {
	u := &refUnit{slot: slot, health: rules.Health}
	u.x, u.y, u.vx, u.vy = rules.Spawn(s.r)
	return u
}

func (s *refSim) liveHandle(u *refUnit) bool { return s.slots[u.slot] == u }

func (s *refSim) frame() {
	// FrameStart: ResolveRespawns.
	for _, u := range s.pending {
		s.slots[u.slot] = u
	}
	s.pending = nil
	// FrameStart: ApplyHits, damage summed per target.
	sum := map[*refUnit]int32{}
	var order []*refUnit
	for _, h := range s.hits {
		if _, ok := sum[h.target]; !ok {
			order = append(order, h.target)
		}
		sum[h.target] += h.damage
	}
	s.hits = nil
	var died []int
	for _, u := range order {
		if !s.liveHandle(u) {
			continue
		}
		u.health -= sum[u]
		if u.health <= 0 {
			s.slots[u.slot] = nil
			s.c.Deaths++
			died = append(died, u.slot)
		}
	}
	// FixedUpdate: Fire.
	var fired []*refProjectile
	for range s.shots {
		shooter := s.r.IntN(s.n)
		target := s.r.IntN(s.n)
		damage := 1 + s.r.IntN(3)
		su, tu := s.slots[shooter], s.slots[target]
		if shooter == target || su == nil || tu == nil {
			continue
		}
		dx := tu.x - su.x
		dy := tu.y - su.y
		d2 := float32(dx*dx) + float32(dy*dy)
		if d2 == 0 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		fired = append(fired, &refProjectile{
			x: su.x, y: su.y, vx: dx / d * rules.Speed, vy: dy / d * rules.Speed,
			ttl: rules.TTL, damage: int32(damage), target: tu,
		})
		s.c.ShotsFired++
	}
	// FixedUpdate: Collision, over the projectiles of the start of the tick.
	var kept []*refProjectile
	for _, p := range s.projs {
		switch {
		case !s.liveHandle(p.target):
			s.c.Lost++
		case float32((p.target.x-p.x)*(p.target.x-p.x))+float32((p.target.y-p.y)*(p.target.y-p.y)) <= rules.R2:
			s.hits = append(s.hits, refHit{p.target, p.damage})
			s.c.Hits++
		case p.ttl <= 0:
			s.c.Expired++
		default:
			kept = append(kept, p)
		}
	}
	// FixedUpdate: IntegrateBodies, live units only.
	for _, u := range s.slots {
		if u == nil {
			continue
		}
		u.x += u.vx * rules.DT
		u.y += u.vy * rules.DT
		if u.x < 0 {
			u.x, u.vx = -u.x, -u.vx
		} else if u.x > rules.W {
			u.x, u.vx = 2*rules.W-u.x, -u.vx
		}
		if u.y < 0 {
			u.y, u.vy = -u.y, -u.vy
		} else if u.y > rules.W {
			u.y, u.vy = 2*rules.W-u.y, -u.vy
		}
	}
	// FixedUpdate: IntegrateProjectiles, not this tick's new shots.
	for _, p := range kept {
		p.x += p.vx * rules.DT
		p.y += p.vy * rules.DT
		p.ttl--
	}
	s.projs = append(kept, fired...)
	// LateUpdate: PresentationSync.
	s.pres = make([]rules.Slot, s.n)
	for i, u := range s.slots {
		if u != nil {
			s.pres[i] = rules.Slot{X: u.x, Y: u.y, Health: u.health, Alive: 1}
		}
	}
	// FrameEnd: Respawn, ascending.
	slices.Sort(died)
	for _, slot := range died {
		s.pending = append(s.pending, s.spawn(slot))
	}
	s.frames++
	s.c.LiveProjectiles = int64(len(s.projs))
}

func (s *refSim) digest() uint64 {
	var sum uint64
	for _, p := range s.projs {
		sum += rules.ProjectileHash(p.x, p.y, p.ttl, p.damage)
	}
	return rules.Digest(s.pres, s.frames, s.c, sum)
}

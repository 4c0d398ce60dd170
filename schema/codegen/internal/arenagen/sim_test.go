package arenagen_test

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/schema/codegen/internal/arenagen"
)

// genSim is the arena on the generated systems of arena.tw (ApplyHits,
// Collision, IntegrateBodies, IntegrateProjectiles, Clock) with the four
// hand-written ones ported from package arena (Fire, ResolveRespawns,
// PresentationSync, Respawn), which order themselves against the
// generated ones by name. A test harness, not the arena: it shows that the
// generated systems give today's digests before package arena uses them.
type genSim struct {
	cfg   rules.Config
	world *tickwork.World
	t     *arenagen.Tables
	sys   *arenagen.Systems

	r          *rand.Rand
	respawns   []respawn
	deadSort   []int32
	fired      shots
	provs      []tickwork.Handle
	pres       []rules.Slot
	shotsFired int64
}

type respawn struct {
	slot int32
	unit tickwork.Handle
}

type shots struct {
	x, y, vx, vy []float32
	ttl, damage  []int32
	target       []tickwork.Handle
}

var (
	errUnresolved  = errors.New("a respawned unit's provisional handle did not resolve")
	errSlotBinding = errors.New("a unit's entity index differs from its slot")
)

func newGenSim(cfg rules.Config) (*genSim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &genSim{cfg: cfg, r: rules.NewRand(cfg.Seed)}
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame), tickwork.WithFixedStep(float64(rules.DT)),
		tickwork.WithWorkers(max(cfg.Workers, 1)))
	projCap := max(32768, cfg.Shots*(int(rules.TTL)+1))
	sz := arenagen.Sizes{Actors: cfg.Units, Projectile: projCap, ArenaClock: 1, HitEvent: projCap, DeadSlot: cfg.Units}
	var err error
	if s.t, err = arenagen.Declare(b, sz); err != nil {
		return nil, err
	}
	s.sys = arenagen.NewSystems(s.t)
	s.prepare()
	b.Add(s.sys.All()...)
	b.System("ResolveRespawns", tickwork.FrameStart, s.resolveRespawns)
	b.System("Fire", tickwork.FixedUpdate, s.fire)
	b.System("PresentationSync", tickwork.LateUpdate, s.presentationSync)
	b.System("Respawn", tickwork.FrameEnd, s.respawn)
	if s.world, err = b.Build(); err != nil {
		return nil, err
	}
	if err := s.setup(); err != nil {
		s.world.Close()
		return nil, err
	}
	return s, nil
}

// prepare makes the buffers of the hand-written systems.
func (s *genSim) prepare() {
	n := s.cfg.Units
	s.respawns = make([]respawn, 0, n)
	s.deadSort = make([]int32, 0, n)
	ttl := make([]int32, s.cfg.Shots)
	for i := range ttl {
		ttl[i] = rules.TTL
	}
	k := s.cfg.Shots
	s.fired = shots{x: make([]float32, k), y: make([]float32, k), vx: make([]float32, k), vy: make([]float32, k),
		ttl: ttl, damage: make([]int32, k), target: make([]tickwork.Handle, k)}
	s.provs = make([]tickwork.Handle, k)
	s.pres = make([]rules.Slot, n)
}

// setup spawns the units (draws in slot order) and the clock row.
func (s *genSim) setup() error {
	t, n := s.t, s.cfg.Units
	units := make([]tickwork.Handle, n)
	if err := t.Unit.Table.InsertN(units); err != nil {
		return err
	}
	for slot, h := range units {
		if int(h.Index()) != slot {
			return errSlotBinding
		}
		if err := t.Body.Table.Attach(h); err != nil {
			return err
		}
		x, y, vx, vy := rules.Spawn(s.r)
		t.Unit.Health.Set(h, rules.Health)
		t.Body.X.Set(h, x)
		t.Body.Y.Set(h, y)
		t.Body.VX.Set(h, vx)
		t.Body.VY.Set(h, vy)
	}
	if _, err := t.ArenaClock.Table.Insert(); err != nil {
		return err
	}
	for c := range t.Unit.Table.Chunks() {
		s.presentationChunk(c)
	}
	return nil
}

func (s *genSim) frame() error { return s.world.Frame(float64(rules.DT)) }

func (s *genSim) counters() rules.Counters {
	return rules.Counters{ShotsFired: s.shotsFired, Hits: s.sys.Collision.Hits, Deaths: s.sys.ApplyHits.Deaths,
		Lost: s.sys.Collision.Lost, Expired: s.sys.Collision.Expired, LiveProjectiles: int64(s.t.Projectile.Table.Len())}
}

func (s *genSim) projectileChecksum() uint64 {
	p := &s.t.Projectile
	var sum uint64
	for c := range p.Table.Chunks() {
		xs, ys, ttl, dmg := p.X.Span(c), p.Y.Span(c), p.TTL.Span(c), p.Damage.Span(c)
		for lo, hi := range p.Table.Runs(c) {
			for r := lo; r < hi; r++ {
				sum += rules.ProjectileHash(xs[r], ys[r], ttl[r], dmg[r])
			}
		}
	}
	return sum
}

func (s *genSim) digest() uint64 {
	return rules.Digest(s.pres, int64(s.world.Frames()), s.counters(), s.projectileChecksum())
}

// The hand-written systems, as package arena has them (arena/kernels.go),
// on arenagen's tables; host state in the genSim instead of resources.

func (s *genSim) resolveRespawns(d *tickwork.Decl) tickwork.RunFunc {
	return func(ctx *tickwork.Context) {
		for _, p := range s.respawns {
			h, ok := ctx.Resolve(p.unit)
			switch {
			case !ok:
				ctx.Fail(errUnresolved)
			case int32(h.Index()) != p.slot:
				ctx.Fail(errSlotBinding)
			}
		}
		s.respawns = s.respawns[:0]
	}
}

func (s *genSim) fire(d *tickwork.Decl) tickwork.RunFunc {
	d.Before("Collision")
	t := s.t
	xs, ys := tickwork.Read(d, t.Body.X), tickwork.Read(d, t.Body.Y)
	rec := tickwork.Record(d, t.Projectile.Table)
	f := &s.fired
	units, body := s.cfg.Units, t.Body.Table
	shift, mask := bits.TrailingZeros(uint(body.ChunkRows())), body.ChunkRows()-1
	return func(*tickwork.Context) {
		r := s.r
		n := 0
		for range s.cfg.Shots {
			shooter := r.IntN(units)
			target := r.IntN(units)
			damage := 1 + r.IntN(3)
			if shooter == target {
				continue
			}
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
		s.shotsFired += int64(n)
		if n == 0 {
			return
		}
		provs := s.provs[:n]
		for i := range provs {
			provs[i] = rec.Create()
		}
		tickwork.SetN(rec, t.Projectile.X, provs, f.x[:n])
		tickwork.SetN(rec, t.Projectile.Y, provs, f.y[:n])
		tickwork.SetN(rec, t.Projectile.VX, provs, f.vx[:n])
		tickwork.SetN(rec, t.Projectile.VY, provs, f.vy[:n])
		tickwork.SetN(rec, t.Projectile.TTL, provs, f.ttl[:n])
		tickwork.SetN(rec, t.Projectile.Damage, provs, f.damage[:n])
		tickwork.SetN(rec, t.Projectile.Target, provs, f.target[:n])
	}
}

func (s *genSim) presentationSync(d *tickwork.Decl) tickwork.RunFunc {
	t := s.t
	tickwork.Read(d, t.Body.X)
	tickwork.Read(d, t.Body.Y)
	tickwork.Read(d, t.Unit.Health)
	return func(*tickwork.Context) {
		for c := range t.Unit.Table.Chunks() {
			s.presentationChunk(c)
		}
	}
}

func (s *genSim) presentationChunk(c int) {
	t := s.t
	lo := c * t.Unit.Table.ChunkRows()
	pres := s.pres[lo:min(lo+t.Unit.Table.ChunkRows(), len(s.pres))]
	x, y, health := t.Body.X.Span(c)[:len(pres)], t.Body.Y.Span(c)[:len(pres)], t.Unit.Health.Span(c)[:len(pres)]
	mask := t.Unit.Table.Enabled(c)
	for i := range pres {
		p := &pres[i]
		p.X, p.Y, p.Health, p.Alive = x[i], y[i], health[i], uint8(mask[i>>6]>>(i&63)&1)
	}
}

func (s *genSim) respawn(d *tickwork.Decl) tickwork.RunFunc {
	t := s.t
	dead := tickwork.Consume(d, t.DeadSlot)
	units, bodies := tickwork.Record(d, t.Unit.Table), tickwork.Record(d, t.Body.Table)
	n := min(s.cfg.Units, t.Projectile.Table.Cap())
	tickwork.ReserveValues(units, t.Unit.Health, n)
	tickwork.ReserveValues(bodies, t.Body.X, n)
	tickwork.ReserveValues(bodies, t.Body.Y, n)
	tickwork.ReserveValues(bodies, t.Body.VX, n)
	tickwork.ReserveValues(bodies, t.Body.VY, n)
	units.Reserve(7 * n)
	return func(*tickwork.Context) {
		slots := s.deadSort[:0]
		for _, e := range dead.Read() {
			slots = append(slots, e.Slot)
		}
		slices.Sort(slots)
		for _, slot := range slots {
			x, y, vx, vy := rules.Spawn(s.r)
			h := units.Create()
			bodies.Attach(h)
			tickwork.Set(units, t.Unit.Health, h, rules.Health)
			tickwork.Set(bodies, t.Body.X, h, x)
			tickwork.Set(bodies, t.Body.Y, h, y)
			tickwork.Set(bodies, t.Body.VX, h, vx)
			tickwork.Set(bodies, t.Body.VY, h, vy)
			s.respawns = append(s.respawns, respawn{slot: slot, unit: h})
		}
		s.deadSort = slots
	}
}

package arena

import (
	"errors"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/lanes"
)

// MinProjectiles is the least capacity of the Projectile table, in rows.
const MinProjectiles = 32768

// Hit is a HitEvent: Damage points for the unit Target, emitted by Collision
// and applied by the next frame's ApplyHits (arena rules v1).
type Hit struct {
	Target tickwork.Handle
	Damage int32
}

// respawn is a unit created by Respawn, awaiting ResolveRespawns.
type respawn struct {
	slot int32
	unit tickwork.Handle // provisional until resolved
}

// Sim is the arena on the runtime. It implements rules.Sim. Not safe for
// concurrent use.
type Sim struct {
	cfg      rules.Config
	lane     lanes.Lane        // of the streaming kernels, chosen in New
	declared []tickwork.System // as added to the builder
	world    *tickwork.World

	unit, body, proj, tick *tickwork.Table
	uHealth                *tickwork.Column[int32]
	bx, by, bvx, bvy       *tickwork.Column[float32]
	px, py, pvx, pvy       *tickwork.Column[float32]
	pttl, pdmg             *tickwork.Column[int32]
	ptarget                *tickwork.Column[tickwork.Handle]
	clockTick              *tickwork.Column[int64]
	clockRow               tickwork.Handle
	hits                   *tickwork.Events[Hit]
	dead                   *tickwork.Events[int32]

	// resources
	rng      *tickwork.Resource[stream]
	respawns *tickwork.Resource[[]respawn]
	pres     *tickwork.Resource[[]rules.Slot]
	counters *tickwork.Resource[rules.Counters]
}

// New builds the arena world for cfg and spawns the set-up units (arena
// rules v1: spawn(s) for s = 0..N-1). It returns cfg.Validate's error for a
// bad config; for a bad cfg.Lane, the error of lanes.Parse or lanes.Select
// (errors.Is lanes.ErrUnknownLane or lanes.ErrUnavailable); or the
// runtime's definition or seal error.
func New(cfg rules.Config) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lane := lanes.Best()
	if cfg.Lane != "" {
		want, err := lanes.Parse(cfg.Lane)
		if err != nil {
			return nil, err
		}
		if lane, err = lanes.Select(want); err != nil {
			return nil, err
		}
	}
	s := &Sim{cfg: cfg, lane: lane}
	b := tickwork.NewBuilder(
		tickwork.WithPacing(tickwork.OneTickPerFrame),
		tickwork.WithFixedStep(float64(rules.DT)),
		tickwork.WithWorkers(max(cfg.Workers, 1)),
	)
	s.declare(b)
	s.systems(b)
	w, err := b.Build()
	if err != nil {
		return nil, err
	}
	s.world = w
	if err := s.setup(); err != nil {
		w.Close()
		return nil, err
	}
	return s, nil
}

// declare defines the domain, tables, columns, event tables and resources.
// The builder records the first error of these calls and Build returns it.
func (s *Sim) declare(b *tickwork.Builder) {
	n := s.cfg.Units
	actors := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: n})
	s.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: actors})
	s.body = b.Table(tickwork.TableSpec{Name: "Body", Domain: actors})
	s.uHealth = tickwork.AddColumn[int32](b, s.unit, "Health")
	s.bx = tickwork.AddColumn[float32](b, s.body, "X")
	s.by = tickwork.AddColumn[float32](b, s.body, "Y")
	s.bvx = tickwork.AddColumn[float32](b, s.body, "VX")
	s.bvy = tickwork.AddColumn[float32](b, s.body, "VY")
	projCap := max(MinProjectiles, s.cfg.Shots*(int(rules.TTL)+1))
	s.proj = b.Table(tickwork.TableSpec{Name: "Projectile", Capacity: projCap})
	s.px = tickwork.AddColumn[float32](b, s.proj, "X")
	s.py = tickwork.AddColumn[float32](b, s.proj, "Y")
	s.pvx = tickwork.AddColumn[float32](b, s.proj, "VX")
	s.pvy = tickwork.AddColumn[float32](b, s.proj, "VY")
	s.pttl = tickwork.AddColumn[int32](b, s.proj, "TTL")
	s.pdmg = tickwork.AddColumn[int32](b, s.proj, "Damage")
	s.ptarget = tickwork.AddColumn[tickwork.Handle](b, s.proj, "Target")
	s.tick = b.Table(tickwork.TableSpec{Name: "ArenaClock", Capacity: 1})
	s.clockTick = tickwork.AddColumn[int64](b, s.tick, "Tick")
	s.hits = tickwork.AddEvents[Hit](b, tickwork.EventSpec{Name: "HitEvent", Capacity: projCap, Lifetime: tickwork.NextFrame})
	s.dead = tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "DeadSlot", Capacity: n, Lifetime: tickwork.ThisFrame})
	s.rng = tickwork.AddResource(b, "rng", newStream(s.cfg.Seed))
	s.respawns = tickwork.AddResource(b, "respawns", make([]respawn, 0, n))
	s.pres = tickwork.AddResource(b, "presentation", make([]rules.Slot, n))
	s.counters = tickwork.AddResource(b, "counters", rules.Counters{})
}

// setup spawns the N set-up units (draws in slot order) and the clock row,
// before the first frame: a host query's InsertN gives each its values.
func (s *Sim) setup() error {
	// Slot s is the unit of row (entity index) s: the domain hands out the
	// lowest free slot, so inserting N units into the empty domain gives
	// rows 0..N-1 in order.
	units, err := tickwork.HostQuery1(s.uHealth)
	if err != nil {
		return err
	}
	r, slot := s.rng.Get().Rand, 0
	var bad error
	err = units.InsertN(s.cfg.Units, func(h tickwork.Handle, health *int32) {
		if int(h.Index()) != slot || s.body.Attach(h) != nil {
			bad = errSlotBinding
		}
		slot++
		x, y, vx, vy := rules.Spawn(r)
		*health = rules.Health
		s.bx.Set(h, x)
		s.by.Set(h, y)
		s.bvx.Set(h, vx)
		s.bvy.Set(h, vy)
	})
	if err != nil || bad != nil {
		return errors.Join(err, bad)
	}
	if s.clockRow, err = s.tick.Insert(); err != nil {
		return err
	}
	k := s.presentKernel(*s.pres.Get())
	for c := range s.unit.Chunks() {
		k.chunk(0, c)
	}
	return nil
}

// Name is "runtime".
func (s *Sim) Name() string { return "runtime" }

// Lane is the lane the streaming systems (IntegrateBodies,
// IntegrateProjectiles, PresentationSync) run, chosen in New.
func (s *Sim) Lane() lanes.Lane { return s.lane }

// World is the runtime world the arena runs on (for its frame report).
func (s *Sim) World() *tickwork.World { return s.world }

// Frame runs one frame: exactly one fixed tick (pacing OneTickPerFrame).
func (s *Sim) Frame() error { return s.world.Frame(float64(rules.DT)) }

// Frames is the number of frames run.
func (s *Sim) Frames() int64 { return int64(s.world.Frames()) }

// Counters returns the counters after the last frame; LiveProjectiles is
// the Projectile table's live row count.
func (s *Sim) Counters() rules.Counters {
	c := *s.counters.Get()
	c.LiveProjectiles = int64(s.proj.Len())
	return c
}

// Presentation is the slot-indexed buffer of the last PresentationSync.
func (s *Sim) Presentation() []rules.Slot { return *s.pres.Get() }

// Projectiles appends x, y of every live projectile to dst.
func (s *Sim) Projectiles(dst []float32) []float32 {
	q, _ := tickwork.HostQuery2(s.px, s.py)
	for r := range q.All() {
		x, y := r.Get()
		dst = append(dst, *x, *y)
	}
	return dst
}

// ProjectileChecksum is the wrapping sum of every live projectile's hash
// (arena rules v1, "Counters and the digest").
func (s *Sim) ProjectileChecksum() uint64 {
	var sum uint64
	q, _ := tickwork.HostQuery4(s.px, s.py, s.pttl, s.pdmg)
	for r := range q.All() {
		x, y, ttl, dmg := r.Get()
		sum += rules.ProjectileHash(*x, *y, *ttl, *dmg)
	}
	return sum
}

// SystemTimes appends each system's wall time in the last frame, in sealed
// order (zero before the first frame).
func (s *Sim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	r := s.world.Report()
	if r == nil {
		for p := tickwork.FrameStart; p <= tickwork.FrameEnd; p++ {
			for _, name := range s.world.Order(p) {
				st := rules.SystemTime{Name: name}
				for _, d := range s.declared {
					if d.Name == name {
						st.Lane = d.Lane
					}
				}
				dst = append(dst, st)
			}
		}
		return dst
	}
	for _, sr := range r.Systems {
		dst = append(dst, rules.SystemTime{Name: sr.Name, Nanos: int64(sr.Total), Lane: sr.Lane})
	}
	return dst
}

// Close stops the world's kernel workers.
func (s *Sim) Close() error { return s.world.Close() }

var _ rules.Sim = (*Sim)(nil)

package arena

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// MinProjectiles is the least capacity of the Projectile table, in rows.
const MinProjectiles = 32768

// respawn is a unit created by Respawn, awaiting ResolveRespawns.
type respawn struct {
	slot int32
	unit tickwork.Handle // provisional until resolved
}

// Sim is the arena on the runtime: the tables and five systems generated
// from arena.tw (Tables, Systems) and the four hand-written systems. It
// implements rules.Sim. Not safe for concurrent use.
type Sim struct {
	cfg      rules.Config
	lane     tickwork.Lane     // of the streaming kernels, chosen in New
	declared []tickwork.System // as added to the builder
	world    *tickwork.World
	t        *Tables          // generated: tables, columns, event tables
	sys      *Systems         // generated: ApplyHits, Collision, IntegrateBodies, IntegrateProjectiles, Clock
	shots    tickwork.Counter // Fire's "shots": projectiles fired

	// resources
	rng      *tickwork.Resource[stream]
	respawns *tickwork.Resource[[]respawn]
	pres     *tickwork.Resource[[]rules.Slot]
}

// New builds the arena world for cfg and spawns the set-up units (arena
// rules v1: spawn(s) for s = 0..N-1). It returns cfg.Validate's error for a
// bad config; for a cfg.Lane that names no lane, an error matching
// ErrUnknownLane (errors.Is), and for one this build or CPU cannot run,
// the error of tickwork.SelectLane; or the runtime's definition or seal
// error.
func New(cfg rules.Config) (*Sim, error) { return newSim(cfg, nil) }

// newSim is New; replace, when not nil, returns systems that take the
// place of the same-named ones (the benchmarks' hand-written baselines).
func newSim(cfg rules.Config, replace func(s *Sim) []tickwork.System) (*Sim, error) {
	return newSimWith(cfg, replace, nil)
}

// newSimWith is newSim; extra, when not nil, declares more on the Builder
// after the schema and before the systems (the index benchmark's hand
// declared indexes).
func newSimWith(cfg rules.Config, replace func(s *Sim) []tickwork.System, extra func(s *Sim, b *tickwork.Builder), opts ...tickwork.Option) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lane, err := laneNamed(cfg.Lane)
	if err != nil {
		return nil, err
	}
	s := &Sim{cfg: cfg, lane: lane}
	host, _ := savedConfig(cfg).MarshalText()
	b := tickwork.NewBuilder(append([]tickwork.Option{
		tickwork.WithPacing(tickwork.OneTickPerFrame),
		tickwork.WithFixedStep(float64(rules.DT)),
		tickwork.WithWorkers(max(cfg.Workers, 1)),
		tickwork.WithHostConfig(host), // SavedConfig: a save of another configuration is refused naming it
	}, opts...)...)
	if err := s.declare(b); err != nil {
		return nil, err
	}
	if extra != nil {
		extra(s, b)
	}
	s.systems(b, replace)
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

// laneNamed returns the lane tickwork.ParseLane reads in name, checked
// with tickwork.SelectLane, or tickwork.BestLane for "".
func laneNamed(name string) (tickwork.Lane, error) {
	if name == "" {
		return tickwork.BestLane(), nil
	}
	l, err := tickwork.ParseLane(name)
	if err != nil {
		return tickwork.LaneScalar, fmt.Errorf("%w %q (want scalar, avx2 or avx512)", ErrUnknownLane, name)
	}
	return tickwork.SelectLane(l)
}

// declare declares the schema's domain, tables, columns and event tables
// (the generated Declare, with capacities from the config) and the
// resources of the hand-written systems.
func (s *Sim) declare(b *tickwork.Builder) error {
	n := s.cfg.Units
	projCap := max(MinProjectiles, s.cfg.Shots*(int(rules.TTL)+1))
	t, err := Declare(b, Sizes{Actors: n, Projectile: projCap, ArenaClock: 1, HitEvent: projCap, DeadSlot: n})
	if err != nil {
		return err
	}
	s.t, s.sys = t, NewSystems(t)
	// The generated integrations run their SIMD variants in the Sim's lane
	// (docs/schema.md, SIMD variants); s.lane is available (New chose it).
	if err := s.sys.SetLane(s.lane); err != nil {
		return err
	}
	s.rng = tickwork.AddResource(b, "rng", newStream(s.cfg.Seed))
	// Declared lengths (docs/state.md, "Sizes"): the presentation buffer
	// is one slot per unit, the respawns at most one per slot; a snapshot
	// of other lengths is refused naming the resource.
	s.respawns = tickwork.AddSliceResource(b, "respawns", make([]respawn, 0, n), 0, n)
	tickwork.CheckResource(b, s.respawns, s.checkRespawns)
	s.pres = tickwork.AddSliceResource(b, "presentation", make([]rules.Slot, n), n, n)
	return b.Err()
}

// setup spawns the N set-up units (draws in slot order) and the clock row,
// before the first frame: a host query's InsertN gives each its values.
func (s *Sim) setup() error {
	// Slot s is the unit of row (entity index) s: the domain hands out the
	// lowest free slot, so inserting N units into the empty domain gives
	// rows 0..N-1 in order.
	t := s.t
	units := tickwork.HostQuery1(t.Unit.Health) // a bad query's error comes back from InsertN
	r, slot := s.rng.Get().Rand, 0
	var bad error
	err := units.InsertN(s.cfg.Units, func(h tickwork.Handle, health *int32) {
		if int(h.Index()) != slot || t.Body.Table.Attach(h) != nil {
			bad = errSlotBinding
		}
		slot++
		x, y, vx, vy := rules.Spawn(r)
		*health = rules.Health
		t.Body.X.Set(h, x)
		t.Body.Y.Set(h, y)
		t.Body.VX.Set(h, vx)
		t.Body.VY.Set(h, vy)
	})
	if err != nil || bad != nil {
		return errors.Join(err, bad)
	}
	if _, err = t.ArenaClock.Table.Insert(); err != nil {
		return err
	}
	k := s.presentKernel(*s.pres.Get())
	for c := range t.Unit.Table.Chunks() {
		k.chunk(0, c)
	}
	return nil
}

// Name is "runtime".
func (s *Sim) Name() string { return "runtime" }

// Tables returns the world's tables, columns and event tables (the
// generated Declare's), for a host that reads them between frames (never
// during Frame): for the host's declared queries (NewQueries,
// docs/schema.md, Queries) and the query corpus of package bench/corpus.
func (s *Sim) Tables() *Tables { return s.t }

// Lane is the lane the streaming systems (IntegrateBodies,
// IntegrateProjectiles, PresentationSync) run, chosen in New.
func (s *Sim) Lane() tickwork.Lane { return s.lane }

// World is the runtime world the arena runs on (for its frame report).
func (s *Sim) World() *tickwork.World { return s.world }

// Frame runs one frame: exactly one fixed tick (pacing OneTickPerFrame).
func (s *Sim) Frame() error { return s.world.Frame(float64(rules.DT)) }

// Frames is the number of frames run.
func (s *Sim) Frames() int64 { return int64(s.world.Frames()) }

// Counters returns the counters after the last frame: the Totals of the
// systems' counters (Fire's shots; Collision's hits, lost and expired;
// ApplyHits' deaths; the frame report has each frame's) and
// LiveProjectiles, the Projectile table's live row count.
func (s *Sim) Counters() rules.Counters {
	return rules.Counters{
		ShotsFired:      s.shots.Total(),
		Hits:            s.sys.Collision.Hits.Total(),
		Deaths:          s.sys.ApplyHits.Deaths.Total(),
		Lost:            s.sys.Collision.Lost.Total(),
		Expired:         s.sys.Collision.Expired.Total(),
		LiveProjectiles: int64(s.t.Projectile.Table.Len()),
	}
}

// Presentation is the slot-indexed buffer of the last PresentationSync.
func (s *Sim) Presentation() []rules.Slot { return *s.pres.Get() }

// Projectiles appends x, y of every live projectile to dst.
func (s *Sim) Projectiles(dst []float32) []float32 {
	q := tickwork.HostQuery2(s.t.Projectile.X, s.t.Projectile.Y)
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
	p := &s.t.Projectile
	q := tickwork.HostQuery4(p.X, p.Y, p.TTL, p.Damage)
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
		dst = append(dst, rules.SystemTime{Name: sr.Name, Nanos: int64(sr.Total), Lane: sr.Lane, Workers: sr.Workers})
	}
	return dst
}

// Close stops the world's kernel workers.
func (s *Sim) Close() error { return s.world.Close() }

var _ rules.Sim = (*Sim)(nil)

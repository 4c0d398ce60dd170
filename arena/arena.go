package arena

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/lanes"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// MinProjectiles is the least capacity of the Projectile table, in rows.
const MinProjectiles = 32768

// Hit is a HitEvent: Damage points for the unit Target, emitted by Collision
// and applied by the next frame's ApplyHits (arena rules v1).
type Hit struct {
	Target ephemeral.Handle
	Damage int32
}

// respawn is a unit created by Respawn, awaiting ResolveRespawns.
type respawn struct {
	slot int32
	unit ephemeral.Handle // provisional until resolved
}

// workerCounts are one Collision worker's counters, padded to a cache line.
type workerCounts struct {
	lost, hits, expired int64
	_                   [40]byte
}

// Sim is the arena on the runtime. It implements rules.Sim. Not safe for
// concurrent use.
type Sim struct {
	cfg   rules.Config
	world *runtime.World

	unit, body, proj, tick *ephemeral.Table
	uHealth                *ephemeral.Column[int32]
	bx, by, bvx, bvy       *ephemeral.Column[float32]
	px, py, pvx, pvy       *ephemeral.Column[float32]
	pttl, pdmg             *ephemeral.Column[int32]
	ptarget                *ephemeral.Column[ephemeral.Handle]
	clockTick              *ephemeral.Column[int64]
	clockRow               ephemeral.Handle
	hits                   *events.Table[Hit]
	dead                   *events.Table[int32]

	lane     lanes.Lane       // of the streaming kernels, chosen in New
	declared []systems.System // as added to the builder
	r        *rand.Rand
	respawns []respawn
	deadSort []int32
	fired    shots              // Fire's shots of this tick
	provs    []ephemeral.Handle // their provisional handles
	pres     []rules.Slot
	c        rules.Counters
	counts   []workerCounts

	// buffers sized on a system's first run (see maxDeaths)
	reservedHits, reservedCollision, reservedRespawn bool

	// kernels, made once so that running them allocates nothing
	bodiesKernel, projKernel, collideKernel, presKernel func(w, c int)
	// per-run state the kernels read
	collide collideRun
}

// shots are the projectiles Fire fires in one tick, column by column (room
// for S); ttl is always TTL.
type shots struct {
	x, y, vx, vy []float32
	ttl, damage  []int32
	target       []ephemeral.Handle
}

func newShots(n int) shots {
	ttl := make([]int32, n)
	for i := range ttl {
		ttl[i] = rules.TTL
	}
	return shots{x: make([]float32, n), y: make([]float32, n), vx: make([]float32, n), vy: make([]float32, n),
		ttl: ttl, damage: make([]int32, n), target: make([]ephemeral.Handle, n)}
}

// collideRun is what Collision's kernel reads, set once per run.
type collideRun struct {
	body ephemeral.Lease
	recs systems.WorkerRecorders
	emit *events.Parallel[Hit]
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
	workers := max(cfg.Workers, 1)
	s := &Sim{cfg: cfg, lane: lane, r: rules.NewRand(cfg.Seed)}
	b := runtime.NewBuilder(
		runtime.WithPacing(runtime.OneTickPerFrame),
		runtime.WithFixedStep(float64(rules.DT)),
		runtime.WithWorkers(workers),
	)
	s.declare(b)
	s.declared = s.systems()
	_ = b.Add(s.declared...) // recorded; Build returns the first error
	w, err := b.Build()
	if err != nil {
		return nil, err
	}
	s.world = w
	s.counts = make([]workerCounts, workers)
	if err := s.setup(); err != nil {
		w.Close()
		return nil, err
	}
	return s, nil
}

// declare defines the domain, tables, columns and event tables. The
// builder records the first error of these calls and Build returns it, so
// they are not checked one by one.
func (s *Sim) declare(b *runtime.Builder) {
	n := s.cfg.Units
	actors, _ := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: n})
	s.unit, _ = b.Table(ephemeral.TableSpec{Name: "Unit", Domain: actors})
	s.body, _ = b.Table(ephemeral.TableSpec{Name: "Body", Domain: actors})
	s.uHealth, _ = runtime.AddColumn[int32](b, s.unit, "Health")
	s.bx, _ = runtime.AddColumn[float32](b, s.body, "X")
	s.by, _ = runtime.AddColumn[float32](b, s.body, "Y")
	s.bvx, _ = runtime.AddColumn[float32](b, s.body, "VX")
	s.bvy, _ = runtime.AddColumn[float32](b, s.body, "VY")
	projCap := max(MinProjectiles, s.cfg.Shots*(int(rules.TTL)+1))
	s.proj, _ = b.Table(ephemeral.TableSpec{Name: "Projectile", Capacity: projCap})
	s.px, _ = runtime.AddColumn[float32](b, s.proj, "X")
	s.py, _ = runtime.AddColumn[float32](b, s.proj, "Y")
	s.pvx, _ = runtime.AddColumn[float32](b, s.proj, "VX")
	s.pvy, _ = runtime.AddColumn[float32](b, s.proj, "VY")
	s.pttl, _ = runtime.AddColumn[int32](b, s.proj, "TTL")
	s.pdmg, _ = runtime.AddColumn[int32](b, s.proj, "Damage")
	s.ptarget, _ = runtime.AddColumn[ephemeral.Handle](b, s.proj, "Target")
	s.tick, _ = b.Table(ephemeral.TableSpec{Name: "ArenaClock", Capacity: 1})
	s.clockTick, _ = runtime.AddColumn[int64](b, s.tick, "Tick")
	s.hits, _ = runtime.AddEvents[Hit](b, events.Spec{Name: "HitEvent", Capacity: projCap, Lifetime: events.NextFrame})
	s.dead, _ = runtime.AddEvents[int32](b, events.Spec{Name: "DeadSlot", Capacity: n, Lifetime: events.ThisFrame})
}

// setup spawns the N set-up units (draws in slot order), the clock row, and
// the buffers of the Sim.
func (s *Sim) setup() error {
	n := s.cfg.Units
	// Slot s is the unit of row (entity index) s: the domain hands out the
	// lowest free slot, so inserting N units into the empty domain gives
	// rows 0..N-1 in order.
	units := make([]ephemeral.Handle, n)
	if err := s.unit.InsertN(units); err != nil {
		return err
	}
	for slot, h := range units {
		if int(h.Index()) != slot {
			return errSlotBinding
		}
		if err := s.body.Attach(h); err != nil {
			return err
		}
		x, y, vx, vy := rules.Spawn(s.r)
		s.uHealth.Set(h, rules.Health)
		s.bx.Set(h, x)
		s.by.Set(h, y)
		s.bvx.Set(h, vx)
		s.bvy.Set(h, vy)
	}
	var err error
	if s.clockRow, err = s.tick.Insert(); err != nil {
		return err
	}
	s.respawns = make([]respawn, 0, n)
	s.deadSort = make([]int32, 0, n)
	s.fired = newShots(s.cfg.Shots)
	s.provs = make([]ephemeral.Handle, s.cfg.Shots)
	s.pres = make([]rules.Slot, n)
	s.bodiesKernel = s.integrateBodiesChunk
	s.projKernel = s.integrateProjectilesChunk
	s.collideKernel = s.collisionChunk
	s.presKernel = s.presentationChunk
	for c := range s.unit.Chunks() {
		s.presentationChunk(0, c)
	}
	return nil
}

// Name is "runtime".
func (s *Sim) Name() string { return "runtime" }

// Lane is the lane the streaming systems (IntegrateBodies,
// IntegrateProjectiles, PresentationSync) run, chosen in New.
func (s *Sim) Lane() lanes.Lane { return s.lane }

// World is the runtime world the arena runs on (for its frame report).
func (s *Sim) World() *runtime.World { return s.world }

// Frame runs one frame: exactly one fixed tick (pacing OneTickPerFrame).
func (s *Sim) Frame() error { return s.world.Frame(float64(rules.DT)) }

// Frames is the number of frames run.
func (s *Sim) Frames() int64 { return int64(s.world.Frames()) }

// Counters returns the counters after the last frame; LiveProjectiles is
// the Projectile table's live row count.
func (s *Sim) Counters() rules.Counters {
	c := s.c
	c.LiveProjectiles = int64(s.proj.Len())
	return c
}

// Presentation is the slot-indexed buffer of the last PresentationSync.
func (s *Sim) Presentation() []rules.Slot { return s.pres }

// Projectiles appends x, y of every live projectile to dst.
func (s *Sim) Projectiles(dst []float32) []float32 {
	for c := range s.proj.Chunks() {
		xs, ys := s.px.Span(c), s.py.Span(c)
		ephemeral.EachRun(s.proj.Enabled(c), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				dst = append(dst, xs[r], ys[r])
			}
		})
	}
	return dst
}

// ProjectileChecksum is the wrapping sum of every live projectile's hash
// (arena rules v1, "Counters and the digest").
func (s *Sim) ProjectileChecksum() uint64 {
	var sum uint64
	for c := range s.proj.Chunks() {
		xs, ys, ttl, dmg := s.px.Span(c), s.py.Span(c), s.pttl.Span(c), s.pdmg.Span(c)
		ephemeral.EachRun(s.proj.Enabled(c), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				sum += rules.ProjectileHash(xs[r], ys[r], ttl[r], dmg[r])
			}
		})
	}
	return sum
}

// SystemTimes appends each system's wall time in the last frame, in sealed
// order (zero before the first frame).
func (s *Sim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	r := s.world.Report()
	if r == nil {
		for p := systems.Phase(0); p < systems.NumPhases; p++ {
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

// ---- systems ----

func (s *Sim) systems() []systems.System {
	col := systems.Col[float32]
	coli := systems.Col[int32]
	res := func(name string, write bool) systems.Resource { return systems.Resource{Name: name, Write: write} }
	return []systems.System{
		{Name: "ResolveRespawns", Phase: systems.FrameStart,
			Manifest: systems.Manifest{Resources: []systems.Resource{res("respawns", true)}},
			Run:      s.resolveRespawns},
		{Name: "ApplyHits", Phase: systems.FrameStart, After: []string{"ResolveRespawns"},
			Manifest: systems.Manifest{
				Writes:  []systems.ColumnRef{coli(s.uHealth)},
				Deletes: []*ephemeral.Table{s.unit}, Consumes: []events.Buffer{s.hits}, Emits: []events.Buffer{s.dead},
				Resources: []systems.Resource{res("counters", true)}},
			Run: s.applyHits},
		{Name: "Fire", Phase: systems.FixedUpdate,
			Manifest: systems.Manifest{
				Reads:     []systems.ColumnRef{col(s.bx), col(s.by)},
				Writes:    []systems.ColumnRef{col(s.px), col(s.py), col(s.pvx), col(s.pvy), coli(s.pttl), coli(s.pdmg), systems.Col(s.ptarget)},
				Creates:   []*ephemeral.Table{s.proj},
				Resources: []systems.Resource{res("rng", true), res("counters", true)}},
			Run: s.fire},
		{Name: "Collision", Phase: systems.FixedUpdate, After: []string{"Fire"}, Before: []string{"IntegrateBodies", "IntegrateProjectiles"},
			Manifest: systems.Manifest{
				Reads:   []systems.ColumnRef{col(s.px), col(s.py), coli(s.pttl), coli(s.pdmg), systems.Col(s.ptarget), col(s.bx), col(s.by)},
				Deletes: []*ephemeral.Table{s.proj}, Emits: []events.Buffer{s.hits},
				Resources: []systems.Resource{res("counters", true)}},
			Run: s.collision},
		{Name: "IntegrateBodies", Phase: systems.FixedUpdate,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{col(s.bx), col(s.by), col(s.bvx), col(s.bvy)}},
			Run:      s.integrateBodies, Lane: s.lane.String()},
		{Name: "IntegrateProjectiles", Phase: systems.FixedUpdate,
			Manifest: systems.Manifest{
				Reads:  []systems.ColumnRef{col(s.pvx), col(s.pvy)},
				Writes: []systems.ColumnRef{col(s.px), col(s.py), coli(s.pttl)}},
			Run: s.integrateProjectiles, Lane: s.lane.String()},
		{Name: "Clock", Phase: systems.Update,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(s.clockTick)}},
			Run:      s.clock},
		{Name: "PresentationSync", Phase: systems.LateUpdate,
			Manifest: systems.Manifest{
				Reads:     []systems.ColumnRef{col(s.bx), col(s.by), coli(s.uHealth)},
				Resources: []systems.Resource{res("presentation", true)}},
			Run: s.presentationSync, Lane: s.lane.String()},
		{Name: "Respawn", Phase: systems.FrameEnd,
			Manifest: systems.Manifest{
				Writes:  []systems.ColumnRef{coli(s.uHealth), col(s.bx), col(s.by), col(s.bvx), col(s.bvy)},
				Creates: []*ephemeral.Table{s.unit, s.body}, Consumes: []events.Buffer{s.dead},
				Resources: []systems.Resource{res("rng", true), res("respawns", true)}},
			Run: s.respawn},
	}
}

// resolveRespawns: the units created by the previous frame's Respawn become
// the live units of their slots.
func (s *Sim) resolveRespawns(ctx *systems.Context) error {
	for _, p := range s.respawns {
		h, ok := ctx.Resolve(p.unit)
		if !ok {
			return errUnresolved
		}
		if int32(h.Index()) != p.slot {
			return errSlotBinding
		}
	}
	s.respawns = s.respawns[:0]
	return nil
}

// applyHits subtracts every hit of the previous frame from its target; a unit
// whose health is then <= 0 dies once: deleted (Unit and Body), its slot
// emitted as a DeadSlot.
func (s *Sim) applyHits(ctx *systems.Context) error {
	hits, err := systems.Reader(ctx, s.hits)
	if err != nil {
		return err
	}
	if len(hits) == 0 {
		return nil
	}
	units, err := ctx.Lease(s.unit)
	if err != nil {
		return err
	}
	health, err := systems.Write(ctx, s.uHealth)
	if err != nil {
		return err
	}
	rec, err := ctx.Recorder(s.unit)
	if err != nil {
		return err
	}
	if !s.reservedHits {
		rec.Buffer().Reserve(s.maxDeaths()) // one delete a death
		s.reservedHits = true
	}
	dead, err := systems.NewEmitter(ctx, s.dead)
	if err != nil {
		return err
	}
	// Health only falls, so the one hit that takes a unit from > 0 to <= 0
	// is where it dies: it dies once, whatever the order of its hits.
	for _, h := range hits {
		row, ok := units.Row(h.Target)
		if !ok {
			continue
		}
		before := health[row]
		health[row] = before - h.Damage
		if before > 0 && before-h.Damage <= 0 {
			rec.Delete(h.Target)
			if err := dead.Emit(int32(row)); err != nil {
				return err
			}
			s.c.Deaths++
		}
	}
	return nil
}

// fire draws S shots (always all three draws) and records a projectile for
// each that fires; the projectiles exist from the end of this tick.
func (s *Sim) fire(ctx *systems.Context) error {
	xs, err := systems.Read(ctx, s.bx)
	if err != nil {
		return err
	}
	ys, err := systems.Read(ctx, s.by)
	if err != nil {
		return err
	}
	r, units := s.r, s.cfg.Units
	shift, mask := bits.TrailingZeros(uint(s.body.ChunkRows())), s.body.ChunkRows()-1
	f := &s.fired
	n := 0
	for range s.cfg.Shots {
		shooter := r.IntN(units)
		target := r.IntN(units)
		damage := 1 + r.IntN(3)
		if shooter == target {
			continue
		}
		// Slot s is row s (see setup); the enabled bitmap says whether it
		// holds a live unit.
		if !s.body.Enabled(shooter>>shift).Contains(uint32(shooter&mask)) ||
			!s.body.Enabled(target>>shift).Contains(uint32(target&mask)) {
			continue
		}
		th, _ := s.body.HandleAt(target)
		si, ti := shooter, target
		sx, sy := xs[si], ys[si]
		dx := xs[ti] - sx
		dy := ys[ti] - sy
		d2 := float32(dx*dx) + float32(dy*dy)
		if d2 == 0 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		f.x[n], f.y[n], f.vx[n], f.vy[n] = sx, sy, dx/d*rules.Speed, dy/d*rules.Speed
		f.damage[n], f.target[n] = int32(damage), th
		n++
	}
	s.c.ShotsFired += int64(n)
	if n == 0 {
		return nil
	}
	rec, err := ctx.Recorder(s.proj)
	if err != nil {
		return err
	}
	// Creates first, so playback inserts them as one bulk insert; then the
	// initial values, one SetN record per column.
	provs := s.provs[:n]
	for i := range provs {
		provs[i] = rec.Create()
	}
	commands.SetN(rec, s.px, provs, f.x[:n])
	commands.SetN(rec, s.py, provs, f.y[:n])
	commands.SetN(rec, s.pvx, provs, f.vx[:n])
	commands.SetN(rec, s.pvy, provs, f.vy[:n])
	commands.SetN(rec, s.pttl, provs, f.ttl[:n])
	commands.SetN(rec, s.pdmg, provs, f.damage[:n])
	commands.SetN(rec, s.ptarget, provs, f.target[:n])
	return nil
}

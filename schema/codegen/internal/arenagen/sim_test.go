package arenagen_test

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/schema/codegen/internal/arenagen"
	"github.com/tickwork/tickwork/systems"
)

// genSim is the arena on the generated systems of arena.tw (ApplyHits,
// Collision, IntegrateBodies, IntegrateProjectiles, Clock) with the four
// hand-written ones ported from package arena (Fire, ResolveRespawns,
// PresentationSync, Respawn), which order themselves against the
// generated ones by name. A test harness, not the arena: it shows that the
// generated systems give today's digests before package arena uses them.
type genSim struct {
	cfg   rules.Config
	world *runtime.World
	t     *arenagen.Tables
	sys   *arenagen.Systems

	r          *rand.Rand
	respawns   []respawn
	deadSort   []int32
	fired      shots
	provs      []ephemeral.Handle
	pres       []rules.Slot
	shotsFired int64
	presKernel func(w, c int)
	reserved   bool
}

type respawn struct {
	slot int32
	unit ephemeral.Handle
}

type shots struct {
	x, y, vx, vy []float32
	ttl, damage  []int32
	target       []ephemeral.Handle
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
	b := runtime.NewBuilder(runtime.WithPacing(runtime.OneTickPerFrame), runtime.WithFixedStep(float64(rules.DT)),
		runtime.WithWorkers(max(cfg.Workers, 1)))
	projCap := max(32768, cfg.Shots*(int(rules.TTL)+1))
	sz := arenagen.Sizes{Actors: cfg.Units, Projectile: projCap, ArenaClock: 1, HitEvent: projCap, DeadSlot: cfg.Units}
	var err error
	if s.t, err = arenagen.Declare(b, sz); err != nil {
		return nil, err
	}
	s.sys = arenagen.NewSystems(s.t)
	if err := b.Add(append(s.sys.All(), s.handWritten()...)...); err != nil {
		return nil, err
	}
	if s.world, err = b.Build(); err != nil {
		return nil, err
	}
	if err := s.setup(); err != nil {
		s.world.Close()
		return nil, err
	}
	return s, nil
}

func (s *genSim) setup() error {
	t, n := s.t, s.cfg.Units
	units := make([]ephemeral.Handle, n)
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
	s.respawns = make([]respawn, 0, n)
	s.deadSort = make([]int32, 0, n)
	ttl := make([]int32, s.cfg.Shots)
	for i := range ttl {
		ttl[i] = rules.TTL
	}
	k := s.cfg.Shots
	s.fired = shots{x: make([]float32, k), y: make([]float32, k), vx: make([]float32, k), vy: make([]float32, k),
		ttl: ttl, damage: make([]int32, k), target: make([]ephemeral.Handle, k)}
	s.provs = make([]ephemeral.Handle, k)
	s.pres = make([]rules.Slot, n)
	s.presKernel = s.presentationChunk
	for c := range t.Unit.Table.Chunks() {
		s.presentationChunk(0, c)
	}
	return nil
}

func (s *genSim) frame() error { return s.world.Frame(float64(rules.DT)) }

func (s *genSim) counters() rules.Counters {
	return rules.Counters{ShotsFired: s.shotsFired, Hits: s.sys.Collision.Hits, Deaths: s.sys.ApplyHits.Deaths,
		Lost: s.sys.Collision.Lost, Expired: s.sys.Collision.Expired, LiveProjectiles: int64(s.t.Projectile.Table.Len())}
}

func (s *genSim) projectileChecksum() uint64 {
	t := s.t
	var sum uint64
	for c := range t.Projectile.Table.Chunks() {
		xs, ys, ttl, dmg := t.Projectile.X.Span(c), t.Projectile.Y.Span(c), t.Projectile.TTL.Span(c), t.Projectile.Damage.Span(c)
		ephemeral.EachRun(t.Projectile.Table.Enabled(c), func(lo, hi int) {
			for r := lo; r < hi; r++ {
				sum += rules.ProjectileHash(xs[r], ys[r], ttl[r], dmg[r])
			}
		})
	}
	return sum
}

func (s *genSim) digest() uint64 {
	return rules.Digest(s.pres, int64(s.world.Frames()), s.counters(), s.projectileChecksum())
}

// handWritten are the arena's hand-written systems, as in package arena,
// on arenagen's tables.
func (s *genSim) handWritten() []systems.System {
	t := s.t
	col := systems.Col[float32]
	res := func(name string) systems.Resource { return systems.Resource{Name: name, Write: true} }
	return []systems.System{
		{Name: "ResolveRespawns", Phase: systems.FrameStart,
			Manifest: systems.Manifest{Resources: []systems.Resource{res("respawns")}}, Run: s.resolveRespawns},
		{Name: "Fire", Phase: systems.FixedUpdate, Before: []string{"Collision"},
			Manifest: systems.Manifest{Reads: []systems.ColumnRef{col(t.Body.X), col(t.Body.Y)},
				Writes: []systems.ColumnRef{col(t.Projectile.X), col(t.Projectile.Y), col(t.Projectile.VX), col(t.Projectile.VY),
					systems.Col(t.Projectile.TTL), systems.Col(t.Projectile.Damage), systems.Col(t.Projectile.Target)},
				Creates: []*ephemeral.Table{t.Projectile.Table}, Resources: []systems.Resource{res("rng")}}, Run: s.fire},
		{Name: "PresentationSync", Phase: systems.LateUpdate,
			Manifest: systems.Manifest{Reads: []systems.ColumnRef{col(t.Body.X), col(t.Body.Y), systems.Col(t.Unit.Health)},
				Resources: []systems.Resource{res("presentation")}}, Run: s.presentationSync},
		{Name: "Respawn", Phase: systems.FrameEnd,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(t.Unit.Health), col(t.Body.X), col(t.Body.Y), col(t.Body.VX), col(t.Body.VY)},
				Creates: []*ephemeral.Table{t.Unit.Table, t.Body.Table}, Consumes: []events.Buffer{t.DeadSlot},
				Resources: []systems.Resource{res("rng"), res("respawns")}}, Run: s.respawn},
	}
}

func (s *genSim) resolveRespawns(ctx *systems.Context) error {
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

func (s *genSim) fire(ctx *systems.Context) error {
	t := s.t
	xs, err := systems.Read(ctx, t.Body.X)
	if err != nil {
		return err
	}
	ys, err := systems.Read(ctx, t.Body.Y)
	if err != nil {
		return err
	}
	body := t.Body.Table
	r, units := s.r, s.cfg.Units
	shift, mask := bits.TrailingZeros(uint(body.ChunkRows())), body.ChunkRows()-1
	f := &s.fired
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
		sx, sy := xs[shooter], ys[shooter]
		dx := xs[target] - sx
		dy := ys[target] - sy
		d2 := float32(dx*dx) + float32(dy*dy)
		if d2 == 0 {
			continue
		}
		d := float32(math.Sqrt(float64(d2)))
		f.x[n], f.y[n], f.vx[n], f.vy[n] = sx, sy, dx/d*rules.Speed, dy/d*rules.Speed
		f.damage[n], f.target[n] = int32(damage), th
		n++
	}
	s.shotsFired += int64(n)
	if n == 0 {
		return nil
	}
	rec, err := ctx.Recorder(t.Projectile.Table)
	if err != nil {
		return err
	}
	provs := s.provs[:n]
	for i := range provs {
		provs[i] = rec.Create()
	}
	commands.SetN(rec, t.Projectile.X, provs, f.x[:n])
	commands.SetN(rec, t.Projectile.Y, provs, f.y[:n])
	commands.SetN(rec, t.Projectile.VX, provs, f.vx[:n])
	commands.SetN(rec, t.Projectile.VY, provs, f.vy[:n])
	commands.SetN(rec, t.Projectile.TTL, provs, f.ttl[:n])
	commands.SetN(rec, t.Projectile.Damage, provs, f.damage[:n])
	commands.SetN(rec, t.Projectile.Target, provs, f.target[:n])
	return nil
}

func (s *genSim) presentationSync(ctx *systems.Context) error {
	ctx.RunKernel(s.t.Unit.Table.Chunks(), s.presKernel)
	return nil
}

func (s *genSim) presentationChunk(_, c int) {
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

func (s *genSim) respawn(ctx *systems.Context) error {
	t := s.t
	dead, err := systems.Reader(ctx, t.DeadSlot)
	if err != nil {
		return err
	}
	units, err := ctx.Recorder(t.Unit.Table)
	if err != nil {
		return err
	}
	bodies, err := ctx.Recorder(t.Body.Table)
	if err != nil {
		return err
	}
	if !s.reserved {
		n := min(s.cfg.Units, t.Projectile.Table.Cap())
		commands.Reserve(units, t.Unit.Health, n)
		commands.Reserve(bodies, t.Body.X, n)
		commands.Reserve(bodies, t.Body.Y, n)
		commands.Reserve(bodies, t.Body.VX, n)
		commands.Reserve(bodies, t.Body.VY, n)
		units.Buffer().Reserve(7 * n)
		s.reserved = true
	}
	if len(dead) == 0 {
		return nil
	}
	slots := s.deadSort[:0]
	for _, d := range dead {
		slots = append(slots, d.Slot)
	}
	slices.Sort(slots)
	for _, slot := range slots {
		x, y, vx, vy := rules.Spawn(s.r)
		h := units.Create()
		bodies.Attach(h)
		commands.Set(units, t.Unit.Health, h, rules.Health)
		commands.Set(bodies, t.Body.X, h, x)
		commands.Set(bodies, t.Body.Y, h, y)
		commands.Set(bodies, t.Body.VX, h, vx)
		commands.Set(bodies, t.Body.VY, h, vy)
		s.respawns = append(s.respawns, respawn{slot: slot, unit: h})
	}
	s.deadSort = slots
	return nil
}

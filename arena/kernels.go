package arena

import (
	"math"
	"math/bits"
	"slices"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// maxDeaths bounds the units that can die in one frame: each death takes a
// hit, and each hit a live projectile.
func (s *Sim) maxDeaths() int { return min(s.cfg.Units, s.t.Projectile.Table.Cap()) }

// systems adds the arena's systems (see the package doc for the order):
// the five generated from arena.tw (the two integrations in the Sim's lane:
// their SIMD variants, or their scalar loops) and the four hand-written
// ones, ordered against them by name. replace, when not nil, substitutes
// systems by name (newSim).
func (s *Sim) systems(b *tickwork.Builder, replace func(*Sim) []tickwork.System) {
	s.declared = []tickwork.System{
		{Name: "ResolveRespawns", Phase: tickwork.FrameStart, Declare: s.resolveRespawns},
		s.sys.ApplyHits.System(),
		{Name: "Fire", Phase: tickwork.FixedUpdate, Declare: s.fire},
		s.sys.Collision.System(),
		s.sys.IntegrateBodies.System(),
		s.sys.IntegrateProjectiles.System(),
		s.sys.Clock.System(),
		{Name: "PresentationSync", Phase: tickwork.LateUpdate, Declare: s.presentationSync, Lane: s.lane.String()},
		{Name: "Respawn", Phase: tickwork.FrameEnd, Declare: s.respawn},
	}
	if replace != nil {
		for _, r := range replace(s) {
			for i := range s.declared {
				if s.declared[i].Name == r.Name {
					s.declared[i] = r
				}
			}
		}
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
// each that fires; the projectiles exist from the end of this tick. It
// counts them ("shots").
func (s *Sim) fire(d *tickwork.Decl) tickwork.RunFunc {
	d.Before("Collision")
	t := s.t
	p := &t.Projectile
	xs, ys := tickwork.Read(d, t.Body.X), tickwork.Read(d, t.Body.Y)
	rec := tickwork.Record(d, p.Table)
	r := tickwork.WriteResource(d, s.rng).Rand
	s.shots = d.Counter("shots")
	f := newShots(s.cfg.Shots)
	// Room for a frame's shots: a create each, then one SetN per column
	// (charged to the world's budget at Build; recording never grows).
	tickwork.ReserveValues(rec, p.X, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.Y, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.VX, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.VY, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.TTL, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.Damage, s.cfg.Shots)
	tickwork.ReserveValues(rec, p.Target, s.cfg.Shots)
	rec.Reserve(s.cfg.Shots + 7)
	units, body := s.cfg.Units, t.Body.Table
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
		s.shots.Add(int64(n))
		if n == 0 {
			return
		}
		// Creates first, so playback inserts them as one bulk insert; then
		// the initial values, one SetN record per column.
		provs := f.provs[:n]
		for i := range provs {
			provs[i] = rec.Create()
		}
		tickwork.SetN(rec, p.X, provs, f.x[:n])
		tickwork.SetN(rec, p.Y, provs, f.y[:n])
		tickwork.SetN(rec, p.VX, provs, f.vx[:n])
		tickwork.SetN(rec, p.VY, provs, f.vy[:n])
		tickwork.SetN(rec, p.TTL, provs, f.ttl[:n])
		tickwork.SetN(rec, p.Damage, provs, f.damage[:n])
		tickwork.SetN(rec, p.Target, provs, f.target[:n])
	}
}

// respawn spawns a new unit for every slot that died this frame, in
// ascending slot order; they exist from the next frame.
func (s *Sim) respawn(d *tickwork.Decl) tickwork.RunFunc {
	t := s.t
	dead := tickwork.Consume(d, t.DeadSlot)
	units, bodies := tickwork.Record(d, t.Unit.Table), tickwork.Record(d, t.Body.Table)
	// Room for the most deaths a frame can have (one hit each), so a bad
	// frame never grows the buffer: 7 records and 5 values a unit.
	n := s.maxDeaths()
	tickwork.ReserveValues(units, t.Unit.Health, n)
	tickwork.ReserveValues(bodies, t.Body.X, n)
	tickwork.ReserveValues(bodies, t.Body.Y, n)
	tickwork.ReserveValues(bodies, t.Body.VX, n)
	tickwork.ReserveValues(bodies, t.Body.VY, n)
	units.Reserve(7 * n)
	r := tickwork.WriteResource(d, s.rng).Rand
	respawns := tickwork.WriteResource(d, s.respawns)
	sorted := make([]int32, 0, s.cfg.Units)
	return func(*tickwork.Context) {
		slots := sorted[:0]
		for _, e := range dead.Read() {
			slots = append(slots, e.Slot)
		}
		slices.Sort(slots)
		for _, slot := range slots {
			x, y, vx, vy := rules.Spawn(r)
			h := units.Create()
			bodies.Attach(h)
			tickwork.Set(units, t.Unit.Health, h, rules.Health)
			tickwork.Set(bodies, t.Body.X, h, x)
			tickwork.Set(bodies, t.Body.Y, h, y)
			tickwork.Set(bodies, t.Body.VX, h, vx)
			tickwork.Set(bodies, t.Body.VY, h, vy)
			*respawns = append(*respawns, respawn{slot: slot, unit: h})
		}
		sorted = slots
	}
}

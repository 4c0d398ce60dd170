package kitchen_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/schema/codegen/internal/kitchen"
)

const (
	things   = 200
	missiles = 300
	spawns   = 3 // missiles Spawn creates per tick
	dt       = 1.0 / 64
)

// initial values of thing i and missile i.
func thingHP(i int) int32      { return 1 + int32(i%7) }
func thingAlive(i int) bool    { return i%5 != 0 }
func thingDead(i int) bool     { return i%11 == 3 } // deleted before frame 0: holes
func posX(i int) float32       { return float32(i) - 50.25 }
func posY(i int) float64       { return float64(i%9)*20 - 30 }
func missileAt(i int) int      { return i * 7 % things }
func missilePower(i int) int32 { return int32(i % 4) }
func spawnAt(tick, j int) int  { return (tick*spawns + j) * 13 % things }

// world is the generated kitchen on a runtime world with the hand-written
// system Spawn.
type world struct {
	w    *tickwork.World
	t    *kitchen.Tables
	s    *kitchen.Systems
	ents []tickwork.Handle // thing handles by slot
}

func newWorld(t *testing.T, workers int) *world { return newWorldScan(t, workers, false) }

// newWorldScan is newWorld, with Strike's scan hook marking every live
// row when scan (kitchen.ScanEvery).
func newWorldScan(t *testing.T, workers int, scan bool) *world {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
	tabs, err := kitchen.Declare(b, kitchen.DefaultSizes())
	require.NoError(t, err)
	sys := kitchen.NewSystems(tabs)
	if scan {
		kitchen.ScanEvery(sys)
	}
	wd := &world{t: tabs, s: sys}
	b.Add(sys.All()...)
	b.System("Spawn", tickwork.FixedUpdate, wd.spawn)
	wd.w, err = b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { wd.w.Close() })

	wd.ents = make([]tickwork.Handle, things)
	require.NoError(t, tabs.Thing.Table.InsertN(wd.ents))
	for i, h := range wd.ents {
		require.Equal(t, uint32(i), h.Index())
		require.NoError(t, tabs.Pos.Table.Attach(h))
		tabs.Thing.HP.Set(h, thingHP(i))
		tabs.Thing.Score.Set(h, int64(i))
		tabs.Thing.Alive.Set(h, thingAlive(i))
		tabs.Pos.X.Set(h, posX(i))
		tabs.Pos.Y.Set(h, posY(i))
	}
	for i, h := range wd.ents {
		if thingDead(i) {
			require.True(t, tabs.Thing.Table.Delete(h))
		}
	}
	ms := make([]tickwork.Handle, missiles)
	require.NoError(t, tabs.Missile.Table.InsertN(ms))
	for i, h := range ms {
		tabs.Missile.At.Set(h, wd.ents[missileAt(i)])
		tabs.Missile.Power.Set(h, missilePower(i))
		tabs.Missile.Speed.Set(h, float32(i)*0.75)
		tabs.Missile.Age.Set(h, int32(i%5))
	}
	_, err = tabs.Clock.Table.Insert()
	require.NoError(t, err)
	return wd
}

// spawn is the hand-written system the schema names extern: each tick it
// creates spawns missiles aimed at things (a zero handle when the slot
// holds no thing).
func (wd *world) spawn(d *tickwork.Decl) tickwork.RunFunc {
	tabs := wd.t
	tickwork.Read(d, tabs.Thing.HP) // it reads which things live
	rec := tickwork.Record(d, tabs.Missile.Table)
	return func(ctx *tickwork.Context) {
		for j := range spawns {
			at, _ := tabs.Thing.Table.HandleAt(spawnAt(int(ctx.Tick()), j))
			h := rec.Create()
			tickwork.Set(rec, tabs.Missile.At, h, at)
			tickwork.Set(rec, tabs.Missile.Power, h, int32(j+1))
			tickwork.Set(rec, tabs.Missile.Speed, h, float32(8))
		}
	}
}

// model is kitchen.tw's meaning, written by hand: the reference the
// generated kernels must match bit for bit.
type model struct {
	thing   [things]bool // entity alive with a Thing row
	pos     [things]bool // entity alive with a Pos row
	hp      [things]int32
	score   [things]int64
	alive   [things]bool
	x       [things]float32
	y       [things]float64
	missile []mrow // by slot
	blasts  []blast
	ticks   int64
	time    float64
	counts  map[string]int64
	// reported are the counts when compare last checked the frame report
	reported map[string]int64
	tick     int
}

type mrow struct {
	live  bool
	at    int // thing slot, -1 for a zero handle
	power int32
	speed float32
	age   int32
}

type blast struct {
	who   int
	power int32
}

func newModel() *model {
	m := &model{counts: map[string]int64{}, reported: map[string]int64{}}
	for i := range things {
		m.thing[i], m.pos[i] = !thingDead(i), !thingDead(i)
		m.hp[i], m.score[i], m.alive[i] = thingHP(i), int64(i), thingAlive(i)
		m.x[i], m.y[i] = posX(i), posY(i)
	}
	for i := range missiles {
		m.missile = append(m.missile, mrow{live: true, at: missileAt(i), power: missilePower(i), speed: float32(i) * 0.75, age: int32(i % 5)})
	}
	return m
}

// frame runs one frame of the model, phase by phase.
func (m *model) frame() {
	const half, wrap, limit, big = float32(0.5), float32(16), int32(3), int64(5000000000)
	third := 1.0 / 3
	// FrameStart: Damage over last frame's blasts, then Tally over Gone.
	var gone []int64
	var deaths []int
	for _, b := range m.blasts {
		if !m.thing[b.who] || !m.alive[b.who] {
			m.counts["wasted"]++
			continue
		}
		m.hp[b.who] -= b.power
		m.score[b.who] = m.score[b.who]*3 + int64(b.power)*1000 + big
		if m.hp[b.who] <= 0 {
			m.alive[b.who] = false
			gone = append(gone, m.score[b.who])
			deaths = append(deaths, b.who)
			m.counts["deaths"]++
		}
	}
	m.blasts = nil
	for _, s := range gone {
		if s%4 < 2 {
			m.counts["rich"]++
		} else {
			m.counts["poor"]++
		}
	}
	for _, d := range deaths { // playback: the entity and all its rows
		m.thing[d], m.pos[d] = false, false
	}
	// FixedUpdate: Spawn records creates; Move; Strike; playback.
	var at [spawns]int
	for j := range spawns {
		at[j] = spawnAt(m.tick, j)
		if !m.thing[at[j]] {
			at[j] = -1
		}
	}
	dt32, dt64 := float32(dt), float64(dt)
	for i := range things {
		if !m.pos[i] {
			continue
		}
		x, y := m.x[i], m.y[i]
		x += float32(half * dt32)
		y = float64(y*dt64) + third
		switch {
		case x > wrap && !(y < 0):
			x -= wrap
		case x < -wrap || y > 100:
			x = float32(x * -1)
			y = -y
		default:
			y -= float64(float64(x) * 0.25)
		}
		m.x[i], m.y[i] = x, y
	}
	var dead []int
	for s := range m.missile {
		r := &m.missile[s]
		if !r.live {
			continue
		}
		switch {
		case r.at < 0 || !m.thing[r.at]:
			dead = append(dead, s)
			m.counts["stale"]++
		case m.hp[r.at] <= r.power+2:
			m.blasts = append(m.blasts, blast{r.at, r.power})
			dead = append(dead, s)
			m.counts["kills"]++
		case r.age >= limit:
			dead = append(dead, s)
			m.counts["expired"]++
		default:
			r.age++
			r.speed = float32(r.speed * half)
			m.counts["flying"]++
		}
	}
	for s := range m.missile { // Drift: live rows (the kernel's holes do not matter)
		if r := &m.missile[s]; r.live {
			r.speed = float32(r.speed*float32(1.1)) + 0.3
		}
	}
	// Playback in system order: Spawn's creates take the lowest free
	// slots, then Strike's deletes free theirs.
	for j := range spawns {
		s := 0
		for s < len(m.missile) && m.missile[s].live {
			s++
		}
		r := mrow{live: true, at: at[j], power: int32(j + 1), speed: 8}
		if s == len(m.missile) {
			m.missile = append(m.missile, r)
		} else {
			m.missile[s] = r
		}
	}
	for _, s := range dead {
		m.missile[s].live = false
	}
	m.tick++
	// Update: Tick.
	m.ticks = int64(m.tick)
	m.time = float64(m.time*1.01) + dt
	// LateUpdate: Prune removes Thing rows (the entity keeps its Pos).
	var pruned []int
	for i := range things {
		if m.thing[i] && !m.alive[i] && m.hp[i] > 5 {
			pruned = append(pruned, i)
			m.counts["pruned"]++
		}
	}
	for _, i := range pruned {
		m.thing[i] = false
	}
}

// compare checks the world against the model, column by column.
func compare(t *testing.T, wd *world, m *model, frame int) {
	t.Helper()
	tabs := wd.t
	for i, h := range wd.ents {
		require.Equal(t, m.thing[i], tabs.Thing.Table.IsAlive(h), "frame %d thing %d: Thing row", frame, i)
		require.Equal(t, m.pos[i], tabs.Pos.Table.IsAlive(h), "frame %d thing %d: Pos row", frame, i)
		if m.thing[i] {
			hp, _ := tabs.Thing.HP.Get(h)
			score, _ := tabs.Thing.Score.Get(h)
			alive, _ := tabs.Thing.Alive.Get(h)
			require.Equal(t, m.hp[i], hp, "frame %d thing %d: HP", frame, i)
			require.Equal(t, m.score[i], score, "frame %d thing %d: Score", frame, i)
			require.Equal(t, m.alive[i], alive, "frame %d thing %d: Alive", frame, i)
		}
		if m.pos[i] {
			x, _ := tabs.Pos.X.Get(h)
			y, _ := tabs.Pos.Y.Get(h)
			require.Equal(t, math.Float32bits(m.x[i]), math.Float32bits(x), "frame %d thing %d: X %v, want %v", frame, i, x, m.x[i])
			require.Equal(t, math.Float64bits(m.y[i]), math.Float64bits(y), "frame %d thing %d: Y %v, want %v", frame, i, y, m.y[i])
		}
	}
	mt := tabs.Missile.Table
	live := 0
	for s, r := range m.missile {
		h, ok := mt.HandleAt(s)
		require.Equal(t, r.live, ok, "frame %d missile slot %d", frame, s)
		if !r.live {
			continue
		}
		live++
		at, _ := tabs.Missile.At.Get(h)
		power, _ := tabs.Missile.Power.Get(h)
		speed, _ := tabs.Missile.Speed.Get(h)
		age, _ := tabs.Missile.Age.Get(h)
		if r.at < 0 {
			require.True(t, at.IsZero(), "frame %d missile %d: At", frame, s)
		} else {
			require.Equal(t, uint32(r.at), at.Index(), "frame %d missile %d: At", frame, s)
		}
		require.Equal(t, r.power, power, "frame %d missile %d: Power", frame, s)
		require.Equal(t, math.Float32bits(r.speed), math.Float32bits(speed), "frame %d missile %d: Speed", frame, s)
		require.Equal(t, r.age, age, "frame %d missile %d: Age", frame, s)
	}
	require.Equal(t, live, mt.Len(), "frame %d: live missiles", frame)
	if frame >= 0 { // this frame's blasts, in emission order
		var want, got []blast
		want = append(want, m.blasts...)
		for _, b := range tabs.Blast.Read() {
			got = append(got, blast{int(b.Who.Index()), b.Power})
		}
		require.Equal(t, want, got, "frame %d: the Blast events, in order", frame)
	}
	// Each count NAME is a tickwork.Counter: its Total is every frame's,
	// and the frame report has this frame's (the model's since the last
	// comparison).
	s := wd.s
	got := map[string]tickwork.Counter{"stale": s.Strike.Stale, "kills": s.Strike.Kills, "expired": s.Strike.Expired, "flying": s.Strike.Flying,
		"deaths": s.Damage.Deaths, "wasted": s.Damage.Wasted, "rich": s.Tally.Rich, "poor": s.Tally.Poor, "pruned": s.Prune.Pruned}
	system := map[string]string{"stale": "Strike", "kills": "Strike", "expired": "Strike", "flying": "Strike",
		"deaths": "Damage", "wasted": "Damage", "rich": "Tally", "poor": "Tally", "pruned": "Prune"}
	for k, c := range got {
		require.Equal(t, k, c.Name())
		require.Equal(t, m.counts[k], c.Total(), "frame %d: count %s", frame, k)
		if frame >= 0 {
			v, ok := wd.w.Report().Counter(system[k], k)
			require.True(t, ok, "frame %d: no counter %s of %s in the frame report", frame, k, system[k])
			require.Equal(t, m.counts[k]-m.reported[k], v, "frame %d: count %s in the frame report", frame, k)
		}
	}
	for k := range got {
		m.reported[k] = m.counts[k]
	}
	row, _ := tabs.Clock.Table.HandleAt(0)
	ticks, _ := tabs.Clock.Ticks.Get(row)
	tm, _ := tabs.Clock.Time.Get(row)
	require.Equal(t, m.ticks, ticks, "frame %d: Clock.Ticks", frame)
	require.Equal(t, m.time, tm, "frame %d: Clock.Time", frame)
}

const frames = 8

// TestKernelsMatchModel runs the generated systems with 1, 2 and 4
// workers, with the pool's normal split of chunks and with chunks dealt
// out reversed or shuffled (internal/chunkorder), against the hand-written
// model, comparing every column after every frame; and with Strike's scan
// hook set (scan=true: its scanned chunk, kitchen.ScanEvery).
func TestKernelsMatchModel(t *testing.T) {
	for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
		for _, c := range []struct {
			workers int
			scan    bool
		}{{1, false}, {2, false}, {4, false}, {1, true}, {2, true}} {
			workers := c.workers
			t.Run(fmt.Sprintf("%v/workers=%d/scan=%v", o, workers, c.scan), func(t *testing.T) {
				restore := chunkorder.Set(o)
				wd, m := newWorldScan(t, workers, c.scan), newModel() // its pool takes the order
				restore()
				compare(t, wd, m, -1)
				for f := range frames {
					require.NoError(t, wd.w.Frame(dt))
					m.frame()
					compare(t, wd, m, f)
				}
				// Every outcome happened, so the comparison covered each arm.
				for _, k := range []string{"stale", "kills", "expired", "flying", "deaths", "wasted", "rich", "poor", "pruned"} {
					assert.Positive(t, m.counts[k], "count %s never happened: the test does not cover it", k)
				}
			})
		}
	}
}

// TestKernelsHandComputed pins a few values worked out by hand from the
// schema, independent of the model.
func TestKernelsHandComputed(t *testing.T) {
	for _, workers := range []int{1, 2} {
		wd := newWorld(t, workers)
		h := wd.ents[20] // x = -30.25, y = 10
		require.NoError(t, wd.w.Frame(dt))
		// x = -30.25 + 0.5/64 = -30.2421875 < -16: x *= -1; y = 10/64 + 1/3, then negated.
		x, _ := wd.t.Pos.X.Get(h)
		y, _ := wd.t.Pos.Y.Get(h)
		assert.Equal(t, float32(30.2421875), x)
		assert.Equal(t, -(0.15625 + 1.0/3), y)
		require.NoError(t, wd.w.Frame(dt))
		// x = 30.25 > 16 and y = -y/64 + 1/3 > 0: x -= 16.
		x, _ = wd.t.Pos.X.Get(h)
		assert.Equal(t, float32(14.25), x)
		row, _ := wd.t.Clock.Table.HandleAt(0)
		ticks, _ := wd.t.Clock.Ticks.Get(row)
		assert.Equal(t, int64(2), ticks)
		// Thing 5 starts dead (5%5 == 0) with HP 6 > 5: Prune removed its
		// Thing row in frame 0, and its Pos row lives on. So did the other
		// things with i%5 == 0 and i%7 in {5, 6}: 20, 40, 55, 75, 90, 110,
		// 125, 145, 160, 180, 195 (none of them deleted, i%11 != 3).
		assert.False(t, wd.t.Thing.Table.IsAlive(wd.ents[5]))
		assert.True(t, wd.t.Pos.Table.IsAlive(wd.ents[5]))
		assert.Equal(t, int64(12), wd.s.Prune.Pruned.Total())
		pruned, _ := wd.w.Report().Counter("Prune", "pruned")
		assert.Zero(t, pruned, "frame 1 pruned nothing more")
	}
}

// TestKernelsAllocateNothing: after warm-up, frames of the generated
// systems allocate nothing, with one worker and with two.
func TestKernelsAllocateNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		wd := newWorld(t, workers)
		for range 3 {
			require.NoError(t, wd.w.Frame(dt))
		}
		allocs := testing.AllocsPerRun(20, func() {
			if err := wd.w.Frame(dt); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "%d workers", workers)
	}
}

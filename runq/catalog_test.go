package runq_test

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

// arena is testdata/arena.tw's world: its tables declared by hand as the
// generator would, filled at random, and its catalog bound.
type arena struct {
	w      *tickwork.World
	unit   *tickwork.Table
	hero   *tickwork.Table
	loot   *tickwork.Table
	health *tickwork.Column[int32]
	gold   *tickwork.Column[int64]
	x      *tickwork.Column[float32]
	speed  *tickwork.Column[float64]
	alive  *tickwork.Column[bool]
	target *tickwork.Column[tickwork.Handle]
	serial *tickwork.Column[int64]
	rank   *tickwork.Column[int32]
	owner  *tickwork.Column[tickwork.Handle]
	value  *tickwork.Column[int32]
	units  []tickwork.Handle
	cat    *runq.Catalog
}

func newArena(t testing.TB, seed uint64, n int) *arena {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	a := &arena{}
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 512, ChunkRows: 64})
	a.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	a.health = tickwork.AddColumn[int32](b, a.unit, "Health")
	a.gold = tickwork.AddColumn[int64](b, a.unit, "Gold")
	a.x = tickwork.AddColumn[float32](b, a.unit, "X")
	a.speed = tickwork.AddColumn[float64](b, a.unit, "Speed")
	a.alive = tickwork.AddColumn[bool](b, a.unit, "Alive")
	a.target = tickwork.AddColumn[tickwork.Handle](b, a.unit, "Target")
	a.serial = tickwork.AddColumn[int64](b, a.unit, "Serial")
	a.hero = b.Table(tickwork.TableSpec{Name: "Hero", Domain: d})
	a.rank = tickwork.AddColumn[int32](b, a.hero, "Rank")
	a.loot = b.Table(tickwork.TableSpec{Name: "Loot", Capacity: 256, ChunkRows: 64})
	a.owner = tickwork.AddColumn[tickwork.Handle](b, a.loot, "Owner")
	a.value = tickwork.AddColumn[int32](b, a.loot, "Value")
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	a.w = w
	src, err := os.ReadFile("testdata/arena.tw")
	require.NoError(t, err)
	cat, err := runq.NewCatalog("arena.tw", string(src))
	require.NoError(t, err)
	must := func(err error) { t.Helper(); require.NoError(t, err) }
	must(cat.BindTable("Unit", a.unit))
	must(runq.BindColumn(cat, "Unit", "Health", a.health))
	must(runq.BindColumn(cat, "Unit", "Gold", a.gold))
	must(runq.BindColumn(cat, "Unit", "X", a.x))
	must(runq.BindColumn(cat, "Unit", "Speed", a.speed))
	must(runq.BindColumn(cat, "Unit", "Alive", a.alive))
	must(runq.BindColumn(cat, "Unit", "Target", a.target))
	must(runq.BindColumn(cat, "Unit", "Serial", a.serial))
	must(cat.BindTable("Hero", a.hero))
	must(runq.BindColumn(cat, "Hero", "Rank", a.rank))
	a.cat = cat
	a.fill(t, seed, n)
	return a
}

var edgeFloats = []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1.5, -2, 3, 3}

// fill inserts n units (and heroes for some), then deletes a few.
func (a *arena) fill(t testing.TB, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 3))
	for i := range n {
		h, err := a.unit.Insert()
		require.NoError(t, err)
		a.units = append(a.units, h)
		a.health.Set(h, int32(r.IntN(100))-10)
		a.gold.Set(h, int64(r.IntN(1000)))
		a.x.Set(h, edgeFloats[r.IntN(len(edgeFloats))])
		a.speed.Set(h, float64(r.IntN(7))/4)
		a.alive.Set(h, r.IntN(2) == 0)
		a.serial.Set(h, int64(i))
		if i > 0 {
			a.target.Set(h, a.units[r.IntN(i)])
		}
		if r.IntN(3) == 0 {
			require.NoError(t, a.hero.Attach(h))
			a.rank.Set(h, int32(r.IntN(5)))
		}
	}
	for range n / 10 {
		a.unit.Delete(a.units[r.IntN(len(a.units))])
	}
}

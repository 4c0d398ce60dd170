package runq_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// subCase is a subscribed query: its text, arguments and kind.
type subCase struct {
	name string
	text string
	args []runq.Value
	kind runq.SubKind
}

// subCases subscribe every kind over table Unit of testdata/arena.tw,
// with arguments, float keys and values holding NaN and ±0, expressions
// and the row's handle and index. The ref argument of Probe is filled by
// the rig (its first unit).
var subCases = []subCase{
	{"Filter", "query F(min: int32) { from Unit u where u.Health >= min and u.Alive select u, u.Health, u.X, u.Speed, u.Target }",
		[]runq.Value{runq.I32(20)}, runq.SubFilter},
	{"Box", "query Box(lo: float32, hi: float32) { from Unit u where u.X >= lo and u.X <= hi select u.X, u.Gold }",
		[]runq.Value{runq.F32(-1), runq.F32(2)}, runq.SubFilter},
	{"Exprs", "query E(k: int64) { from Unit u where not u.Alive or u.Gold % 3 == k select u.Health * 2 + 1 as H, index(u) as Slot, u.Speed * 0.5 as S, u.Gold + k as G }",
		[]runq.Value{runq.I64(1)}, runq.SubFilter},
	{"OneItem", "query One() { from Unit u where u.Speed > 0.5 select u.Speed }", nil, runq.SubFilter},
	{"Every", "query Every() { from Unit u select u, u.Serial, u.X, u.Alive, u.Target, u.Speed, u.Gold, u.Health }", nil, runq.SubFilter},
	{"Probe", "query P(h: ref Unit) { from Unit u where u == h and u.Health > 10 select u.Health, u.X }", nil, runq.SubFilter},
	{"SerialLookup", "query US(s: int64) { from Unit u where u.Serial == s select u, u.Health }", []runq.Value{runq.I64(5)}, runq.SubFilter},
	{"Count", "query C(min: int32) { from Unit u where u.Health > min select count() }", []runq.Value{runq.I32(30)}, runq.SubCount},
	{"CountAll", "query All() { from Unit u select count() as N }", nil, runq.SubCount},
	{"Counts", "query CC(min: int32) { from Unit u where u.Health > min select count() as A, count() as B, count() as C }", []runq.Value{runq.I32(10)}, runq.SubCount},
	{"GroupInt", "query G(min: int32) { from Unit u where u.Health >= min group by u.Health % 4 select u.Health % 4 as K, count() as N, sum(u.Gold) as Gold, sum(u.Health) as HP }",
		[]runq.Value{runq.I32(0)}, runq.SubGroupSum},
	{"GroupBool", "query GB() { from Unit u group by u.Alive select count(), u.Alive }", nil, runq.SubGroupSum},
	{"GroupRef", "query GR() { from Unit u where u.Alive group by u.Target select u.Target, count(), sum(u.Serial) }", nil, runq.SubGroupSum},
	{"GroupUnselectedKey", "query GK(m: int64) { from Unit u group by u.Gold % 5 + m select sum(u.Health) }", []runq.Value{runq.I64(5)}, runq.SubGroupSum},
	{"TopFloatDesc", "query T(n: int32) { from Unit u where u.Alive select u, u.X, u.Health order by u.X desc limit n }",
		[]runq.Value{runq.I32(7)}, runq.SubTopN},
	{"TopIntAsc", "query TA() { from Unit u select u, u.Health order by u.Health limit 10 }", nil, runq.SubTopN},
	{"TopFloatAsc", "query TF() { from Unit u select u.X, u.Serial order by u.X limit 6 }", nil, runq.SubTopN},
	{"TopExpr", "query TE(n: int64) { from Unit u select u.Gold, index(u) as Slot order by u.Gold % 7 desc limit n }",
		[]runq.Value{runq.I64(12)}, runq.SubTopN},
	{"TopAlias", "query TH() { from Unit u where u.Health > 0 select u.Health * 3 as H, u order by H desc limit 4 }", nil, runq.SubTopN},
}

var subFloats = []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, 1.5, -2, 3, 3, 0.5, float32(math.Inf(1))}

// subRig is a world whose systems and host change table Unit at random
// (tracked writes, serial and from a parallel kernel, bulk writes of
// float edge values, deferred sets, creates, deletes, detaches and
// attaches through table Hero of the domain, host inserts, deletes and
// sets), with a subscription of each case and a Query of the same text.
type subRig struct {
	rng     *rand.Rand
	w       *tickwork.World
	unit    *tickwork.Table
	hero    *tickwork.Table
	health  *tickwork.Column[int32]
	gold    *tickwork.Column[int64]
	x       *tickwork.Column[float32]
	speed   *tickwork.Column[float64]
	alive   *tickwork.Column[bool]
	target  *tickwork.Column[tickwork.Handle]
	serial  *tickwork.Column[int64]
	subs    []*runq.Subscription
	qs      []*runq.Query
	args    [][]runq.Value
	models  []*subModel
	changes []int // per case: the rows of its deltas, over the run
	next    int64
}

// catalogOf is testdata/arena.tw's catalog bound to unit and hero, before
// Build.
func catalogOf(t testing.TB, g *subRig) *runq.Catalog {
	src, err := os.ReadFile("testdata/arena.tw")
	require.NoError(t, err)
	cat, err := runq.NewCatalog("arena.tw", string(src))
	require.NoError(t, err)
	must := func(err error) { t.Helper(); require.NoError(t, err) }
	must(cat.BindTable("Unit", g.unit))
	must(runq.BindColumn(cat, "Unit", "Health", g.health))
	must(runq.BindColumn(cat, "Unit", "Gold", g.gold))
	must(runq.BindColumn(cat, "Unit", "X", g.x))
	must(runq.BindColumn(cat, "Unit", "Speed", g.speed))
	must(runq.BindColumn(cat, "Unit", "Alive", g.alive))
	must(runq.BindColumn(cat, "Unit", "Target", g.target))
	must(runq.BindColumn(cat, "Unit", "Serial", g.serial))
	must(cat.BindTable("Hero", g.hero))
	return cat
}

func liveOf(t *tickwork.Table) []tickwork.Handle {
	var out []tickwork.Handle
	for r := range t.Chunks() * t.ChunkRows() {
		if h, ok := t.HandleAt(r); ok {
			out = append(out, h)
		}
	}
	return out
}

func (g *subRig) pick(t *tickwork.Table, n int) []tickwork.Handle {
	hs := liveOf(t)
	g.rng.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
	return hs[:min(n, len(hs))]
}

func (g *subRig) anyUnit() tickwork.Handle {
	if hs := g.pick(g.unit, 1); len(hs) > 0 {
		return hs[0]
	}
	return 0
}

func newSubRig(t *testing.T, seed uint64, workers int, cases []subCase) *subRig {
	g := &subRig{rng: rand.New(rand.NewPCG(seed, 24))}
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0/60), tickwork.WithWorkers(workers))
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 512, ChunkRows: 64})
	g.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	g.health = tickwork.AddColumn[int32](b, g.unit, "Health")
	g.gold = tickwork.AddColumn[int64](b, g.unit, "Gold")
	g.x = tickwork.AddColumn[float32](b, g.unit, "X")
	g.speed = tickwork.AddColumn[float64](b, g.unit, "Speed")
	g.alive = tickwork.AddColumn[bool](b, g.unit, "Alive")
	g.target = tickwork.AddColumn[tickwork.Handle](b, g.unit, "Target")
	g.serial = tickwork.AddColumn[int64](b, g.unit, "Serial")
	g.hero = b.Table(tickwork.TableSpec{Name: "Hero", Domain: d})
	tickwork.AddColumn[int32](b, g.hero, "Rank")
	g.systems(b)
	for range 120 {
		g.insert(t)
	}
	cat := catalogOf(t, g)
	for _, c := range cases {
		args := c.args
		if c.name == "Probe" {
			args = []runq.Value{runq.Ref(liveOf(g.unit)[3])}
		}
		s, err := runq.Subscribe(b, cat, c.text, args)
		require.NoError(t, err, c.name)
		require.Equal(t, c.kind, s.Kind(), c.name)
		q, err := runq.Prepare(cat, c.text)
		require.NoError(t, err)
		g.subs, g.qs, g.args = append(g.subs, s), append(g.qs, q), append(g.args, args)
		g.changes = append(g.changes, 0)
		g.models = append(g.models, &subModel{kind: c.kind, width: len(q.Columns()), rows: map[int]subModelRow{}})
	}
	var err error
	g.w, err = b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = g.w.Close() })
	return g
}

// insert inserts a unit with random values (the host's).
func (g *subRig) insert(t testing.TB) {
	h, err := g.unit.Insert()
	if err != nil {
		return
	}
	g.next++
	g.health.Set(h, int32(g.rng.IntN(80))-10)
	g.gold.Set(h, int64(g.rng.IntN(40)))
	g.x.Set(h, subFloats[g.rng.IntN(len(subFloats))])
	g.speed.Set(h, float64(g.rng.IntN(5))/4)
	g.alive.Set(h, g.rng.IntN(3) != 0)
	g.target.Set(h, g.anyUnit())
	g.serial.Set(h, g.next)
}

func (g *subRig) systems(b *tickwork.Builder) {
	b.System("hurt", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.health)
		return func(*tickwork.Context) {
			for _, h := range g.pick(g.unit, g.rng.IntN(5)) {
				hp.Set(h, int32(g.rng.IntN(80))-10)
			}
		}
	})
	b.System("drift", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		x := tickwork.Write(s, g.x)
		return func(*tickwork.Context) {
			for _, h := range g.pick(g.unit, g.rng.IntN(5)) {
				r, _ := g.unit.Lease().Row(h)
				x.All()[r] = subFloats[g.rng.IntN(len(subFloats))] // -0 over +0, NaN over NaN on purpose
			}
		}
	})
	b.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		ru, rh := tickwork.Record(s, g.unit), tickwork.Record(s, g.hero)
		s.After("drift")
		return func(*tickwork.Context) {
			for _, h := range g.pick(g.unit, g.rng.IntN(3)) {
				tickwork.Set(ru, g.gold, h, int64(g.rng.IntN(40)))
				tickwork.Set(ru, g.alive, h, g.rng.IntN(2) == 0)
				tickwork.Set(ru, g.target, h, g.anyUnit())
			}
			for range g.rng.IntN(3) {
				h := ru.Create()
				tickwork.Set(ru, g.health, h, int32(g.rng.IntN(80))-10)
				tickwork.Set(ru, g.gold, h, int64(g.rng.IntN(40)))
				tickwork.Set(ru, g.alive, h, true)
				tickwork.Set(ru, g.x, h, subFloats[g.rng.IntN(len(subFloats))])
				rh.Attach(h)
			}
			for range g.rng.IntN(2) {
				rh.Create() // a hero only, attached to Unit later
			}
			for _, h := range g.pick(g.unit, g.rng.IntN(3)) {
				ru.Delete(h)
			}
			for _, h := range g.pick(g.unit, g.rng.IntN(2)) {
				ru.Remove(h) // detached: it lives on if it is a hero
			}
			for _, h := range g.pick(g.hero, g.rng.IntN(4)) {
				if !g.unit.IsAlive(h) {
					ru.Attach(h) // zero values
				}
			}
		}
	})
	b.System("pulse", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.health)
		frame := 0
		return func(ctx *tickwork.Context) {
			frame++
			f := frame
			tickwork.Parallel(ctx, g.unit.UsedChunks(), hp, func(hp *tickwork.TrackedColumn[int32], _, c int) {
				for k := range 2 {
					r := c*g.unit.ChunkRows() + (f*11+k*23+c)%g.unit.ChunkRows()
					if _, ok := g.unit.HandleAt(r); ok {
						hp.SetRow(r, int32((f+r)%70)-10)
					}
				}
			})
		}
	})
}

// host changes Unit between frames.
func (g *subRig) host(t testing.TB) {
	for range g.rng.IntN(3) {
		g.insert(t)
	}
	for _, h := range g.pick(g.unit, g.rng.IntN(2)) {
		g.unit.Delete(h)
	}
	for _, h := range g.pick(g.unit, g.rng.IntN(4)) {
		g.speed.Set(h, float64(g.rng.IntN(5))/4)
		g.health.Set(h, int32(g.rng.IntN(80))-10)
	}
}

// subModel is a result rebuilt from the deltas alone: a filter's rows by
// from row, a count, a grouped sum's groups, a top-N's ranks.
type subModel struct {
	kind   runq.SubKind
	width  int
	rows   map[int]subModelRow // filter
	count  int64
	groups []subModelRow // grouped sum, in key order (Key set)
	top    []subModelRow // top-N, by rank
}

type subModelRow struct {
	row    int
	handle tickwork.Handle
	key    runq.Value
	vals   []runq.Value
}

// rowsOf is list's rows as model rows.
func rowsOf(l *runq.Rows, width int) []subModelRow {
	out := make([]subModelRow, l.Len())
	for i := range out {
		out[i].vals = slices.Clone(l.Values[i*width : i*width+width])
		if l.Row != nil {
			out[i].row, out[i].handle = l.Row[i], l.Handle[i]
		}
		if l.Key != nil {
			out[i].key = l.Key[i]
		}
	}
	return out
}

// keyCmp orders group keys as a query's groups (docs/schema.md, Query
// results): integers by value, false first, refs by index then
// generation.
func keyCmp(a, b runq.Value) int {
	switch a.Kind() {
	case schema.Int32:
		return cmp.Compare(a.Int32(), b.Int32())
	case schema.Int64:
		return cmp.Compare(a.Int64(), b.Int64())
	case schema.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool()))
	}
	return cmp.Or(cmp.Compare(a.Handle().Index(), b.Handle().Index()), cmp.Compare(a.Handle().Generation(), b.Handle().Generation()))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// apply applies d to the model, checking each list's order and that what
// Left or Changed was in the model; false at the first difference.
func (m *subModel) apply(t *testing.T, d *runq.Delta) bool {
	ok := assert.Equal(t, m.kind, d.Kind) && assert.Equal(t, m.width, d.Width)
	switch m.kind {
	case runq.SubFilter:
		ok = assert.Equal(t, int64(len(m.rows)), d.Before, "Before") && ok
		for _, l := range []*runq.Rows{&d.Entered, &d.Left, &d.Changed} {
			ok = assert.True(t, slices.IsSorted(l.Row), "a filter's list in ascending row") && ok
		}
		for _, r := range rowsOf(&d.Left, m.width) {
			ok = assert.Equal(t, m.rows[r.row], r, "a Left row is the one handed out") && ok
			delete(m.rows, r.row)
		}
		for _, r := range rowsOf(&d.Changed, m.width) {
			old, in := m.rows[r.row]
			ok = assert.True(t, in && old.handle == r.handle && !slices.Equal(old.vals, r.vals), "a Changed row was in, with other values") && ok
			m.rows[r.row] = r
		}
		for _, r := range rowsOf(&d.Entered, m.width) {
			_, in := m.rows[r.row]
			ok = assert.False(t, in, "an Entered row was not in") && ok
			m.rows[r.row] = r
		}
		ok = assert.Equal(t, int64(len(m.rows)), d.After, "After") && ok
	case runq.SubCount:
		ok = assert.Equal(t, m.count, d.Before, "Before") && ok
		m.count = d.After
	case runq.SubGroupSum:
		ok = assert.Equal(t, int64(len(m.groups)), d.Before, "Before") && ok
		find := func(k runq.Value) int {
			return slices.IndexFunc(m.groups, func(r subModelRow) bool { return keyCmp(r.key, k) == 0 })
		}
		for _, l := range []*runq.Rows{&d.Entered, &d.Left, &d.Changed} {
			ok = assert.True(t, slices.IsSortedFunc(l.Key, keyCmp), "a grouped sum's list in key order") && ok
		}
		for _, r := range rowsOf(&d.Left, m.width) {
			i := find(r.key)
			if ok = assert.GreaterOrEqual(t, i, 0, "a Left group was handed out") && ok; i >= 0 {
				ok = assert.Equal(t, m.groups[i], r, "a Left group's row is the one handed out") && ok
				m.groups = slices.Delete(m.groups, i, i+1)
			}
		}
		for _, r := range rowsOf(&d.Changed, m.width) {
			i := find(r.key)
			if ok = assert.GreaterOrEqual(t, i, 0, "a Changed group was handed out") && ok; i >= 0 {
				ok = assert.NotEqual(t, m.groups[i].vals, r.vals, "a Changed group changed") && ok
				m.groups[i] = r
			}
		}
		for _, r := range rowsOf(&d.Entered, m.width) {
			ok = assert.Less(t, find(r.key), 0, "an Entered group was not handed out") && ok
			m.groups = append(m.groups, r)
		}
		slices.SortFunc(m.groups, func(a, b subModelRow) int { return keyCmp(a.key, b.key) })
		ok = assert.Equal(t, int64(len(m.groups)), d.After, "After") && ok
	case runq.SubTopN:
		ok = assert.Equal(t, int64(len(m.top)), d.Before, "Before") && ok
		ok = assert.Zero(t, d.Changed.Len(), "a top-N has no Changed") && ok
		ok = assert.True(t, slices.IsSorted(d.Entered.Rank) && slices.IsSorted(d.Left.Rank), "a top-N's lists in ascending rank") && ok
		for i, r := range rowsOf(&d.Left, m.width) {
			rank := d.Left.Rank[i]
			if ok = assert.Less(t, rank, len(m.top), "a Left rank was handed out") && ok; rank < len(m.top) {
				ok = assert.Equal(t, m.top[rank], r, "a Left rank's entry is the one handed out") && ok
			}
		}
		for len(m.top) < int(d.After) {
			m.top = append(m.top, subModelRow{})
		}
		m.top = m.top[:d.After]
		for i, r := range rowsOf(&d.Entered, m.width) {
			m.top[d.Entered.Rank[i]] = r
		}
	}
	return ok
}

// flat is the model's result in the Query.Run buffer format.
func (m *subModel) flat() []runq.Value {
	var out []runq.Value
	switch m.kind {
	case runq.SubFilter:
		rows := slices.Sorted(func(yield func(int) bool) {
			for r := range m.rows {
				if !yield(r) {
					return
				}
			}
		})
		for _, r := range rows {
			out = append(out, m.rows[r].vals...)
		}
	case runq.SubCount:
		for range m.width { // each item the same count
			out = append(out, runq.I64(m.count))
		}
	case runq.SubGroupSum:
		for _, r := range m.groups {
			out = append(out, r.vals...)
		}
	case runq.SubTopN:
		for _, r := range m.top {
			out = append(out, r.vals...)
		}
	}
	return out
}

// check reads every subscription, applies its delta to its model and
// compares the model, and Result, with the query's Run; false at the
// first difference.
func (g *subRig) check(t *testing.T, frame int) bool {
	ok := true
	for i, s := range g.subs {
		name := g.qs[i].Plan()
		d := s.Read()
		g.changes[i] += d.Entered.Len() + d.Left.Len() + d.Changed.Len()
		if d.Kind == runq.SubCount && d.Before != d.After {
			g.changes[i]++
		}
		ok = g.models[i].apply(t, d) && ok
		want, err := g.qs[i].Run(nil, g.args[i])
		require.NoError(t, err)
		ok = assert.Equal(t, want, g.models[i].flat(), "case %d (%s) frame %d: previous result plus delta", i, name, frame) && ok
		ok = assert.Equal(t, want, s.Result(nil), "case %d frame %d: Result", i, frame) && ok
	}
	return ok
}

// TestSubscriptionDeltasRebuildTheRunResult checks, over random worlds
// (see subRig; 0, 1 or 3 fixed ticks a frame, frames not read) at 1 and
// 2 workers, that after every Read each case's delta applied to its
// previous result equals Query.Run of the same text and arguments, the
// same rows in the same order bit for bit, as does Result, and that the
// lists are in their stated order.
func TestSubscriptionDeltasRebuildTheRunResult(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for seed := range uint64(2) {
			t.Run("", func(t *testing.T) {
				g := newSubRig(t, seed, workers, subCases)
				for f := range 220 {
					if f%3 != 2 {
						g.host(t)
					}
					dt := []float64{0, 1.0 / 60, 3.0 / 60}[g.rng.IntN(3)]
					require.NoError(t, g.w.Frame(dt))
					if f%7 == 3 {
						continue // not read: the next Read covers both frames
					}
					require.True(t, g.check(t, f), "frame %d seed %d workers %d", f, seed, workers)
					if f == 100 {
						for _, s := range g.subs { // a second Read without a frame: nothing
							d := s.Read()
							require.Zero(t, d.Entered.Len()+d.Left.Len()+d.Changed.Len())
							require.Equal(t, d.Before, d.After)
						}
					}
				}
				for i, c := range subCases {
					assert.Positive(t, g.changes[i], "case %s changed", c.name)
				}
			})
		}
	}
}

// TestSubscriptionAllocatesNothing checks that frames changing the
// subscribed table (tracked and bulk writes, deletes and creates by
// playback, host sets) and the Reads of a subscription of every kind
// after them allocate nothing once warm.
func TestSubscriptionAllocatesNothing(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithFixedStep(1.0 / 60))
	g := &subRig{}
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 4096, ChunkRows: 256})
	g.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	g.health = tickwork.AddColumn[int32](b, g.unit, "Health")
	g.gold = tickwork.AddColumn[int64](b, g.unit, "Gold")
	g.x = tickwork.AddColumn[float32](b, g.unit, "X")
	g.speed = tickwork.AddColumn[float64](b, g.unit, "Speed")
	g.alive = tickwork.AddColumn[bool](b, g.unit, "Alive")
	g.target = tickwork.AddColumn[tickwork.Handle](b, g.unit, "Target")
	g.serial = tickwork.AddColumn[int64](b, g.unit, "Serial")
	g.hero = b.Table(tickwork.TableSpec{Name: "Hero", Domain: d})
	tickwork.AddColumn[int32](b, g.hero, "Rank")
	var handles []tickwork.Handle
	i := 0
	b.System("hurt", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		hp := tickwork.WriteTracked(s, g.health)
		return func(*tickwork.Context) {
			for k := range 20 {
				i++
				hp.Set(handles[(i*31+k)%len(handles)], int32(i%70)-10)
			}
		}
	})
	b.System("churn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		x := tickwork.Write(s, g.x)
		rec := tickwork.Record(s, g.unit)
		return func(*tickwork.Context) {
			x.All()[i%len(handles)] = subFloats[i%len(subFloats)]
			rec.Delete(handles[(i*7)%len(handles)])
			h := rec.Create()
			tickwork.Set(rec, g.health, h, 30)
			tickwork.Set(rec, g.alive, h, true)
		}
	})
	for k := range 2000 {
		h, err := g.unit.Insert()
		require.NoError(t, err)
		g.health.Set(h, int32(k%70)-10)
		g.gold.Set(h, int64(k%40))
		g.alive.Set(h, k%3 != 0)
		g.x.Set(h, subFloats[k%len(subFloats)])
		if k >= 10 {
			g.target.Set(h, handles[k%10]) // ten ref keys (and the zero handle), none new later
		}
		handles = append(handles, h)
	}
	cat := catalogOf(t, g)
	var subs []*runq.Subscription
	for _, c := range subCases {
		args := c.args
		if c.name == "Probe" {
			args = []runq.Value{runq.Ref(handles[3])}
		}
		s, err := runq.Subscribe(b, cat, c.text, args)
		require.NoError(t, err, c.name)
		subs = append(subs, s)
	}
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	seen := 0
	frame := func() {
		_ = w.Frame(1.0 / 60)
		for k, h := range handles { // follow the churn: the created rows reuse the deleted slots
			if !g.unit.IsAlive(h) {
				handles[k], _ = g.unit.HandleAt(int(h.Index()))
			}
		}
		g.speed.Set(handles[i%len(handles)], float64(i%5)/4)
		for _, s := range subs {
			d := s.Read()
			seen += d.Entered.Len() + d.Left.Len() + d.Changed.Len()
		}
	}
	for range 50 {
		frame()
	}
	assert.Zero(t, testing.AllocsPerRun(200, frame))
	assert.Positive(t, seen)
}

// TestSubscriptionComparesFloatsBitForBit: a filter's Changed compares
// values as Values do, bit for bit: -0 written over +0 is a change (and
// Run hands out -0), a NaN rewritten with the same bits is not, a NaN of
// another payload is.
func TestSubscriptionComparesFloatsBitForBit(t *testing.T) {
	b, cat, g := unbuiltRig(t)
	s, err := runq.Subscribe(b, cat, "query Xs() { from Unit u select u.X }", nil)
	require.NoError(t, err)
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	tab, x := g.unit, g.x
	h, err := tab.Insert()
	require.NoError(t, err)
	nan1, nan2 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	steps := []struct {
		v       float32
		changed bool
	}{{0, false}, {float32(math.Copysign(0, -1)), true}, {0, true}, {nan1, true}, {nan1, false}, {nan2, true}}
	for i, st := range steps {
		x.Set(h, st.v)
		require.NoError(t, w.Frame(0))
		d := s.Read()
		if i == 0 {
			require.Equal(t, 1, d.Entered.Len())
			continue
		}
		if st.changed {
			require.Equal(t, 1, d.Changed.Len(), "step %d", i)
			require.Equal(t, math.Float32bits(st.v), math.Float32bits(d.Changed.Values[0].Float32()), "step %d", i)
		} else {
			require.Zero(t, d.Changed.Len(), "step %d", i)
		}
		require.Equal(t, []runq.Value{runq.F32(st.v)}, s.Result(nil))
	}
}

// untagged is vs with each handle as its index and generation (a
// handle's tag differs between two worlds of one process).
func untagged(vs []runq.Value) []any {
	var out []any
	for _, v := range vs {
		if v.Kind() == schema.Ref {
			out = append(out, [2]uint32{v.Handle().Index(), v.Handle().Generation()})
			continue
		}
		out = append(out, v)
	}
	return out
}

// TestSubscriptionDeltasSameAtAnyWorkerCount checks that the same random
// world (serial systems draw from one generator in phase order; the
// parallel kernel writes rows of its own chunk) hands out the same
// deltas, list by list and value by value, at 1 and 2 workers.
func TestSubscriptionDeltasSameAtAnyWorkerCount(t *testing.T) {
	record := func(workers int) [][]any {
		g := newSubRig(t, 11, workers, subCases)
		var out [][]any
		for f := range 120 {
			g.host(t)
			require.NoError(t, g.w.Frame([]float64{0, 1.0 / 60, 3.0 / 60}[f%3]))
			var frame []any
			for _, s := range g.subs {
				d := s.Read()
				for _, l := range []*runq.Rows{&d.Entered, &d.Left, &d.Changed} {
					frame = append(frame, untagged(l.Values), slices.Clone(l.Row), slices.Clone(l.Rank), untagged(l.Key))
				}
				frame = append(frame, d.Before, d.After)
			}
			out = append(out, frame)
		}
		return out
	}
	one, two := record(1), record(2)
	for f := range one {
		require.Equal(t, one[f], two[f], "frame %d", f)
	}
}

package querykit_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/chunkorder"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/querykit"
)

// The semi-/anti-joins (exists, not exists) and set operations (union,
// intersect, except) of querykit.tw against nested loops over a
// snapshot: docs/schema.md, Queries and Query results.

// semiParams are one frame's arguments of the semi queries.
type semiParams struct {
	min, amount int32
	price       float32
	h           tickwork.Handle
}

// semiBuffers are the semi queries' result buffers, reused across calls.
type semiBuffers struct {
	buyers     []kit.BuyersRow
	unbought   []kit.UnboughtRow
	befriended []kit.BefriendedRow
	byHandle   []kit.BuyerByHandleRow
	or         []kit.OnOrTaggedRow
	and        []kit.OnAndTaggedRow
	not        []kit.OnNotTaggedRow
	keys       []kit.KeysOrAmountsRow
	common     []kit.CommonKeysRow
	lonely     []kit.LonelyRow
}

var semiNames = []string{"Buyers", "Unbought", "Befriended", "BuyerByHandle", "OnOrTagged", "OnAndTagged", "OnNotTagged",
	"KeysOrAmounts", "CommonKeys", "Lonely"}

func (b *semiBuffers) run(q *kit.Queries, p semiParams) {
	b.buyers = q.Buyers.Run(b.buyers, p.amount)
	b.unbought = q.Unbought.Run(b.unbought, p.price)
	b.befriended = q.Befriended.Run(b.befriended, p.min)
	b.byHandle = q.BuyerByHandle.Run(b.byHandle, p.h)
	b.or = q.OnOrTagged.Run(b.or, p.min)
	b.and = q.OnAndTagged.Run(b.and, p.min)
	b.not = q.OnNotTagged.Run(b.not, p.min)
	b.keys = q.KeysOrAmounts.Run(b.keys, p.min)
	b.common = q.CommonKeys.Run(b.common)
	b.lonely = q.Lonely.Run(b.lonely, p.amount)
}

// ordered reports whether some live order o has buyer h and passes ok:
// the subquery's meaning, a nested loop (h a live person's handle, so a
// dangling ref, stale or zero, equals no one).
func (s *snap) ordered(h tickwork.Handle, ok func(*order) bool) bool {
	for i := range s.orders {
		if o := &s.orders[i]; o.buyer == h && ok(o) {
			return true
		}
	}
	return false
}

func (s *snap) buyers(min int32) []kit.BuyersRow {
	var out []kit.BuyersRow
	for _, p := range s.persons {
		if s.ordered(p.h, func(o *order) bool { return o.amount >= min }) && p.on {
			out = append(out, kit.BuyersRow{Person: p.h, Age: p.age})
		}
	}
	return out
}

func (s *snap) unbought(price float32) []kit.UnboughtRow {
	var out []kit.UnboughtRow
	for _, p := range s.persons {
		if !s.ordered(p.h, func(o *order) bool { return o.price > price }) {
			out = append(out, kit.UnboughtRow{Person: p.h, W: p.w})
		}
	}
	return out
}

func (s *snap) befriended(min int32) []kit.BefriendedRow {
	var out []kit.BefriendedRow
	for _, p := range s.persons {
		friend := false
		for _, f := range s.persons {
			friend = friend || f.friend == p.h && f.age >= min && f.tag
		}
		if friend || !s.ordered(p.h, func(*order) bool { return true }) {
			out = append(out, kit.BefriendedRow{Person: p.h, Score: p.score})
		}
	}
	return out
}

func (s *snap) buyerByHandle(h tickwork.Handle) []kit.BuyerByHandleRow {
	if p, ok := s.find(h); ok && s.ordered(p.h, func(*order) bool { return true }) {
		return []kit.BuyerByHandleRow{{Age: p.age}}
	}
	return nil
}

// onTagged is OnOrTagged, OnAndTagged and OnNotTagged: a person is in the
// left side when On, in the right when tagged and at least min old.
func (s *snap) onTagged(min int32, op string) []kit.OnOrTaggedRow {
	var out []kit.OnOrTaggedRow
	for _, p := range s.persons {
		a, b := p.on, p.tag && p.age >= min
		if op == "union" && (a || b) || op == "intersect" && a && b || op == "except" && a && !b {
			out = append(out, kit.OnOrTaggedRow{Person: p.h, Age: p.age})
		}
	}
	return out
}

// fkey is a float's identity in a set: -0 and +0 one value, every NaN one
// value (docs/schema.md, Query results).
func fkey(f float32) uint32 {
	switch {
	case f != f:
		return math.MaxUint32
	case f == 0:
		return 0
	}
	return math.Float32bits(f)
}

func (s *snap) keysOrAmounts(min int32) []kit.KeysOrAmountsRow {
	type ent struct {
		ord int
		row kit.KeysOrAmountsRow
	}
	var left, right []ent
	for _, p := range s.persons {
		if p.age >= min {
			left = append(left, ent{int(p.h.Index()), kit.KeysOrAmountsRow{K: p.age % 8, W: p.w}})
		}
	}
	for _, o := range s.orders {
		if o.amount > 3 {
			right = append(right, ent{int(o.h.Index()), kit.KeysOrAmountsRow{K: o.amount, W: o.price}})
		}
	}
	// every row of both, by index, the left first on a tie; the first of
	// each value stays
	var all []ent
	for i, j := 0, 0; i < len(left) || j < len(right); {
		if j == len(right) || i < len(left) && left[i].ord <= right[j].ord {
			all = append(all, left[i])
			i++
		} else {
			all = append(all, right[j])
			j++
		}
	}
	var out []kit.KeysOrAmountsRow
	for i, e := range all {
		dup := false
		for _, f := range all[:i] {
			dup = dup || f.row.K == e.row.K && fkey(f.row.W) == fkey(e.row.W)
		}
		if !dup {
			out = append(out, e.row)
		}
	}
	return out
}

func (s *snap) commonKeys() []kit.CommonKeysRow {
	var out []kit.CommonKeysRow
	for _, p := range s.persons {
		k := p.age % 8
		in := false
		for _, o := range s.orders {
			if _, live := s.find(o.buyer); live && o.amount == k {
				in = true
			}
		}
		dup := false
		for _, r := range out {
			dup = dup || r.K == k
		}
		if in && !dup {
			out = append(out, kit.CommonKeysRow{K: k})
		}
	}
	return out
}

func (s *snap) lonely(min int32) []kit.LonelyRow {
	var out []kit.LonelyRow
	for _, p := range s.persons {
		if p.on && !s.ordered(p.h, func(o *order) bool { return o.amount > min }) {
			out = append(out, kit.LonelyRow{Person: p.h})
		}
	}
	return out
}

func semiResults(wd *world, b *semiBuffers, p semiParams) (gen, model []string) {
	s := take(wd.t)
	b.run(wd.q, p)
	gen = []string{show(b.buyers), show(b.unbought), show(b.befriended), show(b.byHandle), show(b.or), show(b.and), show(b.not),
		show(b.keys), show(b.common), show(b.lonely)}
	model = []string{show(s.buyers(p.amount)), show(s.unbought(p.price)), show(s.befriended(p.min)), show(s.buyerByHandle(p.h)),
		show(s.onTagged(p.min, "union")), show(s.onTagged(p.min, "intersect")), show(s.onTagged(p.min, "except")),
		show(s.keysOrAmounts(p.min)), show(s.commonKeys()), show(s.lonely(p.amount))}
	return gen, model
}

// semiParams draws a frame's arguments; the handle is half the time an
// order's buyer (live, stale or zero), else any person's.
func (wd *world) semiParams() semiParams {
	p := semiParams{min: int32(wd.rng.IntN(40)), amount: int32(wd.rng.IntN(11)), price: wd.float(), h: wd.anyPerson()}
	if o, ok := wd.t.Order.Table.HandleAt(wd.rng.IntN(wd.t.Order.Table.Cap())); ok && wd.rng.IntN(2) == 0 {
		p.h, _ = wd.t.Order.Buyer.Get(o)
	}
	return p
}

// playSemi runs frames of a world, comparing every semi query with its
// model after each (the same query values run every frame, so marks and
// sets left from one run would show in the next), notes in nonEmpty the
// queries that returned rows, and returns the generated results.
func playSemi(t *testing.T, workers int, seed uint64, frames int, nonEmpty []bool) []string {
	wd := newWorld(t, workers, seed)
	var b semiBuffers
	var all []string
	for f := range frames {
		wd.mutate(t)
		require.NoError(t, wd.w.Frame(dt))
		p := wd.semiParams()
		gen, model := semiResults(wd, &b, p)
		for i := range gen {
			require.Equal(t, model[i], gen[i], "frame %d, query %s (%+v)", f, semiNames[i], p)
			all = append(all, fmt.Sprintf("frame %d %s: %s", f, semiNames[i], gen[i]))
			nonEmpty[i] = nonEmpty[i] || gen[i] != "[]"
		}
	}
	return all
}

// TestSemiQueriesMatchModel: the exists / not exists and set-operation
// queries return their nested-loop model's rows, in order, bit for bit,
// over random worlds (deleted rows, stale and zero refs, NaN and ±0 in
// the set keys), at 1, 2 and 4 workers and the reordered chunk dealings,
// the same results for each.
func TestSemiQueriesMatchModel(t *testing.T) {
	nonEmpty := make([]bool, len(semiNames))
	for _, seed := range []uint64{1, 2, 3} {
		var want []string
		for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
			for _, workers := range []int{1, 2, 4} {
				t.Run(fmt.Sprintf("seed%d/%s/workers%d", seed, o, workers), func(t *testing.T) {
					restore := chunkorder.Set(o)
					defer restore()
					got := playSemi(t, workers, seed, 12, nonEmpty)
					if want == nil {
						want = got
					}
					require.Equal(t, want, got, "results differ from the first run's")
				})
			}
		}
	}
	for i, ok := range nonEmpty {
		require.True(t, ok, "query %s returned no rows in any frame: the test would not see it wrong", semiNames[i])
	}
}

// TestSemiQueriesAllocateNothing: once the buffers and scratch have
// grown, no semi query allocates.
func TestSemiQueriesAllocateNothing(t *testing.T) {
	wd := newWorld(t, 2, 9)
	for range 5 {
		wd.mutate(t)
		require.NoError(t, wd.w.Frame(dt))
	}
	var b semiBuffers
	for _, p := range []semiParams{{min: 0, amount: 0, price: -10, h: wd.anyPerson()}, {min: 20, amount: 5, price: 3}} {
		b.run(wd.q, p)
		require.Zero(t, testing.AllocsPerRun(20, func() { b.run(wd.q, p) }), "params %+v", p)
	}
}

// TestSemiPlans: the plans say which way each query runs.
func TestSemiPlans(t *testing.T) {
	wd := newWorld(t, 1, 1)
	q := wd.q
	require.Equal(t, "scan Person (ascending index); semi-join: mark Person rows from a scan of Order o by o.Buyer (generation-checked) in a bitmap over Person's capacity; filter", q.Buyers.Plan())
	require.Contains(t, q.Unbought.Plan(), "anti-join: mark Person rows")
	require.Equal(t, "probe Person by handle param h; semi-join: mark Person rows from a scan of Order o by o.Buyer (generation-checked) in a bitmap over Person's capacity; filter", q.BuyerByHandle.Plan())
	require.Equal(t, "scan Person (ascending index); filter; except in one scan: left filter and not right filter (both sides are Person's rows)", q.OnNotTagged.Plan())
	require.Equal(t, "union of two sides run into scratch, merged by their from rows' index (the left first on a tie), duplicate rows removed by a set of the rows; left: scan Person (ascending index); filter; right: scan Order (ascending index); filter", q.KeysOrAmounts.Plan())
}

// TestDeclaredSemiQueries: declared in a hand-written system, an exists
// query and a merged set operation return what the host's do.
func TestDeclaredSemiQueries(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	require.NoError(t, err)
	b.Add(kit.NewSystems(tabs).All()...)
	var got []string
	b.System("Observe", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		bq, lq := kit.DeclareBuyers(d, tabs), kit.DeclareLonely(d, tabs)
		return func(*tickwork.Context) {
			got = append(got, show(bq.Run(nil, 3))+show(lq.Run(nil, 3)))
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	wd := &world{w: w, t: tabs, q: kit.NewQueries(tabs), rng: newWorld(t, 1, 5).rng, quiet: true}
	for f := range 6 {
		wd.mutate(t)
		require.NoError(t, w.Frame(dt))
		require.Equal(t, show(wd.q.Buyers.Run(nil, 3))+show(wd.q.Lonely.Run(nil, 3)), got[f], "frame %d", f)
	}
	require.NotEqual(t, "[][]", got[len(got)-1])
}

// exampleWorld is a small querykit world: persons aged 10, 20, 30, 40
// (the even ones On, the last two tagged), orders of amounts 1, 5 and 7
// by the first, second and (deleted later) fourth person.
func exampleWorld() (*tickwork.World, *kit.Tables, []tickwork.Handle) {
	b := tickwork.NewBuilder()
	t, err := kit.Declare(b, kit.DefaultSizes())
	if err != nil {
		panic(err)
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	var ps []tickwork.Handle
	for i := range 4 {
		h, _ := t.Person.Table.Insert()
		t.Person.Age.Set(h, int32(10*(i+1)))
		t.Person.On.Set(h, i%2 == 0)
		t.Person.W.Set(h, float32(i))
		if i >= 2 {
			_ = t.Tag.Table.Attach(h)
		}
		ps = append(ps, h)
	}
	for i, amount := range []int32{1, 5, 7} {
		o, _ := t.Order.Table.Insert()
		t.Order.Buyer.Set(o, ps[[]int{0, 1, 3}[i]])
		t.Order.Amount.Set(o, amount)
		t.Order.Price.Set(o, float32(amount))
	}
	t.Folk.Delete(ps[3]) // its order's buyer dangles
	return w, t, ps
}

// A semi-join (exists) and an anti-join (not exists): one pass over the
// orders marks the persons they buy for (a dangling buyer marks no one),
// then the scan of the persons tests the mark.
func ExampleBuyers() {
	w, t, _ := exampleWorld()
	defer w.Close()
	q := kit.NewQueries(t)
	for _, r := range q.Buyers.Run(nil, 1) { // On, and some order of at least 1
		fmt.Println("buyer", r.Person.Index(), r.Age)
	}
	for _, r := range q.Unbought.Run(nil, 2) { // no order above 2
		fmt.Println("unbought", r.Person.Index(), r.W)
	}
	fmt.Println(q.Unbought.Plan())
	// Output:
	// buyer 0 10
	// unbought 0 0
	// unbought 2 2
	// scan Person (ascending index); anti-join: mark Person rows from a scan of Order o by o.Buyer (generation-checked) in a bitmap over Person's capacity; filter
}

// Set operations: over one table's rows they are one scan; over values
// of two tables both sides run and merge by their rows' index, without
// duplicates.
func ExampleOnNotTagged() {
	w, t, _ := exampleWorld()
	defer w.Close()
	q := kit.NewQueries(t)
	var or []int
	for _, r := range q.OnOrTagged.Run(nil, 0) {
		or = append(or, int(r.Person.Index()))
	}
	var and []int
	for _, r := range q.OnAndTagged.Run(nil, 0) {
		and = append(and, int(r.Person.Index()))
	}
	var not []int
	for _, r := range q.OnNotTagged.Run(nil, 0) {
		not = append(not, int(r.Person.Index()))
	}
	fmt.Println("on or tagged:", or, "on and tagged:", and, "on, not tagged:", not)
	fmt.Println(q.OnNotTagged.Plan())
	fmt.Printf("%+v\n", q.KeysOrAmounts.Run(nil, 20)) // (age % 8, W) of persons of 20 and up, (amount, price) of orders above 3
	// Output:
	// on or tagged: [0 2] on and tagged: [2] on, not tagged: [0]
	// scan Person (ascending index); filter; except in one scan: left filter and not right filter (both sides are Person's rows); lane of the last run: serial
	// [{K:4 W:1} {K:5 W:5} {K:6 W:2} {K:7 W:7}]
}

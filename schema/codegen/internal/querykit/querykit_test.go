package querykit_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/chunkorder"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/querykit"
)

const dt = 1.0 / 64

// floats are the values W and Price take: the edges of the total order
// (NaN, ±0, ±Inf) and small repeated values, so that groups, ties and
// distinct rows occur.
var floats = []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)),
	1.5, -2, 3, 3, 7.25, -0.5, 100}

// world is a querykit world stepped by its two declared systems, changed at
// random by the host between frames.
type world struct {
	w   *tickwork.World
	t   *kit.Tables
	q   *kit.Queries
	rng *rand.Rand
	// quiet: the host emits no pings (only Shout does)
	quiet bool
}

func newWorld(t testing.TB, workers int, seed uint64) *world {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	require.NoError(t, err)
	b.Add(kit.NewSystems(tabs).All()...)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	return &world{w: w, t: tabs, q: kit.NewQueries(tabs), rng: rand.New(rand.NewPCG(seed, 7))}
}

func (wd *world) float() float32 {
	if wd.rng.IntN(3) == 0 {
		return float32(wd.rng.IntN(9)) - 4
	}
	return floats[wd.rng.IntN(len(floats))]
}

// anyPerson is a live person's handle, a deleted one's or zero.
func (wd *world) anyPerson() tickwork.Handle {
	if wd.rng.IntN(10) == 0 {
		return 0
	}
	row := wd.rng.IntN(wd.t.Person.Table.Cap())
	if h, ok := wd.t.Person.Table.HandleAt(row); ok {
		return h
	}
	return wd.t.Folk.MakeHandle(uint32(row), 1+uint32(wd.rng.IntN(3))) // stale or never made
}

// mutate makes random creates, deletes and values.
func (wd *world) mutate(t testing.TB) {
	tb := wd.t
	r := wd.rng
	for range 20 + r.IntN(40) {
		if tb.Person.Table.Len() >= tb.Person.Table.Cap()-10 {
			break
		}
		h, err := tb.Person.Table.Insert()
		require.NoError(t, err)
		tb.Person.Age.Set(h, int32(r.IntN(60)))
		tb.Person.Score.Set(h, int64(r.IntN(1000))-300)
		tb.Person.W.Set(h, wd.float())
		tb.Person.V.Set(h, float64(wd.float()))
		tb.Person.On.Set(h, r.IntN(3) > 0)
		if r.IntN(2) == 0 {
			require.NoError(t, tb.Place.Table.Attach(h))
			tb.Place.X.Set(h, wd.float())
			tb.Place.Y.Set(h, float32(r.IntN(100)))
		}
		if r.IntN(3) == 0 {
			require.NoError(t, tb.Tag.Table.Attach(h))
		}
	}
	for range r.IntN(30) {
		if h, ok := tb.Person.Table.HandleAt(r.IntN(tb.Person.Table.Cap())); ok {
			switch r.IntN(3) {
			case 0:
				tb.Folk.Delete(h)
			case 1:
				tb.Place.Table.Detach(h)
			default:
				tb.Tag.Table.Detach(h)
			}
		}
	}
	for range 20 { // friends, some stale
		if h, ok := tb.Person.Table.HandleAt(r.IntN(tb.Person.Table.Cap())); ok {
			tb.Person.Friend.Set(h, wd.anyPerson())
			tb.Person.W.Set(h, wd.float())
		}
	}
	for range 10 + r.IntN(30) {
		if tb.Order.Table.Len() >= tb.Order.Table.Cap()-5 {
			break
		}
		h, err := tb.Order.Table.Insert()
		require.NoError(t, err)
		tb.Order.Buyer.Set(h, wd.anyPerson())
		tb.Order.Amount.Set(h, int32(r.IntN(10)))
		tb.Order.Price.Set(h, wd.float())
	}
	for range r.IntN(15) {
		if h, ok := tb.Order.Table.HandleAt(r.IntN(tb.Order.Table.Cap())); ok {
			tb.Order.Table.Delete(h)
		}
	}
	for range r.IntN(20) {
		if wd.quiet {
			break
		}
		_ = tb.Ping.Emit(kit.Ping{Who: wd.anyPerson(), Power: int32(r.IntN(10)), Heat: wd.float()})
	}
}

// ---- the model: the queries' meaning, written by hand over a snapshot ----

type person struct {
	h          tickwork.Handle
	age        int32
	score      int64
	w          float32
	v          float64
	on         bool
	friend     tickwork.Handle
	place, tag bool
	x, y       float32
}

type order struct {
	h      tickwork.Handle
	buyer  tickwork.Handle
	amount int32
	price  float32
}

type snap struct {
	persons []person // ascending index
	byIndex map[uint32]*person
	orders  []order
	pings   []kit.Ping
}

func take(tb *kit.Tables) *snap {
	s := &snap{byIndex: map[uint32]*person{}}
	for row := range tb.Person.Table.Cap() {
		h, ok := tb.Person.Table.HandleAt(row)
		if !ok {
			continue
		}
		p := person{h: h}
		p.age, _ = tb.Person.Age.Get(h)
		p.score, _ = tb.Person.Score.Get(h)
		p.w, _ = tb.Person.W.Get(h)
		p.v, _ = tb.Person.V.Get(h)
		p.on, _ = tb.Person.On.Get(h)
		p.friend, _ = tb.Person.Friend.Get(h)
		p.x, p.place = tb.Place.X.Get(h)
		p.y, _ = tb.Place.Y.Get(h)
		_, p.tag = tb.Tag.Mark.Get(h)
		s.persons = append(s.persons, p)
	}
	for i := range s.persons {
		s.byIndex[s.persons[i].h.Index()] = &s.persons[i]
	}
	for row := range tb.Order.Table.Cap() {
		h, ok := tb.Order.Table.HandleAt(row)
		if !ok {
			continue
		}
		o := order{h: h}
		o.buyer, _ = tb.Order.Buyer.Get(h)
		o.amount, _ = tb.Order.Amount.Get(h)
		o.price, _ = tb.Order.Price.Get(h)
		s.orders = append(s.orders, o)
	}
	s.pings = append(s.pings, tb.Ping.Read()...)
	return s
}

// find is the live person of handle h.
func (s *snap) find(h tickwork.Handle) (*person, bool) {
	p, ok := s.byIndex[h.Index()]
	if !ok || p.h != h || h == 0 {
		return nil, false
	}
	return p, true
}

// cmpF is the total order of docs/schema.md's Query results, written with
// comparisons: -Inf < ... < -0 == +0 < ... < +Inf < NaN.
func cmpF[F float32 | float64](a, b F) int {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpH(a, b tickwork.Handle) int {
	return cmp.Or(cmp.Compare(a.Index(), b.Index()), cmp.Compare(a.Generation(), b.Generation()))
}

func cmpB(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

func zeroed(f float32) float32 {
	if f == 0 {
		return 0
	}
	return f
}

func limitOf(n int32, capacity int) int { return max(0, min(int(n), capacity)) }

func (s *snap) adults(min int32) []kit.AdultsRow {
	var out []kit.AdultsRow
	for _, p := range s.persons {
		if p.age >= min && p.on {
			out = append(out, kit.AdultsRow{Person: p.h, Age: p.age, W: p.w})
		}
	}
	return out
}

func (s *snap) firstAdults(min, n int32) []kit.FirstAdultsRow {
	var out []kit.FirstAdultsRow
	for _, p := range s.persons {
		if len(out) == limitOf(n, len(s.persons)+1) {
			break
		}
		if p.age >= min {
			out = append(out, kit.FirstAdultsRow{Person: p.h, Age: p.age})
		}
	}
	return out
}

func (s *snap) personByHandle(h tickwork.Handle) []kit.PersonByHandleRow {
	if p, ok := s.find(h); ok && p.age >= 0 {
		return []kit.PersonByHandleRow{{Age: p.age, Score: p.score, W: p.w}}
	}
	return nil
}

func (s *snap) stats() kit.StatsRow {
	var r kit.StatsRow
	var sumV float64
	first := true
	for _, p := range s.persons {
		if !p.on {
			continue
		}
		r.Count++
		r.SumAge += int64(p.age)
		r.SumW += float64(p.w)
		sumV += p.v
		if first {
			r.MinW, r.MaxW, r.MinAge, r.MaxScore = p.w, p.w, p.age, p.score
			first = false
			continue
		}
		if cmpF(p.w, r.MinW) < 0 {
			r.MinW = p.w
		}
		if cmpF(p.w, r.MaxW) > 0 {
			r.MaxW = p.w
		}
		r.MinAge = min(r.MinAge, p.age)
		r.MaxScore = max(r.MaxScore, p.score)
	}
	if r.Count > 0 {
		r.AvgV = sumV / float64(r.Count)
	}
	return r
}

func (s *snap) byAge() []kit.ByAgeRow {
	m := map[int32]*kit.ByAgeRow{}
	for _, p := range s.persons {
		k := p.age % 8
		if m[k] == nil {
			m[k] = &kit.ByAgeRow{Bucket: k}
		}
		m[k].Count++
		m[k].SumW += float64(p.w)
	}
	var out []kit.ByAgeRow
	for _, r := range m {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b kit.ByAgeRow) int { return cmp.Compare(a.Bucket, b.Bucket) })
	return out
}

func (s *snap) byW() []kit.ByWRow {
	var out []kit.ByWRow
	for _, p := range s.persons {
		i := slices.IndexFunc(out, func(r kit.ByWRow) bool { return cmpF(r.W, p.w) == 0 })
		if i < 0 {
			out = append(out, kit.ByWRow{W: zeroed(p.w), MaxAge: p.age})
			i = len(out) - 1
		}
		out[i].N++
		out[i].MaxAge = max(out[i].MaxAge, p.age)
	}
	slices.SortFunc(out, func(a, b kit.ByWRow) int { return cmpF(a.W, b.W) })
	return out
}

func (s *snap) byFriend() []kit.ByFriendRow {
	m := map[tickwork.Handle]*kit.ByFriendRow{}
	for _, p := range s.persons {
		if m[p.friend] == nil {
			m[p.friend] = &kit.ByFriendRow{Friend: p.friend}
		}
		m[p.friend].Count++
		m[p.friend].SumScore += p.score
	}
	var out []kit.ByFriendRow
	for _, r := range m {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b kit.ByFriendRow) int { return cmpH(a.Friend, b.Friend) })
	return out
}

func (s *snap) byAgeOn(n int32) []kit.ByAgeOnRow {
	type key struct {
		b  int32
		on bool
	}
	m := map[key]*kit.ByAgeOnRow{}
	sums := map[key]float64{}
	for _, p := range s.persons {
		k := key{p.age % 4, p.on}
		if m[k] == nil {
			m[k] = &kit.ByAgeOnRow{Bucket: k.b, On: k.on}
		}
		m[k].Count++
		sums[k] += float64(p.w)
	}
	var out []kit.ByAgeOnRow
	for k, r := range m {
		r.AvgW = sums[k] / float64(r.Count)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b kit.ByAgeOnRow) int {
		return cmp.Or(-cmp.Compare(a.Count, b.Count), cmp.Compare(a.Bucket, b.Bucket), cmpB(a.On, b.On))
	})
	return out[:min(len(out), limitOf(n, 600))]
}

func (s *snap) oldest(n int32) []kit.OldestRow {
	var out []kit.OldestRow
	for _, p := range s.persons {
		out = append(out, kit.OldestRow{Person: p.h, Age: p.age, W: p.w})
	}
	slices.SortStableFunc(out, func(a, b kit.OldestRow) int {
		return cmp.Or(-cmp.Compare(a.Age%10, b.Age%10), cmpF(a.W, b.W))
	})
	return out[:min(len(out), limitOf(n, 600))]
}

func (s *snap) sortedW() []kit.SortedWRow {
	var out []kit.SortedWRow
	for _, p := range s.persons {
		if p.on {
			out = append(out, kit.SortedWRow{Person: p.h, W: p.w})
		}
	}
	slices.SortStableFunc(out, func(a, b kit.SortedWRow) int { return cmpF(a.W, b.W) })
	return out
}

func (s *snap) ages() []kit.AgesRow {
	var out []kit.AgesRow
	for _, p := range s.persons {
		if !slices.Contains(out, kit.AgesRow{Age: p.age % 16}) {
			out = append(out, kit.AgesRow{Age: p.age % 16})
		}
	}
	return out
}

func (s *snap) ageW() []kit.AgeWRow {
	var out []kit.AgeWRow
	for _, p := range s.persons {
		if !slices.ContainsFunc(out, func(r kit.AgeWRow) bool { return r.Age == p.age%4 && cmpF(r.W, p.w) == 0 }) {
			out = append(out, kit.AgeWRow{Age: p.age % 4, W: p.w})
		}
	}
	slices.SortStableFunc(out, func(a, b kit.AgeWRow) int { return -cmp.Compare(a.Age, b.Age) })
	return out
}

func (s *snap) orderBuyers() []kit.OrderBuyersRow {
	var out []kit.OrderBuyersRow
	for _, o := range s.orders {
		if p, ok := s.find(o.buyer); ok && o.amount > 2 {
			out = append(out, kit.OrderBuyersRow{Order: o.h, Amount: o.amount, Age: p.age})
		}
	}
	return out
}

func (s *snap) ordersLost() []kit.OrdersLostRow {
	var out []kit.OrdersLostRow
	for _, o := range s.orders {
		p, ok := s.find(o.buyer)
		switch {
		case !ok:
			out = append(out, kit.OrdersLostRow{Order: o.h, Amount: o.amount})
		case p.age > 40:
			out = append(out, kit.OrdersLostRow{Order: o.h, Amount: o.amount, Age: p.age, Person: p.h})
		}
	}
	return out
}

func (s *snap) placed() []kit.PlacedRow {
	var out []kit.PlacedRow
	for _, p := range s.persons {
		if p.place && !p.tag {
			out = append(out, kit.PlacedRow{Person: p.h, X: p.x, Y: p.y})
		}
	}
	return out
}

func (s *snap) tagged() []kit.TaggedRow {
	var out []kit.TaggedRow
	for _, p := range s.persons {
		if p.place && p.tag {
			out = append(out, kit.TaggedRow{Person: p.h, X: p.x, Slot: int32(p.h.Index())})
		}
	}
	return out
}

func (s *snap) pingsOf(min int32) []kit.PingsRow {
	var out []kit.PingsRow
	for _, e := range s.pings {
		if e.Power >= min {
			out = append(out, kit.PingsRow{Who: e.Who, Power: e.Power})
		}
	}
	return out
}

func (s *snap) hotPings(n int32) []kit.HotPingsRow {
	var out []kit.HotPingsRow
	for _, e := range s.pings {
		out = append(out, kit.HotPingsRow{Who: e.Who, Heat: e.Heat})
	}
	slices.SortStableFunc(out, func(a, b kit.HotPingsRow) int { return -cmpF(a.Heat, b.Heat) })
	return out[:min(len(out), limitOf(n, 2000))]
}

func (s *snap) pingTotals() []kit.PingTotalsRow {
	var out []kit.PingTotalsRow
	for _, e := range s.pings {
		i := slices.IndexFunc(out, func(r kit.PingTotalsRow) bool { return r.Who == e.Who })
		if i < 0 {
			out = append(out, kit.PingTotalsRow{Who: e.Who})
			i = len(out) - 1
		}
		out[i].Heat += float64(e.Heat)
		out[i].Count++
	}
	slices.SortFunc(out, func(a, b kit.PingTotalsRow) int { return cmpH(a.Who, b.Who) })
	return out
}

// show prints a result: every float's sign and NaN visible, handles as
// index and generation (Handle.String without the domain's tag, which
// differs between worlds), nil and empty alike.
func show[T any](rows []T) string {
	if len(rows) == 0 {
		return "[]"
	}
	return tag.ReplaceAllString(fmt.Sprintf("%+v", rows), "")
}

var tag = regexp.MustCompile(`@[0-9]+`)

// params are one frame's query arguments.
type params struct {
	min, n int32
	h      tickwork.Handle
}

// buffers are the result buffers of every query, reused across calls.
type buffers struct {
	adults   []kit.AdultsRow
	first    []kit.FirstAdultsRow
	byHandle []kit.PersonByHandleRow
	byAge    []kit.ByAgeRow
	byW      []kit.ByWRow
	byFriend []kit.ByFriendRow
	byAgeOn  []kit.ByAgeOnRow
	oldest   []kit.OldestRow
	sorted   []kit.SortedWRow
	ages     []kit.AgesRow
	ageW     []kit.AgeWRow
	buyers   []kit.OrderBuyersRow
	lost     []kit.OrdersLostRow
	placed   []kit.PlacedRow
	tagged   []kit.TaggedRow
	pings    []kit.PingsRow
	hot      []kit.HotPingsRow
	totals   []kit.PingTotalsRow
	stats    kit.StatsRow
	extremes kit.ExtremesRow
}

// run runs every generated query into b.
func (b *buffers) run(q *kit.Queries, p params) {
	b.adults = q.Adults.Run(b.adults, p.min)
	b.first = q.FirstAdults.Run(b.first, p.min, p.n)
	b.byHandle = q.PersonByHandle.Run(b.byHandle, p.h)
	b.stats = q.Stats.Run()
	b.byAge = q.ByAge.Run(b.byAge)
	b.byW = q.ByW.Run(b.byW)
	b.byFriend = q.ByFriend.Run(b.byFriend)
	b.byAgeOn = q.ByAgeOn.Run(b.byAgeOn, p.n)
	b.oldest = q.Oldest.Run(b.oldest, p.n)
	b.sorted = q.SortedW.Run(b.sorted)
	b.ages = q.Ages.Run(b.ages)
	b.ageW = q.AgeW.Run(b.ageW)
	b.buyers = q.OrderBuyers.Run(b.buyers)
	b.lost = q.OrdersLost.Run(b.lost)
	b.placed = q.Placed.Run(b.placed)
	b.tagged = q.Tagged.Run(b.tagged)
	b.pings = q.Pings.Run(b.pings, p.min)
	b.hot = q.HotPings.Run(b.hot, p.n)
	b.totals = q.PingTotals.Run(b.totals)
}

// names are the queries in the order of results.
var names = []string{"Adults", "FirstAdults", "PersonByHandle", "Stats", "ByAge", "ByW", "ByFriend", "ByAgeOn", "Oldest",
	"SortedW", "Ages", "AgeW", "OrderBuyers", "OrdersLost", "Placed", "Tagged", "Pings", "HotPings", "PingTotals"}

// results runs every generated query and its model, and returns both
// printed, query by query.
func results(wd *world, b *buffers, p params) (gen, model []string) {
	s := take(wd.t)
	b.run(wd.q, p)
	gen = []string{show(b.adults), show(b.first), show(b.byHandle), show([]kit.StatsRow{b.stats}), show(b.byAge), show(b.byW),
		show(b.byFriend), show(b.byAgeOn), show(b.oldest), show(b.sorted), show(b.ages), show(b.ageW), show(b.buyers),
		show(b.lost), show(b.placed), show(b.tagged), show(b.pings), show(b.hot), show(b.totals)}
	model = []string{show(s.adults(p.min)), show(s.firstAdults(p.min, p.n)), show(s.personByHandle(p.h)), show([]kit.StatsRow{s.stats()}),
		show(s.byAge()), show(s.byW()), show(s.byFriend()), show(s.byAgeOn(p.n)), show(s.oldest(p.n)), show(s.sortedW()),
		show(s.ages()), show(s.ageW()), show(s.orderBuyers()), show(s.ordersLost()), show(s.placed()), show(s.tagged()),
		show(s.pingsOf(p.min)), show(s.hotPings(p.n)), show(s.pingTotals())}
	return gen, model
}

// frameParams draws a frame's arguments: limits including 0, negative
// and past the capacity; a live, stale or zero handle.
func (wd *world) frameParams() params {
	ns := []int32{-1, 0, 1, 3, 10, 1000}
	return params{min: int32(wd.rng.IntN(40)), n: ns[wd.rng.IntN(len(ns))], h: wd.anyPerson()}
}

// play runs frames of a world of seed with workers, comparing every query
// with its model after each, and returns the generated results of every
// frame, query by query.
func play(t *testing.T, workers int, seed uint64, frames int) []string {
	wd := newWorld(t, workers, seed)
	var b buffers
	var all []string
	for f := range frames {
		wd.mutate(t)
		require.NoError(t, wd.w.Frame(dt))
		p := wd.frameParams()
		gen, model := results(wd, &b, p)
		// Get: Run's one row without a buffer
		r, ok := wd.q.PersonByHandle.Get(p.h)
		require.Equal(t, len(b.byHandle) == 1, ok, "frame %d: PersonByHandle.Get found", f)
		if ok {
			require.Equal(t, show(b.byHandle), show([]kit.PersonByHandleRow{r}), "frame %d: PersonByHandle.Get", f)
		}
		for i := range gen {
			require.Equal(t, model[i], gen[i], "frame %d, query %s (%+v)", f, names[i], p)
			all = append(all, fmt.Sprintf("frame %d %s: %s", f, names[i], gen[i]))
		}
	}
	return all
}

// TestQueriesMatchModel: every generated query returns its model's rows,
// in its order, bit for bit, over random worlds (creates, deletes, tags,
// stale refs, NaN, ±0, ±Inf), after every frame of worlds stepped at 1, 2
// and 4 workers and with the chunks dealt out reversed or shuffled; and
// the results are identical for every worker count and chunk order.
func TestQueriesMatchModel(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		var want []string
		for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
			for _, workers := range []int{1, 2, 4} {
				t.Run(fmt.Sprintf("seed%d/%s/workers%d", seed, o, workers), func(t *testing.T) {
					restore := chunkorder.Set(o)
					defer restore()
					got := play(t, workers, seed, 12)
					if want == nil {
						want = got
					}
					for i := range want {
						require.Equal(t, want[i], got[i], "results differ from the first run's")
					}
				})
			}
		}
	}
}

// TestQueriesAllocateNothing: once the buffers have grown, no query
// allocates.
func TestQueriesAllocateNothing(t *testing.T) {
	wd := newWorld(t, 2, 9)
	for range 5 {
		wd.mutate(t)
		require.NoError(t, wd.w.Frame(dt))
	}
	var b buffers
	for _, p := range []params{{min: 0, n: 1000}, {min: 10, n: 3}} {
		b.run(wd.q, p)
		require.Zero(t, testing.AllocsPerRun(20, func() { b.run(wd.q, p) }), "params %+v", p)
	}
}

// TestDeclaredQueries: a hand-written system that declares two queries
// (DeclareStats: column reads; DeclarePingTotals: a consumer of Ping)
// gets, in its run in LateUpdate, what the host's queries return between
// frames: the same rows (Person changes only in FixedUpdate) and, for the
// event table, the events the host read after the previous frame (a
// NextFrame consumer outside FixedUpdate reads the last frame's events, and
// the host's emits between the frames, which this world makes none of:
// docs/architecture.md, "Delivery rule").
func TestDeclaredQueries(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2), tickwork.WithFixedStep(dt), tickwork.WithPacing(tickwork.OneTickPerFrame))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	require.NoError(t, err)
	b.Add(kit.NewSystems(tabs).All()...)
	var stats []kit.StatsRow
	var totals [][]kit.PingTotalsRow
	b.System("Observe", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		sq, pq := kit.DeclareStats(d, tabs), kit.DeclarePingTotals(d, tabs)
		return func(*tickwork.Context) {
			stats = append(stats, sq.Run())
			totals = append(totals, pq.Run(nil))
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	wd := &world{w: w, t: tabs, q: kit.NewQueries(tabs), rng: rand.New(rand.NewPCG(4, 7)), quiet: true}
	var hostTotals []string
	for f := range 8 {
		wd.mutate(t)
		require.NoError(t, w.Frame(dt))
		require.Equal(t, show([]kit.StatsRow{wd.q.Stats.Run()}), show(stats[f:f+1]), "frame %d", f)
		hostTotals = append(hostTotals, show(wd.q.PingTotals.Run(nil)))
		if f > 0 {
			require.Equal(t, hostTotals[f-1], show(totals[f]), "frame %d: the events of frame %d", f, f-1)
		}
	}
	require.NotEqual(t, "[]", hostTotals[len(hostTotals)-1], "pings were emitted")
}

// parallelRun runs the queries that have a parallel lane into b.
func (b *buffers) parallelRun(q *kit.Queries, p params) {
	b.extremes = q.Extremes.Run()
	b.adults = q.Adults.Run(b.adults, p.min)
	b.buyers = q.OrderBuyers.Run(b.buyers)
	b.lost = q.OrdersLost.Run(b.lost)
	b.placed = q.Placed.Run(b.placed)
	b.tagged = q.Tagged.Run(b.tagged)
}

func (b *buffers) parallelShow() []string {
	return []string{show(b.adults), show(b.buyers), show(b.lost), show(b.placed), show(b.tagged), show([]kit.ExtremesRow{b.extremes})}
}

// attach puts the queries with a parallel lane on w's workers from one
// used chunk on.
func attach(q *kit.Queries, w *tickwork.World) {
	q.Extremes.Parallel(w, 1)
	q.Adults.Parallel(w, 1)
	q.OrderBuyers.Parallel(w, 1)
	q.OrdersLost.Parallel(w, 1)
	q.Placed.Parallel(w, 1)
	q.Tagged.Parallel(w, 1)
}

// TestParallelLaneMatchesSerial: the queries with a parallel lane
// (filters, joins, has), attached to the world's 1, 2, 4 or 8 workers and
// under every chunk dealing, return the serial run's rows bit for bit and
// in order after every frame of random worlds, and say that they took the
// parallel lane.
func TestParallelLaneMatchesSerial(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
			for _, workers := range []int{1, 2, 4, 8} {
				t.Run(fmt.Sprintf("seed%d/%s/workers%d", seed, o, workers), func(t *testing.T) {
					restore := chunkorder.Set(o)
					defer restore()
					wd := newWorld(t, workers, seed)
					par := kit.NewQueries(wd.t)
					attach(par, wd.w)
					var serial, parallel buffers
					for f := range 12 {
						wd.mutate(t)
						require.NoError(t, wd.w.Frame(dt))
						p := wd.frameParams()
						serial.parallelRun(wd.q, p)
						parallel.parallelRun(par, p)
						want, got := serial.parallelShow(), parallel.parallelShow()
						for i := range want {
							require.Equal(t, want[i], got[i], "frame %d, query %d (%+v)", f, i, p)
						}
						m := take(wd.t).stats()
						require.Equal(t, show([]kit.ExtremesRow{{Count: m.Count, SumAge: m.SumAge, MinW: m.MinW, MaxW: m.MaxW, MinAge: m.MinAge, MaxScore: m.MaxScore}}),
							show([]kit.ExtremesRow{parallel.extremes}), "frame %d: Extremes against the model", f)
						require.Equal(t, "parallel", par.Adults.Lane())
						require.Equal(t, "parallel", par.Extremes.Lane())
						require.Equal(t, "serial", wd.q.Adults.Lane())
						require.Contains(t, par.Tagged.Plan(), "lane of the last run: parallel")
					}
				})
			}
		}
	}
}

// TestParallelLaneAllocatesNothing: once the partials have grown, a
// parallel Run allocates nothing, at 1 and 4 workers.
func TestParallelLaneAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 4} {
		wd := newWorld(t, workers, 9)
		attach(wd.q, wd.w)
		for range 5 {
			wd.mutate(t)
			require.NoError(t, wd.w.Frame(dt))
		}
		var b buffers
		p := params{min: 5}
		b.parallelRun(wd.q, p)
		require.Zero(t, testing.AllocsPerRun(20, func() { b.parallelRun(wd.q, p) }), "workers %d", workers)
		require.Equal(t, "parallel", wd.q.Adults.Lane())
		// closed, the world runs the chunks inline, and the lane says so
		require.NoError(t, wd.w.Close())
		b.parallelRun(wd.q, p)
		require.Equal(t, "serial", wd.q.Adults.Lane(), "after Close")
	}
}

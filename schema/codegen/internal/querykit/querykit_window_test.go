package querykit_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/chunkorder"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/querykit"
)

// The window functions, keyset pagination and unique key lookups of
// querykit.tw's last block against a hand-written model (docs/schema.md,
// Queries and Query results), on the worlds of querykit_test.go, with the
// Badge table filled here (codes drawn from a small range, so some repeat).

// badge is a snapshot of a Badge row.
type badge struct {
	h      tickwork.Handle
	code   int64
	holder tickwork.Handle
	weight float32
}

// mutateBadges inserts and deletes badges at random.
func (wd *world) mutateBadges(t testing.TB) {
	tb, r := wd.t, wd.rng
	for range 5 + r.IntN(20) {
		if tb.Badge.Table.Len() >= tb.Badge.Table.Cap()-5 {
			break
		}
		h, err := tb.Badge.Table.Insert()
		require.NoError(t, err)
		tb.Badge.Code.Set(h, int64(r.IntN(120)))
		tb.Badge.Holder.Set(h, wd.anyPerson())
		tb.Badge.Weight.Set(h, wd.float())
	}
	for range r.IntN(10) {
		if h, ok := tb.Badge.Table.HandleAt(r.IntN(tb.Badge.Table.Cap())); ok {
			tb.Badge.Table.Delete(h)
		}
	}
}

func takeBadges(tb *kit.Tables) []badge {
	var out []badge
	for row := range tb.Badge.Table.Cap() {
		h, ok := tb.Badge.Table.HandleAt(row)
		if !ok {
			continue
		}
		b := badge{h: h}
		b.code, _ = tb.Badge.Code.Get(h)
		b.holder, _ = tb.Badge.Holder.Get(h)
		b.weight, _ = tb.Badge.Weight.Get(h)
		out = append(out, b)
	}
	return out
}

// ix is the entity index of h, as index(v) gives it.
func ix(h tickwork.Handle) int32 { return int32(h.Index()) }

// walkWindow visits n rows in a window's order: by part (the partition),
// then less, then position (i < j: ascending index), telling each visit
// whether it starts a partition.
func walkWindow(n int, part, less func(i, j int) int, visit func(i int, first bool)) {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Or(part(i, j), less(i, j)) })
	for k, i := range order {
		visit(i, k == 0 || part(order[k-1], i) != 0)
	}
}

// ranks numbers rows 1, 2, ... in each partition, in the window's order.
func ranks(n int, part, less func(i, j int) int) []int64 {
	out := make([]int64, n)
	var r int64
	walkWindow(n, part, less, func(i int, first bool) {
		if first {
			r = 0
		}
		r++
		out[i] = r
	})
	return out
}

// running adds term(i) up in each partition, in the window's order.
func running(n int, part, less func(i, j int) int, term func(i int) float64) []float64 {
	out := make([]float64, n)
	var s float64
	walkWindow(n, part, less, func(i int, first bool) {
		if first {
			s = 0
		}
		s += term(i)
		out[i] = s
	})
	return out
}

func one(int, int) int { return 0 }

func (s *snap) ageRanks(min int32) []kit.AgeRanksRow {
	var ps []person
	for _, p := range s.persons {
		if p.age >= min {
			ps = append(ps, p)
		}
	}
	rank := ranks(len(ps), func(i, j int) int { return cmp.Compare(ps[i].age%5, ps[j].age%5) },
		func(i, j int) int { return -cmpF(ps[i].w, ps[j].w) })
	var out []kit.AgeRanksRow
	for i, p := range ps {
		out = append(out, kit.AgeRanksRow{Person: p.h, Band: p.age % 5, W: p.w, N: rank[i]})
	}
	return out
}

func (s *snap) runningV() []kit.RunningVRow {
	var ps []person
	for _, p := range s.persons {
		if p.on {
			ps = append(ps, p)
		}
	}
	run := running(len(ps), one, func(i, j int) int { return cmp.Compare(ps[i].age, ps[j].age) }, func(i int) float64 { return ps[i].v })
	friend := running(len(ps), func(i, j int) int { return cmpH(ps[i].friend, ps[j].friend) }, func(i, j int) int { return cmpF(ps[i].w, ps[j].w) },
		func(i int) float64 { return float64(ps[i].w) })
	var out []kit.RunningVRow
	for i, p := range ps {
		out = append(out, kit.RunningVRow{Person: p.h, Age: p.age, Run: run[i], FriendRun: friend[i]})
	}
	slices.SortStableFunc(out, func(a, b kit.RunningVRow) int { return cmp.Compare(a.Age, b.Age) })
	return out
}

func (s *snap) firstRanks(n int32) []kit.FirstRanksRow {
	ps := s.persons
	rank := ranks(len(ps), one, func(i, j int) int { return -cmp.Compare(ps[i].score, ps[j].score) })
	var out []kit.FirstRanksRow
	for i, p := range ps {
		out = append(out, kit.FirstRanksRow{Person: p.h, Score: p.score, N: rank[i]})
	}
	return out[:min(len(out), limitOf(n, 600))]
}

func (s *snap) orderRuns(n int32) []kit.OrderRunsRow {
	os := s.orders
	spent := running(len(os), func(i, j int) int { return cmpH(os[i].buyer, os[j].buyer) },
		func(i, j int) int { return -cmp.Compare(os[i].amount, os[j].amount) }, func(i int) float64 { return float64(os[i].price) })
	nth := ranks(len(os), func(i, j int) int { return cmpB(os[i].amount > 4, os[j].amount > 4) },
		func(i, j int) int { return cmpF(os[i].price, os[j].price) })
	var out []kit.OrderRunsRow
	for i, o := range os {
		out = append(out, kit.OrderRunsRow{Order: o.h, Amount: o.amount, Spent: spent[i], N: nth[i]})
	}
	slices.SortStableFunc(out, func(a, b kit.OrderRunsRow) int { return -cmp.Compare(a.Amount, b.Amount) })
	return out[:min(len(out), limitOf(n, 800))]
}

func (s *snap) pageW(w float32, after int32, n int32) []kit.PageWRow {
	var out []kit.PageWRow
	for _, p := range s.persons {
		if c := cmpF(p.w, w); c < 0 || c == 0 && ix(p.h) > after { // W desc: a smaller W comes after
			out = append(out, kit.PageWRow{Person: p.h, W: p.w})
		}
	}
	slices.SortStableFunc(out, func(a, b kit.PageWRow) int { return -cmpF(a.W, b.W) })
	return out[:min(len(out), limitOf(n, 600))]
}

func (s *snap) ordersAfter(a, after int32) []kit.OrdersAfterRow {
	var out []kit.OrdersAfterRow
	for _, o := range s.orders {
		if o.amount > a || o.amount == a && ix(o.h) > after {
			out = append(out, kit.OrdersAfterRow{Order: o.h, Amount: o.amount})
		}
	}
	slices.SortStableFunc(out, func(x, y kit.OrdersAfterRow) int { return cmp.Compare(x.Amount, y.Amount) })
	return out
}

func (s *snap) pingRanks() []kit.PingRanksRow {
	es := s.pings
	rank := ranks(len(es), func(i, j int) int { return cmpH(es[i].Who, es[j].Who) }, func(i, j int) int { return -cmpF(es[i].Heat, es[j].Heat) })
	var out []kit.PingRanksRow
	for i, e := range es {
		out = append(out, kit.PingRanksRow{Who: e.Who, Heat: e.Heat, N: rank[i]})
	}
	return out
}

func (s *snap) amountsAfter(a, n int32) []kit.AmountsAfterRow {
	var out []kit.AmountsAfterRow
	for _, o := range s.orders {
		if o.amount < a { // desc: a smaller amount comes after
			out = append(out, kit.AmountsAfterRow{Order: o.h, Amount: o.amount})
		}
	}
	slices.SortStableFunc(out, func(x, y kit.AmountsAfterRow) int { return -cmp.Compare(x.Amount, y.Amount) })
	return out[:min(len(out), limitOf(n, 800))]
}

// firstBadge is the badge of the lowest entity index with code c.
func firstBadge(bs []badge, c int64) (badge, bool) {
	for _, b := range bs {
		if b.code == c {
			return b, true
		}
	}
	return badge{}, false
}

func (s *snap) badgeByCode(bs []badge, c int64) []kit.BadgeByCodeRow {
	if b, ok := firstBadge(bs, c); ok && b.weight >= 0 {
		return []kit.BadgeByCodeRow{{Badge: b.h, Holder: b.holder, Weight: b.weight}}
	}
	return nil
}

func (s *snap) badgeHolder(bs []badge, c int64) []kit.BadgeHolderRow {
	if b, ok := firstBadge(bs, c); ok {
		if p, ok := s.find(b.holder); ok {
			return []kit.BadgeHolderRow{{Badge: b.h, Age: p.age}}
		}
	}
	return nil
}

// winParams are one frame's arguments of the window block.
type winParams struct {
	min, n, a, ix int32
	w             float32
	code          int64
	amount        int32 // AmountsAfter's cursor, the int32 edges included
}

func (wd *world) winParams() winParams {
	ns := []int32{-1, 0, 1, 3, 10, 1000}
	return winParams{min: int32(wd.rng.IntN(40)), n: ns[wd.rng.IntN(len(ns))], a: int32(wd.rng.IntN(10)),
		ix: int32(wd.rng.IntN(700)) - 50, w: wd.float(), code: int64(wd.rng.IntN(130)),
		amount: []int32{math.MinInt32, -1, 0, 3, 5, 9, 10, math.MaxInt32}[wd.rng.IntN(8)]}
}

// winBuffers are the result buffers of the window block's queries.
type winBuffers struct {
	ageRanks   []kit.AgeRanksRow
	runningV   []kit.RunningVRow
	firstRanks []kit.FirstRanksRow
	orderRuns  []kit.OrderRunsRow
	pageW      []kit.PageWRow
	after      []kit.OrdersAfterRow
	byCode     []kit.BadgeByCodeRow
	holder     []kit.BadgeHolderRow
	pingRanks  []kit.PingRanksRow
	amounts    []kit.AmountsAfterRow
}

func (b *winBuffers) run(q *kit.Queries, p winParams) {
	b.ageRanks = q.AgeRanks.Run(b.ageRanks, p.min)
	b.runningV = q.RunningV.Run(b.runningV)
	b.firstRanks = q.FirstRanks.Run(b.firstRanks, p.n)
	b.orderRuns = q.OrderRuns.Run(b.orderRuns, p.n)
	b.pageW = q.PageW.Run(b.pageW, p.w, p.ix, p.n)
	b.after = q.OrdersAfter.Run(b.after, p.a, p.ix)
	b.byCode = q.BadgeByCode.Run(b.byCode, p.code)
	b.holder = q.BadgeHolder.Run(b.holder, p.code)
	b.pingRanks = q.PingRanks.Run(b.pingRanks)
	b.amounts = q.AmountsAfter.Run(b.amounts, p.amount, p.n)
}

var winNames = []string{"AgeRanks", "RunningV", "FirstRanks", "OrderRuns", "PageW", "OrdersAfter", "BadgeByCode", "BadgeHolder",
	"PingRanks", "AmountsAfter"}

func winResults(wd *world, b *winBuffers, p winParams) (gen, model []string) {
	s, bs := take(wd.t), takeBadges(wd.t)
	b.run(wd.q, p)
	gen = []string{show(b.ageRanks), show(b.runningV), show(b.firstRanks), show(b.orderRuns), show(b.pageW), show(b.after),
		show(b.byCode), show(b.holder), show(b.pingRanks), show(b.amounts)}
	model = []string{show(s.ageRanks(p.min)), show(s.runningV()), show(s.firstRanks(p.n)), show(s.orderRuns(p.n)),
		show(s.pageW(p.w, p.ix, p.n)), show(s.ordersAfter(p.a, p.ix)), show(s.badgeByCode(bs, p.code)), show(s.badgeHolder(bs, p.code)),
		show(s.pingRanks()), show(s.amountsAfter(p.amount, p.n))}
	return gen, model
}

// playWindows is play for the window block: it returns every frame's
// results, query by query.
func playWindows(t *testing.T, workers int, seed uint64, frames int) []string {
	wd := newWorld(t, workers, seed)
	var b winBuffers
	var all []string
	for f := range frames {
		wd.mutate(t)
		wd.mutateBadges(t)
		require.NoError(t, wd.w.Frame(dt))
		for range 3 {
			p := wd.winParams()
			gen, model := winResults(wd, &b, p)
			for i := range gen {
				require.Equal(t, model[i], gen[i], "frame %d, query %s (%+v)", f, winNames[i], p)
				all = append(all, fmt.Sprintf("frame %d %s: %s", f, winNames[i], gen[i]))
			}
		}
	}
	return all
}

// TestWindowQueriesMatchModel: the window, keyset and unique key queries
// return their model's rows, in order, bit for bit (float running sums
// added in the window's order), over random worlds (creates, deletes,
// stale refs, NaN, ±0, ±Inf, duplicate badge codes) after every frame at
// 1, 2 and 4 workers and under the reordered chunk dealings, identical
// for every worker count and dealing.
func TestWindowQueriesMatchModel(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		var want []string
		for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
			for _, workers := range []int{1, 2, 4} {
				t.Run(fmt.Sprintf("seed%d/%s/workers%d", seed, o, workers), func(t *testing.T) {
					restore := chunkorder.Set(o)
					defer restore()
					got := playWindows(t, workers, seed, 10)
					if want == nil {
						want = got
					}
					require.Equal(t, want, got, "results differ from the first run's")
				})
			}
		}
	}
}

// TestWindowQueriesCoverTheirCases: the random worlds reach what the model
// test means to check: ties in a window's order key, several rows per
// partition, pages that are full and pages cut by the key, lookups that
// hit a duplicated code.
func TestWindowQueriesCoverTheirCases(t *testing.T) {
	wd := newWorld(t, 1, 5)
	var b winBuffers
	var ties, parts, fullPages, dupHits int
	for range 10 {
		wd.mutate(t)
		wd.mutateBadges(t)
		require.NoError(t, wd.w.Frame(dt))
		p := wd.winParams()
		p.n = 10
		b.run(wd.q, p)
		for i := 1; i < len(b.ageRanks); i++ {
			if b.ageRanks[i].N > 1 {
				parts++
			}
		}
		s := take(wd.t)
		for i := range s.persons {
			for j := i + 1; j < len(s.persons) && j < i+40; j++ {
				if s.persons[i].age%5 == s.persons[j].age%5 && cmpF(s.persons[i].w, s.persons[j].w) == 0 {
					ties++
				}
			}
		}
		if len(b.pageW) == 10 {
			fullPages++
		}
		bs := takeBadges(wd.t)
		for _, c := range bs {
			n := 0
			for _, d := range bs {
				if d.code == c.code {
					n++
				}
			}
			if first, _ := firstBadge(bs, c.code); n > 1 && first.weight >= 0 {
				got := wd.q.BadgeByCode.Run(nil, c.code)
				require.Len(t, got, 1)
				require.Equal(t, first.h, got[0].Badge, "the lowest entity index of code %d", c.code)
				dupHits++
			}
		}
	}
	require.Positive(t, ties, "ties in AgeRanks' order key")
	require.Positive(t, parts, "partitions of several rows")
	require.Positive(t, fullPages, "full pages")
	require.Positive(t, dupHits, "lookups of a duplicated code")
}

// TestWindowQueriesAllocateNothing: once grown, no query of the block
// allocates.
func TestWindowQueriesAllocateNothing(t *testing.T) {
	wd := newWorld(t, 2, 9)
	for range 5 {
		wd.mutate(t)
		wd.mutateBadges(t)
		require.NoError(t, wd.w.Frame(dt))
	}
	var b winBuffers
	for _, p := range []winParams{{min: 0, n: 1000, w: 3, ix: 100, a: 2, code: 7}, {min: 10, n: 3, w: -2, ix: 0, a: 5, code: 50}} {
		b.run(wd.q, p)
		require.Zero(t, testing.AllocsPerRun(20, func() { b.run(wd.q, p) }), "params %+v", p)
	}
}

// TestWindowPlans: the plans say how each family runs: a unique key
// lookup stops at its first match, a keyset page is a bounded top-N, a
// window walks the sorted result when its keys are the order by's (a
// packed sort for one 32-bit key), a window partitioned by a ref makes a
// bucket pass over the key table's capacity.
func TestWindowPlans(t *testing.T) {
	tabs, err := kit.Declare(tickwork.NewBuilder(), kit.DefaultSizes())
	require.NoError(t, err)
	q := kit.NewQueries(tabs)
	require.Contains(t, q.BadgeByCode.Plan(), "unique key lookup: scan Badge (ascending index) for Code, stop at the first match (limit 1); filter")
	require.Contains(t, q.PageW.Plan(), "keyset: the rows after (w, ix) in the order by's order, one packed range test a row (cursor, heap's worst); top-n heap by (W desc, index asc, index)")
	require.Contains(t, q.OrdersAfter.Plan(), "keyset: the rows after (a, ix) in the order by's order; sort by (Amount asc, index asc, index)")
	require.Contains(t, q.RunningV.Plan(), "window Run sum() over (order by Age asc, index asc): walk the sorted result")
	require.Contains(t, q.RunningV.Plan(), "window FriendRun sum() over (partition by Friend order by W asc): a bucket pass over the capacity of domain Folk")
	require.Contains(t, q.RunningV.Plan(), "sort packed keys (Age asc, position)")
	require.Contains(t, q.AgeRanks.Plan(), "window N row_number() over (partition by key order by W desc): sort its entries by (partition, order, index), then walk")
}

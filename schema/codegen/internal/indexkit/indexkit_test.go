package indexkit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/index"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/indexkit"
)

// floats are the values W, X, Y and F take: the edges of the query order
// (NaN, ±0, ±Inf) and small repeated values (ties, shared cells).
var floats = []float32{float32(math.NaN()), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)),
	1.5, -2, 3, 3, 7.25, -0.5, 100, 8, 15.999999, 16, -8}

// world is an indexkit world changed at random by the host between frames.
type world struct {
	w      *tickwork.World
	t      *kit.Tables
	q      *kit.Queries
	rng    *rand.Rand
	nextID int64
}

func newWorld(t testing.TB, seed uint64) *world {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	require.NoError(t, err)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	return &world{w: w, t: tabs, q: kit.NewQueries(tabs), rng: rand.New(rand.NewPCG(seed, 23))}
}

func (wd *world) float() float32 {
	if wd.rng.IntN(3) == 0 {
		return float32(wd.rng.IntN(41)) - 20
	}
	return floats[wd.rng.IntN(len(floats))]
}

// anyItem is a live item's handle, a deleted one's (stale) or zero.
func (wd *world) anyItem() tickwork.Handle {
	if wd.rng.IntN(8) == 0 {
		return 0
	}
	row := wd.rng.IntN(wd.t.Item.Table.Cap())
	if h, ok := wd.t.Item.Table.HandleAt(row); ok && wd.rng.IntN(4) > 0 {
		return h
	}
	return wd.t.D.MakeHandle(uint32(row), 1+uint32(wd.rng.IntN(3))) // stale or never made
}

func (wd *world) set(h tickwork.Handle) {
	tb, r := wd.t, wd.rng
	wd.nextID++
	tb.Item.Id.Set(h, wd.nextID*7%1000+wd.nextID/1000*1000) // distinct: the unique key
	tb.Item.Grp.Set(h, int32(r.IntN(4)))
	tb.Item.Kind.Set(h, int32(r.IntN(3)))
	tb.Item.Flag.Set(h, r.IntN(3) == 0)
	tb.Item.Score.Set(h, int32(r.IntN(40))-10)
	tb.Item.W.Set(h, wd.float())
	tb.Item.X.Set(h, wd.float())
	tb.Item.Y.Set(h, wd.float())
	tb.Item.Owner.Set(h, wd.anyItem())
}

// mutate makes random creates, deletes, attaches and values, then a
// frame, then the events the queries over Ev read.
func (wd *world) mutate(t testing.TB) {
	tb, r := wd.t, wd.rng
	for range 10 + r.IntN(40) {
		if tb.Item.Table.Len() >= tb.Item.Table.Cap()-10 {
			break
		}
		h, err := tb.Item.Table.Insert()
		require.NoError(t, err)
		wd.set(h)
		if r.IntN(2) == 0 {
			require.NoError(t, tb.Tag.Table.Attach(h))
		}
	}
	for range r.IntN(30) {
		if h, ok := tb.Item.Table.HandleAt(r.IntN(tb.Item.Table.Cap())); ok {
			switch r.IntN(3) {
			case 0:
				tb.D.Delete(h)
			case 1:
				tb.Tag.Table.Detach(h)
			default:
				wd.set(h)
			}
		}
	}
	require.NoError(t, wd.w.Frame(1.0/60))
	for range r.IntN(200) {
		require.NoError(t, tb.Ev.Emit(kit.Ev{Who: wd.anyItem(), Amt: int32(r.IntN(6)), F: wd.float()}))
	}
}

// same requires a and b print the same (bit-exact for floats: -0, NaN and
// +Inf print as such; the row types differ only by name).
func same(t *testing.T, what string, a, b any) {
	t.Helper()
	require.Equal(t, fmt.Sprint(b), fmt.Sprint(a), what)
	if s := fmt.Sprint(a); s != "[]" && s != "{0 0 0}" {
		nonEmpty[what]++
	}
}

// nonEmpty counts each query's results that held rows: the comparison
// is not of empty results only.
var nonEmpty = map[string]int{}

// pair runs an index-served query and its scan on params drawn by the
// world (run), then compares their results (check).
type pair struct {
	run   func()
	check func(t *testing.T)
}

// runs is every index-served query and its scan, on params drawn by wd.
func runs(wd *world) []pair {
	q, r := wd.q, wd.rng
	var (
		find    []kit.FindIdRow
		findS   []kit.FindIdScanRow
		eq      []kit.EqGrpKindRow
		eqS     []kit.EqGrpKindScanRow
		own     []kit.EqOwnerRow
		ownS    []kit.EqOwnerScanRow
		flag    []kit.EqFlagTaggedRow
		flagS   []kit.EqFlagTaggedScanRow
		top     []kit.TopWRow
		topS    []kit.TopWScanRow
		desc    []kit.TopWDescRow
		descS   []kit.TopWDescScanRow
		all     []kit.AllScoreDescRow
		allS    []kit.AllScoreDescScanRow
		page    []kit.PageWRow
		pageS   []kit.PageWScanRow
		or      []kit.OrderedRangeRow
		orS     []kit.OrderedRangeScanRow
		rs      []kit.RangeScoreRow
		rsS     []kit.RangeScoreScanRow
		rw      []kit.RangeWRow
		rwS     []kit.RangeWScanRow
		box     []kit.BoxRow
		boxS    []kit.BoxScanRow
		disc    []kit.DiscRow
		discS   []kit.DiscScanRow
		evg     []kit.EvGroupsRow
		evgS    []kit.EvGroupsScanRow
		eveq    []kit.EvEqRow
		eveqS   []kit.EvEqScanRow
		sum     kit.RangeSumRow
		sumS    kit.RangeSumScanRow
		n       = func() int32 { return int32(r.IntN(30)) - 2 }
		anyID   = func() int64 { return int64(r.IntN(1200)) }
		score   = func() int32 { return int32(r.IntN(50)) - 15 }
		coord   func() float32
		handles = wd.anyItem
	)
	coord = wd.float
	return []pair{
		{func() {
			id := anyID()
			find, findS = q.FindId.Run(find, id), q.FindIdScan.Run(findS, id)
		}, func(t *testing.T) {
			same(t, "FindId", find, findS)
		}},
		{func() {
			g := int32(r.IntN(5))
			eq, eqS = q.EqGrpKind.Run(eq, g), q.EqGrpKindScan.Run(eqS, g)
		}, func(t *testing.T) {
			same(t, "EqGrpKind", eq, eqS)
		}},
		{func() {
			o := handles()
			own, ownS = q.EqOwner.Run(own, o), q.EqOwnerScan.Run(ownS, o)
		}, func(t *testing.T) {
			same(t, "EqOwner", own, ownS)
		}},
		{func() {
			flag, flagS = q.EqFlagTagged.Run(flag), q.EqFlagTaggedScan.Run(flagS)
		}, func(t *testing.T) {
			same(t, "EqFlagTagged", flag, flagS)
		}},
		{func() {
			k := n()
			top, topS = q.TopW.Run(top, k), q.TopWScan.Run(topS, k)
		}, func(t *testing.T) {
			same(t, "TopW", top, topS)
		}},
		{func() {
			k := n()
			desc, descS = q.TopWDesc.Run(desc, k), q.TopWDescScan.Run(descS, k)
		}, func(t *testing.T) {
			same(t, "TopWDesc", desc, descS)
		}},
		{func() {
			all, allS = q.AllScoreDesc.Run(all), q.AllScoreDescScan.Run(allS)
		}, func(t *testing.T) {
			same(t, "AllScoreDesc", all, allS)
		}},
		{func() {
			w, ix, k := coord(), int32(r.IntN(320))-10, n()
			page, pageS = q.PageW.Run(page, w, ix, k), q.PageWScan.Run(pageS, w, ix, k)
		}, func(t *testing.T) {
			same(t, "PageW", page, pageS)
		}},
		{func() {
			lo, hi, k := score(), score(), n()
			or, orS = q.OrderedRange.Run(or, lo, hi, k), q.OrderedRangeScan.Run(orS, lo, hi, k)
		}, func(t *testing.T) {
			same(t, "OrderedRange", or, orS)
		}},
		{func() {
			lo, hi := score(), score()
			rs, rsS = q.RangeScore.Run(rs, lo, hi), q.RangeScoreScan.Run(rsS, lo, hi)
		}, func(t *testing.T) {
			same(t, "RangeScore", rs, rsS)
		}},
		{func() {
			lo := coord()
			rw, rwS = q.RangeW.Run(rw, lo), q.RangeWScan.Run(rwS, lo)
		}, func(t *testing.T) {
			same(t, "RangeW", rw, rwS)
		}},
		{func() {
			lo := coord()
			sum, sumS = q.RangeSum.Run(lo), q.RangeSumScan.Run(lo)
		}, func(t *testing.T) {
			same(t, "RangeSum", sum, sumS)
		}},
		{func() {
			x0, y0, x1, y1 := coord(), coord(), coord(), coord()
			box, boxS = q.Box.Run(box, x0, y0, x1, y1), q.BoxScan.Run(boxS, x0, y0, x1, y1)
		}, func(t *testing.T) {
			same(t, "Box", box, boxS)
		}},
		{func() {
			x, y, r2 := coord(), coord(), coord()
			if r.IntN(2) == 0 {
				r2 = float32(r.IntN(400))
			}
			disc, discS = q.Disc.Run(disc, x, y, r2), q.DiscScan.Run(discS, x, y, r2)
		}, func(t *testing.T) {
			same(t, "Disc", disc, discS)
		}},
		{func() {
			evg, evgS = q.EvGroups.Run(evg), q.EvGroupsScan.Run(evgS)
		}, func(t *testing.T) {
			same(t, "EvGroups", evg, evgS)
		}},
		{func() {
			h := handles()
			eveq, eveqS = q.EvEq.Run(eveq, h), q.EvEqScan.Run(eveqS, h)
		}, func(t *testing.T) {
			same(t, "EvEq", eveq, eveqS)
		}},
	}
}

// TestIndexedMatchesScan: every index-served query returns its scan's
// rows in the scan's order, bit for bit, over random worlds of creates,
// deletes, attaches, rewritten keys (duplicates in every hash and sorted
// key; NaN, ±0 and ±Inf in the float keys and coordinates; ref keys live,
// stale and zero) and events.
func TestIndexedMatchesScan(t *testing.T) {
	for seed := range uint64(4) {
		wd := newWorld(t, seed)
		fs := runs(wd)
		for round := range 12 {
			wd.mutate(t)
			for range 6 {
				for i, p := range fs {
					p.run()
					t.Run(fmt.Sprintf("seed%d/round%d/%d", seed, round, i), p.check)
					if t.Failed() {
						t.FailNow()
					}
				}
			}
		}
	}
	require.Len(t, nonEmpty, 16, "every query returned rows at times: %v", nonEmpty)
	t.Logf("results with rows: %v", nonEmpty)
}

// TestIndexedPlans: the planner chose the index of each query (and the
// scan for each Scan twin).
func TestIndexedPlans(t *testing.T) {
	wd := newWorld(t, 1)
	q := wd.q
	for name, plan := range map[string]string{
		q.FindId.Plan():       "index ById (unique on Item(Id)): find Id == param id (0 or 1 rows); filter",
		q.EqGrpKind.Plan():    "index ByGrpKind (hash on Item(Grp, Kind)): walk the rows of Grp == param g and Kind == 2 (ascending index); filter",
		q.EqOwner.Plan():      "index ByOwner (hash on Item(Owner)): walk the rows of Owner == param o (ascending index); filter",
		q.EqFlagTagged.Plan(): "index ByFlag (hash on Item(Flag)): walk the rows of Flag == true (ascending index); inner join Tag t: probe by entity of i; filter",
		q.TopW.Plan():         "index ByW (sorted on Item(W)): ascending walk in (W, index), first n",
		q.TopWDesc.Plan():     "index ByW (sorted on Item(W)): descending walk by runs of W (ties in ascending index), first n; filter",
		q.AllScoreDesc.Plan(): "index ByScore (sorted on Item(Score)): descending walk by runs of Score (ties in ascending index)",
		q.PageW.Plan():        "index ByW (sorted on Item(W)): ascending walk in (W, index), from after the keyset values, first n; keyset: the rows after (w, ix) in the order by's order",
		q.OrderedRange.Plan(): "index ByScore (sorted on Item(Score)): descending walk by runs of Score (ties in ascending index), from Score param lo, to Score param hi, first n; filter",
		q.RangeScore.Plan():   "index ByScore (sorted on Item(Score)): range walk, from Score param lo, to Score param hi, rows sorted by index; filter",
		q.RangeW.Plan():       "index ByW (sorted on Item(W)): range walk, from W param lo, to W 5, rows sorted by index; filter",
		q.RangeSum.Plan():     "index ByW (sorted on Item(W)): range walk, from W param lo, rows sorted by index; filter; aggregate sum, count, min (one row)",
		q.Box.Plan():          "index Pos (grid on Item(X, Y)): candidates of the box's cells (ascending index); filter",
		q.Disc.Plan():         "index Pos (grid on Item(X, Y)): candidates of the cells of the disc's bounding box, rounded outward (ascending index); filter",
		q.EvGroups.Plan():     "index EvByWho (hash on Ev(Who)): a walk per group of Who (each in emission order); filter; group by Who: a dense array over the capacity of domain D; sort groups by their keys",
		q.EvEq.Plan():         "index EvByWho (hash on Ev(Who)): walk the rows of Who == param w (ascending emission position); filter",
		q.BoxScan.Plan():      "scan Item (ascending index); filter",
	} {
		require.Equal(t, plan, name)
	}
}

// TestIndexedAllocs: an index-served Run allocates nothing once its
// buffer and scratch have grown.
func TestIndexedAllocs(t *testing.T) {
	wd := newWorld(t, 2)
	wd.mutate(t)
	wd.mutate(t)
	for i, p := range runs(wd) {
		for range 20 { // grows the buffers on the largest results
			p.run()
		}
		n := testing.AllocsPerRun(20, p.run)
		require.Zero(t, n, "query %d (or its scan) allocates", i)
	}
}

// TestGridMarkRule: the fused upkeep's test of a grid row (docs/schema.md,
// Indexes: a row is marked when floor(v/cell) of X or Y changed, in
// float64) marks every row whose cell changed by index.Grid's CellOf,
// over the edges (NaN, ±0, ±Inf, cell borders, huge values): a missed
// crossing would leave the grid stale.
func TestGridMarkRule(t *testing.T) {
	const cell = 8
	g, err := index.NewGrid(1, cell)
	require.NoError(t, err)
	vals := append([]float32{7.9999995, 8, 8.000001, -8, -7.9999995, -1e-40, 1e-40, 3e38, -3e38, 1.7e10, -1.7e10}, floats...)
	r := rand.New(rand.NewPCG(5, 5))
	for range 20000 {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	floor := func(v float32) float64 { return math.Floor(float64(v) * (1.0 / cell)) }
	for i := 0; i+3 < len(vals); i++ {
		ox, oy, nx, ny := vals[i], vals[i+1], vals[i+2], vals[i+3]
		marked := floor(ox) != floor(nx) || floor(oy) != floor(ny)
		if !marked {
			require.Equal(t, g.CellOf(ox, oy), g.CellOf(nx, ny), "(%v, %v) -> (%v, %v) crosses a cell unmarked", ox, oy, nx, ny)
		}
	}
	// and a crossing is marked (not every row: the point of the marks)
	require.NotEqual(t, floor(7.9999995), floor(8))
	require.Equal(t, floor(8), floor(15.999999))
}

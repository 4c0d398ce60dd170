package indexkit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
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
	b.Add(kit.NewSystems(tabs).All()...) // Drift and Hurt write keys every frame
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
	// half the frames, 200 to 399 events of three targets (many a group:
	// EvGroups walks its index's groups), else up to 199 of any (few a
	// group: it scans)
	few := []tickwork.Handle{wd.anyItem(), wd.anyItem(), wd.anyItem()}
	many := r.IntN(2) == 0
	n := r.IntN(200)
	if many {
		n = 200 + r.IntN(200) // at least 64 a group: the walk
	}
	for range n {
		who := wd.anyItem()
		if many {
			who = few[r.IntN(len(few))]
		}
		require.NoError(t, tb.Ev.Emit(kit.Ev{Who: who, Amt: int32(r.IntN(6)), F: wd.float()}))
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

// groupBranches counts the run-time choices of EvGroups's grouped walk
// (docs/schema.md, Indexes): both are compared with the scan.
var groupBranches = map[string]int{}

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
		rl      []kit.RangeLimitRow
		rlS     []kit.RangeLimitScanRow
		og      []kit.OwnerGroupsRow
		ogS     []kit.OwnerGroupsScanRow
		fg      []kit.FlagGroupsRow
		fgS     []kit.FlagGroupsScanRow
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
		ro      []kit.RangeOwnedRow
		roS     []kit.RangeOwnedScanRow
		rg      []kit.RangeGroupsRow
		rgS     []kit.RangeGroupsScanRow
		bt      []kit.BoxTopRow
		btS     []kit.BoxTopScanRow
		ed      []kit.EqDistinctRow
		edS     []kit.EqDistinctScanRow
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
			lo, k := score(), n()
			rl, rlS = q.RangeLimit.Run(rl, lo, k), q.RangeLimitScan.Run(rlS, lo, k)
		}, func(t *testing.T) {
			same(t, "RangeLimit", rl, rlS)
		}},
		{func() {
			og, ogS = q.OwnerGroups.Run(og), q.OwnerGroupsScan.Run(ogS)
			fg, fgS = q.FlagGroups.Run(fg), q.FlagGroupsScan.Run(fgS)
		}, func(t *testing.T) {
			same(t, "OwnerGroups", og, ogS)
			same(t, "FlagGroups", fg, fgS)
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
			switch r.IntN(4) {
			case 0, 1:
				r2 = float32(r.IntN(400))
			case 2: // an infinite centre with an infinite radius: the box's sides are Inf - Inf
				inf := float32(math.Inf(1 - 2*r.IntN(2)))
				if r.IntN(2) == 0 {
					x = inf
				} else {
					y = inf
				}
				r2 = float32(math.Inf(1))
			}
			disc, discS = q.Disc.Run(disc, x, y, r2), q.DiscScan.Run(discS, x, y, r2)
		}, func(t *testing.T) {
			same(t, "Disc", disc, discS)
		}},
		{func() {
			evg, evgS = q.EvGroups.Run(evg), q.EvGroupsScan.Run(evgS)
		}, func(t *testing.T) {
			same(t, "EvGroups", evg, evgS)
			// the branch Run took (the generator's groupWalkRows, 64)
			if hx := wd.t.Indexes.EvByWho.Hash(); hx.Len() >= 64*hx.Groups() {
				groupBranches["walk"]++
			} else {
				groupBranches["scan"]++
			}
		}},
		{func() {
			h := handles()
			eveq, eveqS = q.EvEq.Run(eveq, h), q.EvEqScan.Run(eveqS, h)
		}, func(t *testing.T) {
			same(t, "EvEq", eveq, eveqS)
		}},
		{func() {
			lo := score()
			ro, roS = q.RangeOwned.Run(ro, lo), q.RangeOwnedScan.Run(roS, lo)
		}, func(t *testing.T) {
			same(t, "RangeOwned", ro, roS)
		}},
		{func() {
			lo := coord()
			rg, rgS = q.RangeGroups.Run(rg, lo), q.RangeGroupsScan.Run(rgS, lo)
		}, func(t *testing.T) {
			same(t, "RangeGroups", rg, rgS)
		}},
		{func() {
			x0, y0, x1, y1, k := coord(), coord(), coord(), coord(), n()
			bt, btS = q.BoxTop.Run(bt, x0, y0, x1, y1, k), q.BoxTopScan.Run(btS, x0, y0, x1, y1, k)
		}, func(t *testing.T) {
			same(t, "BoxTop", bt, btS)
		}},
		{func() {
			g := int32(r.IntN(4))
			ed, edS = q.EqDistinct.Run(ed, g), q.EqDistinctScan.Run(edS, g)
		}, func(t *testing.T) {
			same(t, "EqDistinct", ed, edS)
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
	require.Len(t, nonEmpty, 23, "every query returned rows at times: %v", nonEmpty)
	require.Positive(t, groupBranches["walk"], "EvGroups walked its groups at times: %v", groupBranches)
	require.Positive(t, groupBranches["scan"], "EvGroups scanned at times: %v", groupBranches)
	t.Logf("results with rows: %v", nonEmpty)
}

// TestGridsMatchCells: after every frame of random worlds each grid files
// every live row in the cell of its point (index.Grid.CellOf) and no
// other row, whichever way Drift's fused upkeep tests it (Pos: the filed
// cells in float32; PosYX: the filed cells in float64; PosXW: both
// cells of X, W unwritten).
func TestGridsMatchCells(t *testing.T) {
	for seed := range uint64(3) {
		wd := newWorld(t, seed)
		tb := wd.t
		for range 20 {
			wd.mutate(t)
			xs, ys, ws := tb.Item.X.All(), tb.Item.Y.All(), tb.Item.W.All()
			for _, g := range []struct {
				ix   *tickwork.GridIndex
				a, b []float32
			}{{tb.Indexes.Pos, xs, ys}, {tb.Indexes.PosYX, ys, xs}, {tb.Indexes.PosXW, xs, ws}} {
				grid := g.ix.Grid()
				for r := range tb.Item.Table.Cap() {
					c, filed := grid.Key(int32(r))
					_, live := tb.Item.Table.HandleAt(r)
					require.Equal(t, live, filed, "%s row %d", g.ix.Name(), r)
					if live {
						require.Equal(t, grid.CellOf(g.a[r], g.b[r]), c, "%s row %d at (%v, %v)", g.ix.Name(), r, g.a[r], g.b[r])
					}
				}
			}
		}
	}
}

// TestIndexedPlans: the planner chose the index of each query (and the
// scan for each Scan twin).
func TestIndexedPlans(t *testing.T) {
	wd := newWorld(t, 1)
	q := wd.q
	for name, plan := range map[string]string{
		q.FindId.Plan():       "index ById (unique on Item(Id)): find Id == param id (0 or 1 rows); filter",
		q.EqGrpKind.Plan():    "index ByGrpKind (hash on Item(Grp, Kind)): walk the rows of Grp == param g and Kind == 2 (ascending index); filter",
		q.EqOwner.Plan():      "index ByOwner (hash on Item(Owner)): walk the rows of Owner == param d (ascending index); filter",
		q.EqFlagTagged.Plan(): "index ByFlag (hash on Item(Flag)): walk the rows of Flag == true (ascending index); inner join Tag t: probe by entity of i; filter",
		q.TopW.Plan():         "index ByW (sorted on Item(W)): ascending walk in (W, index), first n",
		q.TopWDesc.Plan():     "index ByW (sorted on Item(W)): descending walk by runs of W (ties in ascending index), first n; filter",
		q.AllScoreDesc.Plan(): "index ByScore (sorted on Item(Score)): descending walk by runs of Score (ties in ascending index)",
		q.PageW.Plan():        "index ByW (sorted on Item(W)): ascending walk in (W, index), from after the keyset values, first n; keyset: the rows after (w, ix) in the order by's order",
		q.OrderedRange.Plan(): "index ByScore (sorted on Item(Score)): descending walk by runs of Score (ties in ascending index), from Score param lo, to Score param hi, first n; filter",
		q.RangeScore.Plan():   "index ByScore (sorted on Item(Score)): range walk, from Score param lo, to Score param hi, rows marked in a bitmap, read in ascending index; filter",
		q.RangeLimit.Plan():   "index ByScore (sorted on Item(Score)): range walk, from Score param lo, rows marked in a bitmap, read in ascending index; filter; first n",
		q.RangeW.Plan():       "index ByW (sorted on Item(W)): range walk, from W param lo, to W 5, rows marked in a bitmap, read in ascending index; filter",
		q.RangeSum.Plan():     "index ByW (sorted on Item(W)): range walk, from W param lo, rows marked in a bitmap, read in ascending index; filter; aggregate sum, count, min (one row)",
		q.Box.Plan():          "index Pos (grid on Item(X, Y)): candidates of the box's cells (ascending index); filter",
		q.Disc.Plan():         "index Pos (grid on Item(X, Y)): candidates of the cells of the disc's bounding box, rounded outward (ascending index); filter",
		q.OwnerGroups.Plan():  "index ByOwner (hash on Item(Owner)): a walk per group of Owner (each in ascending index; the scan instead when the rows are fewer than 64 a group); filter; group by Owner: a dense array over the capacity of domain D; groups in key order: a pass over the slots, or a sort",
		q.FlagGroups.Plan():   "index ByFlag (hash on Item(Flag)): a walk per group of Flag (each in ascending index; the scan instead when the rows are fewer than 2 a group); group by Flag: a group table (map) of the keys; sort groups by their keys",
		q.EvGroups.Plan():     "index EvByWho (hash on Ev(Who)): a walk per group of Who (each in ascending emission position; the scan instead when the events are fewer than 64 a group); filter; group by Who: a dense array over the capacity of domain D; groups in key order: a pass over the slots, or a sort",
		q.EvEq.Plan():         "index EvByWho (hash on Ev(Who)): walk the rows of Who == param t (ascending emission position); filter",
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

// TestDeclaredIndexedQuery: an index-served query declared in a
// hand-written system (DeclareQ declares the index's read) returns its
// scan's rows inside the frame, after the systems that wrote its keys.
func TestDeclaredIndexedQuery(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(2))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	require.NoError(t, err)
	b.Add(kit.NewSystems(tabs).All()...)
	var got, want string
	var top []kit.TopWDescRow
	var topS []kit.TopWDescScanRow
	b.System("reader", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		q, qs := kit.DeclareTopWDesc(d, tabs), kit.DeclareTopWDescScan(d, tabs)
		return func(*tickwork.Context) {
			top, topS = q.Run(top, 40), qs.Run(topS, 40)
			got, want = fmt.Sprint(top), fmt.Sprint(topS)
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	wd := &world{w: w, t: tabs, q: kit.NewQueries(tabs), rng: rand.New(rand.NewPCG(9, 9))}
	for range 8 {
		wd.mutate(t) // ends with a frame
		require.Equal(t, want, got)
	}
	require.NotEqual(t, "[]", got)
}

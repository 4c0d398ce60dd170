package corpus

import (
	"cmp"
	"github.com/tickwork/tickwork/runq"
	"math"
	"slices"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/bench/shop"
)

// indexCases are the index-served cases of issue 23: one per family a
// declared index serves (point lookup by a unique key; equality on a hash
// key, alone and then grouped; a range off a sorted index, and a top-N
// off one in each data set; the group by of a table's and of an event
// table's hash key; an event table's equality; a box and a radius off a
// grid). Each runs its query
// as generated over the index (Kase.NewGen; Info.Index names the index),
// the same query `using scan` (Kase.NewScan), SQLite with the matching
// index (an R*Tree for the box and the radius) and without, and a hand
// loop over a plain-Go index of the same kind, built once from the
// columns (what a user writes by hand: a map, a sorted slice of rows, a
// grid of row lists). The generated sides are wired in
// generated_index.go.
func indexCases() []Case {
	return []Case{
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "ix_player_by_account", Family: "index point lookup unique", Set: "shop", Index: "PlayersByAccount",
				TW:      `query PlayerByAccountIx(a: int64) { from Player p  where p.Account == a  select p, p.Level }`,
				SQL:     `SELECT idx, gen, level FROM player WHERE account = ?`,
				Indexes: []string{`CREATE UNIQUE INDEX player_account ON player(account)`}},
			Args: func(d *Data) []any { return []any{d.P.Account} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				p := &d.Shop.Player
				t, lv, a := p.Table, p.Level.All(), d.P.Account
				byKey := uniqueRows(t, p.Account.All())
				return func(dst []HI32) []HI32 {
					if r, ok := byKey[a]; ok {
						dst = append(dst, HI32{id(t, int(r)), lv[r]})
					}
					return dst
				}
			},
			NewScan: genPlayerByAccountScan,
			NewGen:  genPlayerByAccountIx,
		},
		&Kase[HDayF64, *HDayF64]{
			Meta: Info{Name: "ix_orders_of_buyer", Family: "index equality", Set: "shop", Index: "OrdersByBuyer",
				TW:      `query OrdersOfBuyer(b: ref Player) { from Order o  where o.Buyer == b  select o, o.Day, o.Price }`,
				SQL:     `SELECT idx, gen, day, price FROM orders WHERE buyer_idx = ? AND buyer_gen = ? ORDER BY idx`,
				Indexes: []string{`CREATE INDEX orders_buyer ON orders(buyer_idx, buyer_gen)`}},
			Args: func(d *Data) []any { return []any{d.P.Player.Index(), d.P.Player.Generation()} },
			Vals: func(d *Data) []runq.Value { return []runq.Value{runq.Ref(d.P.Player)} },
			NewHand: func(d *Data) func([]HDayF64) []HDayF64 {
				o := &d.Shop.Order
				t, day, pr, b := o.Table, o.Day.All(), o.Price.All(), d.P.Player
				byKey := hashRows(t, o.Buyer.All())
				return func(dst []HDayF64) []HDayF64 {
					for _, r := range byKey[b] {
						dst = append(dst, HDayF64{id(t, int(r)), day[r], pr[r]})
					}
					return dst
				}
			},
			NewGen:  genOrdersOfBuyer,
			NewScan: genOrdersOfBuyerScan,
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "ix_players_in_levels", Family: "index range", Set: "shop", Index: "PlayersByLevel",
				TW:      `query PlayersInLevels(a: int32, b: int32) { from Player p  where p.Level >= a and p.Level <= b  select p, p.Level }`,
				SQL:     `SELECT idx, gen, level FROM player WHERE level >= ? AND level <= ? ORDER BY idx`,
				Indexes: []string{`CREATE INDEX player_level ON player(level)`}},
			Args: func(d *Data) []any { return []any{d.P.LevelLo, d.P.LevelHi} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				p := &d.Shop.Player
				t, lv, a, b := p.Table, p.Level.All(), d.P.LevelLo, d.P.LevelHi
				rows := sortedRows(t, lv)
				var found []int32
				return func(dst []HI32) []HI32 {
					// the range's rows, then in ascending row (the result's order)
					i, _ := slices.BinarySearchFunc(rows, a, func(r int32, k int32) int { return cmp.Compare(lv[r], k) })
					j, _ := slices.BinarySearchFunc(rows[i:], b+1, func(r int32, k int32) int { return cmp.Compare(lv[r], k) })
					found = append(found[:0], rows[i:i+j]...)
					slices.Sort(found)
					for _, r := range found {
						dst = append(dst, HI32{id(t, int(r)), lv[r]})
					}
					return dst
				}
			},
			NewGen:  genPlayersInLevels,
			NewScan: genPlayersInLevelsScan,
		},
		&Kase[HI64, *HI64]{
			Meta: Info{Name: "ix_top_scores", Family: "index top-n", Set: "shop", Index: "PlayersByScore",
				TW:      `query TopScoresIx(n: int32) { from Player p  select p, p.Score  order by p.Score desc  limit n }`,
				SQL:     `SELECT idx, gen, score FROM player ORDER BY score DESC, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX player_score ON player(score)`}},
			Args: func(*Data) []any { return []any{20} },
			NewHand: func(d *Data) func([]HI64) []HI64 {
				p := &d.Shop.Player
				t, sc := p.Table, p.Score.All()
				rows := sortedRows(t, sc)
				return func(dst []HI64) []HI64 {
					return topDesc(dst, rows, sc, 20, func(r int32) HI64 { return HI64{id(t, int(r)), sc[r]} })
				}
			},
			NewScan: genTopScoresScan,
			NewGen:  genTopScoresIx,
		},
		&Kase[DayF64, *DayF64]{
			Meta: Info{Name: "ix_item_sales", Family: "index equality group-by", Set: "shop", Index: "OrdersOfItem",
				TW: `query ItemSales(it: ref Product) { from Order o  where o.Item == it  group by o.Quantity
	select o.Quantity, sum(o.Price) as Sum, count() as N }`,
				SQL: `SELECT quantity, sum(price), count(*) FROM orders WHERE item_idx = ? AND item_gen = ?
	GROUP BY quantity ORDER BY quantity`,
				Indexes:   []string{`CREATE INDEX orders_item ON orders(item_idx, item_gen, quantity)`},
				Tolerance: "sum of float64: SQLite compensates (Kahan-Babuska-Neumaier), the query adds plainly in index order"},
			Args: func(d *Data) []any { return []any{d.P.Item.Index(), d.P.Item.Generation()} },
			Vals: func(d *Data) []runq.Value { return []runq.Value{runq.Ref(d.P.Item)} },
			NewHand: func(d *Data) func([]DayF64) []DayF64 {
				o := &d.Shop.Order
				t, q, pr, it := o.Table, o.Quantity.All(), o.Price.All(), d.P.Item
				byKey := hashRows(t, o.Item.All())
				return func(dst []DayF64) []DayF64 {
					// the item's few orders: groups found by a linear search, sorted at the end
					for _, r := range byKey[it] {
						g := slices.IndexFunc(dst, func(s DayF64) bool { return s.Day == q[r] })
						if g < 0 {
							g = len(dst)
							dst = append(dst, DayF64{Day: q[r]})
						}
						dst[g].Sum += pr[r]
						dst[g].N++
					}
					slices.SortFunc(dst, func(a, b DayF64) int { return cmp.Compare(a.Day, b.Day) })
					return dst
				}
			},
			Close:   func(a, b DayF64) bool { return a.Day == b.Day && a.N == b.N && near(a.Sum, b.Sum) },
			NewGen:  genItemSales,
			NewScan: genItemSalesScan,
		},
		&Kase[ItemTotals, *ItemTotals]{
			Meta: Info{Name: "ix_orders_by_item", Family: "index group-by key table", Set: "shop", Index: "OrdersOfItem",
				TW: `query OrdersByItemIx() { from Order o  group by o.Item  select o.Item, count() as N, sum(o.Quantity) as Qty }`,
				SQL: `SELECT item_idx, item_gen, count(*), sum(quantity) FROM orders
	GROUP BY item_idx, item_gen ORDER BY item_idx, item_gen`,
				Indexes: []string{`CREATE INDEX orders_item ON orders(item_idx, item_gen, quantity)`}},
			NewHand: func(d *Data) func([]ItemTotals) []ItemTotals {
				o := &d.Shop.Order
				q := o.Quantity.All()
				byKey, keys := hashRows(o.Table, o.Item.All()), []tickwork.Handle(nil)
				for k := range byKey {
					keys = append(keys, k)
				}
				sortHandles(keys)
				return func(dst []ItemTotals) []ItemTotals {
					for _, k := range keys {
						g := ItemTotals{Item: idOf(k)}
						for _, r := range byKey[k] {
							g.N++
							g.Qty += int64(q[r])
						}
						dst = append(dst, g)
					}
					return dst
				}
			},
			NewGen:  genOrdersByItemIx,
			NewScan: genOrdersByItem,
		},
		&Kase[HitTotal, *HitTotal]{
			Meta: Info{Name: "ix_hit_totals_by_target", Family: "index group-by key", Set: "arena", Index: "HitsByTarget",
				TW: `query HitTotalsByTarget() { from HitEvent h  group by h.Target  select h.Target, sum(h.Damage) as Total, count() as Hits }`,
				SQL: `SELECT target_idx, target_gen, sum(damage), count(*) FROM hit_event
	GROUP BY target_idx, target_gen ORDER BY target_idx, target_gen`,
				Indexes: []string{`CREATE INDEX hit_target ON hit_event(target_idx, target_gen, damage)`}},
			NewHand: func(d *Data) func([]HitTotal) []HitTotal {
				evs := d.A.HitEvent.Read()
				targets := make([]tickwork.Handle, len(evs))
				for i, e := range evs {
					targets[i] = e.Target
				}
				// the frame's events are the data set's: kept once, like a table's rows
				byKey, keys := hashRows(nil, targets), []tickwork.Handle(nil)
				for k := range byKey {
					keys = append(keys, k)
				}
				sortHandles(keys)
				return func(dst []HitTotal) []HitTotal {
					for _, k := range keys {
						g := HitTotal{Target: idOf(k)}
						for _, i := range byKey[k] {
							g.Total += int64(evs[i].Damage)
							g.Hits++
						}
						dst = append(dst, g)
					}
					return dst
				}
			},
			NewGen:  genHitTotalsByTargetIx,
			NewScan: genHitTotalsByTargetScan,
		},
		&Kase[HF64, *HF64]{
			Meta: Info{Name: "ix_sales_of_buyer", Family: "index equality event", Set: "shop", Index: "SalesByBuyer",
				TW:      `query SalesOfBuyer(b: ref Player) { from Sale s  where s.Buyer == b  select s.Item, s.Price }`,
				SQL:     `SELECT item_idx, item_gen, price FROM sale WHERE buyer_idx = ? AND buyer_gen = ? ORDER BY seq`,
				Indexes: []string{`CREATE INDEX sale_buyer ON sale(buyer_idx, buyer_gen)`}},
			Args: func(d *Data) []any { return []any{d.P.Player.Index(), d.P.Player.Generation()} },
			Vals: func(d *Data) []runq.Value { return []runq.Value{runq.Ref(d.P.Player)} },
			NewHand: func(d *Data) func([]HF64) []HF64 {
				evs, b := d.Shop.Sale.Read(), d.P.Player
				buyers := make([]tickwork.Handle, len(evs))
				for i, e := range evs {
					buyers[i] = e.Buyer
				}
				// the frame's events are the data set's: kept once, like a table's rows
				byKey := hashRows(nil, buyers)
				return func(dst []HF64) []HF64 {
					for _, i := range byKey[b] {
						dst = append(dst, HF64{idOf(evs[i].Item), evs[i].Price})
					}
					return dst
				}
			},
			NewGen:  genSalesOfBuyer,
			NewScan: genSalesOfBuyerScan,
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "ix_weakest_units", Family: "index top-n", Set: "arena", Index: "UnitsByHealth",
				TW:      `query WeakestUnits(n: int32) { from Unit u  select u, u.Health  order by u.Health  limit n }`,
				SQL:     `SELECT idx, gen, health FROM unit ORDER BY health, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX unit_health ON unit(health)`}},
			Args: func(*Data) []any { return []any{10} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				t, hs := d.A.Unit.Table, d.A.Unit.Health.All()
				rows := sortedRows(t, hs)
				return func(dst []HI32) []HI32 {
					for _, r := range rows[:min(10, len(rows))] {
						dst = append(dst, HI32{id(t, int(r)), hs[r]})
					}
					return dst
				}
			},
			NewGen:  genWeakestUnitsIx,
			NewScan: genWeakestUnitsScan,
		},
		&Kase[HXY, *HXY]{
			Meta: Info{Name: "ix_stores_in_box", Family: "index box", Set: "shop", Index: "StoresByPos",
				TW: `query StoresInBox(x0: float32, y0: float32, x1: float32, y1: float32) {
	from Store s  where s.X >= x0 and s.X <= x1 and s.Y >= y0 and s.Y <= y1  select s, s.X, s.Y }`,
				SQL: `SELECT idx, gen, x, y FROM store WHERE x >= ?1 AND x <= ?3 AND y >= ?2 AND y <= ?4 ORDER BY idx`,
				IndexSQL: `SELECT s.idx, s.gen, s.x, s.y FROM store_rtree r CROSS JOIN store s ON s.idx = r.id
	WHERE r.minx >= ?1 AND r.maxx <= ?3 AND r.miny >= ?2 AND r.maxy <= ?4
	AND s.x >= ?1 AND s.x <= ?3 AND s.y >= ?2 AND s.y <= ?4 ORDER BY s.idx`,
				Indexes: storeRTree},
			Args: func(d *Data) []any { b := d.P.Box; return []any{b[0], b[1], b[2], b[3]} },
			NewHand: func(d *Data) func([]HXY) []HXY {
				t, xs, ys := d.Shop.Store.Table, d.Shop.Store.X.All(), d.Shop.Store.Y.All()
				x0, y0, x1, y1 := d.P.Box[0], d.P.Box[1], d.P.Box[2], d.P.Box[3]
				g := newHandGrid(t, xs, ys, 64, shop.MapSide)
				var found []int32
				return func(dst []HXY) []HXY {
					found = g.box(found[:0], x0, y0, x1, y1, func(x, y float32) bool { return x >= x0 && x <= x1 && y >= y0 && y <= y1 })
					for _, r := range found {
						dst = append(dst, HXY{id(t, int(r)), xs[r], ys[r]})
					}
					return dst
				}
			},
			NewScan: genStoresInBoxScan,
			NewGen:  genStoresInBox,
		},
		&Kase[HXY, *HXY]{
			Meta: Info{Name: "ix_stores_near", Family: "index radius", Set: "shop", Index: "StoresByPos",
				TW: `query StoresNear(x: float32, y: float32, r2: float32) {
	from Store s  where (s.X - x) * (s.X - x) + (s.Y - y) * (s.Y - y) <= r2  select s, s.X, s.Y }`,
				// ?3 the radius, ?4 its square
				SQL: `SELECT idx, gen, x, y FROM store WHERE (x - ?1) * (x - ?1) + (y - ?2) * (y - ?2) <= ?4 ORDER BY idx`,
				IndexSQL: `SELECT s.idx, s.gen, s.x, s.y FROM store_rtree r CROSS JOIN store s ON s.idx = r.id
	WHERE r.minx >= ?1 - ?3 AND r.maxx <= ?1 + ?3 AND r.miny >= ?2 - ?3 AND r.maxy <= ?2 + ?3
	AND (s.x - ?1) * (s.x - ?1) + (s.y - ?2) * (s.y - ?2) <= ?4 ORDER BY s.idx`,
				Indexes: storeRTree},
			Args: func(d *Data) []any {
				r := d.P.Radius
				return []any{d.P.Centre[0], d.P.Centre[1], r, float32(r * r)}
			},
			Vals: func(d *Data) []runq.Value {
				r := d.P.Radius
				return []runq.Value{runq.F32(d.P.Centre[0]), runq.F32(d.P.Centre[1]), runq.F32(float32(r * r))}
			},
			NewHand: func(d *Data) func([]HXY) []HXY {
				t, xs, ys := d.Shop.Store.Table, d.Shop.Store.X.All(), d.Shop.Store.Y.All()
				cx, cy, rad := d.P.Centre[0], d.P.Centre[1], d.P.Radius
				r2 := float32(rad * rad) // the query's parameter
				g := newHandGrid(t, xs, ys, 64, shop.MapSide)
				var found []int32
				return func(dst []HXY) []HXY {
					found = g.box(found[:0], cx-rad, cy-rad, cx+rad, cy+rad, func(x, y float32) bool {
						dx, dy := x-cx, y-cy
						return float32(dx*dx)+float32(dy*dy) <= r2
					})
					for _, r := range found {
						dst = append(dst, HXY{id(t, int(r)), xs[r], ys[r]})
					}
					return dst
				}
			},
			NewGen:  genStoresNear,
			NewScan: genStoresNearScan,
		},
	}
}

// storeRTree is the R*Tree over the stores' points the box and radius
// cases probe in DB.Index.
var storeRTree = []string{`CREATE VIRTUAL TABLE store_rtree USING rtree(id, minx, maxx, miny, maxy)`,
	`INSERT INTO store_rtree SELECT idx, x, x, y, y FROM store`}

// uniqueRows is a hand-kept unique index: the live rows of t by key.
func uniqueRows[K comparable](t *tickwork.Table, keys []K) map[K]int32 {
	m := make(map[K]int32, t.Len())
	for w := walk(t); w.next(); {
		for r := w.lo; r < w.hi; r++ {
			m[keys[r]] = int32(r)
		}
	}
	return m
}

// hashRows is a hand-kept hash index: the live rows of t by key, each
// key's rows ascending (t nil: every position of keys, an event list's).
func hashRows[K comparable](t *tickwork.Table, keys []K) map[K][]int32 {
	m := map[K][]int32{}
	if t == nil {
		for r, k := range keys {
			m[k] = append(m[k], int32(r))
		}
		return m
	}
	for w := walk(t); w.next(); {
		for r := w.lo; r < w.hi; r++ {
			m[keys[r]] = append(m[keys[r]], int32(r))
		}
	}
	return m
}

// sortHandles sorts hs by (index, generation): a group by of a ref's order.
func sortHandles(hs []tickwork.Handle) {
	slices.SortFunc(hs, func(a, b tickwork.Handle) int {
		return cmp.Or(cmp.Compare(a.Index(), b.Index()), cmp.Compare(a.Generation(), b.Generation()))
	})
}

// sortedRows is a hand-kept sorted index: the live rows of t in (key,
// row) order (integer keys).
func sortedRows[K cmp.Ordered](t *tickwork.Table, keys []K) []int32 {
	rows := make([]int32, 0, t.Len())
	for w := walk(t); w.next(); {
		for r := w.lo; r < w.hi; r++ {
			rows = append(rows, int32(r))
		}
	}
	slices.SortStableFunc(rows, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
	return rows
}

// topDesc appends the first n rows of rows (in (key, row) order) by key
// descending, ties in ascending row (the query order rule): a walk from
// the end, run by run of one key.
func topDesc[R any, K comparable](dst []R, rows []int32, keys []K, n int, row func(int32) R) []R {
	for i := len(rows) - 1; i >= 0 && len(dst) < n; {
		j := i
		for j > 0 && keys[rows[j-1]] == keys[rows[i]] {
			j--
		}
		for _, r := range rows[j : i+1] {
			if len(dst) == n {
				break
			}
			dst = append(dst, row(r))
		}
		i = j - 1
	}
	return dst
}

// handGrid is a hand-kept uniform grid over [0, side]²: per square cell
// of side size, the live rows whose point falls in it, ascending (points
// outside the square are clamped into the border cells).
type handGrid struct {
	xs, ys []float32
	inv    float32
	n      int       // cells per side
	cells  [][]int32 // row-major, n*n
}

func newHandGrid(t *tickwork.Table, xs, ys []float32, size, side float32) *handGrid {
	n := int(math.Ceil(float64(side/size))) + 1
	g := &handGrid{xs: xs, ys: ys, inv: 1 / size, n: n, cells: make([][]int32, n*n)}
	for w := walk(t); w.next(); {
		for r := w.lo; r < w.hi; r++ {
			c := g.cell(xs[r])*n + g.cell(ys[r])
			g.cells[c] = append(g.cells[c], int32(r))
		}
	}
	return g
}

// cell returns v's cell coordinate, clamped to [0, n).
func (g *handGrid) cell(v float32) int {
	return min(max(int(math.Floor(float64(v*g.inv))), 0), g.n-1)
}

// box appends the rows of the cells [x0, x1] × [y0, y1] touches whose
// point passes in, in ascending row order.
func (g *handGrid) box(dst []int32, x0, y0, x1, y1 float32, in func(x, y float32) bool) []int32 {
	for cx := g.cell(x0); cx <= g.cell(x1); cx++ {
		for cy := g.cell(y0); cy <= g.cell(y1); cy++ {
			for _, r := range g.cells[cx*g.n+cy] {
				if in(g.xs[r], g.ys[r]) {
					dst = append(dst, r)
				}
			}
		}
	}
	slices.Sort(dst)
	return dst
}

package corpus

import (
	"cmp"
	"github.com/tickwork/tickwork/runq"
	"slices"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/bench/shop"
)

// shopCases are the cases over the shop (package bench/shop).
func shopCases() []Case {
	return []Case{
		&Kase[HI64, *HI64]{
			Meta: Info{Name: "veterans_of_region", Family: "filter", Set: "shop",
				TW:      `query Veterans(level: int32, region: int32) { from Player p  where p.Level >= level and p.Region == region  select p, p.Score }`,
				SQL:     `SELECT idx, gen, score FROM player WHERE level >= ? AND region = ? ORDER BY idx`,
				Indexes: []string{`CREATE INDEX player_region_level ON player(region, level)`}},
			Args:   func(*Data) []any { return []any{50, 3} },
			NewGen: genVeterans,
			NewPar: genVeteransPar,
			NewHand: func(d *Data) func([]HI64) []HI64 {
				p := &d.Shop.Player
				t, lv, rg, sc := p.Table, p.Level.All(), p.Region.All(), p.Score.All()
				return func(dst []HI64) []HI64 {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if lv[r] >= 50 && rg[r] == 3 {
								dst = append(dst, HI64{id(t, r), sc[r]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "player_by_account", Family: "point lookup unique key", Set: "shop",
				TW:      `query PlayerByAccount(a: int64) { from Player p  where p.Account == a  select p, p.Level }`,
				SQL:     `SELECT idx, gen, level FROM player WHERE account = ?`,
				Indexes: []string{`CREATE UNIQUE INDEX player_account ON player(account)`}},
			Args: func(d *Data) []any { return []any{d.P.Account} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				p := &d.Shop.Player
				t, ac, lv, a := p.Table, p.Account.All(), p.Level.All(), d.P.Account
				return func(dst []HI32) []HI32 {
					// no index: a scan that stops at the key, which is unique
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if ac[r] == a {
								return append(dst, HI32{id(t, r), lv[r]})
							}
						}
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HI32) []HI32 {
				q, rows, a := shop.NewPlayerByAccount(d.Shop), []shop.PlayerByAccountRow(nil), d.P.Account
				return func(dst []HI32) []HI32 {
					rows = q.Run(rows, a)
					for _, r := range rows {
						dst = append(dst, HI32{idOf(r.Player), r.Level})
					}
					return dst
				}
			},
		},
		&Kase[I64F32, *I64F32]{
			Meta: Info{Name: "product_by_handle", Family: "point lookup", Set: "shop",
				TW:  `query ProductAt(h: ref Product) { from Product pr  where pr == h  select pr.SKU, pr.Price }`,
				SQL: `SELECT sku, price FROM product WHERE idx = ? AND gen = ?`},
			Args:   func(d *Data) []any { return []any{d.P.Product.Index(), d.P.Product.Generation()} },
			Vals:   func(d *Data) []runq.Value { return []runq.Value{runq.Ref(d.P.Product)} },
			NewGen: genProductAt,
			NewHand: func(d *Data) func([]I64F32) []I64F32 {
				p := &d.Shop.Product
				t, sk, pr, h := p.Table, p.SKU.All(), p.Price.All(), d.P.Product
				return func(dst []I64F32) []I64F32 {
					if r := t.Lease().Find(h); r >= 0 {
						dst = append(dst, I64F32{sk[r], pr[r]})
					}
					return dst
				}
			},
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "product_by_sku", Family: "point lookup unique key", Set: "shop",
				TW:      `query ProductBySKU(sku: int64) { from Product pr  where pr.SKU == sku  select pr, pr.Stock }`,
				SQL:     `SELECT idx, gen, stock FROM product WHERE sku = ?`,
				Indexes: []string{`CREATE UNIQUE INDEX product_sku ON product(sku)`}},
			Args: func(d *Data) []any { return []any{d.P.SKU} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				p := &d.Shop.Product
				t, sk, st, key := p.Table, p.SKU.All(), p.Stock.All(), d.P.SKU
				return func(dst []HI32) []HI32 {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if sk[r] == key {
								return append(dst, HI32{id(t, r), st[r]})
							}
						}
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HI32) []HI32 {
				q, rows, key := shop.NewProductBySKU(d.Shop), []shop.ProductBySKURow(nil), d.P.SKU
				return func(dst []HI32) []HI32 {
					rows = q.Run(rows, key)
					for _, r := range rows {
						dst = append(dst, HI32{idOf(r.Product), r.Stock})
					}
					return dst
				}
			},
		},
		&Kase[PlayerStats, *PlayerStats]{
			Meta: Info{Name: "region_stats", Family: "aggregate", Set: "shop",
				TW: `query RegionStats(region: int32) { from Player p  where p.Region == region
	select count(), sum(p.Score), min(p.Level), max(p.Rating), avg(p.Level) }`,
				SQL:     `SELECT count(*), coalesce(sum(score), 0), coalesce(min(level), 0), coalesce(max(rating), 0.0), coalesce(avg(level), 0.0) FROM player WHERE region = ?`,
				Indexes: []string{`CREATE INDEX player_region_level ON player(region, level)`}},
			Args:   func(*Data) []any { return []any{2} },
			NewGen: genRegionStats,
			NewHand: func(d *Data) func([]PlayerStats) []PlayerStats {
				p := &d.Shop.Player
				t, rg, sc, lv, rt := p.Table, p.Region.All(), p.Score.All(), p.Level.All(), p.Rating.All()
				return func(dst []PlayerStats) []PlayerStats {
					var s PlayerStats
					var levels int64
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if rg[r] != 2 {
								continue
							}
							if s.N == 0 || lv[r] < s.Min {
								s.Min = lv[r]
							}
							if s.N == 0 || rt[r] > s.Max {
								s.Max = rt[r]
							}
							s.N++
							s.Sum += sc[r]
							levels += int64(lv[r])
						}
					}
					if s.N > 0 {
						s.Avg = float64(levels) / float64(s.N)
					}
					return append(dst, s)
				}
			},
		},
		&Kase[F64x2, *F64x2]{
			Meta: Info{Name: "revenue_total", Family: "aggregate", Set: "shop",
				TW:        `query Revenue() { from Order o  select sum(o.Price) as Sum, avg(o.Price) as Avg }`,
				SQL:       `SELECT coalesce(sum(price), 0.0), coalesce(avg(price), 0.0) FROM orders`,
				Tolerance: "sum, avg of float64: SQLite compensates (Kahan-Babuska-Neumaier), the query adds plainly in index order"},
			NewGen: genRevenue,
			NewHand: func(d *Data) func([]F64x2) []F64x2 {
				t, pr := d.Shop.Order.Table, d.Shop.Order.Price.All()
				return func(dst []F64x2) []F64x2 {
					var s float64
					n := 0
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							s += pr[r]
						}
						n += hi - lo
					}
					avg := 0.0
					if n > 0 {
						avg = s / float64(n)
					}
					return append(dst, F64x2{s, avg})
				}
			},
			Close: func(a, b F64x2) bool { return near(a.A, b.A) && near(a.B, b.B) },
		},
		&Kase[ItemTotals, *ItemTotals]{
			Meta: Info{Name: "orders_by_item", Family: "group-by ref", Set: "shop",
				TW: `query OrdersByItem() { from Order o  group by o.Item  select o.Item, count() as N, sum(o.Quantity) as Qty }`,
				SQL: `SELECT item_idx, item_gen, count(*), sum(quantity) FROM orders
	GROUP BY item_idx, item_gen ORDER BY item_idx, item_gen`,
				Indexes: []string{`CREATE INDEX orders_item ON orders(item_idx, item_gen, quantity)`}},
			NewGen: genOrdersByItem,
			NewHand: func(d *Data) func([]ItemTotals) []ItemTotals {
				o := &d.Shop.Order
				t, it, q := o.Table, o.Item.All(), o.Quantity.All()
				// a dense array over the Product table: one slot per product
				// (products are never deleted, so an item's slot has one generation)
				slot := make([]int32, d.Shop.Product.Table.Cap())
				var touched []int32
				return func(dst []ItemTotals) []ItemTotals {
					for _, s := range touched {
						slot[s] = 0
					}
					touched = touched[:0]
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							s := it[r].Index()
							g := slot[s]
							if g == 0 {
								dst = append(dst, ItemTotals{Item: idOf(it[r])})
								g = int32(len(dst))
								slot[s] = g
								touched = append(touched, int32(s))
							}
							dst[g-1].N++
							dst[g-1].Qty += int64(q[r])
						}
					}
					slices.SortFunc(dst, func(a, b ItemTotals) int { return cmp.Compare(a.Item.Index, b.Item.Index) })
					return dst
				}
			},
		},
		&Kase[PriceGroup, *PriceGroup]{
			Meta: Info{Name: "products_by_price", Family: "group-by float", Set: "shop",
				TW:      `query ProductsByPrice() { from Product pr  group by pr.Price  select pr.Price, count() as N, avg(pr.Stock) as Avg }`,
				SQL:     `SELECT price, count(*), avg(stock) FROM product GROUP BY price ORDER BY price`,
				Indexes: []string{`CREATE INDEX product_price ON product(price, stock)`}},
			NewGen: genProductsByPrice,
			NewHand: func(d *Data) func([]PriceGroup) []PriceGroup {
				p := &d.Shop.Product
				t, pr, st := p.Table, p.Price.All(), p.Stock.All()
				groups := map[float32]int{}
				var sums []int64
				return func(dst []PriceGroup) []PriceGroup {
					clear(groups)
					sums = sums[:0]
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							k := pr[r] + 0 // -0 and +0: one group, +0
							g, ok := groups[k]
							if !ok {
								g = len(dst)
								groups[k] = g
								dst, sums = append(dst, PriceGroup{Price: k}), append(sums, 0)
							}
							dst[g].N++
							sums[g] += int64(st[r])
						}
					}
					for g := range dst {
						dst[g].Avg = float64(sums[g]) / float64(dst[g].N)
					}
					slices.SortFunc(dst, func(a, b PriceGroup) int { return cmp.Compare(a.Price, b.Price) })
					return dst
				}
			},
		},
		&Kase[RegionBand, *RegionBand]{
			Meta: Info{Name: "players_by_region_band", Family: "group-by two keys", Set: "shop",
				TW: `query RegionBands() { from Player p  group by p.Region, p.Level / 10
	select p.Region, p.Level / 10 as Band, count() as N, sum(p.Score) as Score }`,
				SQL:     `SELECT region, level / 10, count(*), sum(score) FROM player GROUP BY region, level / 10 ORDER BY region, level / 10`,
				Indexes: []string{`CREATE INDEX player_region_level ON player(region, level)`}},
			NewGen: genRegionBands,
			NewHand: func(d *Data) func([]RegionBand) []RegionBand {
				p := &d.Shop.Player
				t, rg, lv, sc := p.Table, p.Region.All(), p.Level.All(), p.Score.All()
				groups := map[[2]int32]int{}
				return func(dst []RegionBand) []RegionBand {
					clear(groups)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							k := [2]int32{rg[r], lv[r] / 10}
							g, ok := groups[k]
							if !ok {
								g = len(dst)
								groups[k] = g
								dst = append(dst, RegionBand{Region: k[0], Band: k[1]})
							}
							dst[g].N++
							dst[g].Score += sc[r]
						}
					}
					slices.SortFunc(dst, func(a, b RegionBand) int { return cmp.Or(cmp.Compare(a.Region, b.Region), cmp.Compare(a.Band, b.Band)) })
					return dst
				}
			},
		},
		&Kase[HI64, *HI64]{
			Meta: Info{Name: "top_scores", Family: "top-n", Set: "shop",
				TW:      `query TopScores(n: int32) { from Player p  select p, p.Score  order by p.Score desc  limit n }`,
				SQL:     `SELECT idx, gen, score FROM player ORDER BY score DESC, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX player_score ON player(score)`}},
			Args:   func(*Data) []any { return []any{20} },
			NewGen: genTopScores,
			NewHand: func(d *Data) func([]HI64) []HI64 {
				p := &d.Shop.Player
				t, sc := p.Table, p.Score.All()
				less := func(a, b HI64) bool { return a.V > b.V }
				return func(dst []HI64) []HI64 {
					const n = 20
					dst = grow(dst, n)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if len(dst) < n || sc[r] > dst[n-1].V {
								dst = topN(dst, n, HI64{ID{Index: uint32(r)}, sc[r]}, less)
							}
						}
					}
					for i := range dst {
						dst[i].ID = id(t, int(dst[i].ID.Index))
					}
					return dst
				}
			},
		},
		&Kase[RegionBand, *RegionBand]{
			Meta: Info{Name: "top_level_then_score", Family: "top-n two keys", Set: "shop",
				TW: `query TopLevels(n: int32) { from Player p  select p.Region, p.Level, index(p) as N, p.Score
	order by p.Level desc, p.Score  limit n }`,
				SQL:     `SELECT region, level, idx, score FROM player ORDER BY level DESC, score, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX player_level_score ON player(level, score)`}},
			Args:   func(*Data) []any { return []any{20} },
			NewGen: genTopLevels,
			NewHand: func(d *Data) func([]RegionBand) []RegionBand {
				p := &d.Shop.Player
				t, rg, lv, sc := p.Table, p.Region.All(), p.Level.All(), p.Score.All()
				less := func(a, b RegionBand) bool { return a.Band > b.Band || a.Band == b.Band && a.Score < b.Score }
				return func(dst []RegionBand) []RegionBand {
					const n = 20
					dst = grow(dst, n)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							row := RegionBand{rg[r], lv[r], int64(r), sc[r]}
							if len(dst) < n || less(row, dst[n-1]) {
								dst = topN(dst, n, row, less)
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[I32, *I32]{
			Meta: Info{Name: "distinct_regions", Family: "distinct", Set: "shop",
				TW:      `query Regions() { from Player p  select distinct p.Region }`,
				SQL:     `SELECT region FROM player GROUP BY region ORDER BY min(idx)`,
				Indexes: []string{`CREATE INDEX player_region_level ON player(region, level)`}},
			NewGen: genRegions,
			NewHand: func(d *Data) func([]I32) []I32 {
				p := &d.Shop.Player
				t, rg := p.Table, p.Region.All()
				seen := map[int32]struct{}{}
				return func(dst []I32) []I32 {
					clear(seen)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if _, ok := seen[rg[r]]; !ok {
								seen[rg[r]] = struct{}{}
								dst = append(dst, I32{rg[r]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[I32x2, *I32x2]{
			Meta: Info{Name: "distinct_region_level", Family: "distinct two columns", Set: "shop",
				TW:      `query RegionLevels() { from Player p  select distinct p.Region, p.Level }`,
				SQL:     `SELECT region, level FROM player GROUP BY region, level ORDER BY min(idx)`,
				Indexes: []string{`CREATE INDEX player_region_level ON player(region, level)`}},
			NewGen: genRegionLevels,
			NewHand: func(d *Data) func([]I32x2) []I32x2 {
				p := &d.Shop.Player
				t, rg, lv := p.Table, p.Region.All(), p.Level.All()
				seen := map[I32x2]struct{}{}
				return func(dst []I32x2) []I32x2 {
					clear(seen)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							k := I32x2{rg[r], lv[r]}
							if _, ok := seen[k]; !ok {
								seen[k] = struct{}{}
								dst = append(dst, k)
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HF64, *HF64]{
			Meta: Info{Name: "premium_profiles", Family: "join entity has/not has", Set: "shop",
				TW: `query PremiumSpend() { from Player p  join Profile f on p  where has(p, Premium) and not has(p, Banned)
	select p, f.Spent }`,
				SQL: `SELECT p.idx, p.gen, f.spent FROM player p JOIN profile f ON f.idx = p.idx JOIN premium m ON m.idx = p.idx
	WHERE NOT EXISTS (SELECT 1 FROM banned x WHERE x.idx = p.idx) ORDER BY p.idx`},
			NewGen: genPremiumSpend,
			NewPar: genPremiumSpendPar,
			NewHand: func(d *Data) func([]HF64) []HF64 {
				s := d.Shop
				t, prof, prem, ban, sp := s.Player.Table, presenceIn(s.Profile.Table), presenceIn(s.Premium.Table), presenceIn(s.Banned.Table), s.Profile.Spent.All()
				return func(dst []HF64) []HF64 {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if prem.has(r) && prof.has(r) && !ban.has(r) {
								dst = append(dst, HF64{id(t, r), sp[r]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HMissF32, *HMissF32]{
			Meta: Info{Name: "orders_in_category", Family: "join ref", Set: "shop",
				TW: `query CategoryOrders(c: int32) { from Order o  join Product pr on o.Item  where pr.Category == c
	select o, false as Missing, pr.Price }`,
				SQL: `SELECT o.idx, o.gen, 0, pr.price FROM orders o JOIN product pr ON pr.idx = o.item_idx AND pr.gen = o.item_gen
	WHERE pr.category = ? ORDER BY o.idx`,
				Indexes: []string{`CREATE INDEX orders_item ON orders(item_idx, item_gen, quantity)`, `CREATE INDEX product_category ON product(category)`}},
			Args:   func(*Data) []any { return []any{7} },
			NewGen: genCategoryOrders,
			NewPar: genCategoryOrdersPar,
			NewHand: func(d *Data) func([]HMissF32) []HMissF32 {
				s := d.Shop
				t, it, prods, cat, pr := s.Order.Table, s.Order.Item.All(), s.Product.Table, s.Product.Category.All(), s.Product.Price.All()
				return func(dst []HMissF32) []HMissF32 {
					l := prods.Lease()
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if pr0 := l.Find(it[r]); pr0 >= 0 && cat[pr0] == 7 {
								dst = append(dst, HMissF32{ID: id(t, r), V: pr[pr0]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HMissI32, *HMissI32]{
			Meta: Info{Name: "bulk_orders_left_buyer", Family: "left join ref", Set: "shop",
				TW: `query BulkOrders(q: int32) { from Order o  left join Player p on o.Buyer  where o.Quantity == q
	select o, missing(p) as Orphan, p.Level }`,
				SQL: `SELECT o.idx, o.gen, p.idx IS NULL, coalesce(p.level, 0) FROM orders o
	LEFT JOIN player p ON p.idx = o.buyer_idx AND p.gen = o.buyer_gen WHERE o.quantity = ? ORDER BY o.idx`,
				Indexes: []string{`CREATE INDEX orders_quantity ON orders(quantity)`}},
			Args:   func(*Data) []any { return []any{10} },
			NewGen: genBulkOrders,
			NewPar: genBulkOrdersPar,
			NewHand: func(d *Data) func([]HMissI32) []HMissI32 {
				s := d.Shop
				t, by, q, pl, lv := s.Order.Table, s.Order.Buyer.All(), s.Order.Quantity.All(), s.Player.Table, s.Player.Level.All()
				return func(dst []HMissI32) []HMissI32 {
					l := pl.Lease()
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if q[r] == 10 {
								row := HMissI32{ID: id(t, r), Missing: true}
								if pr := l.Find(by[r]); pr >= 0 {
									row.Missing, row.V = false, lv[pr]
								}
								dst = append(dst, row)
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "big_spenders", Family: "semi-join", Set: "shop",
				TW: `query BigSpenders(price: float64) { from Player p  where exists(from Order o where o.Buyer == p and o.Price > price)
	select p, p.Level }`,
				SQL:     `SELECT idx, gen, level FROM player WHERE (idx, gen) IN (SELECT buyer_idx, buyer_gen FROM orders WHERE price > ?) ORDER BY idx`,
				Indexes: []string{`CREATE INDEX orders_price ON orders(price)`, `CREATE INDEX orders_buyer ON orders(buyer_idx, buyer_gen)`}},
			Args:    func(*Data) []any { return []any{45.0} },
			NewHand: semiJoin,
			NewGen: func(d *Data) func([]HI32) []HI32 {
				q := shop.NewBigSpenders(d.Shop)
				var rows []shop.BigSpendersRow
				return func(dst []HI32) []HI32 {
					rows = q.Run(rows, 45)
					for i := range rows {
						dst = append(dst, HI32{idOf(rows[i].Player), rows[i].Level})
					}
					return dst
				}
			},
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "unsold_bulk_products", Family: "anti-join", Set: "shop",
				TW: `query UnsoldBulk(q: int32) { from Product pr  where not exists(from Order o where o.Item == pr and o.Quantity >= q)
	select pr, pr.Stock }`,
				SQL:     `SELECT idx, gen, stock FROM product WHERE (idx, gen) NOT IN (SELECT item_idx, item_gen FROM orders WHERE quantity >= ?) ORDER BY idx`,
				Indexes: []string{`CREATE INDEX orders_quantity ON orders(quantity)`}},
			Args: func(*Data) []any { return []any{9} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				s := d.Shop
				t, it, q, prods, st := s.Order.Table, s.Order.Item.All(), s.Order.Quantity.All(), s.Product.Table, s.Product.Stock.All()
				sold := make([]uint64, (prods.Cap()+63)/64)
				return func(dst []HI32) []HI32 {
					clear(sold)
					l := prods.Lease()
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if q[r] >= 9 {
								if pr := l.Find(it[r]); pr >= 0 {
									sold[pr>>6] |= 1 << (pr & 63)
								}
							}
						}
					}
					for w := walk(prods); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if sold[r>>6]>>(r&63)&1 == 0 {
								dst = append(dst, HI32{id(prods, r), st[r]})
							}
						}
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HI32) []HI32 {
				q := shop.NewUnsoldBulk(d.Shop)
				var rows []shop.UnsoldBulkRow
				return func(dst []HI32) []HI32 {
					rows = q.Run(rows, 9)
					for i := range rows {
						dst = append(dst, HI32{idOf(rows[i].Product), rows[i].Stock})
					}
					return dst
				}
			},
		},
		setOp("union_high_or_premium", "union",
			`query HighOrPremium() { (from Player p where p.Level >= 50 select p) union (from Player p where p.Region < 4 and has(p, Premium) select p) }`,
			`SELECT idx, gen FROM player WHERE level >= 50 UNION SELECT p.idx, p.gen FROM player p JOIN premium m ON m.idx = p.idx WHERE p.region < 4 ORDER BY 1`,
			opUnion,
			func(d *Data) func([]H) []H {
				q := shop.NewHighOrPremium(d.Shop)
				return genH(q.Run, func(r *shop.HighOrPremiumRow) tickwork.Handle { return r.Player })
			}),
		setOp("intersect_high_and_premium", "intersect",
			`query HighAndPremium() { (from Player p where p.Level >= 50 select p) intersect (from Player p where p.Region < 4 and has(p, Premium) select p) }`,
			`SELECT idx, gen FROM player WHERE level >= 50 INTERSECT SELECT p.idx, p.gen FROM player p JOIN premium m ON m.idx = p.idx WHERE p.region < 4 ORDER BY 1`,
			opIntersect,
			func(d *Data) func([]H) []H {
				q := shop.NewHighAndPremium(d.Shop)
				return genH(q.Run, func(r *shop.HighAndPremiumRow) tickwork.Handle { return r.Player })
			}),
		setOp("except_high_not_premium", "except",
			`query HighNotPremium() { (from Player p where p.Level >= 50 select p) except (from Player p where p.Region < 4 and has(p, Premium) select p) }`,
			`SELECT idx, gen FROM player WHERE level >= 50 EXCEPT SELECT p.idx, p.gen FROM player p JOIN premium m ON m.idx = p.idx WHERE p.region < 4 ORDER BY 1`,
			opExcept,
			func(d *Data) func([]H) []H {
				q := shop.NewHighNotPremium(d.Shop)
				return genH(q.Run, func(r *shop.HighNotPremiumRow) tickwork.Handle { return r.Player })
			}),
		&Kase[HI64, *HI64]{
			Meta: Info{Name: "order_rank_per_buyer", Family: "window row_number", Set: "shop",
				TW: `query BulkRanks(q: int32) { from Order o  where o.Quantity >= q
	select o, row_number() over (partition by o.Buyer order by o.Day, index(o)) as N }`,
				SQL: `SELECT idx, gen, row_number() OVER (PARTITION BY buyer_idx, buyer_gen ORDER BY day, idx) FROM orders
	WHERE quantity >= ? ORDER BY idx`,
				Indexes: []string{`CREATE INDEX orders_quantity ON orders(quantity)`}},
			Args: func(*Data) []any { return []any{9} },
			NewHand: func(d *Data) func([]HI64) []HI64 {
				o := &d.Shop.Order
				t, by, q, day := o.Table, o.Buyer.All(), o.Quantity.All(), o.Day.All()
				type entry struct {
					buyer tickwork.Handle
					day   int32
					pos   int32 // position in dst, = ascending index
				}
				var es []entry
				return func(dst []HI64) []HI64 {
					es = es[:0]
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if q[r] >= 9 {
								es = append(es, entry{by[r], day[r], int32(len(dst))})
								dst = append(dst, HI64{ID: id(t, r)})
							}
						}
					}
					slices.SortFunc(es, func(a, b entry) int {
						return cmp.Or(cmp.Compare(a.buyer.Index(), b.buyer.Index()), cmp.Compare(a.buyer.Generation(), b.buyer.Generation()),
							cmp.Compare(a.day, b.day), cmp.Compare(a.pos, b.pos))
					})
					var n int64
					for i := range es {
						if i == 0 || es[i].buyer != es[i-1].buyer {
							n = 0
						}
						n++
						dst[es[i].pos].V = n
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HI64) []HI64 {
				q, rows := shop.NewBulkRanks(d.Shop), []shop.BulkRanksRow(nil)
				return func(dst []HI64) []HI64 {
					rows = q.Run(rows, 9)
					for _, r := range rows {
						dst = append(dst, HI64{idOf(r.Order), r.N})
					}
					return dst
				}
			},
		},
		&Kase[HDayI64, *HDayI64]{
			Meta: Info{Name: "running_quantity", Family: "window running sum", Set: "shop",
				TW: `query RunningQuantity(days: int32) { from Order o  where o.Day < days
	select o, o.Day, sum(o.Quantity) over (order by o.Day, index(o)) as Running  order by o.Day }`,
				SQL: `SELECT idx, gen, day, sum(quantity) OVER (ORDER BY day, idx ROWS UNBOUNDED PRECEDING) FROM orders
	WHERE day < ? ORDER BY day, idx`,
				Indexes: []string{`CREATE INDEX orders_day ON orders(day)`}},
			Args: func(*Data) []any { return []any{50} },
			NewHand: func(d *Data) func([]HDayI64) []HDayI64 {
				o := &d.Shop.Order
				t, q, day := o.Table, o.Quantity.All(), o.Day.All()
				return func(dst []HDayI64) []HDayI64 {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if day[r] < 50 {
								dst = append(dst, HDayI64{ID{Index: uint32(r)}, day[r], int64(q[r])})
							}
						}
					}
					slices.SortFunc(dst, func(a, b HDayI64) int { return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.ID.Index, b.ID.Index)) })
					var run int64
					for i := range dst {
						run += dst[i].V
						dst[i].V = run
						dst[i].ID = id(t, int(dst[i].ID.Index))
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HDayI64) []HDayI64 {
				q, rows := shop.NewRunningQuantity(d.Shop), []shop.RunningQuantityRow(nil)
				return func(dst []HDayI64) []HDayI64 {
					rows = q.Run(rows, 50)
					for _, r := range rows {
						dst = append(dst, HDayI64{idOf(r.Order), r.Day, r.Running})
					}
					return dst
				}
			},
		},
		&Kase[HDayF64, *HDayF64]{
			Meta: Info{Name: "orders_page_after", Family: "keyset pagination", Set: "shop",
				TW: `query OrdersAfter(day: int32, ix: int32, n: int32) {
	from Order o  select o, o.Day, o.Price  order by o.Day, index(o)  after (day, ix)  limit n }`,
				SQL:     `SELECT idx, gen, day, price FROM orders WHERE (day, idx) > (?, ?) ORDER BY day, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX orders_day ON orders(day)`}},
			Args: func(d *Data) []any { return []any{d.P.Day, d.P.AfterIx, 50} },
			NewHand: func(d *Data) func([]HDayF64) []HDayF64 {
				o := &d.Shop.Order
				t, day, pr, kd, ki := o.Table, o.Day.All(), o.Price.All(), d.P.Day, int(d.P.AfterIx)
				less := func(a, b HDayF64) bool { return a.Day < b.Day }
				return func(dst []HDayF64) []HDayF64 {
					const n = 50
					dst = grow(dst, n)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if dy := day[r]; (dy > kd || dy == kd && r > ki) && (len(dst) < n || dy < dst[n-1].Day) {
								dst = topN(dst, n, HDayF64{ID{Index: uint32(r)}, dy, pr[r]}, less)
							}
						}
					}
					for i := range dst {
						dst[i].ID = id(t, int(dst[i].ID.Index))
					}
					return dst
				}
			},
			NewGen: func(d *Data) func([]HDayF64) []HDayF64 {
				q, rows, day, ix := shop.NewOrdersAfter(d.Shop), []shop.OrdersAfterRow(nil), d.P.Day, d.P.AfterIx
				return func(dst []HDayF64) []HDayF64 {
					rows = q.Run(rows, day, ix, 50)
					for _, r := range rows {
						dst = append(dst, HDayF64{idOf(r.Order), r.Day, r.Price})
					}
					return dst
				}
			},
		},
		&Kase[DayF64, *DayF64]{
			Meta: Info{Name: "revenue_by_day", Family: "group-by int float sum", Set: "shop",
				TW:        `query RevenueByDay() { from Order o  group by o.Day  select o.Day, sum(o.Price) as Sum, count() as N }`,
				SQL:       `SELECT day, sum(price), count(*) FROM orders GROUP BY day ORDER BY day`,
				Indexes:   []string{`CREATE INDEX orders_day_price ON orders(day, price)`},
				Tolerance: "sum of float64: SQLite compensates (Kahan-Babuska-Neumaier), the query adds plainly in index order"},
			NewGen: genRevenueByDay,
			NewHand: func(d *Data) func([]DayF64) []DayF64 {
				o := &d.Shop.Order
				t, day, pr := o.Table, o.Day.All(), o.Price.All()
				groups := map[int32]int{}
				return func(dst []DayF64) []DayF64 {
					clear(groups)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							g, ok := groups[day[r]]
							if !ok {
								g = len(dst)
								groups[day[r]] = g
								dst = append(dst, DayF64{Day: day[r]})
							}
							dst[g].Sum += pr[r]
							dst[g].N++
						}
					}
					slices.SortFunc(dst, func(a, b DayF64) int { return cmp.Compare(a.Day, b.Day) })
					return dst
				}
			},
			Close: func(a, b DayF64) bool { return a.Day == b.Day && a.N == b.N && near(a.Sum, b.Sum) },
		},
		&Kase[Count, *Count]{
			Meta: Info{Name: "count_banned_premium", Family: "aggregate has", Set: "shop",
				TW:  `query BannedPremium() { from Premium m  where has(m, Banned)  select count() }`,
				SQL: `SELECT count(*) FROM premium m JOIN banned b ON b.idx = m.idx`},
			NewGen: genBannedPremium,
			NewPar: genBannedPremiumPar,
			NewHand: func(d *Data) func([]Count) []Count {
				prem, ban := d.Shop.Premium.Table, presenceIn(d.Shop.Banned.Table)
				return func(dst []Count) []Count {
					var n int64
					for w := walk(prem); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if ban.has(r) {
								n++
							}
						}
					}
					return append(dst, Count{n})
				}
			},
		},
	}
}

// semiJoin is big_spenders' hand loop: a bitset of the players with an
// order over 45, then a scan of the players.
func semiJoin(d *Data) func([]HI32) []HI32 {
	s := d.Shop
	t, by, pr, pl, lv := s.Order.Table, s.Order.Buyer.All(), s.Order.Price.All(), s.Player.Table, s.Player.Level.All()
	bought := make([]uint64, (pl.Cap()+63)/64)
	return func(dst []HI32) []HI32 {
		clear(bought)
		l := pl.Lease()
		for w := walk(t); w.next(); {
			lo, hi := w.lo, w.hi
			for r := lo; r < hi; r++ {
				if pr[r] > 45 {
					if p := l.Find(by[r]); p >= 0 {
						bought[p>>6] |= 1 << (p & 63)
					}
				}
			}
		}
		for w := walk(pl); w.next(); {
			lo, hi := w.lo, w.hi
			for r := lo; r < hi; r++ {
				if bought[r>>6]>>(r&63)&1 != 0 {
					dst = append(dst, HI32{id(pl, r), lv[r]})
				}
			}
		}
		return dst
	}
}

// The set operations of setOp.
const (
	opUnion = iota
	opIntersect
	opExcept
)

// setOp is a union / intersect / except of two player sets: Level >= 50,
// and Premium players of regions 0..3. The hand loop is one scan that
// combines the two tests as op says (both sides are sets of one table's
// entities, so the result is in ascending index by construction).
func setOp(name, family, tw, sql string, op int, gen func(d *Data) func([]H) []H) Case {
	return &Kase[H, *H]{
		NewGen: gen,
		Meta: Info{Name: name, Family: family, Set: "shop", TW: tw, SQL: sql,
			Indexes: []string{`CREATE INDEX player_level ON player(level)`, `CREATE INDEX player_region_level ON player(region, level)`}},
		NewHand: func(d *Data) func([]H) []H {
			s := d.Shop
			t, prem, lv, rg := s.Player.Table, presenceIn(s.Premium.Table), s.Player.Level.All(), s.Player.Region.All()
			return func(dst []H) []H {
				for w := walk(t); w.next(); {
					lo, hi := w.lo, w.hi
					for r := lo; r < hi; r++ {
						a, b := lv[r] >= 50, rg[r] < 4 && prem.has(r)
						if op == opUnion && (a || b) || op == opIntersect && a && b || op == opExcept && a && !b {
							dst = append(dst, H{id(t, r)})
						}
					}
				}
				return dst
			}
		},
	}
}

// genH is a generated set operation's side of a case: its rows' handles.
func genH[R any](run func([]R) []R, h func(*R) tickwork.Handle) func([]H) []H {
	var rows []R
	return func(dst []H) []H {
		rows = run(rows)
		for i := range rows {
			dst = append(dst, H{idOf(h(&rows[i]))})
		}
		return dst
	}
}

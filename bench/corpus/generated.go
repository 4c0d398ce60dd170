package corpus

import (
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
)

// The generated sides ([Kase].NewGen) of the cases whose query is declared
// in arena/arena.tw or bench/shop/shop.tw: each makes the query once (its
// scratch too) and a reused row buffer, runs it with the case's
// parameters (the hand loop's, [Params]) and copies its rows into the
// corpus's row type (handles as [ID]; a point lookup by handle through its
// Get, no buffer), in a loop written out per case (no
// call through a func value per row: the hand loops have none). The
// parallel sides (NewPar) attach the query to the data set's world from
// one used chunk on (Parallel(w, 1)), so that the agreement test runs the
// lane at the Small size too; at Full every such table has 49 chunks or
// more, past tickwork.QueryParallelChunks.

func genLowHealth(d *Data) func([]HI32) []HI32 { return genLowHealthOn(d, nil) }

// genLowHealthPar is genLowHealth on the parallel lane (Parallel, over the data's world).
func genLowHealthPar(d *Data) func([]HI32) []HI32 { return genLowHealthOn(d, d.Arena.World()) }

func genLowHealthOn(d *Data, w *tickwork.World) func([]HI32) []HI32 {
	q := arena.NewLowHealth(d.A)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []arena.LowHealthRow
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], 1)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Unit), r.Health})
		}
		return dst
	}
}

func genBodyAt(d *Data) func([]XY) []XY {
	q, h := arena.NewBodyAt(d.A), d.P.Body
	return func(dst []XY) []XY {
		if r, ok := q.Get(h); ok {
			dst = append(dst, XY{r.X, r.Y})
		}
		return dst
	}
}

func genUnitsByHealth(d *Data) func([]I32Count) []I32Count {
	q := arena.NewHealthCounts(d.A)
	var rows []arena.HealthCountsRow
	return func(dst []I32Count) []I32Count {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, I32Count{r.Health, r.Count})
		}
		return dst
	}
}

func genVelocity(d *Data) func([]BodyStats) []BodyStats {
	q := arena.NewVelocity(d.A)
	return func(dst []BodyStats) []BodyStats {
		r := q.Run()
		return append(dst, BodyStats{r.MinVX, r.MaxVX, r.AvgVX, r.SumVY})
	}
}

func genProjectileTargets(d *Data) func([]HXY) []HXY { return genProjectileTargetsOn(d, nil) }

// genProjectileTargetsPar is genProjectileTargets on the parallel lane (Parallel, over the data's world).
func genProjectileTargetsPar(d *Data) func([]HXY) []HXY {
	return genProjectileTargetsOn(d, d.Arena.World())
}

func genProjectileTargetsOn(d *Data, w *tickwork.World) func([]HXY) []HXY {
	q := arena.NewProjectileTargets(d.A)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []arena.ProjectileTargetsRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Projectile), r.X, r.Y})
		}
		return dst
	}
}

func genOldProjectiles(d *Data) func([]HMissF32) []HMissF32 { return genOldProjectilesOn(d, nil) }

// genOldProjectilesPar is genOldProjectiles on the parallel lane (Parallel, over the data's world).
func genOldProjectilesPar(d *Data) func([]HMissF32) []HMissF32 {
	return genOldProjectilesOn(d, d.Arena.World())
}

func genOldProjectilesOn(d *Data, w *tickwork.World) func([]HMissF32) []HMissF32 {
	q := arena.NewOldProjectiles(d.A)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []arena.OldProjectilesRow
	return func(dst []HMissF32) []HMissF32 {
		rows = q.Run(rows[:0], 24)
		for _, r := range rows {
			dst = append(dst, HMissF32{idOf(r.Projectile), r.Lost, r.X})
		}
		return dst
	}
}

func genHealthyNearWall(d *Data) func([]HXY) []HXY { return genHealthyNearWallOn(d, nil) }

// genHealthyNearWallPar is genHealthyNearWall on the parallel lane (Parallel, over the data's world).
func genHealthyNearWallPar(d *Data) func([]HXY) []HXY {
	return genHealthyNearWallOn(d, d.Arena.World())
}

func genHealthyNearWallOn(d *Data, w *tickwork.World) func([]HXY) []HXY {
	q := arena.NewHealthyNearWall(d.A)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []arena.HealthyNearWallRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], 200)
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Unit), r.X, r.Y})
		}
		return dst
	}
}

func genVeterans(d *Data) func([]HI64) []HI64 { return genVeteransOn(d, nil) }

// genVeteransPar is genVeterans on the parallel lane (Parallel, over the data's world).
func genVeteransPar(d *Data) func([]HI64) []HI64 { return genVeteransOn(d, d.ShopWorld()) }

func genVeteransOn(d *Data, w *tickwork.World) func([]HI64) []HI64 {
	q := shop.NewVeterans(d.Shop)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []shop.VeteransRow
	return func(dst []HI64) []HI64 {
		rows = q.Run(rows[:0], 50, 3)
		for _, r := range rows {
			dst = append(dst, HI64{idOf(r.Player), r.Score})
		}
		return dst
	}
}

func genProductAt(d *Data) func([]I64F32) []I64F32 {
	q, h := shop.NewProductAt(d.Shop), d.P.Product
	return func(dst []I64F32) []I64F32 {
		if r, ok := q.Get(h); ok {
			dst = append(dst, I64F32{r.SKU, r.Price})
		}
		return dst
	}
}

func genRegionStats(d *Data) func([]PlayerStats) []PlayerStats {
	q := shop.NewRegionStats(d.Shop)
	return func(dst []PlayerStats) []PlayerStats {
		r := q.Run(2)
		return append(dst, PlayerStats{r.Count, r.SumScore, r.MinLevel, r.MaxRating, r.AvgLevel})
	}
}

func genRevenue(d *Data) func([]F64x2) []F64x2 {
	q := shop.NewRevenue(d.Shop)
	return func(dst []F64x2) []F64x2 {
		r := q.Run()
		return append(dst, F64x2{r.Sum, r.Avg})
	}
}

func genOrdersByItem(d *Data) func([]ItemTotals) []ItemTotals {
	q := shop.NewOrdersByItem(d.Shop)
	var rows []shop.OrdersByItemRow
	return func(dst []ItemTotals) []ItemTotals {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, ItemTotals{idOf(r.Item), r.N, r.Qty})
		}
		return dst
	}
}

func genProductsByPrice(d *Data) func([]PriceGroup) []PriceGroup {
	q := shop.NewProductsByPrice(d.Shop)
	var rows []shop.ProductsByPriceRow
	return func(dst []PriceGroup) []PriceGroup {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, PriceGroup{r.Price, r.N, r.Avg})
		}
		return dst
	}
}

func genRegionBands(d *Data) func([]RegionBand) []RegionBand {
	q := shop.NewRegionBands(d.Shop)
	var rows []shop.RegionBandsRow
	return func(dst []RegionBand) []RegionBand {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, RegionBand{r.Region, r.Band, r.N, r.Score})
		}
		return dst
	}
}

func genTopScores(d *Data) func([]HI64) []HI64 {
	q := shop.NewTopScores(d.Shop)
	var rows []shop.TopScoresRow
	return func(dst []HI64) []HI64 {
		rows = q.Run(rows[:0], 20)
		for _, r := range rows {
			dst = append(dst, HI64{idOf(r.Player), r.Score})
		}
		return dst
	}
}

func genTopLevels(d *Data) func([]RegionBand) []RegionBand {
	q := shop.NewTopLevels(d.Shop)
	var rows []shop.TopLevelsRow
	return func(dst []RegionBand) []RegionBand {
		rows = q.Run(rows[:0], 20)
		for _, r := range rows {
			dst = append(dst, RegionBand{r.Region, r.Level, int64(r.N), r.Score})
		}
		return dst
	}
}

func genRegions(d *Data) func([]I32) []I32 {
	q := shop.NewRegions(d.Shop)
	var rows []shop.RegionsRow
	return func(dst []I32) []I32 {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, I32{r.Region})
		}
		return dst
	}
}

func genRegionLevels(d *Data) func([]I32x2) []I32x2 {
	q := shop.NewRegionLevels(d.Shop)
	var rows []shop.RegionLevelsRow
	return func(dst []I32x2) []I32x2 {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, I32x2{r.Region, r.Level})
		}
		return dst
	}
}

func genPremiumSpend(d *Data) func([]HF64) []HF64 { return genPremiumSpendOn(d, nil) }

// genPremiumSpendPar is genPremiumSpend on the parallel lane (Parallel, over the data's world).
func genPremiumSpendPar(d *Data) func([]HF64) []HF64 { return genPremiumSpendOn(d, d.ShopWorld()) }

func genPremiumSpendOn(d *Data, w *tickwork.World) func([]HF64) []HF64 {
	q := shop.NewPremiumSpend(d.Shop)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []shop.PremiumSpendRow
	return func(dst []HF64) []HF64 {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, HF64{idOf(r.Player), r.Spent})
		}
		return dst
	}
}

func genCategoryOrders(d *Data) func([]HMissF32) []HMissF32 { return genCategoryOrdersOn(d, nil) }

// genCategoryOrdersPar is genCategoryOrders on the parallel lane (Parallel, over the data's world).
func genCategoryOrdersPar(d *Data) func([]HMissF32) []HMissF32 {
	return genCategoryOrdersOn(d, d.ShopWorld())
}

func genCategoryOrdersOn(d *Data, w *tickwork.World) func([]HMissF32) []HMissF32 {
	q := shop.NewCategoryOrders(d.Shop)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []shop.CategoryOrdersRow
	return func(dst []HMissF32) []HMissF32 {
		rows = q.Run(rows[:0], 7)
		for _, r := range rows {
			dst = append(dst, HMissF32{idOf(r.Order), r.Missing, r.Price})
		}
		return dst
	}
}

func genBulkOrders(d *Data) func([]HMissI32) []HMissI32 { return genBulkOrdersOn(d, nil) }

// genBulkOrdersPar is genBulkOrders on the parallel lane (Parallel, over the data's world).
func genBulkOrdersPar(d *Data) func([]HMissI32) []HMissI32 { return genBulkOrdersOn(d, d.ShopWorld()) }

func genBulkOrdersOn(d *Data, w *tickwork.World) func([]HMissI32) []HMissI32 {
	q := shop.NewBulkOrders(d.Shop)
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []shop.BulkOrdersRow
	return func(dst []HMissI32) []HMissI32 {
		rows = q.Run(rows[:0], 10)
		for _, r := range rows {
			dst = append(dst, HMissI32{idOf(r.Order), r.Orphan, r.Level})
		}
		return dst
	}
}

func genRevenueByDay(d *Data) func([]DayF64) []DayF64 {
	q := shop.NewRevenueByDay(d.Shop)
	var rows []shop.RevenueByDayRow
	return func(dst []DayF64) []DayF64 {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, DayF64{r.Day, r.Sum, r.N})
		}
		return dst
	}
}

func genBannedPremium(d *Data) func([]Count) []Count { return genBannedPremiumOn(d, nil) }

// genBannedPremiumPar is genBannedPremium on the parallel lane (Parallel, over the data's world).
func genBannedPremiumPar(d *Data) func([]Count) []Count { return genBannedPremiumOn(d, d.ShopWorld()) }

func genBannedPremiumOn(d *Data, w *tickwork.World) func([]Count) []Count {
	q := shop.NewBannedPremium(d.Shop)
	if w != nil {
		q.Parallel(w, 1)
	}
	return func(dst []Count) []Count { return append(dst, Count{q.Run().Count}) }
}

// genBodiesInBox is bodies_in_box's generated side: BodiesInBox, a scan
// (arena.tw declares no grid; the grid's box is ix_stores_in_box).
func genBodiesInBox(d *Data) func([]HXY) []HXY { return genBodiesInBoxOn(d, nil) }

// genBodiesInBoxPar is genBodiesInBox on the parallel lane.
func genBodiesInBoxPar(d *Data) func([]HXY) []HXY { return genBodiesInBoxOn(d, d.Arena.World()) }

func genBodiesInBoxOn(d *Data, w *tickwork.World) func([]HXY) []HXY {
	q, b := arena.NewBodiesInBox(d.A), d.P.Box
	if w != nil {
		q.Parallel(w, 1)
	}
	var rows []arena.BodiesInBoxRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], b[0], b[1], b[2], b[3])
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Body), r.X, r.Y})
		}
		return dst
	}
}

package corpus

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
)

// The generated sides ([Kase].NewGen) of the cases whose query is declared
// in arena/arena.tw or bench/shop/shop.tw: each makes the query once (its
// scratch too) and a reused row buffer, runs it with the case's
// parameters (the hand loop's, [Params]) and copies its rows into the
// corpus's row type (handles as [ID]).

// gen runs a query of rows G into a reused buffer and converts them.
func gen[G, R any](run func([]G) []G, conv func(G) R) func([]R) []R {
	var rows []G
	return func(dst []R) []R {
		rows = run(rows[:0])
		for _, g := range rows {
			dst = append(dst, conv(g))
		}
		return dst
	}
}

func genLowHealth(d *Data) func([]HI32) []HI32 {
	q := arena.NewLowHealth(d.A)
	return gen(func(r []arena.LowHealthRow) []arena.LowHealthRow { return q.Run(r, 1) },
		func(r arena.LowHealthRow) HI32 { return HI32{idOf(r.Unit), r.Health} })
}

func genBodyAt(d *Data) func([]XY) []XY {
	q, h := arena.NewBodyAt(d.A), d.P.Body
	return gen(func(r []arena.BodyAtRow) []arena.BodyAtRow { return q.Run(r, h) },
		func(r arena.BodyAtRow) XY { return XY{r.X, r.Y} })
}

func genUnitsByHealth(d *Data) func([]I32Count) []I32Count {
	q := arena.NewUnitsByHealth(d.A)
	return gen(q.Run, func(r arena.UnitsByHealthRow) I32Count { return I32Count{r.Health, r.Count} })
}

func genVelocity(d *Data) func([]BodyStats) []BodyStats {
	q := arena.NewVelocity(d.A)
	return func(dst []BodyStats) []BodyStats {
		r := q.Run()
		return append(dst, BodyStats{r.MinVX, r.MaxVX, r.AvgVX, r.SumVY})
	}
}

func genProjectileTargets(d *Data) func([]HXY) []HXY {
	q := arena.NewProjectileTargets(d.A)
	return gen(q.Run, func(r arena.ProjectileTargetsRow) HXY { return HXY{idOf(r.Projectile), r.X, r.Y} })
}

func genOldProjectiles(d *Data) func([]HMissF32) []HMissF32 {
	q := arena.NewOldProjectiles(d.A)
	return gen(func(r []arena.OldProjectilesRow) []arena.OldProjectilesRow { return q.Run(r, 24) },
		func(r arena.OldProjectilesRow) HMissF32 { return HMissF32{idOf(r.Projectile), r.Lost, r.X} })
}

func genHealthyNearWall(d *Data) func([]HXY) []HXY {
	q := arena.NewHealthyNearWall(d.A)
	return gen(func(r []arena.HealthyNearWallRow) []arena.HealthyNearWallRow { return q.Run(r, 200) },
		func(r arena.HealthyNearWallRow) HXY { return HXY{idOf(r.Unit), r.X, r.Y} })
}

func genVeterans(d *Data) func([]HI64) []HI64 {
	q := shop.NewVeterans(d.Shop)
	return gen(func(r []shop.VeteransRow) []shop.VeteransRow { return q.Run(r, 50, 3) },
		func(r shop.VeteransRow) HI64 { return HI64{idOf(r.Player), r.Score} })
}

func genProductAt(d *Data) func([]I64F32) []I64F32 {
	q, h := shop.NewProductAt(d.Shop), d.P.Product
	return gen(func(r []shop.ProductAtRow) []shop.ProductAtRow { return q.Run(r, h) },
		func(r shop.ProductAtRow) I64F32 { return I64F32{r.SKU, r.Price} })
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
	return gen(q.Run, func(r shop.OrdersByItemRow) ItemTotals { return ItemTotals{idOf(r.Item), r.N, r.Qty} })
}

func genProductsByPrice(d *Data) func([]PriceGroup) []PriceGroup {
	q := shop.NewProductsByPrice(d.Shop)
	return gen(q.Run, func(r shop.ProductsByPriceRow) PriceGroup { return PriceGroup{r.Price, r.N, r.Avg} })
}

func genRegionBands(d *Data) func([]RegionBand) []RegionBand {
	q := shop.NewRegionBands(d.Shop)
	return gen(q.Run, func(r shop.RegionBandsRow) RegionBand { return RegionBand{r.Region, r.Band, r.N, r.Score} })
}

func genTopScores(d *Data) func([]HI64) []HI64 {
	q := shop.NewTopScores(d.Shop)
	return gen(func(r []shop.TopScoresRow) []shop.TopScoresRow { return q.Run(r, 20) },
		func(r shop.TopScoresRow) HI64 { return HI64{idOf(r.Player), r.Score} })
}

func genTopLevels(d *Data) func([]RegionBand) []RegionBand {
	q := shop.NewTopLevels(d.Shop)
	return gen(func(r []shop.TopLevelsRow) []shop.TopLevelsRow { return q.Run(r, 20) },
		func(r shop.TopLevelsRow) RegionBand { return RegionBand{r.Region, r.Level, int64(r.N), r.Score} })
}

func genRegions(d *Data) func([]I32) []I32 {
	q := shop.NewRegions(d.Shop)
	return gen(q.Run, func(r shop.RegionsRow) I32 { return I32{r.Region} })
}

func genRegionLevels(d *Data) func([]I32x2) []I32x2 {
	q := shop.NewRegionLevels(d.Shop)
	return gen(q.Run, func(r shop.RegionLevelsRow) I32x2 { return I32x2{r.Region, r.Level} })
}

func genPremiumSpend(d *Data) func([]HF64) []HF64 {
	q := shop.NewPremiumSpend(d.Shop)
	return gen(q.Run, func(r shop.PremiumSpendRow) HF64 { return HF64{idOf(r.Player), r.Spent} })
}

func genCategoryOrders(d *Data) func([]HMissF32) []HMissF32 {
	q := shop.NewCategoryOrders(d.Shop)
	return gen(func(r []shop.CategoryOrdersRow) []shop.CategoryOrdersRow { return q.Run(r, 7) },
		func(r shop.CategoryOrdersRow) HMissF32 { return HMissF32{idOf(r.Order), r.Missing, r.Price} })
}

func genBulkOrders(d *Data) func([]HMissI32) []HMissI32 {
	q := shop.NewBulkOrders(d.Shop)
	return gen(func(r []shop.BulkOrdersRow) []shop.BulkOrdersRow { return q.Run(r, 10) },
		func(r shop.BulkOrdersRow) HMissI32 { return HMissI32{idOf(r.Order), r.Orphan, r.Level} })
}

func genRevenueByDay(d *Data) func([]DayF64) []DayF64 {
	q := shop.NewRevenueByDay(d.Shop)
	return gen(q.Run, func(r shop.RevenueByDayRow) DayF64 { return DayF64{r.Day, r.Sum, r.N} })
}

func genBannedPremium(d *Data) func([]Count) []Count {
	q := shop.NewBannedPremium(d.Shop)
	return func(dst []Count) []Count { return append(dst, Count{q.Run().Count}) }
}

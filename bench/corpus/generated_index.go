package corpus

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
)

// The generated sides of the index-served cases (cases_index.go), as in
// generated.go: each makes its query once and copies its rows into the
// corpus's row type. NewGen's queries are served by the case's index (the
// planner's choice: TestIndexCasesPlans checks their Plan), NewScan's
// are the same queries `using scan` (arena/arena.tw, bench/shop/shop.tw).

func genPlayerByAccountIx(d *Data) func([]HI32) []HI32 {
	q, rows, a := shop.NewPlayerByAccountIx(d.Shop), []shop.PlayerByAccountIxRow(nil), d.P.Account
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], a)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Player), r.Level})
		}
		return dst
	}
}

func genPlayerByAccountScan(d *Data) func([]HI32) []HI32 {
	q, rows, a := shop.NewPlayerByAccount(d.Shop), []shop.PlayerByAccountRow(nil), d.P.Account
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], a)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Player), r.Level})
		}
		return dst
	}
}

func genOrdersOfBuyer(d *Data) func([]HDayF64) []HDayF64 {
	q, rows, b := shop.NewOrdersOfBuyer(d.Shop), []shop.OrdersOfBuyerRow(nil), d.P.Player
	return func(dst []HDayF64) []HDayF64 {
		rows = q.Run(rows[:0], b)
		for _, r := range rows {
			dst = append(dst, HDayF64{idOf(r.Order), r.Day, r.Price})
		}
		return dst
	}
}

func genOrdersOfBuyerScan(d *Data) func([]HDayF64) []HDayF64 {
	q, rows, b := shop.NewOrdersOfBuyerScan(d.Shop), []shop.OrdersOfBuyerScanRow(nil), d.P.Player
	return func(dst []HDayF64) []HDayF64 {
		rows = q.Run(rows[:0], b)
		for _, r := range rows {
			dst = append(dst, HDayF64{idOf(r.Order), r.Day, r.Price})
		}
		return dst
	}
}

func genPlayersInLevels(d *Data) func([]HI32) []HI32 {
	q, rows, a, b := shop.NewPlayersInLevels(d.Shop), []shop.PlayersInLevelsRow(nil), d.P.LevelLo, d.P.LevelHi
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], a, b)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Player), r.Level})
		}
		return dst
	}
}

func genPlayersInLevelsScan(d *Data) func([]HI32) []HI32 {
	q, rows, a, b := shop.NewPlayersInLevelsScan(d.Shop), []shop.PlayersInLevelsScanRow(nil), d.P.LevelLo, d.P.LevelHi
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], a, b)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Player), r.Level})
		}
		return dst
	}
}

func genTopScoresIx(d *Data) func([]HI64) []HI64 {
	q := shop.NewTopScoresIx(d.Shop)
	var rows []shop.TopScoresIxRow
	return func(dst []HI64) []HI64 {
		rows = q.Run(rows[:0], 20)
		for _, r := range rows {
			dst = append(dst, HI64{idOf(r.Player), r.Score})
		}
		return dst
	}
}

// genTopScoresScan: TopScores is `using scan` (top_scores' query).
func genTopScoresScan(d *Data) func([]HI64) []HI64 { return genTopScores(d) }

func genHitTotalsByTargetIx(d *Data) func([]HitTotal) []HitTotal {
	q, rows := arena.NewHitTotalsByTarget(d.A), []arena.HitTotalsByTargetRow(nil)
	return func(dst []HitTotal) []HitTotal {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, HitTotal{idOf(r.Target), r.Total, r.Hits})
		}
		return dst
	}
}

// genHitTotalsByTargetScan is also hit_totals_by_target's generated side.
func genHitTotalsByTargetScan(d *Data) func([]HitTotal) []HitTotal {
	q, rows := arena.NewHitTotalsByTargetScan(d.A), []arena.HitTotalsByTargetScanRow(nil)
	return func(dst []HitTotal) []HitTotal {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, HitTotal{idOf(r.Target), r.Total, r.Hits})
		}
		return dst
	}
}

func genItemSales(d *Data) func([]DayF64) []DayF64 {
	q, rows, it := shop.NewItemSales(d.Shop), []shop.ItemSalesRow(nil), d.P.Item
	return func(dst []DayF64) []DayF64 {
		rows = q.Run(rows[:0], it)
		for _, r := range rows {
			dst = append(dst, DayF64{r.Quantity, r.Sum, r.N})
		}
		return dst
	}
}

func genItemSalesScan(d *Data) func([]DayF64) []DayF64 {
	q, rows, it := shop.NewItemSalesScan(d.Shop), []shop.ItemSalesScanRow(nil), d.P.Item
	return func(dst []DayF64) []DayF64 {
		rows = q.Run(rows[:0], it)
		for _, r := range rows {
			dst = append(dst, DayF64{r.Quantity, r.Sum, r.N})
		}
		return dst
	}
}

func genWeakestUnitsIx(d *Data) func([]HI32) []HI32 {
	q, rows := arena.NewWeakestUnits(d.A), make([]arena.WeakestUnitsRow, 0, 10)
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], 10)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Unit), r.Health})
		}
		return dst
	}
}

// genWeakestUnitsScan is also weakest_units' generated side.
func genWeakestUnitsScan(d *Data) func([]HI32) []HI32 {
	q, rows := arena.NewWeakestUnitsScan(d.A), make([]arena.WeakestUnitsScanRow, 0, 10)
	return func(dst []HI32) []HI32 {
		rows = q.Run(rows[:0], 10)
		for _, r := range rows {
			dst = append(dst, HI32{idOf(r.Unit), r.Health})
		}
		return dst
	}
}

func genStoresInBox(d *Data) func([]HXY) []HXY {
	q, b := shop.NewStoresInBox(d.Shop), d.P.Box
	var rows []shop.StoresInBoxRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], b[0], b[1], b[2], b[3])
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Store), r.X, r.Y})
		}
		return dst
	}
}

func genStoresInBoxScan(d *Data) func([]HXY) []HXY {
	q, b := shop.NewStoresInBoxScan(d.Shop), d.P.Box
	var rows []shop.StoresInBoxScanRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], b[0], b[1], b[2], b[3])
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Store), r.X, r.Y})
		}
		return dst
	}
}

func genStoresNear(d *Data) func([]HXY) []HXY {
	q, c, r := shop.NewStoresNear(d.Shop), d.P.Centre, d.P.Radius
	r2 := float32(r * r)
	var rows []shop.StoresNearRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], c[0], c[1], r2)
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Store), r.X, r.Y})
		}
		return dst
	}
}

func genStoresNearScan(d *Data) func([]HXY) []HXY {
	q, c, r := shop.NewStoresNearScan(d.Shop), d.P.Centre, d.P.Radius
	r2 := float32(r * r)
	var rows []shop.StoresNearScanRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], c[0], c[1], r2)
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Store), r.X, r.Y})
		}
		return dst
	}
}

func genSalesOfBuyer(d *Data) func([]HF64) []HF64 {
	q, rows, b := shop.NewSalesOfBuyer(d.Shop), []shop.SalesOfBuyerRow(nil), d.P.Player
	return func(dst []HF64) []HF64 {
		rows = q.Run(rows[:0], b)
		for _, r := range rows {
			dst = append(dst, HF64{idOf(r.Item), r.Price})
		}
		return dst
	}
}

func genSalesOfBuyerScan(d *Data) func([]HF64) []HF64 {
	q, rows, b := shop.NewSalesOfBuyerScan(d.Shop), []shop.SalesOfBuyerScanRow(nil), d.P.Player
	return func(dst []HF64) []HF64 {
		rows = q.Run(rows[:0], b)
		for _, r := range rows {
			dst = append(dst, HF64{idOf(r.Item), r.Price})
		}
		return dst
	}
}

func genOrdersByItemIx(d *Data) func([]ItemTotals) []ItemTotals {
	q, rows := shop.NewOrdersByItemIx(d.Shop), []shop.OrdersByItemIxRow(nil)
	return func(dst []ItemTotals) []ItemTotals {
		rows = q.Run(rows[:0])
		for _, r := range rows {
			dst = append(dst, ItemTotals{idOf(r.Item), r.N, r.Qty})
		}
		return dst
	}
}

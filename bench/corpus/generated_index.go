package corpus

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/bench/shop"
)

// The generated sides of the index-served cases (cases_index.go): as in
// generated.go, each makes its query once and copies its rows into the
// corpus's row type. NewScan's are the same queries `using scan`.

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

func genTopScoresScan(d *Data) func([]HI64) []HI64 { return genTopScores(d) }

func genBodiesInBoxScan(d *Data) func([]HXY) []HXY {
	q, b := arena.NewBodiesInBox(d.A), d.P.Box
	var rows []arena.BodiesInBoxRow
	return func(dst []HXY) []HXY {
		rows = q.Run(rows[:0], b[0], b[1], b[2], b[3])
		for _, r := range rows {
			dst = append(dst, HXY{idOf(r.Body), r.X, r.Y})
		}
		return dst
	}
}

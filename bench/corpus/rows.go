package corpus

import (
	"math/bits"

	"github.com/tickwork/tickwork"
)

// The result row types of the cases. Each pointer lists its fields'
// addresses in SELECT order (Row); a handle is an ID (two columns).

// Count is one count.
type Count struct{ N int64 }

// H is one handle.
type H struct{ ID ID }

// HI32 is a handle and an int32 column.
type HI32 struct {
	ID ID
	V  int32
}

// HI64 is a handle and an int64 column.
type HI64 struct {
	ID ID
	V  int64
}

// HF64 is a handle and a float64 column.
type HF64 struct {
	ID ID
	V  float64
}

// HXY is a handle and two float32 columns.
type HXY struct {
	ID   ID
	X, Y float32
}

// XY is two float32 columns.
type XY struct{ X, Y float32 }

// HMissF32 is a handle, a left join's missing() and a float32 column of
// the joined table (0 when missing).
type HMissF32 struct {
	ID      ID
	Missing bool
	V       float32
}

// HMissI32 is HMissF32 with an int32 column.
type HMissI32 struct {
	ID      ID
	Missing bool
	V       int32
}

// HitTotal is a target's total damage and hit count.
type HitTotal struct {
	Target      ID
	Total, Hits int64
}

// I32Count is an int32 group key and its count.
type I32Count struct {
	K int32
	N int64
}

// BodyStats is min/max/avg of Body.VX and sum of Body.VY.
type BodyStats struct {
	MinVX, MaxVX float32
	AvgVX, SumVY float64
}

// PlayerStats is count, sum(Score), min(Level), max(Rating), avg(Level).
type PlayerStats struct {
	N, Sum int64
	Min    int32
	Max    float32
	Avg    float64
}

// F64x2 is two float64 values.
type F64x2 struct{ A, B float64 }

// ItemTotals is a ref key, its count and a sum.
type ItemTotals struct {
	Item   ID
	N, Qty int64
}

// PriceGroup is a float32 key, its count and an average.
type PriceGroup struct {
	Price float32
	N     int64
	Avg   float64
}

// RegionBand is two int32 keys, a count and a sum.
type RegionBand struct {
	Region, Band int32
	N, Score     int64
}

// I32 is one int32 value.
type I32 struct{ V int32 }

// I32x2 is two int32 values.
type I32x2 struct{ A, B int32 }

// DayI64 is an int32 key and a float64 sum and a count.
type DayF64 struct {
	Day int32
	Sum float64
	N   int64
}

// HDayI64 is a handle, a day and an int64 (a running sum).
type HDayI64 struct {
	ID  ID
	Day int32
	V   int64
}

// HDayF64 is a handle, a day and a float64 column.
type HDayF64 struct {
	ID  ID
	Day int32
	V   float64
}

// I64F32 is an int64 and a float32 column.
type I64F32 struct {
	A int64
	B float32
}

func (r *Count) Dest(d []any) []any    { return append(d, &r.N) }
func (r *H) Dest(d []any) []any        { return append(d, &r.ID.Index, &r.ID.Gen) }
func (r *HI32) Dest(d []any) []any     { return append(d, &r.ID.Index, &r.ID.Gen, &r.V) }
func (r *HI64) Dest(d []any) []any     { return append(d, &r.ID.Index, &r.ID.Gen, &r.V) }
func (r *HF64) Dest(d []any) []any     { return append(d, &r.ID.Index, &r.ID.Gen, &r.V) }
func (r *HXY) Dest(d []any) []any      { return append(d, &r.ID.Index, &r.ID.Gen, &r.X, &r.Y) }
func (r *XY) Dest(d []any) []any       { return append(d, &r.X, &r.Y) }
func (r *HMissF32) Dest(d []any) []any { return append(d, &r.ID.Index, &r.ID.Gen, &r.Missing, &r.V) }
func (r *HMissI32) Dest(d []any) []any { return append(d, &r.ID.Index, &r.ID.Gen, &r.Missing, &r.V) }
func (r *HitTotal) Dest(d []any) []any {
	return append(d, &r.Target.Index, &r.Target.Gen, &r.Total, &r.Hits)
}
func (r *I32Count) Dest(d []any) []any    { return append(d, &r.K, &r.N) }
func (r *BodyStats) Dest(d []any) []any   { return append(d, &r.MinVX, &r.MaxVX, &r.AvgVX, &r.SumVY) }
func (r *PlayerStats) Dest(d []any) []any { return append(d, &r.N, &r.Sum, &r.Min, &r.Max, &r.Avg) }
func (r *F64x2) Dest(d []any) []any       { return append(d, &r.A, &r.B) }
func (r *ItemTotals) Dest(d []any) []any  { return append(d, &r.Item.Index, &r.Item.Gen, &r.N, &r.Qty) }
func (r *PriceGroup) Dest(d []any) []any  { return append(d, &r.Price, &r.N, &r.Avg) }
func (r *RegionBand) Dest(d []any) []any  { return append(d, &r.Region, &r.Band, &r.N, &r.Score) }
func (r *I32) Dest(d []any) []any         { return append(d, &r.V) }
func (r *I32x2) Dest(d []any) []any       { return append(d, &r.A, &r.B) }
func (r *DayF64) Dest(d []any) []any      { return append(d, &r.Day, &r.Sum, &r.N) }
func (r *HDayI64) Dest(d []any) []any     { return append(d, &r.ID.Index, &r.ID.Gen, &r.Day, &r.V) }
func (r *HDayF64) Dest(d []any) []any     { return append(d, &r.ID.Index, &r.ID.Gen, &r.Day, &r.V) }
func (r *I64F32) Dest(d []any) []any      { return append(d, &r.A, &r.B) }

// runs walks the runs [lo, hi) of live rows of a table, absolute row
// indexes, ascending: the chunk walk of the generated systems (enabled
// bitmap, tickwork.NextRun), as a cursor (no closure, so nothing escapes):
//
//	for w := walk(t); w.next(); { for r := w.lo; r < w.hi; r++ { ... } }
type runs struct {
	t            *tickwork.Table
	cr, c, n     int
	base, lo, hi int
	mask         []uint64
}

// walk starts a walk of t's live rows.
func walk(t *tickwork.Table) runs {
	return runs{t: t, cr: t.ChunkRows(), c: -1, n: t.UsedChunks()}
}

// next moves to the next run and reports whether there is one.
func (w *runs) next() bool {
	for {
		if w.mask != nil {
			if lo, hi := tickwork.NextRun(w.mask, w.hi-w.base); lo < hi {
				w.lo, w.hi = w.base+lo, w.base+hi
				return true
			}
		}
		if w.c++; w.c >= w.n {
			return false
		}
		w.base, w.mask = w.c*w.cr, w.t.Enabled(w.c)
		w.hi = w.base
	}
}

// presence tests an entity's presence in a member table of its domain
// (a tag table's too): the bit of its row in the table's enabled bitmap.
type presence struct {
	t     *tickwork.Table
	shift uint // log2 of the chunk rows
	n     int  // chunks
}

// presenceIn returns the presence test of t.
func presenceIn(t *tickwork.Table) presence {
	return presence{t, uint(bits.TrailingZeros(uint(t.ChunkRows()))), t.Chunks()}
}

// has reports whether row (an entity index) is live in the table.
func (p presence) has(row int) bool {
	c := row >> p.shift
	if c >= p.n {
		return false
	}
	r := row & (1<<p.shift - 1)
	return p.t.Enabled(c)[r>>6]>>(r&63)&1 != 0
}

// id returns the ID of t's live row.
func id(t *tickwork.Table, row int) ID {
	h, _ := t.HandleAt(row)
	return idOf(h)
}

// topN adds r to dst, sorted by less and at most n long, keeping the n
// least rows; a row that ties the last is not taken (rows come in
// ascending entity index, so the index breaks ties). dst has cap >= n.
func topN[R any](dst []R, n int, r R, less func(a, b R) bool) []R {
	if len(dst) >= n {
		if n <= 0 || !less(r, dst[n-1]) {
			return dst
		}
		dst = dst[:n-1]
	}
	i := len(dst)
	dst = append(dst, r)
	for i > 0 && less(r, dst[i-1]) {
		dst[i] = dst[i-1]
		i--
	}
	dst[i] = r
	return dst
}

// grow returns dst[:0] with room for n rows, growing it once.
func grow[R any](dst []R, n int) []R {
	if cap(dst) < n {
		return make([]R, 0, n)
	}
	return dst[:0]
}

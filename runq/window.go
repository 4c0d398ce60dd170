package runq

import (
	"slices"

	"github.com/tickwork/tickwork/schema"
)

// winSpec is one window function of the select (docs/schema.md, Queries:
// window functions): its partition and order keys as ordering keys, the
// running sum's term, and the select item it fills.
type winSpec struct {
	kind  schema.WinKind
	term  *ex // sum's argument; nil for row_number
	float bool
	keys  []func(int) uint64 // partition keys, then order keys (desc applied)
	nPart int
	item  int
	// scratch: per collected row, its keys (stride len(keys)) and term
	rowKeys []uint64
	terms   []Value
	idx     []int32
	cmp     func(a, b int32) int
}

func (c *compiler) compileWindows(def *schema.Query) {
	for _, w := range def.Windows {
		s := &winSpec{kind: w.Kind, item: w.Item, nPart: len(w.Partition), float: w.T.Kind == schema.Float64}
		if w.X != nil {
			s.term = c.expr(w.X)
		}
		for _, p := range w.Partition {
			s.keys = append(s.keys, keyOf(c.expr(p), false))
		}
		for _, o := range w.Order {
			s.keys = append(s.keys, keyOf(c.expr(o.Expr), o.Desc))
		}
		s.cmp = s.compare
		c.q.wins = append(c.q.wins, s)
	}
}

// record keeps row r's window keys and terms (the r-th collected row).
func (q *Query) recordWindows(r int) {
	for _, w := range q.wins {
		for _, k := range w.keys {
			w.rowKeys = append(w.rowKeys, k(r))
		}
		if w.term != nil {
			w.terms = append(w.terms, w.term.value(r))
		}
	}
}

func (w *winSpec) compare(a, b int32) int {
	n := len(w.keys)
	if c := slices.Compare(w.rowKeys[int(a)*n:int(a)*n+n], w.rowKeys[int(b)*n:int(b)*n+n]); c != 0 {
		return c
	}
	return int(a - b) // ties by position: entity index
}

// fillWindows writes each window's value into its item of the n
// collected rows (width wd) of rows: rank or running sum, walked in the
// window's order, reset at each new partition.
func (q *Query) fillWindows(rows []Value, n, wd int) {
	for _, w := range q.wins {
		w.idx = w.idx[:0]
		for i := range n {
			w.idx = append(w.idx, int32(i))
		}
		slices.SortFunc(w.idx, w.cmp)
		nk := len(w.keys)
		var rank, si int64
		var sf float64
		for j, i := range w.idx {
			if j == 0 || !slices.Equal(w.rowKeys[int(i)*nk:int(i)*nk+w.nPart], w.rowKeys[int(w.idx[j-1])*nk:int(w.idx[j-1])*nk+w.nPart]) {
				rank, si, sf = 0, 0, 0
			}
			rank++
			var v Value
			switch {
			case w.kind == schema.RowNumber:
				v = I64(rank)
			case w.float:
				t := w.terms[i]
				if t.kind == schema.Float32 {
					sf += float64(t.Float32())
				} else {
					sf += t.Float64()
				}
				v = F64(sf)
			default:
				t := w.terms[i]
				if t.kind == schema.Int32 {
					si += int64(t.Int32())
				} else {
					si += t.Int64()
				}
				v = I64(si)
			}
			rows[int(i)*wd+w.item] = v
		}
		w.rowKeys, w.terms = w.rowKeys[:0], w.terms[:0]
	}
}

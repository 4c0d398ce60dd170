package runq

import (
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// joinSpec is one join of the query, probed for each from row before its
// where: through a ref of an earlier variable (Lease.Find, generation
// checked) or the same entity's row (an entity join).
type joinSpec struct {
	bt   *boundTable
	left bool
	via  func(r int) tickwork.Handle // the handle probed
	ref  bool                        // a ref join: the handle found is via's
}

// probeJoins sets q.jrow and q.jh for from row r; false when an inner
// join misses (the row is dropped).
func (q *Query) probeJoins(r int) bool {
	for i := range q.joins {
		j := &q.joins[i]
		h := j.via(r)
		row := -1
		if h != 0 {
			row = j.bt.tb.Lease().Find(h)
		}
		q.jrow[i] = row
		q.jh[i] = 0
		if row >= 0 {
			if j.ref {
				q.jh[i] = h
			} else {
				q.jh[i] = tickwork.QueryHandle(j.bt.tb, row)
			}
		} else if !j.left {
			return false
		}
	}
	return true
}

// compileJoins binds the query's joins; an error (unbound table, a
// feature not run) is left in c.err.
func (c *compiler) compileJoins(def *schema.Query) {
	q := c.q
	q.jrow = make([]int, len(def.Joins))
	q.jh = make([]tickwork.Handle, len(def.Joins))
	for i, j := range def.Joins {
		bt := c.cat.tables[j.Table.Name]
		if bt == nil {
			c.unbound(j.Pos, j.Table.Name, "")
			return
		}
		s := joinSpec{bt: bt, left: j.Left}
		if j.Kind == schema.RefJoin {
			if v := c.varOf(j); v != nil && j.Via != nil {
				s.via = c.expr(&schema.ColRef{Pos: j.Pos, Var: v, Column: j.Via}).h
			}
			s.ref = true
		} else {
			s.via = c.expr(&schema.VarRef{Pos: j.Pos, Var: j.On}).h
		}
		if s.via == nil {
			c.unsupported(j.Pos, "this join")
			return
		}
		q.joins = append(q.joins, s)
		c.joinIndex[j.Var] = i
	}
}

// varOf is the variable whose ref column a ref join follows.
func (c *compiler) varOf(j *schema.Join) *schema.Var { return j.On }

// joinCol reads column col of join variable v's row: its zero value when
// a left join missed.
func (c *compiler) joinCol(e *schema.ColRef, ji int) *ex {
	bt := c.q.joins[ji].bt
	bc := bt.cols[e.Column.Index]
	if !bc.ok {
		c.unbound(e.Pos, bt.def.Name, e.Column.Name)
		return &ex{}
	}
	jrow := c.q.jrow
	switch k := e.Column.Type.Kind; k {
	case schema.Int32:
		s := bc.i32
		return &ex{k: k, i32: func(int) int32 {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return 0
		}}
	case schema.Int64:
		s := bc.i64
		return &ex{k: k, i64: func(int) int64 {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return 0
		}}
	case schema.Float32:
		s := bc.f32
		return &ex{k: k, f32: func(int) float32 {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return 0
		}}
	case schema.Float64:
		s := bc.f64
		return &ex{k: k, f64: func(int) float64 {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return 0
		}}
	case schema.Bool:
		s := bc.b
		return &ex{k: k, b: func(int) bool {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return false
		}}
	default:
		s := bc.h
		return &ex{k: schema.Ref, h: func(int) tickwork.Handle {
			if r := jrow[ji]; r >= 0 {
				return s[r]
			}
			return 0
		}}
	}
}

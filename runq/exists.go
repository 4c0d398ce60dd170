package runq

import (
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// existsSpec is one exists subquery (a semi-join; `not exists` is its
// negation): before the outer scan, a scan of the subquery's table marks
// the outer rows its ref column names (generation-checked, Lease.Find)
// among its rows passing its where, in a bitmap over the outer table's
// capacity (docs/schema.md, Queries: exists).
type existsSpec struct {
	bt    *boundTable
	via   []tickwork.Handle
	where func(int) bool // nil: every row
	marks []uint64
}

func (c *compiler) compileExists(def *schema.Query) {
	for _, e := range def.Exists {
		bt := c.cat.tables[e.Table.Name]
		if bt == nil {
			c.unbound(e.Pos, e.Table.Name, "")
			return
		}
		bc := bt.cols[e.Via.Index]
		if !bc.ok {
			c.unbound(e.Pos, e.Table.Name, e.Via.Name)
			return
		}
		s := &existsSpec{bt: bt, via: bc.h, marks: make([]uint64, (c.bt.tb.Cap()+63)/64)}
		if e.Where != nil {
			sub := &compiler{cat: c.cat, from: e.Var, bt: bt, q: c.q, joinIndex: map[*schema.Var]int{}}
			s.where = sub.expr(e.Where).b
			if sub.err != nil && c.err == nil {
				c.err = sub.err
			}
		}
		c.q.exists = append(c.q.exists, s)
	}
}

// existsExpr is the outer where's test of exists subquery i.
func (c *compiler) existsExpr(e *schema.Exists) *ex {
	if e.Index >= len(c.q.exists) {
		c.unsupported(e.Pos, "this exists")
		return &ex{}
	}
	marks := c.q.exists[e.Index].marks
	return &ex{k: schema.Bool, b: func(r int) bool { return marks[r>>6]&(1<<(uint(r)&63)) != 0 }}
}

// markExists runs every exists subquery's marking scan; its rows count
// against the budget.
func (q *Query) markExists() error {
	outer := q.bt.tb.Lease()
	for _, s := range q.exists {
		clear(s.marks)
		tb := s.bt.tb
		cr := tb.ChunkRows()
		for c, nc := 0, tb.UsedChunks(); c < nc; c++ {
			mask, base := tb.Enabled(c), c*cr
			for lo, hi := tickwork.NextRun(mask, 0); lo < hi; lo, hi = tickwork.NextRun(mask, hi) {
				q.visited += int64(hi - lo)
				if q.budget > 0 && q.visited > q.budget {
					return q.overBudget()
				}
				for r := base + lo; r < base+hi; r++ {
					if s.where != nil && !s.where(r) {
						continue
					}
					if row := outer.Find(s.via[r]); row >= 0 {
						s.marks[row>>6] |= 1 << (uint(row) & 63)
					}
				}
			}
		}
	}
	return nil
}

package tickwork

import (
	"math/bits"

	"github.com/tickwork/tickwork/index"
)

// TopSpec declares a top-N subscription (SubscribeTopN): the N rows of a
// table whose values R pass Where with the greatest Key, greatest first,
// ties in ascending entity index (the query order rule: docs/schema.md,
// Query results; index.Compare orders keys). R pairs with the table's
// columns as in FilterSpec.
type TopSpec[R any, K index.Ordered] struct {
	Name  string
	N     int           // how many ranks, at least 1
	Where func(*R) bool // nil: every row
	Key   func(*R) K    // the ranking key, required
	// Source: nil, R pairs with the columns; else R is filled by Source.Copy
	Source *RowSource[R]
}

// Ranked is one rank of a top-N result: rank 0 is the greatest key.
type Ranked[R any, K index.Ordered] struct {
	Rank   int
	Handle Handle
	Row    int
	Key    K
	Value  R
}

// TopDelta is a top-N result's change since the previous Read, rank by
// rank (docs/architecture.md, Subscriptions): for every rank whose entry
// differs (another entity, key or value, or a rank that appeared or went),
// the old entry in Left and the new one in Entered, each list in
// ascending rank. The slices are reused by the next Read.
type TopDelta[R any, K index.Ordered] struct {
	Entered, Left []Ranked[R, K]
}

// SubTopN is a kept top-N result (SubscribeTopN). Its methods are the
// host's, between frames.
type SubTopN[R comparable, K index.Ordered] struct {
	c    *subCore[R]
	spec TopSpec[R, K]
	s    *index.Sorted[K]
	top  []Ranked[R, K] // handed out by the last Read
	next []Ranked[R, K]
	d    TopDelta[R, K]
	any  bool // a row of the result changed in this Read
	// The candidates: s files every row of the result whose key is
	// greater than floor (every row when !floored); the others wait in
	// pool (a bit per row), filed only when the ranks above floor run
	// short (flush), so that a row changing far below the top costs a
	// bit, not a skiplist move.
	cold    bool // before the first flush: every row waits in the pool
	floored bool
	floor   K
	pool    []uint64
	pooled  int
	heap    []K // flush's scratch: the greatest keys of the pool, a min-heap
}

// topCandidates is how many rows a flush files, at least: N times this.
const topCandidates = 4

// SubscribeTopN declares a top-N subscription of t: SubFilter's upkeep
// and costs but for the copies of R and the handles (a rank's are loaded
// from the table when a Read hands it out), plus a sorted index of the
// rows that pass Where (about 19 + 2·sizeof(K) bytes a row,
// index.NewSorted). An N below 1 or a nil
// Key records a *SubscriptionError; other errors as SubscribeFilter's.
// Set-up only.
func SubscribeTopN[R comparable, K index.Ordered](b *Builder, t *Table, spec TopSpec[R, K]) *SubTopN[R, K] {
	if spec.N < 1 || spec.Key == nil {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Reason: "TopSpec needs N of at least 1 and a Key"})
		return nil
	}
	c := newSubCore(b, t, spec.Name, spec.Source, spec.Where, false, func(rows int) int64 { return index.SortedBytes[K](rows) + int64(rows)/8 })
	if c == nil {
		return nil
	}
	s, err := index.NewSorted[K](c.rows)
	if err != nil {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Table: t.Name(), Reason: "its sorted index", Err: err})
		return nil
	}
	p := &SubTopN[R, K]{c: c, spec: spec, s: s, floored: true, pool: make([]uint64, (c.rows+63)>>6),
		top: make([]Ranked[R, K], 0, spec.N), next: make([]Ranked[R, K], 0, spec.N),
		heap: make([]K, 0, topCandidates*spec.N), cold: true}
	c.row = p.row
	return p
}

func (p *SubTopN[R, K]) row(r int, was, is bool) {
	p.any = true
	if !is {
		p.s.Remove(int32(r))
		p.unpool(r)
		return
	}
	if k := p.spec.Key(&p.c.now); !p.cold && (!p.floored || index.Compare(k, p.floor) > 0) {
		p.s.Update(int32(r), k)
		p.unpool(r)
	} else {
		p.s.Remove(int32(r))
		if !bitOf(p.pool, r) {
			setBit(p.pool, r, true)
			p.pooled++
		}
	}
}

func (p *SubTopN[R, K]) unpool(r int) {
	if bitOf(p.pool, r) {
		setBit(p.pool, r, false)
		p.pooled--
	}
}

// flush files the pool's rows with the greatest keys (at least
// topCandidates·N of them, ties included) and makes the floor the
// greatest key left in the pool; a pass over the pool.
func (p *SubTopN[R, K]) flush() {
	h := p.heap[:0]
	p.eachPooled(func(k K, _ int) {
		switch {
		case len(h) < cap(h):
			h = append(h, k)
			heapUp(h, len(h)-1)
		case index.Compare(k, h[0]) > 0:
			h[0] = k
			heapDown(h, 0)
		}
	})
	p.heap = h
	p.floored = len(h) == cap(h) // else the whole pool is filed: no floor
	var floor K
	low := false
	p.eachPooled(func(k K, r int) {
		if !p.floored || index.Compare(k, h[0]) >= 0 {
			p.s.Update(int32(r), k)
			setBit(p.pool, r, false)
			p.pooled--
		} else if !low || index.Compare(k, floor) > 0 {
			floor, low = k, true
		}
	})
	if p.floored {
		p.floor = floor
	}
	p.cold = false
}

// eachPooled calls f with the key and row of every pooled row.
func (p *SubTopN[R, K]) eachPooled(f func(k K, r int)) {
	for w, word := range p.pool {
		for word != 0 {
			r := w<<6 + bits.TrailingZeros64(word)
			word &= word - 1
			p.c.load(&p.c.now, r)
			f(p.spec.Key(&p.c.now), r)
		}
	}
}

// heapUp and heapDown keep h a min-heap by index.Compare.
func heapUp[K index.Ordered](h []K, i int) {
	for i > 0 {
		up := (i - 1) / 2
		if index.Compare(h[i], h[up]) >= 0 {
			return
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func heapDown[K index.Ordered](h []K, i int) {
	for {
		m, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && index.Compare(h[l], h[m]) < 0 {
			m = l
		}
		if r < len(h) && index.Compare(h[r], h[m]) < 0 {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// Read returns the rank-by-rank delta from the result of the previous
// Read to the result now, which becomes Top's.
// Allocates nothing.
func (p *SubTopN[R, K]) Read() *TopDelta[R, K] {
	p.d.Entered, p.d.Left = p.d.Entered[:0], p.d.Left[:0]
	p.any = false
	p.c.read()
	if !p.any {
		return &p.d
	}
	if !p.walk() && p.pooled > 0 {
		p.flush()
		p.walk()
	}
	for i := range max(len(p.top), len(p.next)) {
		switch {
		case i >= len(p.next):
			p.d.Left = append(p.d.Left, p.top[i])
		case i >= len(p.top):
			p.d.Entered = append(p.d.Entered, p.next[i])
		case p.top[i] != p.next[i]:
			p.d.Left = append(p.d.Left, p.top[i])
			p.d.Entered = append(p.d.Entered, p.next[i])
		}
	}
	p.top, p.next = p.next, p.top
	return &p.d
}

// walk fills next with the first N ranks filed above the floor: keys
// descending, each key's rows ascending. It reports whether they are
// the result's: N ranks, or every row of the result filed.
func (p *SubTopN[R, K]) walk() bool {
	p.next = p.next[:0]
	if p.cold {
		return p.pooled == 0
	}
	c := p.c
	for run := p.s.LastRun(); run != index.NoRow && len(p.next) < p.spec.N; run = p.s.PrevRun(run) {
		k, _ := p.s.Key(run)
		if p.floored && index.Compare(k, p.floor) <= 0 {
			return p.pooled == 0
		}
		for r := run; r != index.NoRow && len(p.next) < p.spec.N; r = p.s.Next(r) {
			rk, _ := p.s.Key(r)
			if index.Compare(rk, k) != 0 {
				break
			}
			h, _ := c.t.HandleAt(int(r))
			c.load(&c.now, int(r)) // the row as examined: its handle and values are loaded only for the ranks
			p.next = append(p.next, Ranked[R, K]{Rank: len(p.next), Handle: Handle(h), Row: int(r), Key: rk, Value: c.now})
		}
	}
	return len(p.next) == p.spec.N || p.pooled == 0
}

// Top is the result handed out by the last Read, rank 0 first; the
// slice is reused by the next Read.
func (p *SubTopN[R, K]) Top() []Ranked[R, K] { return p.top }

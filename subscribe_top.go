package tickwork

import (
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
}

// SubscribeTopN declares a top-N subscription of t: SubFilter's upkeep
// and costs, plus a sorted index of the rows that pass Where (about
// 19 + 2·sizeof(K) bytes a row, index.NewSorted). An N below 1 or a nil
// Key records a *SubscriptionError; other errors as SubscribeFilter's.
// Set-up only.
func SubscribeTopN[R comparable, K index.Ordered](b *Builder, t *Table, spec TopSpec[R, K]) *SubTopN[R, K] {
	if spec.N < 1 || spec.Key == nil {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Reason: "TopSpec needs N of at least 1 and a Key"})
		return nil
	}
	c := newSubCore(b, t, spec.Name, spec.Where)
	if c == nil {
		return nil
	}
	s, err := index.NewSorted[K](len(c.cur))
	if err != nil {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Table: t.Name(), Reason: "its sorted index", Err: err})
		return nil
	}
	p := &SubTopN[R, K]{c: c, spec: spec, s: s,
		top: make([]Ranked[R, K], 0, spec.N), next: make([]Ranked[R, K], 0, spec.N)}
	c.row = p.row
	return p
}

func (p *SubTopN[R, K]) row(r int, was, is bool) {
	p.any = true
	if is {
		p.s.Update(int32(r), p.spec.Key(&p.c.cur[r]))
	} else if was {
		p.s.Remove(int32(r))
	}
}

// Read returns the rank-by-rank delta from the result of the previous
// Read to the result at the end of the last frame, which becomes Top's.
// Allocates nothing.
func (p *SubTopN[R, K]) Read() *TopDelta[R, K] {
	p.d.Entered, p.d.Left = p.d.Entered[:0], p.d.Left[:0]
	p.any = false
	p.c.read()
	if !p.any {
		return &p.d
	}
	p.walk()
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

// walk fills next with the first N ranks: keys descending, each key's
// rows ascending.
func (p *SubTopN[R, K]) walk() {
	p.next = p.next[:0]
	c := p.c
	for run := p.s.LastRun(); run != index.NoRow && len(p.next) < p.spec.N; run = p.s.PrevRun(run) {
		k, _ := p.s.Key(run)
		for r := run; r != index.NoRow && len(p.next) < p.spec.N; r = p.s.Next(r) {
			rk, _ := p.s.Key(r)
			if index.Compare(rk, k) != 0 {
				break
			}
			p.next = append(p.next, Ranked[R, K]{Rank: len(p.next), Handle: Handle(c.curH[r]), Row: int(r), Key: rk, Value: c.cur[r]})
		}
	}
}

// Top is the result handed out by the last Read, rank 0 first; the
// slice is reused by the next Read.
func (p *SubTopN[R, K]) Top() []Ranked[R, K] { return p.top }

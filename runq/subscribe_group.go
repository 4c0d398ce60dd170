package runq

import (
	"strconv"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// groupKept is a grouped sum's upkeep: one root SubGroupSum per sum of
// the select (one for a select of count() alone), all over the same
// rows, keyed by slot 1 (the group key's ordering key, so that the
// root's ascending keys are the query's group order), each summing its
// aggregate's slot; Read merges their deltas by key.
type groupKept[V vec] struct {
	q       *Query
	keyKind schema.TypeKind
	refs    map[uint64]Value // a ref key's value per ordering key (the tag is not in the key)
	subs    []*tickwork.SubGroupSum[V, uint64, int64]
	sumOf   []int // per aggregate: its sub, -1 for count()
	ds      [][]tickwork.GroupDelta[uint64, int64]
	at      []int
	before  []int64 // per sub: the key's sum handed out before, and now
	after   []int64
	n       int64 // groups handed out
}

// keyFill is the group key's slot: its ordering key (orderKey's), a ref
// key's value noted the first time its key is seen.
func (g *groupKept[V]) keyFill() func(int) uint64 {
	x := g.q.groups[0]
	key := keyOf(x, false)
	if g.keyKind != schema.Ref {
		return key
	}
	g.refs = map[uint64]Value{}
	return func(r int) uint64 {
		k := key(r)
		if _, ok := g.refs[k]; !ok {
			g.refs[k] = Ref(x.h(r))
		}
		return k
	}
}

// sumFill is an aggregate's slot: an integer sum's value as int64 bits
// (count: none).
func sumFill(a *aggSpec) func(int) uint64 {
	if a.kind != schema.Sum {
		return func(int) uint64 { return 0 }
	}
	x := a.x
	if x.k == schema.Int32 {
		return func(r int) uint64 { return uint64(int64(x.i32(r))) }
	}
	return func(r int) uint64 { return uint64(x.i64(r)) }
}

func (g *groupKept[V]) declare(b *tickwork.Builder, name string, src *tickwork.RowSource[V], where func(*V) bool) error {
	key := func(v *V) uint64 { return (*v)[1] }
	add := func(slot int, label string) error {
		s := tickwork.SubscribeGroupSum(b, g.q.bt.tb, tickwork.GroupSumSpec[V, uint64, int64]{Name: label, Where: where, Source: src,
			Key: key, Sum: func(v *V) int64 { return int64((*v)[slot]) }})
		if s == nil {
			return subFail(b)
		}
		g.subs = append(g.subs, s)
		return nil
	}
	for i, a := range g.q.aggs {
		g.sumOf = append(g.sumOf, -1)
		if a.kind == schema.Sum {
			g.sumOf[i] = len(g.subs)
			if err := add(2+i, name+" sum "+strconv.Itoa(len(g.subs))); err != nil {
				return err
			}
		}
	}
	if len(g.subs) == 0 {
		if err := add(0, name); err != nil { // slot 0 is 1 for every row of the result: a sum nobody reads
			return err
		}
	}
	g.ds = make([][]tickwork.GroupDelta[uint64, int64], len(g.subs))
	g.at = make([]int, len(g.subs))
	g.before, g.after = make([]int64, len(g.subs)), make([]int64, len(g.subs))
	return nil
}

// keyValue is the group key of ordering key k.
func (g *groupKept[V]) keyValue(k uint64) Value {
	switch g.keyKind {
	case schema.Int32:
		return I32(int32(uint32(k) ^ 1<<31))
	case schema.Int64:
		return I64(int64(k ^ 1<<63))
	case schema.Bool:
		return Bool(k != 0)
	}
	return g.refs[k]
}

// appendGroup appends the result row of the group of key k, with rows
// rows and the subs' sums.
func (g *groupKept[V]) appendGroup(dst []Value, k uint64, rows int, sums []int64) []Value {
	for _, it := range g.q.def.Select {
		switch a := it.Agg; {
		case a == nil:
			dst = append(dst, g.keyValue(k))
		case g.sumOf[a.Index] < 0:
			dst = append(dst, I64(int64(rows)))
		default:
			dst = append(dst, I64(sums[g.sumOf[a.Index]]))
		}
	}
	return dst
}

// differs reports whether a group's row differs between before (rb
// rows, the subs' sums in g.before) and after.
func (g *groupKept[V]) differs(rb, ra int) bool {
	for _, it := range g.q.def.Select {
		switch a := it.Agg; {
		case a == nil:
		case g.sumOf[a.Index] < 0:
			if rb != ra {
				return true
			}
		default:
			if j := g.sumOf[a.Index]; g.before[j] != g.after[j] {
				return true
			}
		}
	}
	return false
}

func (g *groupKept[V]) read(d *Delta) {
	for i, s := range g.subs {
		g.ds[i], g.at[i] = s.Read(), 0
	}
	d.Before = g.n
	for {
		k, found := uint64(0), false
		for i, l := range g.ds {
			if g.at[i] < len(l) && (!found || l[g.at[i]].Key < k) {
				k, found = l[g.at[i]].Key, true
			}
		}
		if !found {
			break
		}
		rb, ra := 0, 0
		for i, l := range g.ds {
			if g.at[i] < len(l) && l[g.at[i]].Key == k {
				e := &l[g.at[i]]
				g.at[i]++
				g.before[i], g.after[i], rb, ra = e.Before, e.After, e.RowsBefore, e.RowsAfter
				continue
			}
			s, _ := g.subs[i].Group(k) // this sub's sum of the group did not change
			g.before[i], g.after[i] = s.Sum, s.Sum
		}
		var l *Rows
		switch {
		case rb == 0:
			l, g.n = &d.Entered, g.n+1
			l.Values = g.appendGroup(l.Values, k, ra, g.after)
		case ra == 0:
			l, g.n = &d.Left, g.n-1
			l.Values = g.appendGroup(l.Values, k, rb, g.before)
		case !g.differs(rb, ra):
			continue // only what the select does not show changed
		default:
			l = &d.Changed
			l.Values = g.appendGroup(l.Values, k, ra, g.after)
		}
		l.Key = append(l.Key, g.keyValue(k))
		l.n++
	}
	d.After = g.n
}

func (g *groupKept[V]) result(dst []Value) []Value {
	for gr := range g.subs[0].Groups() {
		for i, s := range g.subs {
			x, _ := s.Group(gr.Key)
			g.after[i] = x.Sum
		}
		dst = g.appendGroup(dst, gr.Key, gr.Rows, g.after)
	}
	return dst
}

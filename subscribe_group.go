package tickwork

import (
	"cmp"
	"iter"
	"slices"
	"unsafe"
)

// Integer is the type of a grouped sum's values: integers only, so that
// a sum kept by deltas equals the sum recomputed, exactly (float sums
// depend on their order: keep a float aggregate by recomputing it).
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// GroupSumSpec declares a grouped sum (SubscribeGroupSum): over the rows
// of a table whose values R pass Where, per value of Key, the number of
// rows and the sum of Sum. R pairs with the table's columns as in
// FilterSpec.
type GroupSumSpec[R any, K cmp.Ordered, V Integer] struct {
	Name  string
	Where func(*R) bool // nil: every row
	Key   func(*R) K    // the group key, required
	Sum   func(*R) V    // the summed value, required
	// Source: nil, R pairs with the columns; else R is filled by Source.Copy
	Source *RowSource[R]
}

// Group is one group of a grouped sum: its key, the sum of its rows'
// values and its number of rows.
type Group[K cmp.Ordered, V Integer] struct {
	Key  K
	Sum  V
	Rows int
}

// GroupDelta is one group's change since the previous Read: the group
// before and after (Rows 0: the group was, or is, empty).
type GroupDelta[K cmp.Ordered, V Integer] struct {
	Key           K
	Before, After V
	RowsBefore    int
	RowsAfter     int
}

// SubGroupSum is a kept grouped sum (SubscribeGroupSum). Its methods are
// the host's, between frames.
type SubGroupSum[R comparable, K cmp.Ordered, V Integer] struct {
	c      *subCore[R]
	spec   GroupSumSpec[R, K, V]
	groups map[K]int32        // per key ever seen: its state's number in states, from 1
	states []groupState[K, V] // the groups' states, by number - 1
	keys   []K                // the keys of groups, ascending (Groups' order)
	d      []GroupDelta[K, V]
	moved  []K // the keys of the groups touched by this Read
	// of and sums are, per row, the number of the group it was handed
	// out in (0 when none: a number, not a pointer, so that the collector
	// neither scans it nor pays a write barrier per row) and its value
	// then, so that a re-examined row costs Key and Sum of its values now
	// only.
	of   []int32
	sums []V
}

type groupState[K cmp.Ordered, V Integer] struct {
	key         K
	sum, before V
	rows        int
	rowsBefore  int
	touched     bool
}

// SubscribeGroupSum declares a grouped sum of t: SubFilter's upkeep and
// costs but for the copies of R and the handles, 4 bytes and a V per
// row instead, and per group ever seen a map entry (a new
// key allocates it once; groups that empty keep theirs). A nil Key or
// Sum, or a float K, records a *SubscriptionError; other errors as
// SubscribeFilter's. Set-up only.
func SubscribeGroupSum[R comparable, K cmp.Ordered, V Integer](b *Builder, t *Table, spec GroupSumSpec[R, K, V]) *SubGroupSum[R, K, V] {
	if spec.Key == nil || spec.Sum == nil {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Reason: "GroupSumSpec needs both Key and Sum"})
		return nil
	}
	if floatKey[K]() {
		b.e().Fail(&SubscriptionError{Subscription: spec.Name, Reason: "a float group key (NaN equals no key, -0 equals +0): group by an integer or string, e.g. a rounded cell"})
		return nil
	}
	var zv V
	c := newSubCore(b, t, spec.Name, spec.Source, spec.Where, false, func(rows int) int64 { return int64(rows) * int64(4+unsafe.Sizeof(zv)) })
	if c == nil {
		return nil
	}
	g := &SubGroupSum[R, K, V]{c: c, spec: spec, groups: map[K]int32{}, of: make([]int32, c.rows), sums: make([]V, c.rows)}
	c.row = g.row
	return g
}

func (g *SubGroupSum[R, K, V]) row(r int, was, is bool) {
	old := g.of[r]
	if was {
		g.add(old, -g.sums[r], -1)
	}
	if !is {
		g.of[r] = 0
		return
	}
	k, v := g.spec.Key(&g.c.now), g.spec.Sum(&g.c.now)
	n := old
	if !was || g.states[old-1].key != k {
		n = g.group(k)
	}
	g.add(n, v, 1)
	g.of[r], g.sums[r] = n, v
}

// group returns k's group's number, made (and k filed in keys) the first
// time.
func (g *SubGroupSum[R, K, V]) group(k K) int32 {
	s := g.groups[k]
	if s == 0 {
		g.states = append(g.states, groupState[K, V]{key: k})
		s = int32(len(g.states))
		g.groups[k] = s
		i, _ := slices.BinarySearch(g.keys, k)
		g.keys = slices.Insert(g.keys, i, k)
	}
	return s
}

func (g *SubGroupSum[R, K, V]) add(n int32, v V, rows int) {
	s := &g.states[n-1]
	if !s.touched {
		s.touched, s.before, s.rowsBefore = true, s.sum, s.rows
		g.moved = append(g.moved, s.key)
	}
	s.sum += v
	s.rows += rows
}

// Read returns the groups whose sum or row count changed from the
// previous Read to now, in ascending key order,
// and makes the latter the result Groups yields. The slice is reused by
// the next Read. Allocates nothing but a new key's entry.
func (g *SubGroupSum[R, K, V]) Read() []GroupDelta[K, V] {
	g.d, g.moved = g.d[:0], g.moved[:0]
	g.c.read()
	slices.Sort(g.moved)
	for _, k := range g.moved {
		s := &g.states[g.groups[k]-1]
		s.touched = false
		if s.sum != s.before || s.rows != s.rowsBefore {
			g.d = append(g.d, GroupDelta[K, V]{Key: k, Before: s.before, After: s.sum, RowsBefore: s.rowsBefore, RowsAfter: s.rows})
		}
	}
	return g.d
}

// Group returns the group of key k handed out by the last Read, with
// false when it has no rows.
func (g *SubGroupSum[R, K, V]) Group(k K) (Group[K, V], bool) {
	if n := g.groups[k]; n != 0 && g.states[n-1].rows > 0 {
		s := &g.states[n-1]
		return Group[K, V]{Key: k, Sum: s.sum, Rows: s.rows}, true
	}
	return Group[K, V]{}, false
}

// Groups yields the non-empty groups handed out by the last Read, in
// ascending key order.
func (g *SubGroupSum[R, K, V]) Groups() iter.Seq[Group[K, V]] {
	return func(yield func(Group[K, V]) bool) {
		for _, k := range g.keys {
			if s := &g.states[g.groups[k]-1]; s.rows > 0 && !yield(Group[K, V]{Key: k, Sum: s.sum, Rows: s.rows}) {
				return
			}
		}
	}
}

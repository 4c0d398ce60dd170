package tickwork

import "iter"

// FilterSpec declares a filter subscription or a count (SubscribeFilter,
// SubscribeCount): the rows of a table whose subscribed values R satisfy
// Where. R is a struct whose fields pair with the table's columns by name
// (or `tickwork:"..."` tag) and type, as a lifecycle event's row does
// (the pairing of Table.Move); they are the columns the subscription
// reads and hands out.
type FilterSpec[R any] struct {
	Name   string        // names the subscription in errors and the memory budget
	Where  func(*R) bool // nil: every row; called by Read, on the host's goroutine; it must not keep its argument
	Source *RowSource[R] // nil: R pairs with the columns; else R is filled by Source.Copy
}

// FilterDelta is what a filter's result gained and lost since the
// previous Read, each list in ascending row order (docs/architecture.md,
// Subscriptions): Entered rows are in the result now and were not, Left
// rows were and are not (with the values handed out when they were last
// read), Changed rows stayed in with other values (by R's ==: a float
// field holding NaN is always other, -0 and +0 are the same). The slices
// are reused by the next Read.
type FilterDelta[R any] struct {
	Entered, Left, Changed []SubRow[R]
}

// SubFilter is a kept result: the rows of one table whose values pass a
// predicate, brought up to date by each Read from the rows changed since
// the previous one (SubscribeFilter; a box is a filter whose predicate
// tests a range of two columns). Its methods are the host's, between
// frames, never concurrently with Frame.
type SubFilter[R comparable] struct {
	c *subCore[R]
	d FilterDelta[R]
	n int
}

// SubscribeFilter declares a filter subscription of t: the world marks
// the rows of t that change (created, deleted, attached, detached, or
// written in one of R's columns), and Read re-examines them and hands out
// the delta (docs/architecture.md, Subscriptions). It tracks R's columns
// (docs/architecture.md, Change detection) and keeps a copy of R, a
// handle and two bits per row of t's capacity, charged to the world's
// budget. A nil or foreign t, an R that does not pair with
// t's columns, a declaration after Build or past the budget records a
// *SubscriptionError (ErrSubscription) and returns nil. Set-up only.
func SubscribeFilter[R comparable](b *Builder, t *Table, spec FilterSpec[R]) *SubFilter[R] {
	c := newSubCore(b, t, spec.Name, spec.Source, spec.Where, true, nil)
	if c == nil {
		return nil
	}
	f := &SubFilter[R]{c: c}
	c.row = f.row
	return f
}

func (f *SubFilter[R]) row(r int, was, is bool) {
	c := f.c
	switch {
	case was && is && c.same(r):
		if c.base[r] != c.now {
			f.d.Changed = append(f.d.Changed, SubRow[R]{Handle(c.nowH), r, c.now})
		}
		return
	case was:
		f.d.Left = append(f.d.Left, SubRow[R]{Handle(c.baseH[r]), r, c.base[r]})
		f.n--
	}
	if is {
		f.d.Entered = append(f.d.Entered, SubRow[R]{Handle(c.nowH), r, c.now})
		f.n++
	}
}

// Read returns the delta from the result of the previous Read (empty
// before the first) to the result now, and
// makes the latter the result Rows yields. The first Read after Build's
// first frame hands out every row as Entered. The delta is valid until
// the next Read. Allocates nothing once the lists have grown to the
// largest delta seen.
func (f *SubFilter[R]) Read() *FilterDelta[R] {
	f.d.Entered, f.d.Left, f.d.Changed = f.d.Entered[:0], f.d.Left[:0], f.d.Changed[:0]
	f.c.read()
	return &f.d
}

// Len is the number of rows of the result handed out by the last Read.
func (f *SubFilter[R]) Len() int { return f.n }

// Rows yields the result handed out by the last Read, in ascending row
// order.
func (f *SubFilter[R]) Rows() iter.Seq[SubRow[R]] { return f.c.handedOut }

// SubCount is a kept count of the rows of one table whose values pass a
// predicate (SubscribeCount). Its methods are the host's, between frames.
type SubCount[R comparable] struct {
	c *subCore[R]
	n int
}

// CountDelta is a count's change since the previous Read.
type CountDelta struct{ Before, After int }

// SubscribeCount declares a count subscription of t: SubFilter's upkeep,
// without the row lists, copies of R or handles (a bit per row and the
// change marks). Errors as SubscribeFilter's. Set-up only.
func SubscribeCount[R comparable](b *Builder, t *Table, spec FilterSpec[R]) *SubCount[R] {
	c := newSubCore(b, t, spec.Name, spec.Source, spec.Where, false, nil)
	if c == nil {
		return nil
	}
	n := &SubCount[R]{c: c}
	c.row = n.row
	return n
}

func (n *SubCount[R]) row(_ int, was, is bool) {
	switch {
	case was && !is:
		n.n--
	case is && !was:
		n.n++
	}
}

// Read returns the count handed out by the previous Read (0 before the
// first) and the count now, which becomes
// Count's. Allocates nothing.
func (n *SubCount[R]) Read() CountDelta {
	before := n.n
	n.c.read()
	return CountDelta{Before: before, After: n.n}
}

// Count is the count handed out by the last Read.
func (n *SubCount[R]) Count() int { return n.n }

package tickwork

import (
	"errors"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/memory"
)

// ErrSubscription is the sentinel of a subscription that cannot be
// declared (errors.Is; the detail is a *SubscriptionError).
var ErrSubscription = errors.New("tickwork: bad subscription")

// SubscriptionError says which subscription could not be declared and why.
// errors.Is(err, ErrSubscription) holds, and Unwrap gives the cause when
// there is one (an *ephemeral.DefinitionError of the row struct, errors.Is
// ErrRowCopy; a *memory.BudgetError).
type SubscriptionError struct {
	Subscription string // the spec's Name
	Table        string // the table's name, "" for a nil table
	Reason       string // what is wrong and how to fix it
	Err          error  // the cause, nil when Reason says it all
}

func (e *SubscriptionError) Error() string {
	s := "tickwork: subscription " + strconv.Quote(e.Subscription)
	if e.Table != "" {
		s += " of table " + strconv.Quote(e.Table)
	}
	s += ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports whether target is ErrSubscription.
func (e *SubscriptionError) Is(target error) bool { return target == ErrSubscription }

// Unwrap returns the cause, nil when there is none.
func (e *SubscriptionError) Unwrap() error { return e.Err }

// SubRow is one row of a subscription's result or delta: the entity, its
// row (whole-column index, valid until the row's next structural change)
// and the row's subscribed values (docs/architecture.md, Subscriptions).
type SubRow[R any] struct {
	Handle Handle
	Row    int
	Value  R
}

// rowSet is a set of rows: a bitmap and the list of its non-zero words,
// so that draining it costs the words that hold a row, not the table.
type rowSet struct {
	bits  []uint64
	words []int32 // capacity len(bits): appending never allocates
}

func newRowSet(rows int) rowSet {
	n := (rows + 63) >> 6
	return rowSet{bits: make([]uint64, n), words: make([]int32, 0, n)}
}

func (s *rowSet) add(r int) {
	w := r >> 6
	if s.bits[w] == 0 {
		s.words = append(s.words, int32(w))
	}
	s.bits[w] |= 1 << (r & 63)
}

// drain calls f for every row of s in ascending order and empties s.
func (s *rowSet) drain(f func(r int)) {
	slices.Sort(s.words)
	for _, w := range s.words {
		word := s.bits[w]
		s.bits[w] = 0
		for word != 0 {
			f(int(w)<<6 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	s.words = s.words[:0]
}

func bitOf(b []uint64, r int) bool { return b[r>>6]&(1<<(r&63)) != 0 }

func setBit(b []uint64, r int, on bool) {
	if on {
		b[r>>6] |= 1 << (r & 63)
	} else {
		b[r>>6] &^= 1 << (r & 63)
	}
}

// subCore is what every kind of subscription keeps of its table: per row,
// the state handed out at the last Read (base) and the state at the last
// frame end (cur), and the rows that differ or may differ. It implements
// systems.Subscriber and ephemeral.Watcher.
type subCore[R comparable] struct {
	t     *ephemeral.Table
	rc    *ephemeral.RowCopy[R]
	where func(*R) bool
	vers  []*ephemeral.Versions
	last  uint64             // the version of the previous Sync
	all   bool               // the next Sync examines every row (first Sync, Reset)
	mark  *ephemeral.RowSink // rows to examine at the next Sync: stamped, or structurally changed
	pend  rowSet             // rows examined since the last Read
	cur   []R
	base  []R
	curH  []ephemeral.Handle
	baseH []ephemeral.Handle
	curIn []uint64                  // bit per row: in the result at the last Sync
	inB   []uint64                  // bit per row: in the result handed out at the last Read
	row   func(r int, was, is bool) // the kind's step of Read for row r
	// values: cur and base hold a copy of R per row; without (a count),
	// one each, the row being tested in cur[0] and nothing handed out.
	values bool
}

// newSubCore pairs R with t's columns, tracks them and watches t,
// charging the world's budget its per-row state (without values, a
// count's, no copies of R) and extra bytes per row (the kind's); it records a *SubscriptionError and returns nil when it
// cannot.
func newSubCore[R comparable](b *Builder, t *Table, name string, where func(*R) bool, values bool, extra func(rows int) int64) *subCore[R] {
	rb := b.e()
	fail := func(table, reason string, err error) *subCore[R] {
		rb.Fail(&SubscriptionError{Subscription: name, Table: table, Reason: reason, Err: err})
		return nil
	}
	if rb.Built() {
		return fail("", "declared after Build", ErrBuilt)
	}
	if rb.Err() != nil {
		return nil
	}
	if t == nil {
		return fail("", "nil table (the Table call that made it failed: its error comes first)", nil)
	}
	et := t.e()
	if !ownTable(rb, et) {
		return fail(et.Name(), "a table of another Builder: subscribe on the Builder whose Table made it", nil)
	}
	rc, err := ephemeral.NewRowCopy[R](et)
	if err != nil {
		return fail(et.Name(), "the row struct does not pair with the table's columns", err)
	}
	rows := et.Chunks() * et.ChunkRows()
	var zr R
	perRow, kept := 2*unsafe.Sizeof(ephemeral.Handle(0)), 1
	if values {
		perRow, kept = perRow+2*unsafe.Sizeof(zr), rows
	}
	bytes := int64(rows)*int64(perRow) + ephemeral.RowSinkBytes(et) + int64(rows)/2
	if extra != nil {
		bytes += extra(rows)
	}
	if err := rb.Budget().Charge(memory.Definition{Kind: "subscription", Name: name}, bytes); err != nil {
		return fail(et.Name(), "its per-row state does not fit the world's memory budget", err)
	}
	c := &subCore[R]{t: et, rc: rc, where: where, all: true,
		mark: ephemeral.NewRowSink(et), pend: newRowSet(rows),
		values: values, cur: make([]R, kept), base: make([]R, kept),
		curH: make([]ephemeral.Handle, rows), baseH: make([]ephemeral.Handle, rows),
		curIn: make([]uint64, (rows+63)>>6), inB: make([]uint64, (rows+63)>>6)}
	for _, col := range rowColumns(reflect.TypeFor[R]()) {
		v, err := et.TrackColumn(col, false)
		if err != nil {
			return fail(et.Name(), "tracking column "+strconv.Quote(col), err)
		}
		if v != nil && !slices.Contains(c.vers, v) {
			c.vers = append(c.vers, v)
			v.AddSink(c.mark)
		}
	}
	et.Watch(c)
	rb.Subscribe(c)
	return c
}

// rowColumns names the columns the fields of struct type r pair with
// (the field's name, or the name in its `tickwork:"..."` tag).
func rowColumns(r reflect.Type) []string {
	var out []string
	for i := range r.NumField() {
		f := r.Field(i)
		name := f.Name
		if tag, ok := f.Tag.Lookup("tickwork"); ok && tag != "" {
			name = tag
		}
		out = append(out, name)
	}
	return out
}

// Watch marks the row of a structural change for the next Sync.
func (c *subCore[R]) Watch(_ ephemeral.RowChange, h ephemeral.Handle) { c.mark.Add(h.Index()) }

// SubscribedVersions lists the versions of the columns R pairs with.
func (c *subCore[R]) SubscribedVersions() []*ephemeral.Versions { return c.vers }

// Reset makes the next Sync examine every row.
func (c *subCore[R]) Reset() { c.all = true }

// Sync examines the rows marked by structural changes and the rows whose
// subscribed columns changed since the previous Sync, and keeps what
// each holds now.
func (c *subCore[R]) Sync(now uint64) {
	if c.all {
		c.all = false
		c.mark.AddAll()
	} else {
		for _, v := range c.vers {
			v.AddBumpedTo(c.last, c.mark)
		}
	}
	c.last = now
	c.mark.Drain(c.examine)
}

// examine keeps row r's current state and marks it for the next Read.
func (c *subCore[R]) examine(r int) {
	h, live := c.t.HandleAt(r)
	in := false
	if live {
		at := 0
		if c.values {
			at = r
		}
		c.rc.Copy(&c.cur[at], uint32(r))
		in = c.where == nil || c.where(&c.cur[at])
	}
	c.curH[r] = h
	if in || bitOf(c.curIn, r) || bitOf(c.inB, r) {
		setBit(c.curIn, r, in)
		c.pend.add(r)
	}
}

// read hands the rows examined since the last Read to the kind, in
// ascending row order, and makes their current state the handed-out one.
func (c *subCore[R]) read() {
	c.pend.drain(c.readRow)
}

func (c *subCore[R]) readRow(r int) {
	was, is := bitOf(c.inB, r), bitOf(c.curIn, r)
	if was || is {
		c.row(r, was, is)
	}
	if c.values {
		c.base[r] = c.cur[r]
	}
	c.baseH[r] = c.curH[r]
	setBit(c.inB, r, is)
}

// same reports whether row r is in both states as the same entity.
func (c *subCore[R]) same(r int) bool { return c.baseH[r] == c.curH[r] }

// handedOut yields the rows of the result handed out at the last Read,
// ascending.
func (c *subCore[R]) handedOut(yield func(SubRow[R]) bool) {
	for w, word := range c.inB {
		for word != 0 {
			r := w<<6 + bits.TrailingZeros64(word)
			word &= word - 1
			if !yield(SubRow[R]{Handle: Handle(c.baseH[r]), Row: r, Value: c.base[r]}) {
				return
			}
		}
	}
}

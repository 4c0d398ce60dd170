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

func bitOf(b []uint64, r int) bool { return b[r>>6]&(1<<(r&63)) != 0 }

func setBit(b []uint64, r int, on bool) {
	if on {
		b[r>>6] |= 1 << (r & 63)
	} else {
		b[r>>6] &^= 1 << (r & 63)
	}
}

// subCore is what every kind of subscription keeps of its table: per row,
// the state handed out at the last Read, and the rows that may differ
// from it. It implements systems.Subscriber and ephemeral.Watcher. The
// rows are examined by Read, not at the frame's end (docs/architecture.md,
// Subscriptions): a row changed in several frames between two Reads is
// examined once.
type subCore[R comparable] struct {
	t     *ephemeral.Table
	rc    *ephemeral.RowCopy[R]
	src   func(dst *R, row int) // a RowSource's Copy; nil: rc
	where func(*R) bool
	vers  []*ephemeral.Versions
	last  uint64                    // the version of the previous Sync
	all   bool                      // the next Sync marks every row (first Sync, Reset)
	mark  *ephemeral.RowSink        // rows to examine at the next Read: stamped, bumped, or structurally changed
	rows  int                       // the table's capacity in rows
	now   R                         // the row being examined: its current values
	nowH  ephemeral.Handle          // and its entity (0 when its slot is free)
	base  []R                       // per row in the result handed out: its values
	baseH []ephemeral.Handle        // per row in the result handed out: its entity
	inB   []uint64                  // bit per row: in the result handed out at the last Read
	row   func(r int, was, is bool) // the kind's step of Read for row r, before base[r] is replaced
	// values: base and baseH hold a copy of R and the handle per row;
	// without (a count), neither, and nothing is handed out.
	values bool
}

// newSubCore pairs R with t's columns (or takes src's), tracks them and watches t,
// charging the world's budget its per-row state (without values, a
// count's, no copies of R) and extra bytes per row (the kind's); it
// records a *SubscriptionError and returns nil when it cannot.
func newSubCore[R comparable](b *Builder, t *Table, name string, src *RowSource[R], where func(*R) bool, values bool, extra func(rows int) int64) *subCore[R] {
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
	var rc *ephemeral.RowCopy[R]
	var cols []string
	if src != nil {
		if src.Copy == nil {
			return fail(et.Name(), "RowSource needs a Copy", nil)
		}
		for _, col := range src.Columns {
			if !slices.Contains(et.Columns(), col) {
				return fail(et.Name(), "RowSource column "+strconv.Quote(col)+" is not a column of the table", nil)
			}
		}
		cols = src.Columns
	} else {
		var err error
		if rc, err = ephemeral.NewRowCopy[R](et); err != nil {
			return fail(et.Name(), "the row struct does not pair with the table's columns", err)
		}
		cols = rowColumns(reflect.TypeFor[R]())
	}
	rows := et.Chunks() * et.ChunkRows()
	var zr R
	perRow, kept := uintptr(0), 0
	if values {
		perRow, kept = unsafe.Sizeof(ephemeral.Handle(0))+unsafe.Sizeof(zr), rows
	}
	bytes := int64(rows)*int64(perRow) + ephemeral.RowSinkBytes(et) + int64(rows)/8
	if extra != nil {
		bytes += extra(rows)
	}
	if err := rb.Budget().Charge(memory.Definition{Kind: "subscription", Name: name}, bytes); err != nil {
		return fail(et.Name(), "its per-row state does not fit the world's memory budget", err)
	}
	c := &subCore[R]{t: et, rc: rc, where: where, all: true, rows: rows,
		mark: ephemeral.NewRowSink(et), values: values, base: make([]R, kept),
		baseH: make([]ephemeral.Handle, kept), inB: make([]uint64, (rows+63)>>6)}
	if src != nil {
		c.src = src.Copy
	}
	for _, col := range cols {
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

// Watch marks the row of a structural change for the next Read.
func (c *subCore[R]) Watch(_ ephemeral.RowChange, h ephemeral.Handle) { c.mark.Add(h.Index()) }

// SubscribedVersions lists the versions of the columns R pairs with.
func (c *subCore[R]) SubscribedVersions() []*ephemeral.Versions { return c.vers }

// Reset makes the next Sync mark every row.
func (c *subCore[R]) Reset() { c.all = true }

// Sync marks, for the next Read, the live rows of the chunks a bulk
// writer bumped since the previous Sync (stamped rows and structural
// changes are marked as they happen): a pass over the chunks' versions,
// nothing per row unless a chunk was bumped whole.
func (c *subCore[R]) Sync(now uint64) {
	if c.all {
		c.all = false
		c.mark.AddAll()
	} else {
		for _, v := range c.vers {
			v.AddBumped(c.last, c.mark)
		}
	}
	c.last = now
}

// read examines the rows marked since the last Read in ascending row
// order, hands each that is or was in the result to the kind, and makes
// its current state the handed-out one.
func (c *subCore[R]) read() {
	if d := c.t.Domain(); d.Guarded() {
		panic("tickwork: a subscription's Read on table " + strconv.Quote(c.t.Name()) + " while the world's frame runs " +
			"(from a system's body, or from another goroutine during World.Frame): Read is the host's, between frames")
	}
	if c.all { // a restore since the last sync: the Read sees the restored rows
		c.all = false
		c.mark.AddAll()
	}
	c.mark.Drain(c.readRow)
}

// load copies row r's values into dst.
func (c *subCore[R]) load(dst *R, r int) {
	if c.src != nil {
		c.src(dst, r)
	} else {
		c.rc.Copy(dst, uint32(r))
	}
}

func (c *subCore[R]) readRow(r int) {
	live, is := c.t.RowLive(r), false
	if live {
		c.load(&c.now, r)
		is = c.where == nil || c.where(&c.now)
	}
	was := bitOf(c.inB, r)
	if !was && !is {
		return
	}
	c.nowH = 0
	if live && c.values { // a count, a grouped sum or a top-N keeps no entity per row
		c.nowH, _ = c.t.HandleAt(r)
	}
	c.row(r, was, is)
	if is && c.values {
		c.base[r], c.baseH[r] = c.now, c.nowH
	}
	setBit(c.inB, r, is)
}

// same reports whether row r, handed out, is still the same entity.
func (c *subCore[R]) same(r int) bool { return c.baseH[r] == c.nowH }

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

package runq

import (
	"fmt"
	"strconv"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// MaxSubscribed bounds the select items of a subscribed query (and the
// sums of a subscribed group by): each subscribed row keeps their bits
// in a fixed-size vector.
const MaxSubscribed = 8

// SubKind is the kind of result a [Subscription] keeps, picked by
// [Subscribe] from the query's shape.
type SubKind uint8

// The kinds of subscriptions (docs/architecture.md, Run-time queries:
// Subscribing).
const (
	SubFilter   SubKind = iota + 1 // where and select of row values: the rows, in row order
	SubCount                       // select count() (each item the same count): the count
	SubGroupSum                    // group by one integer, bool or ref key, count() and integer sums: the groups, in key order
	SubTopN                        // one order key and a limit: the ranks
)

func (k SubKind) String() string {
	switch k {
	case SubFilter:
		return "filter"
	case SubCount:
		return "count"
	case SubGroupSum:
		return "grouped sum"
	case SubTopN:
		return "top-N"
	}
	return "SubKind(" + strconv.Itoa(int(k)) + ")"
}

// accepted is what a subscription accepts, for the refusals' messages.
const accepted = "a subscription keeps a filter (where and select, no order by or limit), select count(), " +
	"a group by of one integer, bool or ref key with that key, count() and integer sums, " +
	"or a top-N (one order key and a limit)"

// Rows is one list of a [Delta]: len(Row) rows, each Width values of
// Values (the Query.Run buffer format, in the query's select order),
// with each row's from row and entity (a filter's and a top-N's), its
// rank (a top-N's) or its group key (a grouped sum's). Its slices are
// the subscription's, reused by the next Read.
type Rows struct {
	Values []Value
	Row    []int             // filter, top-N: the from row (its entity's index); nil otherwise
	Handle []tickwork.Handle // filter, top-N: the entity
	Rank   []int             // top-N: the rank, 0 first
	Key    []Value           // grouped sum: the group key
	n      int
}

// Len is the number of rows.
func (r *Rows) Len() int { return r.n }

func (r *Rows) reset() {
	r.Values, r.Row, r.Handle, r.Rank, r.Key, r.n = r.Values[:0], r.Row[:0], r.Handle[:0], r.Rank[:0], r.Key[:0], 0
}

// Delta is what a subscription's result gained, lost and changed since
// the previous Read, in the order docs/architecture.md, Subscriptions
// gives per kind:
//   - filter: Entered (in now, not then), Left (in then, not now, with
//     the values handed out then), Changed (in both, other values), each
//     in ascending row; values compare bit for bit, as Values do (a -0
//     written over +0 is a change, a NaN rewritten with its bits is not);
//   - count: Before and After;
//   - grouped sum: Entered (groups that were empty), Left (groups that
//     emptied, with their row handed out then), Changed (other count or
//     sums shown by the select), each in ascending key order (the
//     query's group order);
//   - top-N: for every rank whose entry differs (another entity or other
//     values, or a rank that appeared or went), the old entry in Left and
//     the new one in Entered, each in ascending rank; Changed is empty.
//
// Before and After are the count (a count) or the number of result rows
// (the other kinds) handed out by the previous Read and now.
type Delta struct {
	Kind                   SubKind
	Width                  int // values per row: len(Columns())
	Entered, Left, Changed Rows
	Before, After          int64
}

// Subscription is a run-time query whose result the world keeps from
// the frames' changes (docs/architecture.md, Run-time queries:
// Subscribing): made by [Subscribe] before Build, read by the host
// between frames with [Subscription.Read] and [Subscription.Result];
// never concurrently with Frame nor with each other.
type Subscription struct {
	kind SubKind
	q    *Query
	d    Delta
	k    kept
}

// kept is a kind's upkeep over one vector size.
type kept interface {
	read(d *Delta)
	result(dst []Value) []Value
}

// Kind is the kind of result kept.
func (s *Subscription) Kind() SubKind { return s.kind }

// Columns are the result's fields in select order (Query.Columns).
func (s *Subscription) Columns() []Column { return s.q.cols }

// Read returns the delta from the result handed out by the previous Read
// (empty before the first) to the result now, and makes the latter the
// one Result gives: what the result is at a Read (the table as it is
// then, the host's tracked changes since the frame included) is
// docs/architecture.md, Subscriptions ("When it is kept"). Valid until
// the next Read.
// Allocates nothing once its lists have grown to the largest delta seen
// (a grouped sum: and a new key's entry, once).
func (s *Subscription) Read() *Delta {
	d := &s.d
	d.Entered.reset()
	d.Left.reset()
	d.Changed.reset()
	s.k.read(d)
	return d
}

// Result appends the result handed out by the last Read to dst[:0], in
// the Query.Run buffer format and order (what Run of the query, with the
// subscription's arguments, returns at that Read), and returns it.
func (s *Subscription) Result(dst []Value) []Value { return s.k.result(dst[:0]) }

// Subscribe prepares text as [Prepare] does (the same errors) and keeps
// its result in the world of b, which must not be built yet: the kind is
// picked from the query's shape (SubKind) and declared on the root
// (tickwork.SubscribeFilter, SubscribeCount, SubscribeGroupSum,
// SubscribeTopN) with a tickwork.RowSource over the query's compiled
// expressions; args are the parameters' values (fixed for the
// subscription's life). The catalog's tables must be b's (bind the
// catalog before Build: the tables and columns exist from Declare on).
// Errors, the query's own first: Prepare's (ErrCatalog for a nil
// catalog); ErrArgs (wrong arguments, a top-N limit below 1);
// ErrUnsupported, positioned, for a query of another shape (what is
// refused and why: docs/architecture.md, Run-time queries) or more than
// MaxSubscribed items; then ErrBuilder, wrapping b's earlier error, when
// b had already failed before this call (nothing is declared); then the
// root's *tickwork.SubscriptionError for this subscription
// (tickwork.ErrSubscription: after Build, a table of another Builder,
// past the memory budget), which b also records. Set-up only, from one
// goroutine.
func Subscribe(b *tickwork.Builder, cat *Catalog, text string, args []Value) (*Subscription, error) {
	prior := b.Err() // before this call: the root declares nothing on a failed Builder
	q, err := Prepare(cat, text)
	if err != nil {
		return nil, err
	}
	if err := q.bindArgs(args); err != nil {
		return nil, err
	}
	skip := cat.lines + 1
	kind, slots, err := subKindOf(q, skip)
	if err != nil {
		return nil, err
	}
	if kind == SubTopN {
		if n := q.topN(); n < 1 {
			return nil, &Error{Kind: ErrArgs, Msg: fmt.Sprintf("runq: the limit of top-N %s is %d; a subscribed top-N needs a limit of at least 1", q.def.Name, n)}
		}
	}
	if prior != nil {
		return nil, &Error{Kind: ErrBuilder, cause: prior,
			Msg: fmt.Sprintf("runq: subscription %s is not declared: the Builder had already failed (%v); fix that error first (Builder.Err)", q.def.Name, prior)}
	}
	s := &Subscription{kind: kind, q: q, d: Delta{Kind: kind, Width: len(q.cols)}}
	switch {
	case slots <= 2:
		err = declare[[2]uint64](s, b)
	case slots <= 4:
		err = declare[[4]uint64](s, b)
	default:
		err = declare[[2 + MaxSubscribed]uint64](s, b)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// bindArgs checks args as Run does and keeps them in the query's
// argument array, which its closures read.
func (q *Query) bindArgs(args []Value) error {
	if err := q.checkArgs(args); err != nil {
		return err
	}
	copy(q.args, args)
	return nil
}

// subKindOf picks the kind of q's shape and the vector slots its rows
// need (slot 0: passes the where; then the kind's values), or refuses q
// with ErrUnsupported at the position of what is refused.
func subKindOf(q *Query, skip int) (SubKind, int, error) {
	d := q.def
	refuse := func(p schema.Pos, what, why string) (SubKind, int, error) {
		return 0, 0, &Error{Pos: textPos(p, skip), Kind: ErrUnsupported,
			Msg: fmt.Sprintf("%s cannot be subscribed to: %s; %s", what, why, accepted)}
	}
	switch {
	case q.set != nil:
		return refuse(d.Pos, "a set operation", "its result is not kept per row of one table")
	case len(d.Joins) > 0:
		return refuse(d.Joins[0].Pos, "a join", "a subscription watches only its from table's rows")
	case len(d.Exists) > 0:
		return refuse(d.Exists[0].Pos, "an exists subquery", "a subscription watches only its from table's rows")
	case len(d.Windows) > 0:
		return refuse(d.Windows[0].Pos, "a window function", "its values depend on other rows")
	case len(d.After) > 0:
		return refuse(d.After[0].Position(), "keyset pagination (after)", "a page is recomputed, not kept")
	case d.Distinct:
		return refuse(d.Pos, "distinct", "a distinct row stands for several rows")
	case q.uniq != nil:
		return refuse(d.Where.Position(), "a unique key lookup", "it keeps the first match only")
	}
	for _, t := range d.Access.Presence {
		if t != d.From.Table {
			p := d.Pos
			if d.Where != nil {
				p = d.Where.Position()
			}
			return refuse(p, "has(_, "+t.Name+")", "a subscription watches only its from table's rows")
		}
	}
	if len(d.Select) > MaxSubscribed {
		return refuse(d.Select[MaxSubscribed].Pos, fmt.Sprintf("a select of %d items", len(d.Select)),
			fmt.Sprintf("a subscribed row keeps at most %d (MaxSubscribed)", MaxSubscribed))
	}
	switch {
	case len(d.GroupBy) > 0:
		return groupKindOf(q, refuse)
	case len(d.Aggregates) > 0:
		for _, a := range d.Aggregates {
			if a.Kind != schema.Count {
				return refuse(a.Pos, "an aggregate without group by other than count()", "only a count is kept by deltas without groups")
			}
		}
		for _, it := range d.Select {
			if it.Agg == nil {
				return refuse(it.Pos, "a select item beside count() without group by", "only a count is kept by deltas without groups")
			}
		}
		if d.Limit != nil || len(d.OrderBy) > 0 {
			return refuse(d.Pos, "a count with an order by or a limit", "a count is one row")
		}
		return SubCount, 1, nil
	case len(d.OrderBy) > 0:
		if len(d.OrderBy) > 1 {
			return refuse(d.OrderBy[1].Pos, "a second order key", "a top-N ranks by one key (ties by index)")
		}
		if d.Limit == nil {
			return refuse(d.OrderBy[0].Pos, "an order by without a limit", "a sorted result is kept only as a top-N")
		}
		return SubTopN, 2 + len(d.Select), nil
	case d.Limit != nil:
		return refuse(d.Limit.Position(), "a limit without an order by", "its first n rows in index order change with every row before them")
	}
	return SubFilter, 1 + len(d.Select), nil
}

// groupKindOf checks a group by: one key that is not a float, and select
// items that are the key, count() or an integer sum.
func groupKindOf(q *Query, refuse func(schema.Pos, string, string) (SubKind, int, error)) (SubKind, int, error) {
	d := q.def
	if len(d.GroupBy) > 1 {
		return refuse(d.GroupBy[1].Position(), "a group by of two keys", "a subscribed group by has one key")
	}
	if k := d.GroupBy[0].Type().Kind; k == schema.Float32 || k == schema.Float64 {
		return refuse(d.GroupBy[0].Position(), "a float group key",
			"a group reports its first row's key (+0 for a zero, the first NaN's bits), which a group kept by deltas cannot know; group by an integer, e.g. floor(x)")
	}
	if len(d.OrderBy) > 0 || d.Limit != nil {
		return refuse(d.Pos, "a group by with an order by or a limit", "its groups are kept in key order, every one")
	}
	for _, it := range d.Select {
		a := it.Agg
		switch {
		case a == nil && it.Group == 0:
		case a == nil:
			return refuse(it.Pos, "a select item that is not the group key or an aggregate", "a group keeps its key, count and sums")
		case a.Kind == schema.Count:
		case a.Kind != schema.Sum:
			return refuse(a.Pos, a.Kind.String()+"()", "min and max need every row of a group when its extreme leaves, and avg is a float")
		case a.T.Kind != schema.Int64:
			return refuse(a.Pos, "a float sum", "a float sum depends on the order its rows are added, so one kept by deltas drifts from the recomputed one")
		}
	}
	return SubGroupSum, 2 + len(d.Aggregates), nil
}

// passes reports whether row r is in the result's where (the probe's
// handle included).
func (q *Query) passes(r int) bool {
	if q.probe >= 0 && tickwork.QueryHandle(q.bt.tb, r) != q.args[q.probe].Handle() {
		return false
	}
	return q.where == nil || q.where(r)
}

// trackedColumns are the engine names of the from table's columns q reads.
func (q *Query) trackedColumns() []string {
	var out []string
	for _, u := range q.def.Access.Uses {
		if u.Var == q.def.From && u.Read {
			out = append(out, q.bt.cols[u.Column.Index].name)
		}
	}
	return out
}

// topN is the bound limit of q, a top-N.
func (q *Query) topN() int64 {
	if q.limit.k == schema.Int32 {
		return int64(q.limit.i32(0))
	}
	return q.limit.i64(0)
}

// subFail is the root's error of a declaration that returned nil: the
// Builder was sound before it (Subscribe checked), so b's first error is
// this declaration's.
func subFail(b *tickwork.Builder) error {
	if err := b.Err(); err != nil {
		return err
	}
	return &Error{Kind: ErrUnsupported, Msg: "runq: the subscription was not declared"}
}

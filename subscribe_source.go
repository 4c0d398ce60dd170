package tickwork

// RowSource is a subscription's row when R is not a struct that pairs
// with the table's columns (a FilterSpec, GroupSumSpec or TopSpec Source;
// package runq's subscriptions use it): Copy fills R from a live row, and
// Columns names the table's columns it reads, which the subscription
// tracks (docs/architecture.md, Subscriptions: a row is re-examined when
// one of them is stamped or bumped, or on a structural change of the
// table). Copy may read anything that only these columns, the row's
// handle and its slot determine; what else it reads is not watched.
// R is compared with == (Changed, a top-N's entries), so a vector of bit
// patterns compares floats bit for bit. Copy is called by Read, on the
// host's goroutine between frames (never concurrently), must not keep
// dst and must not allocate if Read is to stay at 0 B. A nil Copy,
// or a column the table does not have, records a *SubscriptionError
// (ErrSubscription).
type RowSource[R any] struct {
	Columns []string              // the columns Copy reads, by their names in the table
	Copy    func(dst *R, row int) // fills dst from row (a whole-column index of a live row)
}

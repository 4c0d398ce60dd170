package schema

// SubKind is the shape of a [Subscription]: which of the engine's kept
// results (tickwork.SubscribeFilter, SubscribeCount, SubscribeGroupSum,
// SubscribeTopN) holds its query's result.
type SubKind uint8

// The kinds of subscriptions (docs/schema.md, Subscriptions).
const (
	SubFilter SubKind = iota // where and select of the row: tickwork.SubFilter
	SubCount                 // select count() only: tickwork.SubCount
	SubGroup                 // group by one key, count() and one integer sum: tickwork.SubGroupSum
	SubTop                   // order by one key, limit N: tickwork.SubTopN
)

var subKindNames = [...]string{"filter", "count", "grouped sum", "top-N"}

func (k SubKind) String() string { return subKindNames[k] }

// Subscription is `subscription NAME of QUERY`: the result of a declared
// query kept by the world from each frame's changes (docs/schema.md,
// Subscriptions; the rule: docs/architecture.md, Subscriptions). Check
// builds it from a query of one table whose shape is one of the kinds;
// the generator reads it.
type Subscription struct {
	Pos   Pos
	Name  string
	Query *Query
	Kind  SubKind
	// Columns are the from table's columns the query's where, select,
	// group key, order key and sum read, in table order: the fields of
	// the generated row struct.
	Columns []*Column
	// Key is the group key (SubGroup) or the order key (SubTop), nil
	// otherwise; Desc is the order key's direction.
	Key  Expr
	Desc bool
	// Sum is a SubGroup's one integer sum, nil when it keeps counts only.
	Sum *Aggregate
}

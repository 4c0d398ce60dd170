package schema

// Query is a declared query, `query NAME(PARAMS) { from ... select ... }`:
// a read-only question over the tables, run by the host between frames
// or by a hand-written system (docs/schema.md, Queries; the order of its
// result: Query results). Check builds it; the generator reads it.
type Query struct {
	Pos    Pos
	Name   string
	Params []*Param
	From   *Var    // a RowVar or an EventVar
	Joins  []*Join // Kind RefJoin (Via set) or EntityJoin (Via nil); Left for left joins
	Where  Expr    // nil: every row; bool
	// Probe is set when Where has a top-level conjunct `v == p` with v the
	// from row variable and p a ref parameter of its table: the query
	// finds that one row by handle (Lease.Find) instead of scanning; Where
	// then holds the other conjuncts (nil when there are none).
	Probe    *Param
	GroupBy  []Expr // at most MaxGroupKeys: bool, integer, float or ref
	Distinct bool
	Select   []*SelectItem
	OrderBy  []*OrderKey
	Limit    Expr // nil: no limit; an int32 or int64 parameter or constant
	// After is keyset pagination, `after (x, ...)`: one value per order
	// key, of its type; the result keeps the rows whose keys come after
	// them in the order by's order (nil: every row).
	After []Expr
	// Windows lists the window functions of the select, once each
	// (SelectItem.Win points into it).
	Windows []*Window
	// Unique is set when the where looks a row up by a declared unique
	// column (nil otherwise, and always for a Probe).
	Unique *UniqueKey
	// Aggregates lists every aggregate of the select and order by, once
	// each (SelectItem.Agg and OrderKey.Agg point into it).
	Aggregates []*Aggregate
	Access     QueryAccess
	// Exists lists the exists subqueries of the where, in text order
	// (query_semi.go); SetOp is set for a query that combines two results
	// (its From is nil then; Select and Params are its left side's).
	Exists []*Exists
	SetOp  *SetOp
	// Index is the index the planner chose (or `using index` forced),
	// nil for a scan (docs/schema.md, Indexes); Scan is set by `using
	// scan`.
	Index *IndexPlan
	Scan  bool
}

// MaxGroupKeys bounds the keys of a group by.
const MaxGroupKeys = 2

// Param is a query parameter, read by name in the query's expressions.
type Param struct {
	Pos   Pos
	Name  string
	Type  Type // int32, int64, float32, float64, bool or ref
	Index int
}

// ParamRef reads parameter Param.
type ParamRef struct {
	Pos   Pos
	Param *Param
}

// Has is has(v, TABLE): whether the entity of row variable Var has a row in
// Table (of Var's domain; a tag table counts).
type Has struct {
	Pos   Pos
	Var   *Var
	Table *Table
}

// AggKind is the function of an [Aggregate].
type AggKind uint8

// The aggregate functions.
const (
	Count AggKind = iota // count(): int64
	Sum                  // sum(e): int64 for integers, float64 for floats (added in float64, in result order)
	Min                  // min(e): e's type
	Max                  // max(e): e's type
	Avg                  // avg(e): float64, sum/count
)

var aggNames = [...]string{"count", "sum", "min", "max", "avg"}

func (k AggKind) String() string { return aggNames[k] }

// Aggregate is count(), sum(X), min(X), max(X) or avg(X) over the rows of
// a group (or of the whole result when the query has no group by).
type Aggregate struct {
	Pos   Pos
	Kind  AggKind
	X     Expr // nil for count
	T     Type // the result type
	Index int  // in Query.Aggregates
}

// SelectItem is one column of the result: an expression, a group key or an
// aggregate, with its result name (docs/schema.md, Queries).
type SelectItem struct {
	Pos   Pos
	Name  string // the result field's name, exported (first letter upper-case)
	Expr  Expr   // nil when Agg is set
	Agg   *Aggregate
	Win   *Window // a window function; Expr and Agg are nil
	Group int     // the index of the group key it is, -1 if none
	T     Type
}

// OrderKey is one key of an order by: an expression, a select item (an
// alias or the same expression) or an aggregate.
type OrderKey struct {
	Pos   Pos
	Expr  Expr // nil when Agg is set or Item names a select item
	Agg   *Aggregate
	Item  int // the select item it names, -1 if none
	Group int // in a grouped query, the group key it is, -1 if none
	Desc  bool
	T     Type
}

// QueryAccess is what a query reads: the manifest of the generated
// DeclareQ, in the schema's order.
type QueryAccess struct {
	Reads    []*Column     // table columns read
	Presence []*Table      // tables whose rows are probed or scanned without a column read (has, joins, the from table)
	Events   []*EventTable // the event table the query runs over
	Handle   bool          // needs the from row's handle
	// Uses are the columns and event fields read, per row variable: the
	// from variable's, then each join's, in declaration order.
	Uses []Use
}

// JoinKind says how a join finds its row.
type JoinKind uint8

// The kinds of joins.
const (
	RefJoin    JoinKind = iota // through a ref column of the from row: join T w on v.C
	EntityJoin                 // the same entity's row in another table of the domain: join T w on v
)

func (e *ParamRef) Position() Pos { return e.Pos }
func (e *Has) Position() Pos      { return e.Pos }
func (e *ParamRef) Type() Type    { return e.Param.Type }
func (*Has) Type() Type           { return Type{Kind: Bool} }

package schema

// Semi-/anti-joins and set operations of queries (docs/schema.md,
// Queries: "exists" and "Set operations"; their result order: Query
// results).

// Exists is exists(from TABLE v where v.REF == ROW and CONDS): true when
// some live row of Table has in its ref column Via the handle of the
// query's from row Outer (a generation-checked match: a dangling ref
// matches nothing) and passes Where. `not exists(...)` is its negation
// (a Unary Not), the anti-join. The generator marks the matching outer
// rows in one scan of Table before the outer scan tests them.
type Exists struct {
	Pos   Pos
	Var   *Var    // the subquery's row variable (Kind SubVar)
	Table *Table  // the table it scans
	Via   *Column // the ref column of Table that correlates it
	Outer *Var    // the query's from row (a RowVar)
	Where Expr    // the other conditions, on Var and parameters only; nil: none
	Index int     // in Query.Exists
	// Uses are the columns of Table the subquery reads (Via first), in
	// column order.
	Uses []*Column
}

func (e *Exists) Position() Pos { return e.Pos }
func (*Exists) Type() Type      { return Type{Kind: Bool} }

// SetKind is the operation of a [SetOp].
type SetKind uint8

// The set operations.
const (
	Union     SetKind = iota // the rows of either side
	Intersect                // the rows of the left side that the right side has
	Except                   // the rows of the left side that the right side has not
)

var setNames = [...]string{"union", "intersect", "except"}

func (k SetKind) String() string { return setNames[k] }

// SetOp is `(LEFT) union (RIGHT)`, `intersect` or `except`: two
// results with the same select types, combined with SQL's set semantics
// (no duplicate rows). Each side is a query without group by,
// aggregates, distinct, order by or limit; the right side's result names
// are the left's.
type SetOp struct {
	Pos         Pos
	Kind        SetKind
	Left, Right *Query
	// Fused: both sides scan one table under one row variable name,
	// without joins, probes or exists, and select the same items (as
	// written), the row variable among them, so a row of the result is
	// one row of the table and the plan is one scan testing both sides'
	// filters. Otherwise both sides run into scratch and are merged by
	// their from rows' index.
	Fused bool
}

package schema

// The model of a query's window functions, keyset pagination and declared
// unique key lookups (docs/schema.md, Queries; their order: Query results).

// WinKind is the function of a [Window].
type WinKind uint8

// The window functions.
const (
	RowNumber  WinKind = iota // row_number(): int64, 1, 2, ... within a partition
	RunningSum                // sum(e) over (...): int64 for integers, float64 for floats, added in the window's order
)

// String returns the function's name, row_number or sum.
func (k WinKind) String() string {
	if k == RunningSum {
		return "sum"
	}
	return "row_number"
}

// Window is `row_number() over (...)` or `sum(X) over (...)`, a whole
// select item of a query that neither groups nor aggregates. Its rows are
// the query's rows (after where and joins, before order by and limit),
// split by Partition and ordered by Order, ties by entity index; the frame
// of a running sum is every row of the partition up to the current one
// (SQL's ROWS UNBOUNDED PRECEDING).
type Window struct {
	Pos       Pos
	Kind      WinKind
	X         Expr        // sum's argument; nil for row_number
	Partition []Expr      // keys: bool, integer, float or ref
	Order     []*OrderKey // Expr and Desc set; Item and Group -1
	T         Type        // the result type: int64, or float64 for a float sum
	Index     int         // in Query.Windows
	Item      int         // the select item it is
}

// UniqueKey is a query's lookup by a declared unique column: Where has a
// top-level conjunct `v.K == x`, v the from row, K a unique column of its
// table and x a parameter or a constant. The scan stops at the first row
// whose K equals x (docs/schema.md, Queries: the lowest entity index if
// the data holds duplicates).
type UniqueKey struct {
	Column *Column
	Cond   Expr // the conjunct v.K == x (also in Where)
	Rest   Expr // Where's other conjuncts, nil if none
}

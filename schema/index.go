package schema

// IndexKind is the structure of a declared [Index] (docs/schema.md,
// Indexes).
type IndexKind uint8

// The index kinds.
const (
	HashIndex   IndexKind = iota // equality on one or more columns (int, bool, ref)
	UniqueIndex                  // equality, at most one row per key
	SortedIndex                  // one numeric column in (key, row) order
	GridIndex                    // a uniform grid over two float32 columns
)

var indexKindNames = [...]string{"hash", "unique", "sorted", "grid"}

func (k IndexKind) String() string { return indexKindNames[k] }

// Index is a declared index, `index NAME on TABLE(COLUMN, ...) KIND`: the
// world keeps it consistent (docs/architecture.md, Indexes) and the
// planner serves queries from it (docs/schema.md, Indexes).
type Index struct {
	Pos   Pos
	Name  string
	Kind  IndexKind
	Table *Table      // nil for an event table's index
	Event *EventTable // set for an event table's index (hash only)
	// Columns are the key columns (event fields for an event table) in
	// declared order; a grid's are X then Y.
	Columns []*Column
	Cell    float32 // a grid's cell side, world units (> 0, finite)
}

// IndexWalk is how a query's plan walks its index.
type IndexWalk uint8

// The walks (docs/schema.md, Indexes).
const (
	WalkFind    IndexWalk = iota // unique: Find(key), 0 or 1 rows
	WalkEqual                    // hash: First/Next of one key, ascending row
	WalkGroups                   // hash: group by the key, a walk per group
	WalkOrdered                  // sorted: the order by's order, (key, row) or descending runs
	WalkRange                    // sorted: Seek to the lower bound, walk to the upper; rows marked in a row bitmap, read in row order
	WalkBox                      // grid: AppendBox of the box conjuncts
	WalkDisc                     // grid: AppendRadius of the disc conjunct
)

var walkNames = [...]string{"find", "equal", "groups", "ordered", "range", "box", "disc"}

func (w IndexWalk) String() string { return walkNames[w] }

// IndexPlan is a query's use of an index (Query.Index). Everything the
// index does not serve is still evaluated as the scan does: Where is
// tested whole on every row the walk gives, so the result is the scan's.
type IndexPlan struct {
	Index *Index
	Walk  IndexWalk
	// Keys (WalkFind, WalkEqual): the key's values, one per index column
	// in the index's column order, each a parameter or a constant.
	Keys []Expr
	// Lo, Hi (WalkRange, and bounds of WalkOrdered): the range's bounds,
	// nil when unbounded (strict or not: the where keeps its exact test).
	Lo, Hi Expr
	// Desc (WalkOrdered): the order by's key is descending (runs of equal
	// keys from the greatest, each in ascending row).
	Desc bool
	// After (WalkOrdered): the walk starts after the keyset page's values.
	After bool
	// Box (WalkBox): x0, y0, x1, y1, nil when unbounded.
	Box [4]Expr
	// Centre and R2 (WalkDisc): the disc's centre and squared radius.
	Centre [2]Expr
	R2     Expr
}

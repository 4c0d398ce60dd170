package ephemeral

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
)

// Sentinel errors of the package. Every error returned by ephemeral matches
// one of them with errors.Is, or memory.ErrBudget: a domain, table or
// column whose pages do not fit in what is left of its memory budget is a
// *memory.BudgetError naming the table (or domain) and column, the bytes
// asked and the budget; nothing was allocated.
var (
	// ErrCapacity: an insert would take a table or domain past its capacity.
	// Returned as a *CapacityError that names the table and its capacity.
	ErrCapacity = errors.New("ephemeral: capacity exceeded")
	// ErrStaleHandle: the handle is zero, was deleted, or names a slot whose
	// generation has moved on.
	ErrStaleHandle = errors.New("ephemeral: stale or zero handle")
	// ErrForeignHandle: a nonzero handle that the table's domain did not
	// issue (another domain's tag, or an untagged handle); see Domain.Owns.
	ErrForeignHandle = errors.New("ephemeral: handle of another domain")
	// ErrRowExists: Attach of an entity that already has a row in the table.
	ErrRowExists = errors.New("ephemeral: entity already has a row in this table")
	// ErrDefinition: a bad table, domain or column definition. Returned as a
	// *DefinitionError whose Unwrap gives one of the more precise sentinels below.
	ErrDefinition = errors.New("ephemeral: bad definition")
	// ErrZeroCapacity: a capacity <= 0 or above MaxCapacity rows.
	ErrZeroCapacity = errors.New("capacity must be between 1 and MaxCapacity = " + strconv.Itoa(MaxCapacity))
	// ErrChunkRows: chunk rows not a power of two between MinChunkRows and MaxChunkRows.
	ErrChunkRows = errors.New("chunk rows must be a power of two between MinChunkRows = " + strconv.Itoa(MinChunkRows) + " and MaxChunkRows = " + strconv.Itoa(MaxChunkRows))
	// ErrDuplicateColumn: two columns of one table share a name.
	ErrDuplicateColumn = errors.New("duplicate column name")
	// ErrUnsupportedType: a column element type holds pointers (pointers,
	// slices, maps, strings, interfaces, channels, functions).
	ErrUnsupportedType = errors.New("column element type must be pointer-free")
	// ErrDomainMismatch: a table spec whose capacity, chunk rows or memory
	// budget disagree with its domain's.
	ErrDomainMismatch = errors.New("table capacity, chunk rows and budget must match the domain's")
	// ErrTooLarge: a column whose allocation, Chunks()*ChunkRows()*sizeof(T)
	// bytes, would exceed MaxColumnBytes.
	ErrTooLarge = errors.New("column would exceed MaxColumnBytes")
	// ErrSealed: AddColumn, or NewTable into a domain, after the domain was
	// sealed (a runtime.Builder seals its domains at Build):
	// its tables and columns are fixed. Nothing was allocated or charged.
	// Exported for a host that adds columns to a world's domain after
	// Build: the runtime documents and tests it (runtime, seal.go).
	ErrSealed = errors.New("definitions are sealed: add tables and columns before the domain is sealed (before Build in a world)")
	// ErrNilColumn: a query given a nil *Column instead of one from AddColumn.
	ErrNilColumn = errors.New("column is nil: pass the *Column returned by AddColumn")
	// ErrZeroQuery: Insert or InsertN of a zero query (Query1{} ...), which
	// has no table; nothing was inserted.
	ErrZeroQuery = errors.New("ephemeral: Insert or InsertN of a zero query, which has no table: make the query with NewQuery1..NewQuery4 of a table's columns")
	// ErrNegativeCount: a negative count of rows (a query's InsertN(-1, ...))
	// or of records (a recorder's Reserve(-1), in package systems).
	// Returned as a *CountError; nothing was inserted or reserved.
	ErrNegativeCount = errors.New("ephemeral: negative count")
	// ErrQueryTables: a query over columns of different tables.
	ErrQueryTables = errors.New("a query's columns must belong to one table")
	// ErrRowCopy: a RowCopy's V that is not a struct, or a field of V with
	// no column of its name (or tickwork tag) and type in the table.
	ErrRowCopy = errors.New("each field of a row copy needs a column of the table with its name (or its `tickwork:\"name\"` tag) and its type")
)

// The definition errors of a caller's slip that the message alone fixes,
// not exported: each is the Err of a *DefinitionError (errors.Is
// ErrDefinition), whose message names the table, domain or column.
var (
	// errEmptyName: a table, domain or column without a name.
	errEmptyName = plumb.ErrEmptyName
	// errNilTable: AddColumn or a join given a nil *Table instead of one
	// from NewTable.
	errNilTable = errors.New("table is nil: pass the *Table returned by NewTable")
)

// CapacityError reports an insert that does not fit. Nothing was inserted.
// errors.Is(err, ErrCapacity) is true.
type CapacityError struct {
	// Kind is what Table names: KindTable (a table's insert, also the zero
	// value) or KindDomain (Domain.Create, Domain.CreateN).
	Kind     DefinitionKind
	Table    string // table (or domain) name
	Capacity int    // rows
	// Live is the number of slots in use before the insert: the domain's
	// live entities, which in a shared domain include those that have no
	// row in this table.
	Live      int
	Requested int // rows the insert asked for
}

func (e *CapacityError) Error() string {
	if e.Kind == KindDomain {
		return fmt.Sprintf("ephemeral: domain %q is full: capacity %d entities, %d live, %d requested",
			e.Table, e.Capacity, e.Live, e.Requested)
	}
	return fmt.Sprintf("ephemeral: table %q is full: capacity %d rows, %d live, %d requested",
		e.Table, e.Capacity, e.Live, e.Requested)
}

// Is reports whether target is ErrCapacity.
func (e *CapacityError) Is(target error) bool { return target == ErrCapacity }

// CountError reports a negative count given to Call on the table Table;
// nothing changed. errors.Is(err, ErrNegativeCount) is true.
type CountError struct {
	Table string // table name
	Call  string // "InsertN"; a reservation's ("Recorder.Reserve", "Spawner2.Reserve", ...)
	Count int    // the count given, < 0
}

func (e *CountError) Error() string {
	if e.Call == "InsertN" {
		return fmt.Sprintf("ephemeral: table %q: %s(%d, ...): want a count of 0 or more rows; nothing was inserted", e.Table, e.Call, e.Count)
	}
	return fmt.Sprintf("ephemeral: table %q: %s(%d): want a count of 0 or more; nothing was reserved", e.Table, e.Call, e.Count)
}

// Is reports whether target is ErrNegativeCount.
func (e *CountError) Is(target error) bool { return target == ErrNegativeCount }

// DefinitionError reports a bad definition. errors.Is(err, ErrDefinition) is
// true, and so is errors.Is(err, Err) for the precise sentinel.
type DefinitionError struct {
	// Kind is what Table names: KindTable (also the zero value) or
	// KindDomain. An error about a column has the column's table here.
	Kind   DefinitionKind
	Table  string // table or domain name, as Kind says
	Column string // column name, empty when the table or domain itself is bad
	// Err is ErrZeroCapacity, ErrChunkRows, ErrDuplicateColumn,
	// ErrUnsupportedType, ErrDomainMismatch, errEmptyName, errNilTable,
	// ErrTooLarge, ErrNilColumn, ErrQueryTables, ErrSealed, ErrRowCopy, or a join's
	// ErrJoinDomains, ErrJoinEmpty or ErrJoinExcluded (join.go).
	Err error
	// EmptyColumn marks errEmptyName for a column (AddColumn with an empty
	// name), rather than for the table or domain itself.
	EmptyColumn bool
	Detail      string // extra context, such as the offending type
}

// DefinitionKind says whether a DefinitionError is about a table or a domain.
// Exported as the type of DefinitionError.Kind (tickwork.StorageDefinitionError
// at the face), which a caller compares with KindTable and KindDomain.
type DefinitionKind uint8

const (
	KindTable  DefinitionKind = iota // a table (NewTable, AddColumn)
	KindDomain                       // a domain (NewDomain)
)

// String is "table" or "domain".
func (k DefinitionKind) String() string {
	if k == KindDomain {
		return "domain"
	}
	return "table"
}

func (e *DefinitionError) Error() string {
	s := "ephemeral:"
	switch {
	case e.Err == errNilTable || e.Err == ErrNilColumn || e.Err == ErrJoinEmpty: // nothing to name
	case e.Err == errEmptyName && !e.EmptyColumn:
		return s + " " + e.Kind.String() + " " + e.Err.Error() // "ephemeral: domain name must not be empty"
	default:
		s += " " + e.Kind.String() + " " + fmt.Sprintf("%q", e.Table)
	}
	if e.Column != "" {
		s += fmt.Sprintf(" column %q", e.Column)
	}
	if s != "ephemeral:" { // nothing named: "ephemeral: column is nil: ..."
		s += ":"
	}
	s += " "
	if e.EmptyColumn {
		s += "column "
	}
	s += e.Err.Error()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Is reports whether target is ErrDefinition.
func (e *DefinitionError) Is(target error) bool { return target == ErrDefinition }

// Unwrap returns the precise sentinel.
func (e *DefinitionError) Unwrap() error { return e.Err }

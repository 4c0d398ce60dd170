package ephemeral

import (
	"math"
	"reflect"
	"strconv"

	"github.com/tickwork/tickwork/internal/wire"
	"github.com/tickwork/tickwork/memory"
)

// Column is one typed column of a table: Chunks()*ChunkRows() elements of T
// in one pin-stable allocation, indexed by row (= handle index).
//
// T must be pointer-free: booleans, integers, floats, complex numbers,
// Handles, and arrays or structs of those.
//
// Get, Set, Ptr, Span and All are safe from kernels and other goroutines
// while no structural change runs on the table (two writers of one row race).
type Column[T any] struct {
	table   *Table
	label   string
	data    []T
	bools   []uintptr // byte offsets of T's bool fields (snapshot check; docs/state.md)
	changes *Versions // change detection, nil unless tracked (changes.go)
}

// MaxColumnBytes bounds one column's allocation, Chunks()*ChunkRows()*sizeof(T),
// in bytes (1 TiB). AddColumn refuses a larger column with ErrTooLarge rather
// than fail inside make; it also refuses one above math.MaxInt bytes on
// 32-bit platforms.
// Exported as the limit behind ErrTooLarge (tickwork.ErrTooLarge), which
// its message names.
const MaxColumnBytes int64 = 1 << 40

// AddColumn adds a column of element type T named name to t and returns it.
// Existing rows read the zero value. It returns a *DefinitionError (errors.Is
// ErrDefinition) for a nil t, an empty or duplicate name
// (ErrDuplicateColumn), a T that holds pointers
// (ErrUnsupportedType), a column of more than MaxColumnBytes bytes
// (ErrTooLarge), or a table whose domain is sealed (ErrSealed: a world's
// tables after Build), and a *memory.BudgetError (errors.Is
// memory.ErrBudget) when
// the column does not fit in what is left of the table's budget (its
// domain's); nothing is allocated then. It charges and allocates
// Chunks()*ChunkRows()*sizeof(T) bytes (ColumnBytes), zeroed, in one piece;
// call it at set-up, never concurrently with anything else on t.
func AddColumn[T any](t *Table, name string) (*Column[T], error) {
	if t == nil {
		return nil, &DefinitionError{Column: name, Err: errNilTable}
	}
	if t.dom.sealed {
		return nil, &DefinitionError{Table: t.name, Column: name, Err: ErrSealed}
	}
	if name == "" {
		return nil, &DefinitionError{Table: t.name, Err: errEmptyName, EmptyColumn: true}
	}
	for _, c := range t.cols {
		if c.name() == name {
			return nil, &DefinitionError{Table: t.name, Column: name, Err: ErrDuplicateColumn}
		}
	}
	typ := reflect.TypeFor[T]()
	if bad := PointerPath(typ); bad != "" {
		return nil, &DefinitionError{Table: t.name, Column: name, Err: ErrUnsupportedType,
			Detail: typ.String() + " holds " + bad}
	}
	if size := uint64(typ.Size()); !columnFits(len(t.gens), size) {
		return nil, &DefinitionError{Table: t.name, Column: name, Err: ErrTooLarge,
			Detail: itoa(len(t.gens)) + " rows of " + strconv.FormatUint(size, 10) + "-byte " + typ.String() +
				" exceed " + strconv.FormatInt(MaxColumnBytes, 10) + " bytes"}
	}
	bytes := ColumnBytes[T](t.dom.capacity, t.dom.chunkRows)
	if err := t.dom.budget.Charge(memory.Definition{Kind: "column", Name: t.name, Column: name}, bytes); err != nil {
		return nil, err
	}
	c := &Column[T]{table: t, label: name, data: make([]T, len(t.gens)), bools: wire.BoolOffsets(typ)}
	t.cols = append(t.cols, c)
	return c, nil
}

// columnFits reports whether rows elements of size bytes fit in
// MaxColumnBytes and in an int. It divides instead of multiplying, so no
// product can overflow.
func columnFits(rows int, size uint64) bool {
	if size == 0 || rows <= 0 {
		return true
	}
	limit := uint64(MaxColumnBytes)
	if uint64(math.MaxInt) < limit {
		limit = uint64(math.MaxInt)
	}
	return uint64(rows) <= limit/size
}

// PointerPath returns "" for a pointer-free type (what a column, and a
// snapshot's raw bytes, may hold), else a description of the first
// pointer-holding part, such as "field Name: a string". Pure; safe from
// any goroutine.
func PointerPath(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return ""
	case reflect.Array:
		return PointerPath(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if p := PointerPath(t.Field(i).Type); p != "" {
				return "field " + t.Field(i).Name + ": " + p
			}
		}
		return ""
	default:
		return "a " + t.Kind().String()
	}
}

func (c *Column[T]) name() string                       { return c.label }
func (c *Column[T]) zeroRange(lo, hi uint32)            { clear(c.data[lo:hi]) }
func (c *Column[T]) raw() []byte                        { return wire.Bytes(c.data) }
func (c *Column[T]) boolOffsets() []uintptr             { return c.bools }
func (c *Column[T]) elemType() reflect.Type             { return reflect.TypeFor[T]() }
func (c *Column[T]) versions() *Versions                { return c.changes }
func (c *Column[T]) track(rows bool) (*Versions, error) { return c.Track(rows) }

// Name is the column's name. Fixed at AddColumn; safe from any goroutine.
func (c *Column[T]) Name() string { return c.label }

// Table is the column's table. Fixed at AddColumn; safe from any goroutine.
func (c *Column[T]) Table() *Table { return c.table }

// Get returns h's value and true, or the zero value and false when h has no
// live row in the table.
func (c *Column[T]) Get(h Handle) (T, bool) {
	if !c.table.IsAlive(h) {
		var z T
		return z, false
	}
	return c.data[h.Index()], true
}

// Set writes v to h's row and returns true, or writes nothing and returns
// false when h has no live row in the table.
func (c *Column[T]) Set(h Handle, v T) bool {
	if !c.table.IsAlive(h) {
		return false
	}
	c.data[h.Index()] = v
	if m := c.table.marks; m != nil {
		m.Mark(h.Index())
	}
	if v := c.changes; v != nil {
		v.Stamp(h.Index())
	}
	return true
}

// Ptr returns a pointer to h's value, or nil when h has no live row. The
// pointer stays valid while the table lives, but names another entity's
// value once h is deleted and its slot reused: do not keep it across a
// structural change.
func (c *Column[T]) Ptr(h Handle) *T {
	if !c.table.IsAlive(h) {
		return nil
	}
	return &c.data[h.Index()]
}

// Span returns chunk c's slice of the column: ChunkRows elements, element r
// being row c*ChunkRows+r. Rows whose enabled bit is clear hold garbage.
//
// Span panics when chunk is outside 0..Table().Chunks()-1: that is a bug in
// the caller's chunk loop, not a runtime condition.
func (c *Column[T]) Span(chunk int) []T {
	t := c.table
	if uint(chunk) >= uint(len(t.enabled)) {
		chunkPanic("Span", chunk, t, c.label)
	}
	n := t.dom.chunkRows
	return c.data[chunk*n : (chunk+1)*n : (chunk+1)*n]
}

// All returns the whole column, indexed by row: Chunks()*ChunkRows()
// elements, pin-stable. Use it with a Lease: row, ok := lease.Row(h);
// v := all[row]. Safe from any goroutine; reading and writing its elements
// follows the contract of Get and Set. A system's writes through it are
// not in its manifest (docs/architecture.md, Access rules, "Column slices
// bypass the manifest").
func (c *Column[T]) All() []T { return c.data }

package runq

import (
	"fmt"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/schema"
)

// Catalog is a world's schema at run time: the checked schema of a .tw
// source and, per table, the bound engine table and its column slices
// (Column.All, taken once). Prepare checks a query against it and binds
// the query's closures to its slices. Build it once at set-up
// ([NewCatalog], then [BindTable] and [BindColumn] for each table and
// column the queries may read); read-only afterwards and then safe for
// concurrent Prepare calls.
type Catalog struct {
	file   string
	src    string
	lines  int // newlines in src
	schema *schema.Schema
	tables map[string]*boundTable
}

type boundTable struct {
	def  *schema.Table
	tb   *tickwork.Table
	cols []boundColumn // by schema column index
}

// boundColumn holds one typed slice, of the column's schema type.
type boundColumn struct {
	i32 []int32
	i64 []int64
	f32 []float32
	f64 []float64
	b   []bool
	h   []tickwork.Handle
	ok  bool
	// name is the engine column's name (Column.Name), which a subscription
	// tracks (subscribe.go).
	name string
}

// NewCatalog checks src, the text of the .tw schema file named file, and
// returns its catalog with nothing bound yet. Its errors are schema.Load's
// (an schema.ErrorList).
func NewCatalog(file, src string) (*Catalog, error) {
	s, err := schema.Load(file, []byte(src))
	if err != nil {
		return nil, err
	}
	n := 0
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			n++
		}
	}
	return &Catalog{file: file, src: src, lines: n, schema: s, tables: map[string]*boundTable{}}, nil
}

// Schema is the catalog's checked schema (read-only).
func (c *Catalog) Schema() *schema.Schema { return c.schema }

// BindTable binds the schema's table name to the world's table t. Errors
// (ErrCatalog): no such table in the schema, a nil t.
func (c *Catalog) BindTable(name string, t *tickwork.Table) error {
	for _, d := range c.schema.Tables {
		if d.Name == name && t != nil {
			c.tables[name] = &boundTable{def: d, tb: t, cols: make([]boundColumn, len(d.Columns))}
			return nil
		}
	}
	return &Error{Kind: ErrCatalog, Msg: fmt.Sprintf("runq: no table %q in schema %s (or a nil table)", name, c.file)}
}

// BindColumn binds column col ("Pos.X" for a struct field) of the bound
// table to the world's column data, whose element type must be the
// column's schema type (int32, int64, float32, float64, bool or
// tickwork.Handle for a ref). Errors (ErrCatalog): the table is not bound,
// no such column, a type that differs. Set-up only (the type switch here
// is the last dynamic step: runs read the typed slice).
func BindColumn[T int32 | int64 | float32 | float64 | bool | tickwork.Handle](c *Catalog, table, col string, data *tickwork.Column[T]) error {
	bt := c.tables[table]
	if bt == nil {
		return &Error{Kind: ErrCatalog, Msg: fmt.Sprintf("runq: table %q is not bound; call BindTable first", table)}
	}
	for i, d := range bt.def.Columns {
		if d.Name != col {
			continue
		}
		var bc boundColumn
		var kind schema.TypeKind
		switch all := any(data.All()).(type) {
		case []int32:
			bc.i32, kind = all, schema.Int32
		case []int64:
			bc.i64, kind = all, schema.Int64
		case []float32:
			bc.f32, kind = all, schema.Float32
		case []float64:
			bc.f64, kind = all, schema.Float64
		case []bool:
			bc.b, kind = all, schema.Bool
		case []tickwork.Handle:
			bc.h, kind = all, schema.Ref
		}
		if kind != d.Type.Kind {
			return &Error{Kind: ErrCatalog, Msg: fmt.Sprintf("runq: column %s.%s is %s in the schema, bound to a column of another type", table, col, d.Type)}
		}
		bc.ok, bc.name = true, data.Name()
		bt.cols[i] = bc
		return nil
	}
	return &Error{Kind: ErrCatalog, Msg: fmt.Sprintf("runq: no column %q in table %s", col, table)}
}

// NewCatalogOf is NewCatalog(file, src) bound by bind, a generated
// Tables.BindCatalog (tickwork-gen -catalog), which binds every table and
// column of the schema: `runq.NewCatalogOf(kit.SchemaFile, kit.SchemaText,
// tabs.BindCatalog)`. Errors: NewCatalog's, and bind's first (ErrCatalog).
func NewCatalogOf(file, src string, bind func(tickwork.CatalogBinder) error) (*Catalog, error) {
	c, err := NewCatalog(file, src)
	if err != nil {
		return nil, err
	}
	if err := bind(c); err != nil {
		return nil, err
	}
	return c, nil
}

// BindInt32 is BindColumn for an int32 column (tickwork.CatalogBinder).
func (c *Catalog) BindInt32(table, col string, d *tickwork.Column[int32]) error {
	return BindColumn(c, table, col, d)
}

// BindInt64 is BindColumn for an int64 column (tickwork.CatalogBinder).
func (c *Catalog) BindInt64(table, col string, d *tickwork.Column[int64]) error {
	return BindColumn(c, table, col, d)
}

// BindFloat32 is BindColumn for a float32 column (tickwork.CatalogBinder).
func (c *Catalog) BindFloat32(table, col string, d *tickwork.Column[float32]) error {
	return BindColumn(c, table, col, d)
}

// BindFloat64 is BindColumn for a float64 column (tickwork.CatalogBinder).
func (c *Catalog) BindFloat64(table, col string, d *tickwork.Column[float64]) error {
	return BindColumn(c, table, col, d)
}

// BindBool is BindColumn for a bool column (tickwork.CatalogBinder).
func (c *Catalog) BindBool(table, col string, d *tickwork.Column[bool]) error {
	return BindColumn(c, table, col, d)
}

// BindHandle is BindColumn for a ref column (tickwork.CatalogBinder).
func (c *Catalog) BindHandle(table, col string, d *tickwork.Column[tickwork.Handle]) error {
	return BindColumn(c, table, col, d)
}

var _ tickwork.CatalogBinder = (*Catalog)(nil)

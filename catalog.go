package tickwork

// CatalogBinder receives a world's tables and columns by their schema
// names: a run-time query catalog (runq.Catalog) implements it, and the
// code tickwork-gen -catalog generates calls it (Tables.BindCatalog), so a
// catalog binds typed column data once at set-up without reflection
// (docs/architecture.md, Run-time queries). Each method returns an error
// when the name is not the schema's or the type differs; set-up only,
// from one goroutine.
type CatalogBinder interface {
	BindTable(name string, t *Table) error
	BindInt32(table, column string, c *Column[int32]) error
	BindInt64(table, column string, c *Column[int64]) error
	BindFloat32(table, column string, c *Column[float32]) error
	BindFloat64(table, column string, c *Column[float64]) error
	BindBool(table, column string, c *Column[bool]) error
	BindHandle(table, column string, c *Column[Handle]) error
}

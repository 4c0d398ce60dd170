package plumb

// The checking debug build's side of the engine (build tag tickwork_debug;
// docs/architecture.md, Debug build): the raw memory of a column and of a
// resource, which the scheduler hashes around each system's run. Each
// owner sets its function in its init, in the tagged file of that build
// only; in the normal build both stay nil and nothing calls them.
var (
	// ColumnBytes returns the memory of the column named column of table,
	// an *ephemeral.Table, as bytes (its whole capacity, pin-stable), or
	// nil when the table has no such column. Set by package ephemeral.
	ColumnBytes func(table any, column string) []byte
	// ResourceBytes returns the memory of r, a *systems.Resource[T]: the
	// value's own bytes, and for a slice of pointer-free elements also the
	// elements' bytes (nil otherwise). Called again for each check, since
	// a written slice may have moved. Set by package systems.
	ResourceBytes func(r any) (value, elems []byte)
)

package frame

import (
	"slices"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// Manifest is what a system touches, derived from its declaration by the
// accessors of package systems (see Declare); the scheduler reads nothing
// else to order systems and refuse conflicts (docs/architecture.md, Access
// rules). Lists are sets: each entry once, in declaration order.
type Manifest struct {
	Reads     []ColumnRef        // columns read (not written)
	Writes    []ColumnRef        // columns written (and read)
	Records   []*ephemeral.Table // tables the system records commands for: structural changes and deferred writes
	Emits     []events.Buffer    // event tables emitted into
	Consumes  []events.Buffer    // event tables read
	Resources []ResourceUse      // resources read or written
	// Presence lists the tables whose rows' presence (enabled bitmaps)
	// the system reads beyond its columns' tables: a join's With and
	// Without tables, tag tables included. Only playback changes
	// presence, so a presence read conflicts with nothing
	// (docs/architecture.md, Access rules).
	Presence []*ephemeral.Table
	// Indexes lists the indexes the system reads (systems.ReadIndex): their
	// key columns are in Reads and their tables in Presence, and a system
	// that writes a key column of one is refused (systems.ErrStaleIndex).
	Indexes []Index
	// CondReads names the data the system's run conditions read
	// (systems.Decl.RunIf), as Overlap.Datum names them ("Match.on",
	// "resource clock"): they are in Reads and Resources too, and
	// Conflicts says "read by run condition" for them
	// (docs/architecture.md, Run conditions).
	CondReads []string
}

// ColumnRef names one column of one table. Comparable: equal refs name the
// same column.
type ColumnRef struct {
	Table  *ephemeral.Table
	Column string
}

// String formats the reference as "table.column".
func (r ColumnRef) String() string { return r.Table.Name() + "." + r.Column }

// ResourceUse is one resource in a manifest, read or written.
type ResourceUse struct {
	Resource Resource
	Write    bool
}

// Resource is the untyped face of a *systems.Resource[T], as a manifest
// names it.
type Resource interface{ Name() string }

// Read adds a read of r, unless m writes it.
func (m *Manifest) Read(r ColumnRef) {
	if !slices.Contains(m.Writes, r) {
		m.Reads = AddNew(m.Reads, r)
	}
}

// Write adds a write of r, which replaces a read of it.
func (m *Manifest) Write(r ColumnRef) {
	m.Reads = slices.DeleteFunc(m.Reads, func(x ColumnRef) bool { return x == r })
	m.Writes = AddNew(m.Writes, r)
}

// Use adds a use of resource r, a write when write is set (a write wins).
func (m *Manifest) Use(r Resource, write bool) {
	for i, u := range m.Resources {
		if u.Resource == r {
			m.Resources[i].Write = u.Write || write
			return
		}
	}
	m.Resources = append(m.Resources, ResourceUse{r, write})
}

// Equal reports whether m and o declare the same accesses, as sets. A
// scheduler hook's Substitute uses it. It allocates; call it at set-up.
func (m *Manifest) Equal(o *Manifest) bool {
	return sameSet(m.CondReads, o.CondReads) && sameSet(m.Reads, o.Reads) && sameSet(m.Writes, o.Writes) &&
		sameSet(m.Records, o.Records) &&
		sameSet(m.Emits, o.Emits) && sameSet(m.Consumes, o.Consumes) &&
		sameSet(m.Resources, o.Resources) && sameSet(m.Presence, o.Presence) &&
		sameSet(m.Indexes, o.Indexes)
}

// Tables lists every table the manifest names (columns, records,
// presence reads), each once. It allocates.
func (m *Manifest) Tables() []*ephemeral.Table {
	var out []*ephemeral.Table
	for _, r := range slices.Concat(m.Reads, m.Writes) {
		out = AddNew(out, r.Table)
	}
	for _, t := range slices.Concat(m.Records, m.Presence) {
		out = AddNew(out, t)
	}
	return out
}

// AddNew appends v to s unless s holds it already: lists kept as sets.
func AddNew[T comparable](s []T, v T) []T {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

func sameSet[T comparable](a, b []T) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

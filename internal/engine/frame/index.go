package frame

import (
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
)

// KeyRefs returns ix's key columns as references.
func KeyRefs(ix Index) []ColumnRef {
	cols := ix.KeyColumns()
	refs := make([]ColumnRef, len(cols))
	for i, c := range cols {
		refs[i] = ColumnRef{Table: ix.IndexTable(), Column: c}
	}
	return refs
}

// Index is systems.Index, whose doc is the one home of these methods'
// contracts: the same method set, declared here because systems imports
// this package (each converts to the other). The rule they keep is
// docs/architecture.md, Indexes.
type Index interface {
	IndexName() string
	IndexTable() *ephemeral.Table
	IndexEvents() events.Buffer
	KeyColumns() []string
	Marks() []uint64
	SyncAll(who string) error
	SyncRows(who string, words, summary []uint64) error
	SyncMarked(who string) error
	SyncEvents(who string, force bool) error
	Rebuild(who string) error
}

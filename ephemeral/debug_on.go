//go:build tickwork_debug

package ephemeral

import (
	"strconv"

	"github.com/tickwork/tickwork/internal/plumb"
)

// debugChecks is true in the checking debug build (build tag
// tickwork_debug; docs/architecture.md, Debug build).
const debugChecks = true

func init() {
	plumb.ColumnBytes = func(table any, column string) []byte {
		t, _ := table.(*Table)
		if t == nil {
			return nil
		}
		for _, c := range t.cols {
			if c.name() == column {
				return c.raw()
			}
		}
		return nil
	}
}

// poisonRow fills row i of every column of t with PoisonByte, its bool
// fields with 0 (a snapshot of the table stays restorable).
func (t *Table) poisonRow(i uint32) {
	for _, c := range t.cols {
		b := c.raw()
		if len(b) == 0 {
			continue
		}
		size := uintptr(len(b)) / uintptr(len(t.gens))
		row := b[uintptr(i)*size : uintptr(i+1)*size]
		for k := range row {
			row[k] = PoisonByte
		}
		for _, off := range c.boolOffsets() {
			row[off] = 0
		}
	}
}

// checkProbe panics when h is a handle of another domain than the lease's
// table: the normal build's probe silently misses it.
func (l Lease) checkProbe(h Handle) {
	t := l.dbg.table
	if t == nil || h.Tag() == 0 || h.Tag() == t.dom.tag {
		return // a host's zero Lease, an untagged (provisional) handle, or this domain's
	}
	panic("ephemeral: a Lease of table " + strconv.Quote(t.name) + " (domain " + strconv.Quote(t.dom.name) +
		", tag " + itoa(int(t.dom.tag)) + ") probed with handle " + h.String() + " of another domain (tag " +
		itoa(int(h.Tag())) + "): a handle names rows only in the tables of the domain that issued it; " +
		"probe a table of the handle's own domain (tickwork_debug check)")
}

// leaseDebug is what a Lease carries in the debug build: its table.
type leaseDebug struct{ table *Table }

func leaseOf(t *Table) leaseDebug { return leaseDebug{table: t} }

// DebugBuild reports whether this binary was built with the checking debug
// build's tag, tickwork_debug (docs/architecture.md, Debug build): true
// here. For tests whose expectations the checks change (a freed row's
// values, a misuse that panics there).
const DebugBuild = true

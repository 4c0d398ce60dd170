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

// checkProbe panics when the lease belongs to a system's accessor
// (OwnedLease) and that system is not running, or when h is a handle of
// another domain than the lease's table: the normal build's probe
// silently answers.
func (l Lease) checkProbe(h Handle) {
	t := l.dbg.table
	if t == nil {
		return // a zero Lease
	}
	if l.dbg.running != nil && !l.dbg.running() {
		panic("ephemeral: a Lease of table " + strconv.Quote(t.name) + " from an accessor of system " + strconv.Quote(l.dbg.owner) +
			" probed outside that system's run (kept by the host, another system, or a goroutine the body left running): " +
			"probe through a system's lease only in its body and the kernels it runs; between frames take the table's own (Table.Lease) (tickwork_debug check)")
	}
	if h.Tag() == 0 || h.Tag() == t.dom.tag {
		return // an untagged (provisional) handle, or this domain's
	}
	if h == poisonHandle {
		panic("ephemeral: a Lease of table " + strconv.Quote(t.name) + " probed with a handle read from a freed row " +
			"(every byte PoisonByte): the row was deleted before this read; read handles only from live rows, " +
			"or keep the value before the delete (tickwork_debug check)")
	}
	panic("ephemeral: a Lease of table " + strconv.Quote(t.name) + " (domain " + strconv.Quote(t.dom.name) +
		", tag " + itoa(int(t.dom.tag)) + ") probed with handle " + h.String() + " of another domain (tag " +
		itoa(int(h.Tag())) + "): a handle names rows only in the tables of the domain that issued it; " +
		"probe a table of the handle's own domain (tickwork_debug check)")
}

// poisonHandle is a Handle column's value in a freed row.
const poisonHandle = Handle(^uint64(0))

// leaseDebug is what a Lease carries in the debug build: its table, and
// for a system's lease (OwnedLease) the system and whether it runs.
type leaseDebug struct {
	table   *Table
	owner   string
	running func() bool
}

// OwnedLease returns l as the lease of system owner's accessor: from then
// on its probes (Row, Find, IsAlive) panic while running reports false.
// Only in the debug build (package systems calls it from its own debug
// file, for the leases of column accessors and Presence); allocates
// nothing, call it at set-up.
func OwnedLease(l Lease, owner string, running func() bool) Lease {
	l.dbg.owner, l.dbg.running = owner, running
	return l
}

func leaseOf(t *Table) leaseDebug { return leaseDebug{table: t} }

// DebugBuild reports whether this binary was built with the checking debug
// build's tag, tickwork_debug (docs/architecture.md, Debug build): true
// here. For tests whose expectations the checks change (a freed row's
// values, a misuse that panics there).
const DebugBuild = true

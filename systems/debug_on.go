//go:build tickwork_debug

package systems

import (
	"strconv"
	"unsafe"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
)

// debugChecks is true in the checking debug build (build tag
// tickwork_debug; docs/architecture.md, Debug build).
const debugChecks = true

// debugBytes is the memory of the resource's value, and of its elements
// for a slice of pointer-free elements (plumb.ResourceBytes).
type debugBytes interface{ debugBytes() (value, elems []byte) }

func (r *Resource[T]) debugBytes() (value, elems []byte) {
	value = unsafe.Slice((*byte)(unsafe.Pointer(&r.v)), unsafe.Sizeof(r.v))
	if r.state.kind == stateSlice {
		elems = sliceBytes(unsafe.Pointer(&r.v), r.state.size)
	}
	return value, elems
}

func init() {
	plumb.ResourceBytes = func(r any) (value, elems []byte) {
		if b, ok := r.(debugBytes); ok {
			return b.debugBytes()
		}
		return nil, nil
	}
}

// inRun panics unless the accessor's own system is running (its body, or
// a kernel the body started): an accessor used by the host, by another
// system or after its system's run reads or writes what no manifest
// covers. call names the method.
func (c *columnAccess[T]) inRun(call string) {
	if c.col == nil {
		return // a failed declaration's accessor: the world never runs
	}
	if running(c.d.run) {
		return
	}
	panic("systems: " + call + " on an accessor of column " + strconv.Quote(c.col.Table().Name()+"."+c.col.Name()) +
		" of system " + strconv.Quote(c.d.name) + " outside that system's run (the host between frames, another system, " +
		"or a kernel still running after the body returned): use an accessor only in the body of the system that declared it " +
		"and in the kernels that body runs; between frames the host reads the column itself (tickwork_debug check)")
}

// running reports whether run's body (or a kernel it runs) is running.
func running(run *frame.Run) bool {
	e := run.Env
	return e != nil && (e.Running == run || e.Admitting == run)
}

// ownLease makes l the lease of d's system (ephemeral.OwnedLease): its
// probes panic outside the system's run.
func ownLease(l ephemeral.Lease, d *Decl) ephemeral.Lease {
	run := d.run
	return ephemeral.OwnedLease(l, d.name, func() bool { return running(run) })
}

// inRun panics unless c's system is running: kind (of what, named name)
// is a serial accessor of it (a Recorder, an Emitter) used by the host,
// by another system or after the run. A nil c (a worker's recorder, a
// failed declaration's accessor) passes.
func (c *Context) inRun(kind, what, name string) {
	if c == nil || running(c.run) { // nil: a failed declaration's accessor, or a worker's recorder
		return
	}
	panic("systems: the " + kind + " of " + what + " " + strconv.Quote(name) + " of system " + strconv.Quote(c.name) +
		" used outside that system's run (the host between frames, another system, or a goroutine the body left running): " +
		"use it only in that system's body; between frames the host changes tables and event tables itself (tickwork_debug check)")
}

// consumerDebug is what a Consumer carries in the debug build: its
// system's Context and its table's name.
type consumerDebug struct {
	ctx   *Context
	table string
}

func consumerDebugOf(d *Decl, table string) consumerDebug {
	return consumerDebug{ctx: d.ctx, table: table}
}

// inRun panics unless the consumer's system is running.
func (c consumerDebug) inRun() { c.ctx.inRun("Consumer", "event table", c.table) }

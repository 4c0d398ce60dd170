//go:build tickwork_debug

package systems

import (
	"strconv"
	"unsafe"

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
	run := c.d.run
	if e := run.Env; e != nil && e.Running == run {
		return
	}
	panic("systems: " + call + " on an accessor of column " + strconv.Quote(c.col.Table().Name()+"."+c.col.Name()) +
		" of system " + strconv.Quote(c.d.name) + " outside that system's run (the host between frames, another system, " +
		"or a kernel still running after the body returned): use an accessor only in the body of the system that declared it " +
		"and in the kernels that body runs; between frames the host reads the column itself (tickwork_debug check)")
}

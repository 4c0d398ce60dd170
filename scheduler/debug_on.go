//go:build tickwork_debug

package scheduler

import (
	"hash/maphash"

	"github.com/tickwork/tickwork/internal/plumb"
)

// debugChecks is true in the checking debug build (build tag
// tickwork_debug; docs/architecture.md, Debug build).
const debugChecks = true

// debugSeed seeds the hashes of the read-only check; any seed works, as a
// hash is compared only with one of the same process.
var debugSeed = maphash.MakeSeed()

// debugEntry is an entry's state of the read-only check: what its
// manifest reads and does not write, and their hashes before the run.
type debugEntry struct {
	cols []debugColumn
	res  []debugResource
	err  UndeclaredWriteError // reused: a failing frame allocates nothing
}

type debugColumn struct {
	name string // "table.column"
	mem  []byte // the column's memory, pin-stable
	sum  uint64
}

type debugResource struct {
	name string
	r    any // the *systems.Resource[T] (plumb.ResourceBytes)
	sum  uint64
}

// debugSeal finds, for each entry, the memory of the columns and
// resources its manifest declares only to read. Seal calls it once.
func (s *Scheduler) debugSeal() {
	for _, e := range s.entries {
		e.dbg.cols = e.dbg.cols[:0]
		e.dbg.res = e.dbg.res[:0]
		for _, r := range e.man.Reads {
			if mem := plumb.ColumnBytes(r.Table, r.Column); mem != nil {
				e.dbg.cols = append(e.dbg.cols, debugColumn{name: r.String(), mem: mem})
			}
		}
		for _, u := range e.man.Resources {
			if !u.Write {
				e.dbg.res = append(e.dbg.res, debugResource{name: u.Resource.Name(), r: u.Resource})
			}
		}
		e.dbg.err.System = e.sys.Name
	}
}

// resourceSum hashes a resource's value and elements.
func resourceSum(r any) uint64 {
	v, el := plumb.ResourceBytes(r)
	var h maphash.Hash
	h.SetSeed(debugSeed)
	h.Write(v)
	h.Write(el)
	return h.Sum64()
}

// debugBefore hashes e's read-only columns and resources, on the frame's
// goroutine before e runs.
func (e *entry) debugBefore() {
	for i := range e.dbg.cols {
		c := &e.dbg.cols[i]
		c.sum = maphash.Bytes(debugSeed, c.mem)
	}
	for i := range e.dbg.res {
		r := &e.dbg.res[i]
		r.sum = resourceSum(r.r)
	}
}

// debugAfter hashes them again after e ran and returns the entry's
// *UndeclaredWriteError for the first that changed, else nil.
func (e *entry) debugAfter() error {
	for i := range e.dbg.cols {
		c := &e.dbg.cols[i]
		if maphash.Bytes(debugSeed, c.mem) != c.sum {
			e.dbg.err.Column, e.dbg.err.Resource = c.name, ""
			return &e.dbg.err
		}
	}
	for i := range e.dbg.res {
		r := &e.dbg.res[i]
		if resourceSum(r.r) != r.sum {
			e.dbg.err.Column, e.dbg.err.Resource = "", r.name
			return &e.dbg.err
		}
	}
	return nil
}

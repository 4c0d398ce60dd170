//go:build tickwork_debug

package scheduler

import (
	"encoding/binary"
	"math/bits"

	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/systems"
)

// debugChecks is true in the checking debug build (build tag
// tickwork_debug; docs/architecture.md, Debug build).
const debugChecks = true

// sum is the read-only check's hash of b: four lanes over its 8-byte
// words, each lane's step (h*odd ^ word) a bijection of h, so a change of
// one word, or of one byte of the tail, always changes the sum (several
// changes could cancel out: improbable, not impossible). About twice as
// fast as hash/maphash here, at memory speed (docs/architecture.md, Debug
// build).
func sum(b []byte) uint64 {
	var h0, h1, h2, h3 uint64
	for ; len(b) >= 32; b = b[32:] {
		h0 = h0*0x9e3779b97f4a7c15 ^ binary.LittleEndian.Uint64(b[0:8])
		h1 = h1*0xbf58476d1ce4e5b9 ^ binary.LittleEndian.Uint64(b[8:16])
		h2 = h2*0x94d049bb133111eb ^ binary.LittleEndian.Uint64(b[16:24])
		h3 = h3*0xff51afd7ed558ccd ^ binary.LittleEndian.Uint64(b[24:32])
	}
	for _, x := range b {
		h0 = h0*0x9e3779b97f4a7c15 ^ uint64(x)
	}
	return h0 ^ bits.RotateLeft64(h1, 16) ^ bits.RotateLeft64(h2, 32) ^ bits.RotateLeft64(h3, 48)
}

// debugEntry is an entry's state of the read-only check: what its
// manifest reads and does not write, and their sums before the run.
type debugEntry struct {
	cols []debugColumn
	res  []debugResource
	err  UndeclaredWriteError // reused: a failing frame allocates nothing
	idx  []debugIndex         // the indexes it maintains by marks (MaintainIndex)
	ierr UnmarkedIndexWriteError
}

// debugIndex is one index an entry maintains by marks, for the marks
// check: c checks it (the index's UnmarkedRow), stale records that it
// was stale before the run (another's raw write: the index is not this
// system's to answer for in that run).
type debugIndex struct {
	ix    systems.Index
	c     unmarked
	cols  string // its key columns, "table.column, ..."
	stale bool
}

// unmarked is what every table index of package tickwork meets: the
// lowest live row whose key is not the filed one, -1 when none.
type unmarked interface{ UnmarkedRow() int }

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
		e.dbg.idx = e.dbg.idx[:0]
		for _, y := range e.syncs {
			if c, ok := y.ix.(unmarked); ok && y.marked {
				e.dbg.idx = append(e.dbg.idx, debugIndex{ix: y.ix, c: c, cols: keyColumns(y.ix)})
			}
		}
		e.dbg.ierr.System = e.sys.Name
	}
}

// keyColumns names ix's key columns, "table.column, ...".
func keyColumns(ix systems.Index) string {
	var s string
	for i, c := range frame.KeyRefs(ix) {
		if i > 0 {
			s += ", "
		}
		s += c.String()
	}
	return s
}

// resourceSum hashes a resource's value and elements.
func resourceSum(r any) uint64 {
	v, el := plumb.ResourceBytes(r)
	return sum(v) ^ bits.RotateLeft64(sum(el), 7)
}

// debugBefore hashes e's read-only columns and resources, on the frame's
// goroutine before e runs.
func (e *entry) debugBefore() {
	for i := range e.dbg.cols {
		c := &e.dbg.cols[i]
		c.sum = sum(c.mem)
	}
	for i := range e.dbg.res {
		r := &e.dbg.res[i]
		r.sum = resourceSum(r.r)
	}
	for i := range e.dbg.idx {
		d := &e.dbg.idx[i]
		d.stale = d.c.UnmarkedRow() >= 0
	}
}

// debugMarks checks, after the sync of ix's marks (SyncMarked), that no
// live row's key differs from the one ix filed; for an index e maintains
// by marks and that was consistent before the run it returns the entry's
// *UnmarkedIndexWriteError naming the lowest such row, else nil.
func (e *entry) debugMarks(ix systems.Index) error {
	for i := range e.dbg.idx {
		d := &e.dbg.idx[i]
		if d.ix != ix || d.stale {
			continue
		}
		if row := d.c.UnmarkedRow(); row >= 0 {
			e.dbg.ierr.Index, e.dbg.ierr.Columns, e.dbg.ierr.Row = ix.IndexName(), d.cols, row
			return &e.dbg.ierr
		}
	}
	return nil
}

// debugAfter hashes them again after e ran and returns the entry's
// *UndeclaredWriteError for the first that changed, else nil.
func (e *entry) debugAfter() error {
	for i := range e.dbg.cols {
		c := &e.dbg.cols[i]
		if sum(c.mem) != c.sum {
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

//go:build tickwork_debug

package events

import "github.com/tickwork/tickwork/internal/wire"

// debugChecks is true in the checking debug build (build tag
// tickwork_debug; docs/architecture.md, Debug build).
const debugChecks = true

// poison fills the released slots s with PoisonByte, their bool fields
// with 0. A table whose T holds pointers zeroes them instead (retire), so
// that the collector can reclaim what they pointed to.
func (t *Table[T]) poison(s []T) {
	if t.pointers || len(s) == 0 {
		return
	}
	b := wire.Bytes(s)
	for k := range b {
		b[k] = PoisonByte
	}
	if len(t.bools) > 0 {
		size := uintptr(len(b)) / uintptr(len(s))
		for e := uintptr(0); e < uintptr(len(b)); e += size {
			for _, off := range t.bools {
				b[e+off] = 0
			}
		}
	}
}

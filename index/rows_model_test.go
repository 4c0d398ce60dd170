package index

// The reference implementations by scan of the contract's first version
// (commit 85eb9a8): the model the kinds' tests compare against.

import "fmt"

// filing is the per-row state every kind shares: which rows are filed and
// under which key. It is the reference layout of the contract's first
// version; the kinds may keep more.
type filing[K any] struct {
	keys  []K
	filed []uint64
	n     int
}

func newFiling[K any](capacity int) filing[K] {
	return filing[K]{keys: make([]K, capacity), filed: make([]uint64, (capacity+63)/64)}
}

func (f *filing[K]) check(method string, row int32) {
	if row < 0 || int(row) >= len(f.keys) {
		panic(fmt.Sprintf("index: %s of row %d out of range 0..%d: pass a row of the indexed table", method, row, len(f.keys)-1))
	}
}

func (f *filing[K]) isFiled(row int32) bool { return f.filed[row>>6]&(1<<(uint(row)&63)) != 0 }

func (f *filing[K]) file(method string, row int32, k K) {
	f.check(method, row)
	if f.isFiled(row) {
		panic(fmt.Sprintf("index: %s of row %d, which is filed already: use Update to change its key", method, row))
	}
	f.keys[row] = k
	f.filed[row>>6] |= 1 << (uint(row) & 63)
	f.n++
}

func (f *filing[K]) unfile(row int32) bool {
	f.check("Remove", row)
	if !f.isFiled(row) {
		return false
	}
	f.filed[row>>6] &^= 1 << (uint(row) & 63)
	var zero K
	f.keys[row] = zero
	f.n--
	return true
}

func (f *filing[K]) key(row int32) (K, bool) {
	f.check("Key", row)
	if !f.isFiled(row) {
		var zero K
		return zero, false
	}
	return f.keys[row], true
}

func (f *filing[K]) clear() {
	clear(f.filed)
	clear(f.keys)
	f.n = 0
}

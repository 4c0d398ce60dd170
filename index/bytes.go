package index

import "unsafe"

// The byte counts of what each New allocates, for a memory budget to
// charge before it allocates (docs/architecture.md, Storage, "Memory
// budget"): the sum of its slices' lengths times their element sizes,
// as ephemeral.ColumnBytes counts a column. A capacity out of range
// gives 0 (New refuses it).

// HashBytes is what NewHash[K](capacity) allocates, in bytes.
func HashBytes[K comparable](capacity int) int64 {
	if checkCap(capacity) != nil {
		return 0
	}
	var k K
	n := int64(capacity)
	// keys, gkey; group next prev ghead gtail gn order pos (int32); ghash.
	return n*(2*int64(unsafe.Sizeof(k))+8*4+8) + 4*int64(tableSize(capacity))
}

// UniqueBytes is what NewUnique[K](capacity) allocates, in bytes.
func UniqueBytes[K comparable](capacity int) int64 { return HashBytes[K](capacity) }

// SortedBytes is what NewSorted[K](capacity) allocates, in bytes.
func SortedBytes[K Ordered](capacity int) int64 {
	if checkCap(capacity) != nil {
		return 0
	}
	var k K
	n := int64(capacity)
	up := int64(0)
	for r := range uint32(capacity) {
		up += int64(rowLevel(r) - 1)
	}
	// keys; next prev off; level; order; up.
	return n*(int64(unsafe.Sizeof(k))+3*4+1+int64(unsafe.Sizeof(keyedRow[K]{}))) + 4*up
}

// GridBytes is what NewGrid(capacity, size) allocates, in bytes.
func GridBytes(capacity int) int64 {
	if checkCap(capacity) != nil {
		return 0
	}
	n := int64(capacity)
	recs := n + 2 // the cells' records, Outside's, the unfiled rows'
	// Per row: rec slot order pos (int32); runs (int32, runsLen); per
	// record: cc (Cell), box (Bounds), start cn room (int32).
	return n*4*4 + 4*int64(runsLen(capacity)) + recs*(int64(unsafe.Sizeof(Cell{}))+int64(unsafe.Sizeof(Bounds{}))+3*4) + 4*int64(tableSize(capacity))
}

// tableSize is the open-addressing table's length for capacity rows:
// the least power of two, at least 2, that is at least 2·capacity.
func tableSize(capacity int) uint64 {
	ts := uint64(2)
	for ts < 2*uint64(capacity) {
		ts <<= 1
	}
	return ts
}

package runq

import (
	"math/bits"

	"github.com/tickwork/tickwork/schema"
)

// groupKey is a group's key tuple: its group keys' ordering keys
// (orderKey's), unused keys zero.
type groupKey = [schema.MaxGroupKeys]uint64

// denseGroups is the width of groupTable's direct window.
const denseGroups = 256

// groupTable finds a group by its key tuple. A tuple of one key within
// denseGroups/2 of the first key of the Run is found by direct indexing
// (a small integer, bool or enum-like key); any other by open addressing
// with linear probing over a power-of-two array (Fibonacci hashing of the
// tuple) kept at most half full by doubling. Every key lives in one place,
// fixed by the window. It is the query's scratch: reset clears only the
// slots the Run used, so a warm table allocates nothing.
type groupTable struct {
	single bool    // one group key: the window is on
	based  bool    // the window's base is set (the Run's first key)
	base   uint64  // the window's first key
	dense  []int32 // by key - base: the group's index + 1; 0: none
	ents   []groupEnt
	n      int
	shift  uint    // 64 - log2(len(ents))
	used   []int32 // slots set since reset: dense ones as ^slot
}

type groupEnt struct {
	key groupKey
	g   int32 // the group's index + 1; 0: an empty slot
}

func (t *groupTable) reset(single bool) {
	if t.ents == nil {
		t.ents, t.shift = make([]groupEnt, 16), 64-4
		if single {
			t.dense = make([]int32, denseGroups)
		}
	}
	t.single, t.based = single, false
	for _, s := range t.used {
		if s < 0 {
			t.dense[^s] = 0
		} else {
			t.ents[s] = groupEnt{}
		}
	}
	t.used, t.n = t.used[:0], 0
}

func (t *groupTable) slot(k *groupKey) int {
	h := k[0] * 0x9E3779B97F4A7C15
	for _, x := range k[1:] {
		h = (h ^ x) * 0xC2B2AE3D27D4EB4F
	}
	return int(h >> t.shift)
}

// find is key's group, or -1 and the slot where insert puts it (a dense
// slot as ^i).
func (t *groupTable) find(k groupKey) (int32, int) {
	if t.single && t.based {
		if i := k[0] - t.base; i < denseGroups {
			return t.dense[i] - 1, ^int(i)
		}
	}
	mask := len(t.ents) - 1
	for i := t.slot(&k); ; i = (i + 1) & mask {
		e := &t.ents[i]
		if e.g == 0 {
			return -1, i
		}
		if e.key == k {
			return e.g - 1, i
		}
	}
}

// insert records group g of key k at slot i (find's), doubling the hash
// array past half full.
func (t *groupTable) insert(k groupKey, g int32, i int) {
	if t.single && !t.based {
		// the window: denseGroups keys around the first one
		t.base, t.based = k[0]-min(k[0], denseGroups/2), true
		i = ^int(k[0] - t.base)
	}
	if i < 0 {
		t.dense[^i] = g + 1
		t.used = append(t.used, int32(i))
		return
	}
	t.ents[i] = groupEnt{key: k, g: g + 1}
	t.used = append(t.used, int32(i))
	t.n++
	if 2*t.n <= len(t.ents) {
		return
	}
	old := t.ents
	t.ents = make([]groupEnt, 2*len(old))
	t.shift = uint(64 - bits.TrailingZeros(uint(len(t.ents))))
	kept := t.used[:0] // the dense slots stay
	for _, s := range t.used {
		if s < 0 {
			kept = append(kept, s)
		}
	}
	t.used = kept
	for _, e := range old {
		if e.g != 0 {
			_, j := t.find(e.key)
			t.ents[j] = e
			t.used = append(t.used, int32(j))
		}
	}
}

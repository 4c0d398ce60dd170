package ephemeral

import "math/bits"

// freeSlots is the set of a domain's free slots, kept so that the lowest
// one is found in a few steps whatever the capacity and history.
//
// Level 0 has a bit per slot, set when the slot is free; each next level has
// a bit per word of the level below, set when that word is not zero; the
// top level is one word. Finding the lowest free slot walks down from the
// top, one word per level (5 levels at MaxCapacity), and taking or freeing a
// slot walks up only as far as a word changes between zero and non-zero.
// A flat bitmap with a "nothing free below" hint, the first design, scanned
// up to Cap/64 words per insert under random churn.
type freeSlots struct {
	levels [][]uint64 // levels[0] per slot; levels[len-1] is one word
}

// newFreeSlots returns a set of n slots, 0..n-1, all free. n > 0.
func newFreeSlots(n int) freeSlots {
	var f freeSlots
	for {
		level := make([]uint64, (n+63)/64)
		for w := range level {
			level[w] = ^uint64(0)
		}
		if r := n % 64; r != 0 {
			level[len(level)-1] = 1<<uint(r) - 1
		}
		f.levels = append(f.levels, level)
		if len(level) == 1 {
			return f
		}
		n = len(level)
	}
}

// lowest returns the lowest free slot, or -1 when none is free.
func (f *freeSlots) lowest() int {
	top := len(f.levels) - 1
	if f.levels[top][0] == 0 {
		return -1
	}
	i := 0
	for k := top; k >= 0; k-- {
		i = i<<6 | bits.TrailingZeros64(f.levels[k][i])
	}
	return i
}

// takeWord marks the free slots of mask, all in word w of level 0, as
// used: a batch of take calls on one word. A word that becomes empty clears
// its bit in the level above, and so on upwards.
func (f *freeSlots) takeWord(w int, mask uint64) {
	for _, level := range f.levels {
		level[w] &^= mask
		if level[w] != 0 {
			return
		}
		w, mask = w>>6, 1<<uint(w&63)
	}
}

// take marks the free slot i as used.
func (f *freeSlots) take(i int) { f.takeWord(i>>6, 1<<uint(i&63)) }

// put marks the used slot i as free.
func (f *freeSlots) put(i int) {
	for _, level := range f.levels {
		w := i >> 6
		was := level[w]
		level[w] = was | 1<<uint(i&63)
		if was != 0 {
			return
		}
		i = w
	}
}

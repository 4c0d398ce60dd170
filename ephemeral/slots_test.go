package ephemeral

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreeSlots drives freeSlots with random takes and puts against a
// plain []bool, across one, two and three levels.
func TestFreeSlots(t *testing.T) {
	for _, n := range []int{1, 2, 63, 64, 65, 4095, 4096, 4097, 64*4096 + 1} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			f := newFreeSlots(n)
			free := make([]bool, n)
			for i := range free {
				free[i] = true
			}
			lowest := func() int {
				for i, ok := range free {
					if ok {
						return i
					}
				}
				return -1
			}
			requireLevels := func() {
				t.Helper()
				require.Len(t, f.levels[len(f.levels)-1], 1, "top level is one word")
				for k := 1; k < len(f.levels); k++ {
					for w, word := range f.levels[k-1] {
						bit := f.levels[k][w>>6]>>(w&63)&1 == 1
						require.Equal(t, word != 0, bit, "level %d word %d", k-1, w)
					}
				}
			}
			requireLevels()
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			steps := 3000
			if n < 100 {
				steps = 20 * n
			}
			for step := 0; step < steps; step++ {
				want := lowest()
				require.Equal(t, want, f.lowest(), "step %d", step)
				if want >= 0 && rng.IntN(3) > 0 {
					f.take(want) // as alloc does
					free[want] = false
				} else if i := rng.IntN(n); !free[i] {
					f.put(i)
					free[i] = true
				}
			}
			requireLevels()
			// Take everything, then free in descending order.
			for i := f.lowest(); i >= 0; i = f.lowest() {
				f.take(i)
				free[i] = false
			}
			assert.Equal(t, -1, lowest())
			for i := n - 1; i >= 0; i-- {
				f.put(i)
				require.Equal(t, i, f.lowest())
			}
			requireLevels()
		})
	}
}

func TestFreeSlotsLevels(t *testing.T) {
	tests := []struct{ n, levels int }{
		{1, 1}, {64, 1}, {65, 2}, {4096, 2}, {4097, 3}, {1<<24 + 1, 5},
	}
	for _, tc := range tests {
		f := newFreeSlots(tc.n)
		assert.Len(t, f.levels, tc.levels, "n=%d", tc.n)
		assert.Equal(t, 0, f.lowest(), "n=%d", tc.n)
	}
}

// TestColumnFits checks the size bound of AddColumn where a product
// rows*size would overflow, which no allocating test can reach.
func TestColumnFits(t *testing.T) {
	tests := []struct {
		rows int
		size uint64
		want bool
	}{
		{0, 1 << 40, true},
		{1, 0, true},
		{MaxCapacity + MaxChunkRows, 0, true},
		{1, uint64(MaxColumnBytes), true},
		{1, uint64(MaxColumnBytes) + 1, false},
		{2, uint64(MaxColumnBytes) / 2, true},
		{2, uint64(MaxColumnBytes)/2 + 1, false},
		{1 << 30, 1 << 10, true},
		{1 << 30, 1<<10 + 1, false},
		{1 << 30, 1 << 20, false},
		{1 << 30, 1 << 40, false},   // 2^70: overflows uint64
		{1 << 30, 1<<34 + 1, false}, // 2^64 + 2^30: wraps to a small number
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, columnFits(tt.rows, tt.size), "columnFits(%d, %d)", tt.rows, tt.size)
	}
}

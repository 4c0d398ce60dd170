package kitchen

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNextRun: the generated run walker finds exactly the runs of set bits,
// against a bit-by-bit model, for random and edge bitmaps.
func TestNextRun(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	masks := [][]uint64{{}, {0}, {^uint64(0)}, {1 << 63, 1}, {0, 0, ^uint64(0), 0}, {^uint64(0), ^uint64(0)}}
	for range 500 {
		m := make([]uint64, 1+r.IntN(4))
		for i := range m {
			switch r.IntN(4) {
			case 0:
				m[i] = 0
			case 1:
				m[i] = ^uint64(0)
			default:
				m[i] = r.Uint64() & r.Uint64()
			}
		}
		masks = append(masks, m)
	}
	for _, m := range masks {
		var want [][2]int
		n := len(m) * 64
		for i := 0; i < n; {
			if m[i>>6]>>(i&63)&1 == 0 {
				i++
				continue
			}
			j := i
			for j < n && m[j>>6]>>(j&63)&1 == 1 {
				j++
			}
			want = append(want, [2]int{i, j})
			i = j
		}
		var got [][2]int
		for lo, hi := nextRun(m, 0); lo < hi; lo, hi = nextRun(m, hi) {
			got = append(got, [2]int{lo, hi})
		}
		require.Equal(t, want, got, "mask %x", m)
	}
}

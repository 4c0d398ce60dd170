package ephemeral_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// TestNextRun: NextRun finds exactly the runs of set bits,
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
		for lo, hi := ephemeral.NextRun(m, 0); lo < hi; lo, hi = ephemeral.NextRun(m, hi) {
			got = append(got, [2]int{lo, hi})
		}
		require.Equal(t, want, got, "mask %x", m)
	}
}

// TestLiveEndUsedChunks: LiveEnd is one past a chunk's last live row and
// UsedChunks one past the last chunk with a live row, as rows come and go
// (holes below the last live row do not lower either).
func TestLiveEndUsedChunks(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "t", Capacity: 4 * 64, ChunkRows: 64})
	require.NoError(t, err)
	require.Equal(t, 0, tab.UsedChunks())
	require.Equal(t, 0, tab.LiveEnd(0))
	hs := make([]ephemeral.Handle, 130) // rows 0..129: chunks 0, 1 full, chunk 2 rows 0..1
	for i := range hs {
		hs[i], err = tab.Insert()
		require.NoError(t, err)
	}
	require.Equal(t, 3, tab.UsedChunks())
	require.Equal(t, []int{64, 64, 2, 0}, []int{tab.LiveEnd(0), tab.LiveEnd(1), tab.LiveEnd(2), tab.LiveEnd(3)})
	require.True(t, tab.Delete(hs[128])) // a hole below chunk 2's last live row
	require.Equal(t, 2, tab.LiveEnd(2))
	require.True(t, tab.Delete(hs[129]))
	require.Equal(t, 0, tab.LiveEnd(2))
	require.Equal(t, 2, tab.UsedChunks())
	require.True(t, tab.Delete(hs[63]))
	require.Equal(t, 63, tab.LiveEnd(0))
	for _, h := range hs[64:128] {
		require.True(t, tab.Delete(h))
	}
	require.Equal(t, 1, tab.UsedChunks(), "chunk 1 emptied: chunk 0 is the last used")
	require.Panics(t, func() { tab.LiveEnd(4) })
}

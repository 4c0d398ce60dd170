package chunkorder

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNames(t *testing.T) {
	var names []string
	for _, o := range append([]Order{Span()}, Alternatives()...) {
		names = append(names, o.String())
	}
	assert.Equal(t, []string{"span", "dealt", "reversed", "shuffled-1", "shuffled-2", "shuffled-3"}, names)
	assert.True(t, Order{}.IsSpan())
	assert.Nil(t, Span().Perm(), "the normal claiming has no permutation")
}

func TestSetRestores(t *testing.T) {
	require.True(t, Current().IsSpan())
	assert.Nil(t, ForNewPool())
	restore := Set(Shuffled(9))
	assert.Equal(t, Shuffled(9), Current())
	inner := Set(Reversed())
	assert.Equal(t, Reversed(), Current())
	require.NotNil(t, ForNewPool())
	inner()
	assert.Equal(t, Shuffled(9), Current())
	restore()
	assert.True(t, Current().IsSpan())
	assert.Nil(t, ForNewPool())
}

func TestNextIsPermutation(t *testing.T) {
	// Spans of 10 chunks on 3 workers: positions [0, 3), [3, 6), [6, 10).
	assert.Equal(t, []int{7, 8, 9, 4, 5, 6, 0, 1, 2, 3}, Reversed().Perm().Next(10, 3))
	assert.Equal(t, []int{0, 1, 2, 3, 4}, Reversed().Perm().Next(5, 1), "one worker walks every chunk ascending")
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Dealt().Perm().Next(10, 3), "dealt: worker w gets kernels' span's chunks")
	assert.Empty(t, Reversed().Perm().Next(0, 4))
	a, b, c := Shuffled(1).Perm(), Shuffled(1).Perm(), Shuffled(2).Perm()
	differ := false
	for _, n := range []int{1, 2, 10, 100, 10} {
		for _, workers := range []int{1, 3, 8} {
			pa := slices.Clone(a.Next(n, workers))
			assert.Equal(t, pa, b.Next(n, workers), "same seed, same sequence")
			if !slices.Equal(pa, c.Next(n, workers)) {
				differ = true
			}
			for w := range workers {
				assert.True(t, slices.IsSorted(pa[n*w/workers:n*(w+1)/workers]), "n=%d workers=%d: worker %d walks ascending", n, workers, w)
			}
			sorted := slices.Sorted(slices.Values(pa))
			for i, v := range sorted {
				require.Equal(t, i, v, "n=%d: a permutation of 0..n-1", n)
			}
		}
	}
	assert.True(t, differ, "another seed, another sequence")
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.Next(100, 4) }), "no allocation once grown")
}

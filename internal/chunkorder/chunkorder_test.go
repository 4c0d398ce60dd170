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
	assert.Equal(t, []string{"span", "reversed", "shuffled-1", "shuffled-2", "shuffled-3"}, names)
	assert.True(t, Order{}.IsSpan())
	assert.Nil(t, Span().Perm(), "the normal split has no permutation")
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
	assert.Equal(t, []int{4, 3, 2, 1, 0}, Reversed().Perm().Next(5))
	assert.Empty(t, Reversed().Perm().Next(0))
	a, b, c := Shuffled(1).Perm(), Shuffled(1).Perm(), Shuffled(2).Perm()
	differ := false
	for _, n := range []int{1, 2, 10, 100, 10} {
		pa := slices.Clone(a.Next(n))
		assert.Equal(t, pa, b.Next(n), "same seed, same sequence")
		if !slices.Equal(pa, c.Next(n)) {
			differ = true
		}
		sorted := slices.Sorted(slices.Values(pa))
		for i, v := range sorted {
			require.Equal(t, i, v, "n=%d: a permutation of 0..n-1", n)
		}
	}
	assert.True(t, differ, "another seed, another sequence")
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.Next(100) }), "no allocation once grown")
}

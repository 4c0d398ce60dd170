package tickwork_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork"
)

// TestQueryFloatKeys: the ordering keys of floats follow the total order of
// docs/schema.md's Query results: -Inf < ... < -0 == +0 < ... < +Inf < NaN,
// every NaN one key, subnormals in place.
func TestQueryFloatKeys(t *testing.T) {
	f32 := []float32{float32(math.Inf(-1)), -math.MaxFloat32, -1, -math.SmallestNonzeroFloat32, 0,
		math.SmallestNonzeroFloat32, 1, math.MaxFloat32, float32(math.Inf(1)), float32(math.NaN())}
	for i := 1; i < len(f32); i++ {
		assert.Less(t, tickwork.QueryFloatKey32(f32[i-1]), tickwork.QueryFloatKey32(f32[i]), "%v < %v", f32[i-1], f32[i])
	}
	negZero32 := float32(math.Copysign(0, -1))
	assert.Equal(t, tickwork.QueryFloatKey32(0), tickwork.QueryFloatKey32(negZero32))
	otherNaN := math.Float32frombits(0xffc00001)
	assert.Equal(t, tickwork.QueryFloatKey32(float32(math.NaN())), tickwork.QueryFloatKey32(otherNaN))

	f64 := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0,
		math.SmallestNonzeroFloat64, 1, math.MaxFloat64, math.Inf(1), math.NaN()}
	keys := make([]uint64, len(f64))
	for i, f := range f64 {
		keys[i] = tickwork.QueryFloatKey64(f)
	}
	assert.True(t, slices.IsSorted(keys))
	assert.Len(t, slices.Compact(slices.Clone(keys)), len(keys))
	assert.Equal(t, tickwork.QueryFloatKey64(0), tickwork.QueryFloatKey64(math.Copysign(0, -1)))
	assert.Equal(t, tickwork.QueryFloatKey64(math.NaN()), tickwork.QueryFloatKey64(-math.NaN()))
}

// TestQueryKeysAndBound: refs order by entity index, then generation; bools
// false first; a limit clamps to 0..capacity.
func TestQueryKeysAndBound(t *testing.T) {
	b := tickwork.NewBuilder()
	d := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 10})
	a, c := d.MakeHandle(1, 5), d.MakeHandle(2, 1)
	assert.Less(t, tickwork.QueryHandleKey(a), tickwork.QueryHandleKey(c))
	assert.Less(t, tickwork.QueryHandleKey(d.MakeHandle(1, 1)), tickwork.QueryHandleKey(a))
	assert.Less(t, tickwork.QueryBoolKey(false), tickwork.QueryBoolKey(true))
	for _, tc := range []struct {
		n    int64
		cp   int
		want int
	}{{-5, 10, 0}, {0, 10, 0}, {3, 10, 3}, {10, 10, 10}, {1 << 40, 10, 10}} {
		assert.Equal(t, tc.want, tickwork.QueryBound(tc.n, tc.cp), "%+v", tc)
	}
}

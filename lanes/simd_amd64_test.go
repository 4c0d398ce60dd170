//go:build goexperiment.simd && amd64

package lanes_test

import (
	"simd/archsimd"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/lanes"
)

// TestFeaturesAgreeWithArchsimd: klauspost/cpuid, which picks the lanes,
// and simd/archsimd's own feature checks agree on this CPU, so a lane is
// never picked that archsimd would consider unsupported, nor left unused.
func TestFeaturesAgreeWithArchsimd(t *testing.T) {
	assert.Equal(t, archsimd.X86.AVX() && archsimd.X86.AVX2(), lanes.Available(lanes.AVX2), "AVX2")
	assert.Equal(t, archsimd.X86.AVX512(), lanes.Available(lanes.AVX512), "AVX512")
}

//go:build !(goexperiment.simd && amd64)

package lanes

// This build has no SIMD lanes: the kernels below are never called (has256
// and has512 are false) and exist so that the dispatch compiles.

const built = false

var has256, has512 = false, false

func moveBounce8(_, _, _, _ []float32, _, _ float32) int           { return 0 }
func moveBounce16(_, _, _, _ []float32, _, _ float32) int          { return 0 }
func advance8(_, _, _, _ []float32, _ []int32, _ float32) int      { return 0 }
func advance16(_, _, _, _ []float32, _ []int32, _ float32) int     { return 0 }
func slots8(_ []uint32, _, _ []float32, _ []int32, _ []uint64) int { return 0 }

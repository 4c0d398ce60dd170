//go:build goexperiment.simd && amd64

package lanes

// built: this build compiles SIMD kernels (simd/archsimd), so the CPU
// decides which SIMD lanes run (see the package doc, "Builds").
const built = true

//go:build !(goexperiment.simd && amd64)

package lanes

// built: this build has no SIMD lanes (see the package doc, "Builds").
const built = false

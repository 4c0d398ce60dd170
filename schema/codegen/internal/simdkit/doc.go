// Package simdkit is a schema of systems in the SIMD subset (simdkit.tw),
// generated, for the tests of the generated SIMD variants. Only tests use
// it.
package simdkit

//go:generate go run ../../../../cmd/tickwork-gen -o simdkit_gen.go simdkit.tw

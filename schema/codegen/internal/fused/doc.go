// Package fused is a schema of the arena's products that feed sums
// (fused.tw), generated, for the test that the generator's conversions
// keep them from being fused into a multiply-add (make fma, make arm64).
// Only tests use it.
package fused

//go:generate go run ../../../../cmd/tickwork-gen -o fused_gen.go fused.tw

// Package indexkit is a schema with an index of every kind (unique,
// hash on one and two columns, on a ref and a bool, sorted on an integer
// and a float, a grid, an event table's hash) and each index-served query
// beside the same query `using scan` (indexkit.tw), generated, for the
// tests of the planner's walks against the scan. Only tests use it.
package indexkit

//go:generate go run ../../../../cmd/tickwork-gen -o indexkit_gen.go indexkit.tw

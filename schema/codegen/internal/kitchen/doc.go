// Package kitchen is a schema with every construct of the language
// (kitchen.tw), generated, for the tests of the generated kernels. Only
// tests use it.
package kitchen

//go:generate go run ../../../../cmd/tickwork-gen -o kitchen_gen.go kitchen.tw

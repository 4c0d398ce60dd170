// Package arenagen is the arena's schema (schema/testdata/arena.tw)
// generated, so that its five declared systems are compiled and checked
// against today's hand-written kernels of package arena before they
// replace them. Only tests use it.
package arenagen

//go:generate go run ../../../../cmd/tickwork-gen -o arena_gen.go ../../../testdata/arena.tw

// Command tickwork-gen generates Go from a Tickwork schema: one schema
// file in, one Go file out, and beside it the file of the declared
// systems' SIMD variants, built only with GOEXPERIMENT=simd on amd64; it
// prints to stderr which systems got one (docs/schema.md). Run it from
// go generate:
//
//	//go:generate go run github.com/tickwork/tickwork/cmd/tickwork-gen -o arena_gen.go arena.tw
package main

import (
	"os"

	"github.com/tickwork/tickwork/schema/codegen"
)

func main() { os.Exit(codegen.Main(os.Args[1:], os.Stderr)) }

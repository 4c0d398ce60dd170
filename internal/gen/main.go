// Command gen writes the typed surface that Go generics cannot spell once
// for every arity: the queries and the joins of 1 to MaxColumns columns
// (package ephemeral: query_gen.go, join_gen.go), their declarations in a
// system (package systems) and the face's own types over both (package
// tickwork). Run it from the module root:
//
//	go run ./internal/gen
//
// The output is a pure function of MaxColumns (see Files); TestGenerated
// fails, naming this command, when a committed file is stale.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	for name, src := range Files() {
		if err := os.WriteFile(filepath.FromSlash(name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

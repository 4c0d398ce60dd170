package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated fails when a committed generated file differs from what
// the generator writes now.
func TestGenerated(t *testing.T) {
	for name, want := range Files() {
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v; run: go run ./internal/gen", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale; regenerate: go run ./internal/gen", name)
		}
	}
}

// TestDocsNameMaxColumns: the package indexes and the architecture doc
// name the widest generated query, so that a change of MaxColumns that
// leaves them stale fails here.
func TestDocsNameMaxColumns(t *testing.T) {
	widest := fmt.Sprintf("Query%d", MaxColumns)
	for _, name := range []string{"doc.go", "ephemeral/doc.go", "systems/doc.go", "docs/architecture.md"} {
		src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(src, []byte(widest)) {
			t.Errorf("%s does not name %s, the widest generated query (MaxColumns)", name, widest)
		}
	}
}

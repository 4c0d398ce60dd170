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

// TestGeneratedFiles: the generator writes the queries and the joins of
// the three packages, and each file declares the arities 1..MaxColumns
// (so that TestGenerated covers every one of them).
func TestGeneratedFiles(t *testing.T) {
	files := Files()
	want := map[string]string{
		"ephemeral/query_gen.go": "type Query%d[", "systems/query_gen.go": "func NewQuery%d[", "query_gen.go": "type Query%d[",
		"ephemeral/join_gen.go": "type Join%d[", "systems/join_gen.go": "func NewJoin%d[", "join_gen.go": "type Join%d[",
	}
	if len(files) != len(want) {
		t.Errorf("the generator writes %d files, want %d", len(files), len(want))
	}
	for name, decl := range want {
		src, ok := files[name]
		if !ok {
			t.Errorf("the generator does not write %s", name)
			continue
		}
		for n := 1; n <= MaxColumns+1; n++ {
			if got := bytes.Contains(src, []byte(fmt.Sprintf(decl, n))); got != (n <= MaxColumns) {
				t.Errorf("%s: %q present %v, want %v", name, fmt.Sprintf(decl, n), got, n <= MaxColumns)
			}
		}
	}
}

// TestDocsNameMaxColumns: the package indexes and the architecture doc
// name the widest generated query and join, so that a change of
// MaxColumns that leaves them stale fails here.
func TestDocsNameMaxColumns(t *testing.T) {
	for _, widest := range []string{fmt.Sprintf("Query%d", MaxColumns), fmt.Sprintf("Join%d", MaxColumns)} {
		for _, name := range []string{"doc.go", "ephemeral/doc.go", "systems/doc.go", "docs/architecture.md"} {
			src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(src, []byte(widest)) {
				t.Errorf("%s does not name %s, the widest generated one (MaxColumns)", name, widest)
			}
		}
	}
}

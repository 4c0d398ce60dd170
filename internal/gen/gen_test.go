package main

import (
	"bytes"
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

package runtime_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeEmbeddingIsTheExample keeps the README's embedding snippet
// compiled: it must be the body of Example in example_test.go, dedented.
func TestReadmeEmbeddingIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "\tb := runtime.NewBuilder")
	end := strings.Index(s, "\t// Output:")
	if start < 0 || end < start {
		t.Fatal("example_test.go: Example body not found")
	}
	var body strings.Builder
	for _, line := range strings.SplitAfter(s[start:end], "\n") {
		body.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if !strings.Contains(string(readme), "```go\n"+body.String()+"```") {
		t.Errorf("README.md's embedding snippet differs from Example in runtime/example_test.go; copy the Example's body (dedented by one tab) into the README")
	}
}

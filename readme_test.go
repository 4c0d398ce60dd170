package tickwork_test

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeEmbeddingIsTheExample keeps the README's embedding snippet
// compiled: it must be the body of Example in example_test.go, dedented,
// and that file imports nothing of Tickwork but the module root.
func TestReadmeEmbeddingIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "\tb := tickwork.NewBuilder")
	end := strings.Index(s, "\t// Output:")
	if start < 0 || end < start {
		t.Fatal("example_test.go: Example body not found")
	}
	var body strings.Builder
	for _, line := range strings.SplitAfter(s[start:end], "\n") {
		body.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if !strings.Contains(string(readme), "```go\n"+body.String()+"```") {
		t.Errorf("README.md's embedding snippet differs from Example in example_test.go; copy the Example's body (dedented by one tab) into the README")
	}
	f, err := parser.ParseFile(token.NewFileSet(), "example_test.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if strings.HasPrefix(path, "github.com/tickwork/tickwork/") {
			t.Errorf("example_test.go imports %s; the README's example imports only the module root", path)
		}
	}
}

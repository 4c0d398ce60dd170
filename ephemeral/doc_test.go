package ephemeral_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsStateHandleScope keeps the warning that handles carry no domain
// identity where users read it: the package doc and the docs of Handle and
// Domain.
func TestDocsStateHandleScope(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/tickwork/tickwork/ephemeral")
	require.NoError(t, err)

	const rule = "meaningful only within the domain that issued it"
	assert.Contains(t, oneLine(pkg.Doc), "A handle is "+rule)
	assert.Contains(t, oneLine(pkg.Doc), "share a domain")
	docs := map[string]string{}
	for _, typ := range pkg.Types {
		docs[typ.Name] = oneLine(typ.Doc)
	}
	assert.Contains(t, docs["Handle"], "a handle is "+rule)
	assert.Contains(t, docs["Domain"], "a handle is "+rule)
	for _, name := range []string{"Handle", "Domain"} {
		assert.Contains(t, docs[name], "share a domain", "doc of %s", name)
		assert.Contains(t, docs[name], `"0:1"`, "doc of %s", name)
	}
}

// oneLine joins a doc comment's lines with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

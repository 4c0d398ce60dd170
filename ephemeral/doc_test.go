package ephemeral_test

import (
	"fmt"
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

	"github.com/tickwork/tickwork/ephemeral"
)

// TestDocsStateHandleLayout keeps the handle layout where the rules say it
// lives: stated once in docs/architecture.md ("Handle layout") with the
// widths and bounds the constants give, and linked from the docs of Handle,
// Domain and the package.
func TestDocsStateHandleLayout(t *testing.T) {
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

	const link = `docs/architecture.md ("Handle layout")`
	assert.Contains(t, oneLine(pkg.Doc), link)
	docs := map[string]string{}
	for _, typ := range pkg.Types {
		docs[typ.Name] = oneLine(typ.Doc)
	}
	assert.Contains(t, docs["Handle"], link)
	assert.Contains(t, docs["Domain"], `docs/architecture.md, "Handle layout"`)

	arch, err := os.ReadFile(filepath.Join("..", "docs", "architecture.md"))
	require.NoError(t, err)
	text := string(arch)
	assert.Equal(t, 1, strings.Count(text, "### Handle layout"), "one home")
	i := strings.Index(text, "### Handle layout")
	require.GreaterOrEqual(t, i, 0)
	section := text[i:]
	if j := strings.Index(section[1:], "\n### "); j >= 0 {
		section = section[:j+1]
	}
	g := ephemeral.HandleGenerationBits
	for _, want := range []string{
		fmt.Sprintf("| 32–%d | generation (`HandleGenerationBits` = %d)", 31+g, g),
		fmt.Sprintf("| %d–63 | domain tag (%d bits, `handleTagBits`)", 32+g, ephemeral.HandleTagBits),
		fmt.Sprintf("modulo 2^%d", g),
		fmt.Sprintf("multiple of 2^%d", g-1),
		"`1..1 023` (`maxHandleTag`)", // checked below
	} {
		assert.Contains(t, section, want)
	}
	assert.Equal(t, 1023, ephemeral.MaxHandleTag)
}

// oneLine joins a doc comment's lines with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

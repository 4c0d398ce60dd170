package codegen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema/codegen"
)

// TestMainRefusesOverwritingSchema: -o or -simd naming the schema itself
// (as given, by another spelling of the path, or through a link) is a bad
// command line, exit 2, and the schema is left as it was (before, the
// generated Go replaced it).
func TestMainRefusesOverwritingSchema(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("self.tw", []byte(tiny), 0o644))
	link := filepath.Join(dir, "link.tw")
	linked := os.Symlink("self.tw", link) == nil
	cases := [][]string{
		{"-o", "self.tw", "self.tw"},
		{"-o", "./sub/../self.tw", "self.tw"},
		{"-o", filepath.Join(dir, "self.tw"), "self.tw"},
		{"-simd", "self.tw", "self.tw"},
	}
	if linked {
		cases = append(cases, []string{"-o", link, "self.tw"})
	}
	for _, args := range cases {
		var stderr bytes.Buffer
		assert.Equal(t, 2, codegen.Main(append([]string{"-pkg", "x"}, args...), &stderr), args)
		assert.Contains(t, stderr.String(), "names the schema file self.tw itself, which the output would overwrite: name a .go file", args)
		got, err := os.ReadFile("self.tw")
		require.NoError(t, err)
		assert.Equal(t, tiny, string(got), "the schema is untouched")
	}
	var stderr bytes.Buffer
	assert.Equal(t, 0, codegen.Main([]string{"-pkg", "x", "-o", "self_gen.go", "self.tw"}, &stderr), stderr.String())
}

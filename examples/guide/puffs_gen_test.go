package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema/codegen"
)

// TestPuffsGenFresh: the committed puffs_gen.go and puffs_gen_simd.go are
// what main.go's go:generate line writes today.
func TestPuffsGenFresh(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	var args []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:generate go run ../../cmd/tickwork-gen "); ok {
			args = strings.Fields(rest)
		}
	}
	require.NotNil(t, args, "main.go has no go:generate line")
	files, _, err := codegen.Files(args, "main", os.ReadFile)
	require.NoError(t, err)
	require.Len(t, files, 2)
	for _, f := range files {
		committed, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		assert.Equal(t, string(f.Src), string(committed), "%s is stale: run go generate ./examples/guide", f.Path)
	}
}

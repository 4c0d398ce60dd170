package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guideFiles are the files docs/guide.md quotes.
var guideFiles = []string{"main.go", "example_guide_test.go", "puffs.tw"}

// TestGuideQuotesTheSource keeps docs/guide.md compiled and run: every
// go and schema code block of it is a run of whole lines of main.go,
// example_guide_test.go or puffs.tw (indented alike, by tabs; the go:generate
// line reads go tool tickwork-gen where the repository's runs the
// command from source), and every Example of example_guide_test.go is quoted.
func TestGuideQuotesTheSource(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide.md"))
	require.NoError(t, err)
	var sources [][]string
	for _, name := range guideFiles {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		sources = append(sources, strings.Split(string(src), "\n"))
	}
	blocks := codeBlocks(string(guide))
	quoted := 0
	for _, b := range blocks {
		if b.lang != "go" && b.lang != "" {
			continue
		}
		quoted++
		lines := b.lines
		for i, l := range lines {
			lines[i] = strings.Replace(l, "//go:generate go tool tickwork-gen ", "//go:generate go run ../../cmd/tickwork-gen ", 1)
		}
		found := false
		for _, src := range sources {
			found = found || containsRun(src, lines)
		}
		assert.True(t, found, "docs/guide.md line %d: the block starting %q is not a run of lines of %v; copy it from there", b.at, lines[0], guideFiles)
	}
	assert.GreaterOrEqual(t, quoted, 8)
	examples, err := os.ReadFile("example_guide_test.go")
	require.NoError(t, err)
	for _, line := range strings.Split(string(examples), "\n") {
		if strings.HasPrefix(line, "func Example") {
			assert.Contains(t, string(guide), "\n"+line+"\n", "docs/guide.md does not quote %s", line)
		}
	}
}

// block is a fenced code block: its language, lines and first line's number.
type block struct {
	lang  string
	lines []string
	at    int
}

func codeBlocks(md string) []block {
	var out []block
	var cur *block
	for i, line := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{lang: strings.TrimPrefix(line, "```"), at: i + 2}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	return out
}

// containsRun reports whether want is a run of lines of src, each line of
// src the same tabs followed by want's line (an empty line stays empty).
func containsRun(src, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(src); i++ {
		indent, ok := strings.CutSuffix(src[i], want[0])
		if !ok || strings.Trim(indent, "\t") != "" {
			continue
		}
		match := true
		for j, w := range want {
			if s := src[i+j]; !(w == "" && s == "") && s != indent+w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// TestGuideSetUpInAModuleOfItsOwn does what step 1 of docs/guide.md says
// for a checkout of Tickwork, in a new module outside the repository:
// the guide's go mod init and go mod edit lines, go mod tidy, the game's
// main.go with the go:generate line the guide shows and puffs.tw, then
// go generate (which must write the committed puffs_gen.go), go mod tidy
// again, go vet and go run. It runs offline, from the module cache; -short
// skips it.
func TestGuideSetUpInAModuleOfItsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the game in a module of its own")
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide.md"))
	require.NoError(t, err)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	gomod := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	var setup [][]string
	for _, b := range codeBlocks(string(guide)) {
		if b.lang != "sh" {
			continue
		}
		for _, line := range b.lines {
			if strings.HasPrefix(line, "go mod ") { // the go get lines need a published version
				setup = append(setup, strings.Fields(strings.ReplaceAll(line, "=../tickwork", "="+root))[1:])
			}
		}
	}
	require.Len(t, setup, 4, "docs/guide.md: go mod init, the two go mod edit lines and go mod tidy")
	for _, args := range setup {
		gomod(args...)
	}
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	const here, there = "//go:generate go run ../../cmd/tickwork-gen ", "//go:generate go tool tickwork-gen "
	require.Contains(t, string(src), here)
	require.Contains(t, string(guide), "\n"+there)
	schema, err := os.ReadFile("puffs.tw")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(strings.Replace(string(src), here, there, 1)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "puffs.tw"), schema, 0o644))
	gomod("generate")
	for _, name := range []string{"puffs_gen.go", "puffs_gen_simd.go"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		want, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), name)
	}
	gomod("mod", "tidy")
	gomod("vet", ".")
	assert.Contains(t, gomod("run", ".", "-n", "500", "-frames", "30"), "560 walkers, ", "500 set-up walkers and 2 born in each of 30 ticks")
}

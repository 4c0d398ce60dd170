package main

import (
	"os"
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

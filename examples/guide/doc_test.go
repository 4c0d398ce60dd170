package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
// the guide's go mod init and go mod edit lines and go mod tidy. Then it
// follows the guide: after each step 2..8, main.go holds the guide's code
// of the steps so far (without the fields of later steps) and
// example_test.go their Examples, and go vet must pass (go generate once
// main.go has the go:generate line of step 8). Last, the game's own
// main.go with the go:generate line the guide shows: go generate must
// write the committed puffs_gen.go, then go mod tidy, go vet and go run.
// It runs offline, from the module cache and Tickwork's go.sum; -short
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
		if len(args) == 2 && args[0] == "mod" && args[1] == "tidy" {
			// offline, the tests of Tickwork's requirements' own
			// requirements may be missing from the module cache: -e
			// lets tidy record what the game builds with and go on
			args = []string{"mod", "tidy", "-e"}
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// GOSUMDB=off: offline, a tidy that drops a checksum line the
		// next step needs again must not ask the checksum database (the
		// module cache's copies were checked when they were downloaded)
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off")
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
	// The checksums of Tickwork's own requirements, so that go mod tidy
	// needs no checksum database (a machine may not reach one).
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644))
	for _, args := range setup {
		gomod(args...)
	}
	schema, err := os.ReadFile("puffs.tw")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "puffs.tw"), schema, 0o644))
	for step := 2; step <= 8; step++ {
		main, examples := guideUpTo(string(guide), step)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "example_test.go"), []byte(examples), 0o644))
		if strings.Contains(main, "//go:generate") {
			gomod("generate")
		}
		if step == 2 {
			gomod("mod", "tidy") // main.go imports the module now
		}
		t.Logf("the code of docs/guide.md's steps 2..%d", step) // the last one logged is the one that failed
		gomod("vet", ".")
	}
	require.NoError(t, os.Remove(filepath.Join(dir, "example_test.go")))
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	const here, there = "//go:generate go run ../../cmd/tickwork-gen ", "//go:generate go tool tickwork-gen "
	require.Contains(t, string(src), here)
	require.Contains(t, string(guide), "\n"+there)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(strings.Replace(string(src), here, there, 1)), 0o644))
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

// guideUpTo returns the source a reader of docs/guide.md has after step
// n: main.go, the Go blocks of steps 2..n but the Examples and the struct
// fields marked with a later step (with the imports they use, and an
// empty main until step 9's), and example_test.go, the Examples.
func guideUpTo(guide string, n int) (main, examples string) {
	var src, ex []string
	for _, sec := range strings.Split(guide, "\n## ")[1:] {
		var k int
		if _, err := fmt.Sscanf(sec, "%d.", &k); err != nil || k < 2 || k > n {
			continue
		}
		for _, b := range codeBlocks(sec) {
			if b.lang != "go" {
				continue
			}
			code := strings.Join(b.lines, "\n") + "\n"
			if strings.HasPrefix(code, "func Example") {
				ex = append(ex, code)
				continue
			}
			var keep []string
			for _, line := range b.lines {
				later := false
				for j := n + 1; j <= 9; j++ {
					later = later || strings.HasSuffix(line, fmt.Sprintf("// step %d", j))
				}
				if !later {
					keep = append(keep, line)
				}
			}
			src = append(src, strings.Join(keep, "\n")+"\n")
		}
	}
	code := strings.Join(src, "\n")
	imports := "import (\n"
	for _, imp := range [][2]string{{"binary.", "encoding/binary"}, {"flag.", "flag"}, {"fmt.", "fmt"}, {"fnv.", "hash/fnv"}, {"log.", "log"}, {"math.", "math"}, {"rand.", "math/rand/v2"}} {
		if strings.Contains(code, imp[0]) {
			imports += "\t" + strconv.Quote(imp[1]) + "\n"
		}
	}
	imports += "\n\t\"github.com/tickwork/tickwork\"\n)\n\n"
	if !strings.Contains(code, "\nfunc main() {") {
		code += "\nfunc main() {}\n"
	}
	return "package main\n\n" + imports + code, "package main\n\nimport \"fmt\"\n\n" + strings.Join(ex, "\n")
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema/codegen"
)

// sums are counters of the frame reports, added up over frames.
type sums struct{ became, faded int64 }

// runFull builds the whole game (every step) and runs frames frames,
// adding up the counters of watch and Fade in each frame's report.
func runFull(t *testing.T, n, workers, frames int) (*game, sums) {
	t.Helper()
	g := newFullGame(n, workers, 1)
	require.NoError(t, g.build())
	var s sums
	for range frames {
		require.NoError(t, g.run(1))
		r := g.w.Report()
		became, ok := r.Counter("watch", "became")
		require.True(t, ok)
		faded, ok := r.Counter("Fade", "faded")
		require.True(t, ok)
		s.became, s.faded = s.became+became, s.faded+faded
	}
	return g, s
}

// TestSameDigestForWorkers: the whole game on 1, 2 and 4 workers ends in
// one digest (the golden value: the rows and positions after 900 frames)
// and the same counts.
func TestSameDigestForWorkers(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		g, s := runFull(t, 2000, workers, 900)
		assert.Equal(t, uint64(0xd7c09966a7d07bcc), g.digest(), "workers %d", workers)
		assert.Equal(t, births*life, g.walkers.Len(), "workers %d: the walkers born in the last life ticks", workers)
		assert.Equal(t, sums{became: 1352, faded: 1313}, s, "workers %d", workers)
		assert.Equal(t, 39, g.puffs.Puff.Table.Len(), "workers %d", workers)
		require.NoError(t, g.w.Close())
	}
}

// TestTallyCountsEveryEventInItsFrame: Crowded is a ThisFrame table, so
// tally (Update) counts in each frame exactly the events watch emitted in
// that frame's ticks: after any frame the score equals the sum of watch's
// per-frame counter, and puff spawned one puff per event (each still
// live or counted by the declared Fade).
func TestTallyCountsEveryEventInItsFrame(t *testing.T) {
	g, s := runFull(t, 2000, 2, 120)
	defer g.w.Close()
	assert.Greater(t, s.became, int64(100))
	assert.Equal(t, s.became, int64(g.score.Get().Crowded))
	assert.Greater(t, s.faded, int64(0))
	assert.Equal(t, s.became, s.faded+int64(g.puffs.Puff.Table.Len()), "a puff per event, each live or faded")
}

// TestFrameAllocatesNothing: after warm-up (past the set-up walkers'
// expiry at tick 600) a frame of the whole game allocates nothing, in
// objects (AllocsPerRun) and in bytes (the frame report's count, summed
// over the measured frames).
func TestFrameAllocatesNothing(t *testing.T) {
	g, _ := runFull(t, 2000, 2, 700)
	defer g.w.Close()
	var bytes uint64
	allocs := testing.AllocsPerRun(100, func() {
		require.NoError(t, g.w.Frame(1.0/60))
		bytes += g.w.Report().AllocBytes
	})
	assert.Zero(t, allocs)
	assert.Zero(t, bytes)
}

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

// guideFiles are the files docs/guide.md quotes.
var guideFiles = []string{"main.go", "guide_test.go", "puffs.tw"}

// TestGuideQuotesTheSource keeps docs/guide.md compiled and run: every
// go and schema code block of it is a run of whole lines of main.go,
// guide_test.go or puffs.tw (indented alike, by tabs; the go:generate
// line reads go tool tickwork-gen where the repository's runs the
// command from source), and every Example of guide_test.go is quoted.
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
	examples, err := os.ReadFile("guide_test.go")
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

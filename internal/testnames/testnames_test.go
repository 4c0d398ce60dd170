package testnames_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/internal/testnames"
)

// moduleRoot is the directory of the go.mod above the test's working
// directory (the package's directory): the root module's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		require.NotEqual(t, dir, up, "no go.mod above the test's directory")
		dir = up
	}
}

// TestModuleTestFileNames: every test file of the module (and of the
// modules nested in it, cmd/arena-viewer and tools/benchplot) is named
// after the source file it tests (docs/architecture.md, "Test files").
func TestModuleTestFileNames(t *testing.T) {
	root := moduleRoot(t)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	require.Contains(t, string(mod), "module github.com/tickwork/tickwork\n", "the walk starts at the root module")
	bad, err := testnames.Check(os.DirFS(root))
	require.NoError(t, err)
	for _, p := range bad {
		t.Errorf("%s: a test file is named <source>_test.go or <source>_<aspect>_test.go after the "+
			"source file <source>.go (or <source>_gen.go) of its package that it tests, or has a "+
			"conventional name (docs/architecture.md, \"Test files\"): rename it with git mv", p)
	}
	// The walk saw the module: this file and its source are where they are.
	ok, err := fs.Glob(os.DirFS(root), "internal/testnames/testnames*.go")
	require.NoError(t, err)
	assert.Equal(t, []string{"internal/testnames/testnames.go", "internal/testnames/testnames_test.go"}, ok)
}

func TestNamed(t *testing.T) {
	sources := []string{"world.go", "doc.go", "arena_gen.go", "query_gen.go", "present_simd.go"}
	for _, tc := range []struct {
		test string
		want bool
	}{
		{"world_test.go", true},
		{"world_zero_test.go", true},
		{"world_events_alloc_test.go", true},
		{"world_fuzz_test.go", true},
		{"arena_test.go", true},           // arena_gen.go
		{"arena_memory_test.go", true},    // arena_gen.go
		{"arena_gen_hand_test.go", true},  // arena_gen.go itself
		{"query_gen_bench_test.go", true}, // query_gen.go
		{"query_test.go", true},           // query_gen.go
		{"present_simd_test.go", true},    // present_simd.go
		{"present_test.go", false},        // present.go is not here
		{"example_test.go", true},         // conventional
		{"example_state_test.go", true},   // conventional
		{"export_test.go", true},          // conventional
		{"race_test.go", true},            // conventional
		{"norace_test.go", true},          // conventional
		{"readme_test.go", true},          // conventional
		{"bench_test.go", true},           // conventional
		{"doc_test.go", true},             // conventional
		{"trial9_rest_test.go", false},    // no trial9.go
		{"memory_test.go", false},         // no memory.go
		{"worlds_test.go", false},         // a prefix is cut at "_" only
		{"_world_test.go", false},         // no source "" or "_world"
		{"world_test.txt", false},         // not a test file
		{"world.go", false},               // not a test file
		{"_test.go", false},               // no name
		{"examples_test.go", false},       // not "example_..."
		{"bench_lanes_test.go", false},    // bench_test.go only as a whole
		{"world_zero_internal_test.go", true},
	} {
		assert.Equal(t, tc.want, testnames.Named(tc.test, sources), tc.test)
	}
}

func TestCheck(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":                          {Data: []byte("module m\n")},
		"world.go":                        {},
		"world_test.go":                   {},
		"trial9_rest_test.go":             {},
		"a/table.go":                      {},
		"a/table_seal_test.go":            {},
		"a/seal_test.go":                  {}, // table.go is not seal.go
		"a/README.md":                     {},
		"a/b/first_alloc_test.go":         {}, // a directory of tests only
		"a/testdata/x_test.go":            {}, // skipped as go skips it
		"a/.hidden/x_test.go":             {},
		"a/_skip/x_test.go":               {},
		"a/vendor/x_test.go":              {},
		"nested/go.mod":                   {Data: []byte("module n\n")},
		"nested/fake_test.go":             {}, // a nested module is walked
		"nested/game.go":                  {},
		"nested/game_fake_test.go":        {},
		"nested/example_fake_test.go":     {},
		"world_test.go.orig":              {},
		"other/world.go":                  {},
		"other/sub/world_test.go":         {}, // world.go is another directory's
		"other/sub/example_world_test.go": {},
	}
	bad, err := testnames.Check(fsys)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"a/b/first_alloc_test.go",
		"a/seal_test.go",
		"nested/fake_test.go",
		"other/sub/world_test.go",
		"trial9_rest_test.go",
	}, bad)

	good, err := testnames.Check(fstest.MapFS{"x.go": {}, "x_test.go": {}})
	require.NoError(t, err)
	assert.Nil(t, good)
}

// errFS fails every Open past the root's listing.
type errFS struct{ fstest.MapFS }

var errBroken = errors.New("broken")

func (e errFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "." {
		return e.MapFS.ReadDir(name)
	}
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: errBroken}
}

func TestCheckWalkError(t *testing.T) {
	bad, err := testnames.Check(errFS{fstest.MapFS{"x_test.go": {}, "d/y.go": {}}})
	assert.Nil(t, bad)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "d", pe.Path)
	assert.ErrorIs(t, err, errBroken)
}

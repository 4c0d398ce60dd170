package testnames

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// conventional are the base names (without "_test.go") a test file may have
// whatever the sources of its directory (docs/architecture.md, "Test
// files"); a name that starts with "example_" is conventional too.
var conventional = []string{"example", "doc", "export", "race", "norace", "readme", "bench"}

// Named reports whether the test file named test (a base name ending in
// "_test.go", such as "world_zero_test.go") keeps the rule of
// docs/architecture.md, "Test files", in a directory whose non-test Go
// files are sources (base names, such as "world.go"): its name without
// "_test.go" is conventional, or it is <source> or <source>_<aspect>,
// where <source>.go or <source>_gen.go is among sources. A name that does
// not end in "_test.go" is not a test file: Named reports false. Named
// allocates; it is safe for concurrent use.
func Named(test string, sources []string) bool {
	stem, ok := strings.CutSuffix(test, "_test.go")
	if !ok || stem == "" {
		return false
	}
	if slices.Contains(conventional, stem) || strings.HasPrefix(stem, "example_") {
		return true
	}
	for p := stem; ; {
		if slices.Contains(sources, p+".go") || slices.Contains(sources, p+"_gen.go") {
			return true
		}
		i := strings.LastIndexByte(p, '_')
		if i <= 0 {
			return false
		}
		p = p[:i]
	}
}

// Check walks fsys from its root and returns the test files (paths in
// fsys, slash-separated, sorted) whose names break the rule of
// docs/architecture.md, "Test files" (see [Named]); none is an empty,
// nil slice. Directories named testdata or vendor, or whose name starts
// with "." or "_", are skipped, as the go command skips them; nested
// modules are walked like any directory. The error is the first one
// fs.WalkDir met (a *fs.PathError from fsys), with no paths. Check is as
// safe for concurrent use as fsys is.
func Check(fsys fs.FS) ([]string, error) {
	dirs := map[string][]string{} // directory -> its Go files
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && d.Type().IsRegular() {
			dir := path.Dir(p)
			dirs[dir] = append(dirs[dir], name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var bad []string
	for dir, files := range dirs {
		var sources []string
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				sources = append(sources, f)
			}
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") && !Named(f, sources) {
				bad = append(bad, path.Join(dir, f))
			}
		}
	}
	slices.Sort(bad)
	return bad, nil
}

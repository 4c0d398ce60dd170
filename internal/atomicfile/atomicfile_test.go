package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteFile: a new file and a replaced one hold the data with the
// mode asked, and no temporary file is left.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "save.bin")
	require.NoError(t, WriteFile(path, []byte("first"), 0o640))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())

	require.NoError(t, WriteFile(path, []byte("second, longer"), 0o600))
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "second, longer", string(got))
	assert.Equal(t, []string{"save.bin"}, entries(t, dir))

	require.NoError(t, WriteFile(path, nil, 0o600), "empty data")
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Empty(t, got)
}

// TestWriteFileRelative: a bare file name writes in the working directory.
func TestWriteFileRelative(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, WriteFile("bare.bin", []byte("x"), 0o644))
	got, err := os.ReadFile(filepath.Join(dir, "bare.bin"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(got))
}

// TestWriteFileErrors: each refusal names its step and the target, reaches
// the os error with errors.Is, leaves the target as it was and no
// temporary file.
func TestWriteFileErrors(t *testing.T) {
	t.Run("missing directory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "such", "save.bin")
		err := WriteFile(path, []byte("x"), 0o644)
		var ae *Error
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, StepCreate, ae.Step)
		assert.Equal(t, path, ae.Path)
		assert.ErrorIs(t, err, fs.ErrNotExist)
		assert.Contains(t, err.Error(), "atomicfile: create temporary file for "+path)
	})
	t.Run("target is a directory", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "taken")
		require.NoError(t, os.Mkdir(target, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(target, "inside"), []byte("kept"), 0o644))
		err := WriteFile(target, []byte("x"), 0o644)
		var ae *Error
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, StepTarget, ae.Step)
		assert.ErrorIs(t, err, ErrNotRegular)
		assert.Equal(t, "atomicfile: check target for "+target+": a directory (d---------), not a regular file: "+
			"only a regular file is replaced; remove it or choose another path", err.Error())
		assert.Equal(t, []string{"taken"}, entries(t, dir), "no temporary file left")
		got, err := os.ReadFile(filepath.Join(target, "inside"))
		require.NoError(t, err)
		assert.Equal(t, "kept", string(got))
	})
	t.Run("read-only directory", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes into read-only directories")
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "save.bin")
		require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
		require.NoError(t, os.Chmod(dir, 0o555))
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		err := WriteFile(path, []byte("new"), 0o644)
		var ae *Error
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, StepCreate, ae.Step)
		assert.ErrorIs(t, err, fs.ErrPermission)
		got, rerr := os.ReadFile(path)
		require.NoError(t, rerr)
		assert.Equal(t, "old", string(got))
	})
}

// TestStepString names every step and an unknown one.
func TestStepString(t *testing.T) {
	want := []string{"check target", "create temporary file", "write", "sync", "close", "rename", "sync directory"}
	for s := StepTarget; s <= StepSyncDir; s++ {
		assert.Equal(t, want[s], s.String())
	}
	assert.Equal(t, "Step(9)", Step(9).String())
	assert.True(t, errors.Is(&Error{Err: fs.ErrClosed}, fs.ErrClosed))
}

// TestWriteFileSymlink: a symbolic link at the path is followed: the
// file it names gets the data, the link stays a link; a link to nothing
// is refused, leaving the link.
func TestWriteFileSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	target := filepath.Join(sub, "target.bin")
	link := filepath.Join(dir, "link.bin")
	require.NoError(t, os.WriteFile(target, []byte("target"), 0o644))
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	require.NoError(t, WriteFile(link, []byte("new"), 0o644))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&fs.ModeSymlink != 0, "the link stays a link")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got), "the file the link names holds the data")
	assert.Equal(t, []string{"link.bin", "sub"}, entries(t, dir))
	assert.Equal(t, []string{"target.bin"}, entries(t, sub), "the temporary file was renamed in the target's directory")

	dangling := filepath.Join(dir, "dangling.bin")
	require.NoError(t, os.Symlink(filepath.Join(dir, "missing.bin"), dangling))
	err = WriteFile(dangling, []byte("x"), 0o644)
	var ae *Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, StepTarget, ae.Step)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	fi, err = os.Lstat(dangling)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&fs.ModeSymlink != 0, "the link is left as it was")
}

// TestWriteFileRefusesIrregular: an empty path, a named pipe and a link to
// a named pipe are refused at StepTarget and left as they were (before,
// WriteFile renamed over them).
func TestWriteFileRefusesIrregular(t *testing.T) {
	err := WriteFile("", []byte("x"), 0o644)
	var ae *Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, StepTarget, ae.Step)
	assert.ErrorIs(t, err, fs.ErrInvalid)
	assert.Equal(t, "atomicfile: check target for : empty path: name the file to write: invalid argument", err.Error())

	if goruntime.GOOS == "windows" {
		t.Skip("no named pipes in the file system here")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "save.fifo")
	require.NoError(t, mkfifo(fifo))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(fifo, link))
	for _, path := range []string{fifo, link} {
		err = WriteFile(path, []byte("x"), 0o644)
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, StepTarget, ae.Step)
		assert.ErrorIs(t, err, ErrNotRegular)
		fi, serr := os.Stat(fifo)
		require.NoError(t, serr)
		assert.True(t, fi.Mode()&fs.ModeNamedPipe != 0, "the named pipe is left")
	}
	assert.Equal(t, "atomicfile: check target for "+link+": it links to "+fifo+", a named pipe (FIFO) (p---------), not a regular file: "+
		"only a regular file is replaced; remove it or choose another path", err.Error())
	assert.Equal(t, []string{"link", "save.fifo"}, entries(t, dir), "no temporary file left")
}

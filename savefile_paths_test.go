package tickwork_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestSaveFileEmptyPath: SaveFile and LoadFile of "" say so (before,
// SaveFile failed renaming a temporary file to "").
func TestSaveFileEmptyPath(t *testing.T) {
	w := saveWorld(t)
	err := tickwork.SaveFile(w, "")
	var fe *tickwork.FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "check target", fe.Step)
	assert.ErrorIs(t, err, fs.ErrInvalid)
	assert.Equal(t, "tickwork: save : check target: empty path: name the file to write: invalid argument", err.Error())
	err = tickwork.LoadFile(w, "")
	require.ErrorAs(t, err, &fe)
	assert.ErrorIs(t, err, fs.ErrInvalid)
	assert.Equal(t, "tickwork: load : empty path: name the save file: invalid argument", err.Error())
}

// TestSaveFileFollowsSymlink: a save through a symbolic link writes the
// file the link names and keeps the link (docs/state.md, "Which paths a
// save and a load take"); the save loads through the link.
func TestSaveFileFollowsSymlink(t *testing.T) {
	w := saveWorld(t)
	frames(t, w, 2)
	dir := t.TempDir()
	real := filepath.Join(dir, "real.bin")
	require.NoError(t, os.WriteFile(real, []byte("old save"), 0o644))
	link := filepath.Join(dir, "link.bin")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	require.NoError(t, tickwork.SaveFile(w, link))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&fs.ModeSymlink != 0, "the link stays a link")
	want, err := w.Snapshot(nil)
	require.NoError(t, err)
	got, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the file the link names holds the save")

	o := saveWorld(t)
	require.NoError(t, tickwork.LoadFile(o, link))
	assert.Equal(t, w.Frames(), o.Frames())
}

// TestSaveFilePoisoned: after a panic poisoned the world, SaveFile writes
// nothing and says why (errors.Is ErrPoisoned, ErrSnapshot), and LoadFile
// into it is refused: a half-run frame never reaches a save.
func TestSaveFilePoisoned(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	type pair struct{ N, M int }
	s := tickwork.AddResource(b, "S", pair{})
	b.System("inc", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteResource(d, s)
		return func(*tickwork.Context) {
			if w.N++; w.N == 2 {
				panic("boom")
			}
		}
	})
	b.System("mirror", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		w := tickwork.WriteResource(d, s)
		return func(*tickwork.Context) { w.M = w.N }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	require.NoError(t, w.Frame(0.01))
	require.NoError(t, tickwork.SaveFile(w, good))
	require.Panics(t, func() { _ = w.Frame(0.01) })
	require.Equal(t, pair{2, 1}, *s.Get())

	path := filepath.Join(dir, "poisoned.bin")
	err = tickwork.SaveFile(w, path)
	var fe *tickwork.FileError
	require.ErrorAs(t, err, &fe)
	assert.ErrorIs(t, err, tickwork.ErrPoisoned)
	assert.ErrorIs(t, err, tickwork.ErrSnapshot)
	assert.True(t, tickwork.IsFatal(err))
	assert.Contains(t, err.Error(), "tickwork: save "+path+": runtime: Snapshot refused: a panic poisoned this world")
	_, err = os.Lstat(path)
	assert.ErrorIs(t, err, fs.ErrNotExist, "nothing written")
	err = tickwork.LoadFile(w, good)
	assert.ErrorIs(t, err, tickwork.ErrPoisoned)
	assert.Equal(t, pair{2, 1}, *s.Get(), "the world is as it was")
}

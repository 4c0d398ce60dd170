//go:build unix

package tickwork_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestSaveFileNamedPipe: LoadFile of a named pipe that no process writes
// returns at once (before, its open waited for a writer forever), and
// SaveFile refuses to replace a named pipe or a link to one, which stay.
func TestSaveFileNamedPipe(t *testing.T) {
	w := saveWorld(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "save.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(fifo, link))

	for _, path := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() { done <- tickwork.LoadFile(w, path) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("LoadFile of a named pipe with no writer blocked")
		}
		var fe *tickwork.FileError
		require.ErrorAs(t, err, &fe)
		assert.ErrorIs(t, err, tickwork.ErrNotRegularFile)
		assert.ErrorIs(t, err, tickwork.ErrCorrupt)
		assert.Equal(t, "tickwork: load "+path+": runtime: snapshot corrupted (header): a named pipe (FIFO) (p---------): not a regular file", err.Error())

		err = tickwork.SaveFile(w, path)
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, "check target", fe.Step)
		assert.ErrorIs(t, err, tickwork.ErrNotRegularFile)
		fi, serr := os.Stat(fifo)
		require.NoError(t, serr)
		assert.True(t, fi.Mode()&fs.ModeNamedPipe != 0, "the named pipe stays")
	}
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&fs.ModeSymlink != 0, "the link stays")
}

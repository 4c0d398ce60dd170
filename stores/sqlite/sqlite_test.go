package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/journal"
	"github.com/tickwork/tickwork/stores/sqlite"
	"github.com/tickwork/tickwork/stores/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "journal.db")
		return func() (journal.Store, error) { return sqlite.Open(path) }
	})
}

func TestMemStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		m := journal.NewMemStore()
		return func() (journal.Store, error) { return m.Reopen(), nil }
	})
}

func TestOpenRefusesBadFilesWithATypedError(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	require.NoError(t, os.WriteFile(garbage, []byte("this is not an SQLite database, only some text long enough to be read as a header of one........................"), 0o644))
	for name, path := range map[string]string{
		"missing directory": filepath.Join(dir, "no", "such", "dir", "j.db"),
		"a directory":       dir,
		"not a database":    garbage,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := sqlite.Open(path)
			require.Error(t, err)
			assert.Nil(t, s)
			assert.ErrorIs(t, err, sqlite.ErrOpen)
			assert.ErrorIs(t, err, journal.ErrStore)
			var oe *sqlite.OpenError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, path, oe.Path)
		})
	}
}

func TestOpenRefusesAReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes a read-only file: the permission cannot be tested as root")
	}
	path := filepath.Join(t.TempDir(), "ro.db")
	s, err := sqlite.Open(path)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	require.NoError(t, os.Chmod(path, 0o444))
	_, err = sqlite.Open(path)
	assert.ErrorIs(t, err, sqlite.ErrOpen)
}

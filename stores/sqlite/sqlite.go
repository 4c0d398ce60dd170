// Package sqlite is a journal store (journal.Store) in one SQLite file,
// through modernc.org/sqlite (pure Go, no cgo), in WAL mode with
// synchronous=FULL: an Append or WriteCheckpoint that returned is on the
// disk. Each Append is one transaction, so a journal's group commit is
// one sync per batch. The rules every store keeps: docs/journal.md,
// Stores; the conformance suite: package storetest.
package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tickwork/tickwork/journal"
	_ "modernc.org/sqlite" // the driver "sqlite"
)

// ErrOpen: Open could not make or use the file (a bad path, a directory,
// a file that is not a database, a read-only file): an *OpenError.
var ErrOpen = errors.New("sqlite: cannot open journal file")

// OpenError is Open's failure for Path, with the driver's error. Matches
// ErrOpen and journal.ErrStore.
type OpenError struct {
	Path string
	Err  error
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("sqlite: cannot open journal file %q: %v (check the directory exists and is writable, and the file is a journal or absent)", e.Path, e.Err)
}

// Unwrap returns ErrOpen, journal.ErrStore and the cause.
func (e *OpenError) Unwrap() []error { return []error{ErrOpen, journal.ErrStore, e.Err} }

// Store is a journal store in one SQLite file. Its methods are called
// by one goroutine at a time (journal.Store's contract).
type Store struct {
	db     *sql.DB
	path   string
	last   journal.Position
	closed bool
}

const schema = `
CREATE TABLE IF NOT EXISTS record (pos INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), frame INTEGER NOT NULL, pos INTEGER NOT NULL, snapshot BLOB NOT NULL);`

// Sync is how far a commit is durable when Append or WriteCheckpoint
// returns (SQLite's synchronous pragma in WAL mode).
type Sync uint8

const (
	// SyncFull (the default): on the disk; survives a power loss. A
	// commit costs a disk sync (about 1 ms on the benchmarks' machine:
	// docs/benchmarks.md, Journal).
	SyncFull Sync = iota
	// SyncProcess: in the operating system's cache; survives the
	// process's crash (SIGKILL), not the machine's (synchronous=NORMAL:
	// the log is synced at SQLite's checkpoints only).
	SyncProcess
)

// Options configure OpenWith; the zero value is Open's.
type Options struct {
	Sync Sync
}

// Open opens the journal file at path with the default Options
// (OpenWith).
func Open(path string) (*Store, error) { return OpenWith(path, Options{}) }

// OpenWith opens the journal file at path, creating it when absent. Errors:
// an *OpenError (ErrOpen, journal.ErrStore). Open checks it can write
// the file (a write transaction), so a read-only file fails here, not at
// the first append.
func OpenWith(path string, opt Options) (*Store, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, &OpenError{Path: path, Err: errors.New("is a directory")}
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil, &OpenError{Path: path, Err: err}
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	if opt.Sync == SyncProcess {
		q.Add("_pragma", "synchronous(NORMAL)")
	} else {
		q.Add("_pragma", "synchronous(FULL)")
	}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_txlock", "immediate")
	dsn := "file:" + strings.ReplaceAll(path, "?", "%3f") + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, &OpenError{Path: path, Err: err}
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := s.init(); err != nil {
		_ = db.Close()
		return nil, &OpenError{Path: path, Err: err}
	}
	return s, nil
}

func (s *Store) init() error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(schema); err != nil {
		return err
	}
	// A write, so a read-only file fails now.
	if _, err := tx.Exec(`DELETE FROM checkpoint WHERE id = 0`); err != nil {
		return err
	}
	var last sql.NullInt64
	if err := tx.QueryRow(`SELECT max(pos) FROM record`).Scan(&last); err != nil {
		return err
	}
	s.last = journal.Position(last.Int64)
	return tx.Commit()
}

var errClosed = errors.New("sqlite: store closed")

// Append implements journal.Store: one transaction.
func (s *Store) Append(recs [][]byte) (journal.Position, error) {
	if s.closed {
		return s.last, errClosed
	}
	tx, err := s.db.Begin()
	if err != nil {
		return s.last, err
	}
	defer tx.Rollback()
	st, err := tx.Prepare(`INSERT INTO record (pos, data) VALUES (?, ?)`)
	if err != nil {
		return s.last, err
	}
	defer st.Close()
	p := s.last
	for _, r := range recs {
		p++
		if r == nil {
			r = []byte{}
		}
		if _, err := st.Exec(int64(p), r); err != nil {
			return s.last, err
		}
	}
	if err := tx.Commit(); err != nil {
		return s.last, err
	}
	s.last = p
	return p, nil
}

// Read implements journal.Store.
func (s *Store) Read(after journal.Position, fn func(journal.Position, []byte) error) error {
	if s.closed {
		return errClosed
	}
	rows, err := s.db.Query(`SELECT pos, data FROM record WHERE pos > ? ORDER BY pos`, int64(after))
	if err != nil {
		return err
	}
	defer rows.Close()
	var data sql.RawBytes
	var pos int64
	for rows.Next() {
		if err := rows.Scan(&pos, &data); err != nil {
			return err
		}
		if err := fn(journal.Position(pos), data); err != nil {
			return err
		}
	}
	return rows.Err()
}

// WriteCheckpoint implements journal.Store: one transaction replaces the
// checkpoint row.
func (s *Store) WriteCheckpoint(c journal.Checkpoint) error {
	if s.closed {
		return errClosed
	}
	snap := c.Snapshot
	if snap == nil {
		snap = []byte{}
	}
	_, err := s.db.Exec(`INSERT OR REPLACE INTO checkpoint (id, frame, pos, snapshot) VALUES (1, ?, ?, ?)`,
		int64(c.Frame), int64(c.Position), snap)
	return err
}

// LoadCheckpoint implements journal.Store.
func (s *Store) LoadCheckpoint() (journal.Checkpoint, bool, error) {
	if s.closed {
		return journal.Checkpoint{}, false, errClosed
	}
	var frame, pos int64
	var snap []byte
	err := s.db.QueryRow(`SELECT frame, pos, snapshot FROM checkpoint WHERE id = 1`).Scan(&frame, &pos, &snap)
	if errors.Is(err, sql.ErrNoRows) {
		return journal.Checkpoint{}, false, nil
	}
	if err != nil {
		return journal.Checkpoint{}, false, err
	}
	return journal.Checkpoint{Frame: uint64(frame), Position: journal.Position(pos), Snapshot: snap}, true, nil
}

// String implements journal.Store: "sqlite " and the path.
func (s *Store) String() string { return "sqlite " + s.path }

// Close implements journal.Store.
func (s *Store) Close() error {
	if s.closed {
		return errClosed
	}
	s.closed = true
	return s.db.Close()
}

package journal

import (
	"errors"
	"slices"
	"sync"
)

// errMemClosed is a MemStore's error after Close.
var errMemClosed = errors.New("memory store closed")

// MemStore is a Store in memory, for tests: durable as long as the
// process lives, and shared by the journals opened on it one after the
// other (a "reopen" after a journal's Close sees its records). FailAfter
// makes it fail on purpose. Safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	recs    [][]byte
	cp      Checkpoint
	hasCP   bool
	closed  bool
	failErr error
	budget  int // appends and checkpoints left before failErr; <0: never
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{budget: -1} }

// FailAfter makes the n+1-th Append or WriteCheckpoint from now on, and
// every one after, fail with err and store nothing (a full disk). n < 0
// never fails (the default).
func (m *MemStore) FailAfter(n int, err error) {
	m.mu.Lock()
	m.budget, m.failErr = n, err
	m.mu.Unlock()
}

// Reopen makes a closed MemStore usable again, keeping its records and
// checkpoint: the memory twin of reopening a file.
func (m *MemStore) Reopen() *MemStore {
	m.mu.Lock()
	m.closed = false
	m.mu.Unlock()
	return m
}

func (m *MemStore) fail() error {
	if m.closed {
		return errMemClosed
	}
	if m.budget == 0 {
		return m.failErr
	}
	if m.budget > 0 {
		m.budget--
	}
	return nil
}

// Append implements Store.
func (m *MemStore) Append(recs [][]byte) (Position, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail(); err != nil {
		return Position(len(m.recs)), err
	}
	for _, r := range recs {
		m.recs = append(m.recs, slices.Clone(r))
	}
	return Position(len(m.recs)), nil
}

// Read implements Store.
func (m *MemStore) Read(after Position, fn func(Position, []byte) error) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errMemClosed
	}
	recs := m.recs
	m.mu.Unlock()
	for i := int(after); i < len(recs); i++ {
		if err := fn(Position(i+1), recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// WriteCheckpoint implements Store.
func (m *MemStore) WriteCheckpoint(c Checkpoint) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.fail(); err != nil {
		return err
	}
	c.Snapshot = slices.Clone(c.Snapshot)
	m.cp, m.hasCP = c, true
	return nil
}

// LoadCheckpoint implements Store.
func (m *MemStore) LoadCheckpoint() (Checkpoint, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Checkpoint{}, false, errMemClosed
	}
	c := m.cp
	c.Snapshot = slices.Clone(c.Snapshot)
	return c, m.hasCP, nil
}

// String implements Store: "memory".
func (m *MemStore) String() string { return "memory" }

// Close implements Store.
func (m *MemStore) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	return nil
}

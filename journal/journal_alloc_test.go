package journal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/journal"
)

// countStore is a Store that keeps nothing and allocates nothing: the
// frame thread's allocations are the journal's alone.
type countStore struct {
	last journal.Position
	cps  int
}

func (s *countStore) Append(recs [][]byte) (journal.Position, error) {
	s.last += journal.Position(len(recs))
	return s.last, nil
}
func (s *countStore) Read(journal.Position, func(journal.Position, []byte) error) error { return nil }
func (s *countStore) WriteCheckpoint(journal.Checkpoint) error                          { s.cps++; return nil }
func (s *countStore) LoadCheckpoint() (journal.Checkpoint, bool, error) {
	return journal.Checkpoint{}, false, nil
}
func (s *countStore) String() string { return "count" }
func (s *countStore) Close() error   { return nil }

// TestFrameWithJournalAllocatesNothing: frames that take inputs, journal
// their marks (committed by the committer goroutine) and checkpoint
// every 4 frames allocate 0 objects, all goroutines counted.
func TestFrameWithJournalAllocatesNothing(t *testing.T) {
	tw := newTestWorld(t, 8, 4096)
	store := &countStore{}
	j, err := journal.Open(tw.w, store, journal.Options{CheckpointEvery: 4, Ring: 1 << 14}, tw.in)
	require.NoError(t, err)
	for i := range 2000 {
		_, err := tw.in.Send(spawn{N: int32(i)})
		require.NoError(t, err)
	}
	require.NoError(t, j.Wait(2000))
	for range 8 { // warm: the snapshot buffer, the report
		require.NoError(t, j.Frame(1.0/60))
	}
	allocs := testing.AllocsPerRun(200, func() {
		if err := j.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs, "objects per frame")
	assert.EqualValues(t, 8*209, tw.s.Get().Count, "each frame took 8 inputs")
	require.NoError(t, j.Close())
	assert.GreaterOrEqual(t, store.cps, 2, "checkpoints written, Open's first included (a frame of microseconds delays the next until the last is written)")
}

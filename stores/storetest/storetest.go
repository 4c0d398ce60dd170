// Package storetest is the conformance suite of journal stores
// (journal.Store): ordering, durability across a close and reopen,
// checkpoint atomicity, concurrent producers through a journal, and no
// partial state after a failed call. Every store runs it from its tests
// (Run); the rules it checks: docs/journal.md, Stores. It also holds
// the small world the stores' tests and crash tests run (NewWorld).
package storetest

import (
	"bytes"
	"errors"
	"hash/crc32"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/journal"
)

// Opener opens the store under test; each call opens the same stored
// data again (a reopen), so Run can close a store and reopen it.
type Opener func() (journal.Store, error)

// Run runs the conformance suite on the store made by fresh, which
// returns an Opener of a new, empty store for each subtest.
func Run(t *testing.T, fresh func(t *testing.T) Opener) {
	t.Run("Ordering", func(t *testing.T) { testOrdering(t, fresh(t)) })
	t.Run("DurableAfterReopen", func(t *testing.T) { testDurable(t, fresh(t)) })
	t.Run("CheckpointReplacedWhole", func(t *testing.T) { testCheckpoint(t, fresh(t)) })
	t.Run("CallsAfterCloseFailWithoutPartialState", func(t *testing.T) { testClosed(t, fresh(t)) })
	t.Run("ConcurrentProducersRecover", func(t *testing.T) { testProducers(t, fresh(t)) })
}

func open(t *testing.T, o Opener) journal.Store {
	t.Helper()
	s, err := o()
	require.NoError(t, err)
	return s
}

// readAll returns the records after position after.
func readAll(t *testing.T, s journal.Store, after journal.Position) (pos []journal.Position, recs [][]byte) {
	t.Helper()
	require.NoError(t, s.Read(after, func(p journal.Position, r []byte) error {
		pos, recs = append(pos, p), append(recs, bytes.Clone(r))
		return nil
	}))
	return pos, recs
}

func testOrdering(t *testing.T, o Opener) {
	s := open(t, o)
	defer s.Close()
	last, err := s.Append([][]byte{[]byte("a"), []byte("bb")})
	require.NoError(t, err)
	assert.EqualValues(t, 2, last)
	buf := []byte("ccc")
	last, err = s.Append([][]byte{buf, {}, []byte("d")})
	require.NoError(t, err)
	assert.EqualValues(t, 5, last)
	buf[0] = 'x' // the store copied it
	pos, recs := readAll(t, s, 0)
	assert.Equal(t, []journal.Position{1, 2, 3, 4, 5}, pos)
	assert.Equal(t, []string{"a", "bb", "ccc", "", "d"}, strs(recs))
	pos, recs = readAll(t, s, 3)
	assert.Equal(t, []journal.Position{4, 5}, pos)
	assert.Equal(t, []string{"", "d"}, strs(recs))
	pos, _ = readAll(t, s, 5)
	assert.Empty(t, pos)
}

func strs(b [][]byte) []string {
	s := make([]string, len(b))
	for i := range b {
		s[i] = string(b[i])
	}
	return s
}

func testDurable(t *testing.T, o Opener) {
	s := open(t, o)
	_, ok, err := s.LoadCheckpoint()
	require.NoError(t, err)
	assert.False(t, ok, "a new store has no checkpoint")
	_, err = s.Append([][]byte{[]byte("one"), []byte("two")})
	require.NoError(t, err)
	require.NoError(t, s.WriteCheckpoint(journal.Checkpoint{Frame: 7, Position: 2, Snapshot: []byte("snap")}))
	require.NoError(t, s.Close())
	s = open(t, o)
	defer s.Close()
	_, recs := readAll(t, s, 0)
	assert.Equal(t, []string{"one", "two"}, strs(recs))
	c, ok, err := s.LoadCheckpoint()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, journal.Checkpoint{Frame: 7, Position: 2, Snapshot: []byte("snap")}, c)
	last, err := s.Append([][]byte{[]byte("three")})
	require.NoError(t, err)
	assert.EqualValues(t, 3, last, "positions go on after a reopen")
}

func testCheckpoint(t *testing.T, o Opener) {
	s := open(t, o)
	big := bytes.Repeat([]byte{0xA5}, 1<<20)
	require.NoError(t, s.WriteCheckpoint(journal.Checkpoint{Frame: 1, Position: 0, Snapshot: []byte("small")}))
	require.NoError(t, s.WriteCheckpoint(journal.Checkpoint{Frame: 2, Position: 9, Snapshot: big}))
	big[0] = 0 // the store copied it
	require.NoError(t, s.Close())
	s = open(t, o)
	defer s.Close()
	c, ok, err := s.LoadCheckpoint()
	require.NoError(t, err)
	require.True(t, ok)
	assert.EqualValues(t, 2, c.Frame)
	assert.EqualValues(t, 9, c.Position)
	require.Len(t, c.Snapshot, 1<<20)
	assert.Equal(t, byte(0xA5), c.Snapshot[0])
	assert.Equal(t, crc32.ChecksumIEEE(bytes.Repeat([]byte{0xA5}, 1<<20)), crc32.ChecksumIEEE(c.Snapshot))
}

func testClosed(t *testing.T, o Opener) {
	s := open(t, o)
	_, err := s.Append([][]byte{[]byte("kept")})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	_, err = s.Append([][]byte{[]byte("lost")})
	assert.Error(t, err, "Append after Close")
	assert.Error(t, s.WriteCheckpoint(journal.Checkpoint{Frame: 1}), "WriteCheckpoint after Close")
	s = open(t, o)
	defer s.Close()
	_, recs := readAll(t, s, 0)
	assert.Equal(t, []string{"kept"}, strs(recs))
	_, ok, err := s.LoadCheckpoint()
	require.NoError(t, err)
	assert.False(t, ok)
}

// testProducers: 8 producers append through a journal while frames run
// and checkpoint; after Close and a reopen into a fresh world, the world
// is where the first one was and every acknowledged input was applied
// once.
func testProducers(t *testing.T, o Opener) {
	const producers, each = 8, 100
	w1 := NewWorld(t)
	j, err := journal.Open(w1.World, open(t, o), journal.Options{CheckpointEvery: 5}, w1.Inputs)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range producers {
		wg.Go(func() {
			for i := range each {
				if _, err := w1.Inputs.Append(Spawn{X: float32(g), N: int32(i % 7)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		frame(t, j)
	}
	// Frames after the last producer's append take the rest (at most
	// an event table's room each).
	for i := 0; i < 1000 && w1.Total().Inputs < producers*each; i++ {
		frame(t, j)
	}
	require.NoError(t, j.Close())
	assert.EqualValues(t, producers*each, w1.Total().Inputs, "inputs applied")
	want := Digest(t, w1.World)

	w2 := NewWorld(t)
	j2, err := journal.Open(w2.World, open(t, o), journal.Options{CheckpointEvery: 5}, w2.Inputs)
	require.NoError(t, err)
	defer j2.Close()
	assert.Equal(t, w1.World.Frames(), w2.World.Frames())
	assert.Equal(t, want, Digest(t, w2.World))
}

// frame runs one frame, then pauses 200 µs; a full commit ring (frames of microseconds
// outrun the store's syncs) waits a little and retries.
func frame(t *testing.T, j *journal.Journal) {
	t.Helper()
	for {
		err := j.Frame(1.0 / 60)
		if !errors.Is(err, journal.ErrBacklog) {
			require.NoError(t, err)
			// A host's frames are paced; unpaced frames of
			// microseconds journal a mark each, so under -race
			// (SQLite many times slower) each commit carried tens of
			// thousands of marks and the producers, one commit per
			// input, took minutes.
			time.Sleep(200 * time.Microsecond)
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// Spawn is the suite's input: a burst of N units at X.
type Spawn struct {
	X float32
	N int32
}

// Totals is the suite world's state: counts and a running hash of the
// inputs in the order the frames read them, with the frame of each.
type Totals struct {
	Inputs, Units int64
	Hash          uint64
}

// World is the suite's world: an input table of Spawn, a table of units
// the inputs spawn (up to its capacity; each frame moves them), the
// Totals resource.
type World struct {
	World  *tickwork.World
	Inputs *journal.Inputs[Spawn]
	totals *tickwork.Resource[Totals]
}

// Total returns the world's Totals.
func (w *World) Total() Totals { return *w.totals.Get() }

// NewWorld builds the suite's world; t's cleanup closes it.
func NewWorld(t testing.TB) *World {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame))
	in := journal.AddInputs[Spawn](b, journal.InputSpec{Name: "spawn", Capacity: 256, Backlog: 4096})
	units := b.Table(tickwork.TableSpec{Name: "unit", Capacity: 4096})
	x := tickwork.AddColumn[float32](b, units, "X")
	totals := tickwork.AddResource(b, "totals", Totals{})
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		r := tickwork.Consume(d, in.Events())
		sp := tickwork.NewSpawner1(d, x)
		st := tickwork.WriteResource(d, totals)
		return func(*tickwork.Context) {
			evs := r.Read()
			for i := range evs {
				e := &evs[i]
				st.Inputs++
				st.Hash = (st.Hash*1099511628211 ^ uint64(e.Value.N)) + uint64(int64(e.Value.X))<<32 + e.Frame
				for k := int32(0); k < e.Value.N && st.Units < 4000; k++ {
					sp.Spawn(e.Value.X + float32(k))
					st.Units++
				}
			}
		}
	})
	b.System("move", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewQuery1(tickwork.Write(d, x))
		return func(*tickwork.Context) {
			for r, _ := range q.All() {
				p := r.Get()
				*p = float32(*p*0.5) + 1
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return &World{World: w, Inputs: in, totals: totals}
}

// Digest is the CRC-32 of w's snapshot: equal digests, equal worlds.
func Digest(t testing.TB, w *tickwork.World) uint32 {
	t.Helper()
	b, err := w.Snapshot(nil)
	require.NoError(t, err)
	return crc32.ChecksumIEEE(b)
}

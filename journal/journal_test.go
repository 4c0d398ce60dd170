package journal_test

import (
	"errors"
	"hash/crc32"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/journal"
)

// spawn is the test's input: a burst of N at X.
type spawn struct {
	X float32
	N int32
}

// sum is the world's state the inputs change: a hash of every input in
// the order the frames read them, with the frame that read it.
type sum struct {
	Hash  uint64
	Count int64
	Seen  [64]uint64 // the positions of the first 64 inputs, in reading order
	Frame [64]uint64 // and the frames that read them
}

type testWorld struct {
	w  *tickwork.World
	in *journal.Inputs[spawn]
	s  *tickwork.Resource[sum]
}

func newTestWorld(t testing.TB, capacity int, backlog ...int) *testWorld {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame))
	in := journal.AddInputs[spawn](b, journal.InputSpec{Name: "spawn", Capacity: capacity, Backlog: append(backlog, 0)[0]})
	s := tickwork.AddResource(b, "sum", sum{})
	b.System("apply", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		r := tickwork.Consume(d, in.Events())
		st := tickwork.WriteResource(d, s)
		return func(*tickwork.Context) {
			evs := r.Read()
			for i := range evs {
				e := &evs[i]
				if st.Count < 64 {
					st.Seen[st.Count], st.Frame[st.Count] = uint64(e.Position), e.Frame
				}
				st.Count++
				st.Hash = st.Hash*1099511628211 ^ uint64(e.Value.N) ^ uint64(int64(e.Value.X))<<32 ^ e.Frame<<48
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return &testWorld{w: w, in: in, s: s}
}

func digest(t testing.TB, w *tickwork.World) uint32 {
	t.Helper()
	b, err := w.Snapshot(nil)
	require.NoError(t, err)
	return crc32.ChecksumIEEE(b)
}

func TestFrameTakesDurableInputsInJournalOrder(t *testing.T) {
	tw := newTestWorld(t, 16)
	j, err := journal.Open(tw.w, journal.NewMemStore(), journal.Options{}, tw.in)
	require.NoError(t, err)
	defer j.Close()
	var want []uint64
	for i := range 5 {
		p, err := tw.in.Append(spawn{X: float32(i), N: int32(i)})
		require.NoError(t, err)
		want = append(want, uint64(p))
	}
	require.NoError(t, j.Frame(1.0/60)) // frame 0 takes all five
	p, err := tw.in.Append(spawn{N: 9})
	require.NoError(t, err)
	want = append(want, uint64(p))
	require.NoError(t, j.Frame(1.0/60)) // frame 1, the sixth
	st := tw.s.Get()
	require.EqualValues(t, 6, st.Count)
	assert.Equal(t, want, st.Seen[:6], "positions in reading order")
	assert.Equal(t, []uint64{0, 0, 0, 0, 0, 1}, st.Frame[:6], "frames that read them")
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 7}, want, "position 6 is frame 0's mark")
}

func TestInputsPastCapacityWaitForTheNextFrame(t *testing.T) {
	tw := newTestWorld(t, 2)
	j, err := journal.Open(tw.w, journal.NewMemStore(), journal.Options{}, tw.in)
	require.NoError(t, err)
	defer j.Close()
	for i := range 5 {
		_, err := tw.in.Append(spawn{N: int32(i)})
		require.NoError(t, err)
	}
	for range 3 {
		require.NoError(t, j.Frame(1.0/60))
	}
	st := tw.s.Get()
	require.EqualValues(t, 5, st.Count)
	assert.Equal(t, []uint64{1, 2, 3, 4, 5}, st.Seen[:5])
	assert.Equal(t, []uint64{0, 0, 1, 1, 2}, st.Frame[:5])
	assert.Zero(t, tw.in.Events().Dropped())
}

// runWithProducers runs frames while producers goroutines append each
// inputs, at least frames of them and until every input is appended
// (the backlog makes producers wait for frames).
func runWithProducers(t *testing.T, tw *testWorld, j *journal.Journal, frames, producers, each int) {
	t.Helper()
	var wg sync.WaitGroup
	done := make(chan struct{})
	for g := range producers {
		wg.Go(func() {
			for i := range each {
				if _, err := tw.in.Append(spawn{X: float32(g), N: int32(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	for i := 0; ; i++ {
		select {
		case <-done:
			if i >= frames {
				return
			}
		default:
		}
		require.NoError(t, j.Frame(1.0/60))
	}
}

func TestRecoveryReachesTheDigestOfAnUninterruptedRun(t *testing.T) {
	store := journal.NewMemStore()
	tw := newTestWorld(t, 64)
	j, err := journal.Open(tw.w, store, journal.Options{CheckpointEvery: 7}, tw.in)
	require.NoError(t, err)
	runWithProducers(t, tw, j, 50, 4, 200)
	for tw.w.Frames()%7 != 3 { // 3 frames after the last checkpoint
		require.NoError(t, j.Frame(1.0/60))
	}
	require.NoError(t, j.Close())
	want := digest(t, tw.w)
	frames := tw.w.Frames()
	st := j.Stats()
	assert.Greater(t, st.Checkpoints, int64(2))

	// A new process: a fresh world recovers from the store.
	tw2 := newTestWorld(t, 64)
	j2, err := journal.Open(tw2.w, store.Reopen(), journal.Options{CheckpointEvery: 7}, tw2.in)
	require.NoError(t, err)
	assert.Equal(t, frames, tw2.w.Frames())
	assert.Equal(t, want, digest(t, tw2.w), "recovered world's digest")
	if st.Delayed == 0 {
		assert.EqualValues(t, 3, j2.Stats().Replayed, "frames after the last checkpoint re-run")
	}

	// It goes on: the inputs durable after the last frame come next.
	for range 15 {
		require.NoError(t, j2.Frame(1.0/60))
	}
	assert.EqualValues(t, 800, tw2.s.Get().Count, "every input applied once")
	require.NoError(t, j2.Close())
}

func TestStoreFailureIsTypedAndSticky(t *testing.T) {
	tw := newTestWorld(t, 16)
	store := journal.NewMemStore()
	j, err := journal.Open(tw.w, store, journal.Options{}, tw.in)
	require.NoError(t, err)
	full := errors.New("disk full")
	store.FailAfter(0, full)
	_, err = tw.in.Append(spawn{N: 1})
	require.ErrorIs(t, err, journal.ErrStore)
	require.ErrorIs(t, err, full)
	var se *journal.StoreError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "append", se.Op)
	assert.ErrorIs(t, j.Frame(1.0/60), journal.ErrStore)
	_, err = tw.in.Send(spawn{})
	assert.ErrorIs(t, err, journal.ErrStore)
	assert.Zero(t, tw.w.Frames(), "no frame ran")
	assert.ErrorIs(t, j.Close(), journal.ErrStore)
}

func TestBadInputDeclarationsFailBuild(t *testing.T) {
	b := tickwork.NewBuilder()
	assert.Nil(t, journal.AddInputs[struct{ S string }](b, journal.InputSpec{Name: "s", Capacity: 1}))
	_, err := b.Build()
	require.ErrorIs(t, err, journal.ErrInputType)
	var te *journal.InputTypeError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, -1, te.Size)

	b = tickwork.NewBuilder()
	assert.Nil(t, journal.AddInputs[spawn](b, journal.InputSpec{Name: "s"}))
	_, err = b.Build()
	assert.ErrorIs(t, err, journal.ErrDefinition)

	tw := newTestWorld(t, 1)
	_, err = journal.Open(tw.w, journal.NewMemStore(), journal.Options{}, (*journal.Inputs[spawn])(nil))
	assert.ErrorIs(t, err, journal.ErrDefinition)
	_, err = (*journal.Inputs[spawn])(nil).Append(spawn{})
	assert.ErrorIs(t, err, journal.ErrNotOpen)
}

func TestOpenOfAnotherWorldsJournalIsRefused(t *testing.T) {
	store := journal.NewMemStore()
	tw := newTestWorld(t, 4)
	j, err := journal.Open(tw.w, store, journal.Options{}, tw.in)
	require.NoError(t, err)
	require.NoError(t, j.Close())
	b := tickwork.NewBuilder()
	other := journal.AddInputs[spawn](b, journal.InputSpec{Name: "other", Capacity: 3})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	_, err = journal.Open(w, store.Reopen(), journal.Options{}, other)
	require.ErrorIs(t, err, journal.ErrRestore)
	assert.ErrorIs(t, err, tickwork.ErrOtherWorld)
}

// TestInputsOfSeveralTablesEnterInJournalOrder: two input tables, one
// with room for one input per frame; a frame takes inputs in position
// order across both and stops at the first that does not fit, so the
// other table's later inputs wait too.
func TestInputsOfSeveralTablesEnterInJournalOrder(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame))
	small := journal.AddInputs[spawn](b, journal.InputSpec{Name: "small", Capacity: 1})
	big := journal.AddInputs[spawn](b, journal.InputSpec{Name: "big", Capacity: 16})
	type took struct {
		table string
		pos   journal.Position
		frame uint64
	}
	var got []took
	tickwork.Observe(b, small.Events(), func(e *journal.Input[spawn]) { got = append(got, took{"small", e.Position, e.Frame}) })
	tickwork.Observe(b, big.Events(), func(e *journal.Input[spawn]) { got = append(got, took{"big", e.Position, e.Frame}) })
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	j, err := journal.Open(w, journal.NewMemStore(), journal.Options{}, small, big)
	require.NoError(t, err)
	defer j.Close()
	for _, in := range []*journal.Inputs[spawn]{big, small, small, big} { // positions 1..4
		_, err := in.Append(spawn{})
		require.NoError(t, err)
	}
	for range 4 {
		require.NoError(t, j.Frame(1.0/60))
	}
	// Frame 0 takes 1 (big) and 2 (small); 3 (small) does not fit, so 4
	// (big) waits too. Observers run at FrameEnd of the frame that reads.
	// (the observers' own order is the systems', so sort by position).
	slices.SortFunc(got, func(a, b took) int { return int(a.pos) - int(b.pos) })
	assert.Equal(t, []took{{"big", 1, 0}, {"small", 2, 0}, {"small", 3, 1}, {"big", 4, 1}}, got)
}

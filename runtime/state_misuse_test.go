package runtime_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// hookWorld is a small world whose one system calls hook (when set) from
// its body, so a test can call the world's methods during a frame.
type hookWorld struct {
	w    *runtime.World
	hp   *ephemeral.Column[int32]
	hook func()
}

func newHookWorld(t *testing.T) *hookWorld {
	t.Helper()
	h := &hookWorld{}
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	tb := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 1024, ChunkRows: 64})
	h.hp = runtime.AddColumn[int32](b, tb, "HP")
	b.System("hook", systems.Update, func(d *systems.Decl) systems.RunFunc {
		hp := systems.Write(d, h.hp)
		q := systems.NewQuery1(hp)
		rec := systems.Record(d, tb)
		return func(*systems.Context) {
			rec.Create() // the state changes every frame
			for r := range q.All() {
				*r.Get() += 1
			}
			if h.hook != nil {
				h.hook()
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	h.w = w
	return h
}

// during runs one frame that calls f from the system's body.
func (h *hookWorld) during(t *testing.T, f func()) {
	t.Helper()
	h.hook = f
	require.NoError(t, h.w.Frame(0.01))
	h.hook = nil
}

// ringState is everything a Rollback tells of itself: its length, oldest
// and newest frames, and each frame's checksum from oldest to newest.
type ringState struct {
	Len            int
	Oldest, Newest uint64
	Sums           map[uint64]uint32
}

func ringOf(r *runtime.Rollback) ringState {
	s := ringState{Len: r.Len(), Sums: map[uint64]uint32{}}
	s.Oldest, _ = r.Oldest()
	s.Newest, _ = r.Newest()
	for f := s.Oldest; f <= s.Newest && r.Len() > 0; f++ {
		if c, ok := r.Checksum(f); ok {
			s.Sums[f] = c
		}
	}
	return s
}

// TestRollbackRefusedCallsKeepRing: a Save, Load or Rewind refused
// (ErrRunning from a system, ErrClosed) leaves the ring exactly as it was
// (length, frames and the snapshots' checksums), on a full ring and after
// a Rewind (a Save of a frame held, in place).
func TestRollbackRefusedCallsKeepRing(t *testing.T) {
	h := newHookWorld(t)
	r, err := runtime.NewRollback(h.w, 4)
	require.NoError(t, err)
	for range 4 { // frames 0..3: a full ring
		require.NoError(t, r.Save())
		require.NoError(t, h.w.Frame(0.01))
	}
	full := ringOf(r)
	require.Equal(t, ringState{Len: 4, Oldest: 0, Newest: 3, Sums: full.Sums}, full)
	require.Len(t, full.Sums, 4)
	refused := map[string]func() error{
		"Save":       r.Save,
		"Load":       func() error { return r.Load(2) },
		"Rewind":     func() error { return r.Rewind(1) },
		"Rewind(-1)": func() error { return r.Rewind(-1) },
	}
	for name, call := range refused {
		t.Run("full ring/"+name, func(t *testing.T) {
			var err error
			h.during(t, func() { err = call() })
			require.Error(t, err)
			assert.Equal(t, full, ringOf(r))
		})
	}
	f0 := h.w.Frames()
	for range 5 { // f0 takes frame 0's slot, then f0+1..f0+4 are held
		require.NoError(t, r.Save())
		require.NoError(t, h.w.Frame(0.01))
	}
	require.NoError(t, r.Rewind(2)) // the world is at frame f0+3 again; f0+3 and f0+4 are held
	rewound := ringOf(r)
	require.Equal(t, ringState{Len: 4, Oldest: f0 + 1, Newest: f0 + 4, Sums: rewound.Sums}, rewound)
	require.Len(t, rewound.Sums, 4)
	t.Run("after Rewind/Save", func(t *testing.T) {
		var err error
		h.hook = func() { err = r.Save() }
		require.NoError(t, h.w.Frame(0.01))
		h.hook = nil
		assert.ErrorIs(t, err, runtime.ErrRunning)
		assert.Equal(t, rewound, ringOf(r))
		require.NoError(t, r.Load(f0+3)) // frame f0+3 is still there
	})
	require.NoError(t, h.w.Close())
	for name, call := range refused {
		t.Run("closed/"+name, func(t *testing.T) {
			assert.ErrorIs(t, call(), runtime.ErrClosed)
			assert.Equal(t, rewound, ringOf(r))
		})
	}
}

// TestErrRunningNamesTheCall: each call refused during a frame names
// itself in the message and matches ErrRunning; Close's message is
// ErrRunning's own.
func TestErrRunningNamesTheCall(t *testing.T) {
	h := newHookWorld(t)
	r, err := runtime.NewRollback(h.w, 2)
	require.NoError(t, err)
	require.NoError(t, r.Save())
	snap, err := h.w.Snapshot(nil)
	require.NoError(t, err)
	msg := func(call string) string {
		return "runtime: " + call + " called during a frame (from a system?); call it between frames, after Frame returns"
	}
	cases := []struct {
		name, want string
		call       func() error
	}{
		{"Snapshot", msg("Snapshot"), func() error { _, err := h.w.Snapshot(nil); return err }},
		{"Restore", msg("Restore"), func() error { return h.w.Restore(snap) }},
		{"NewRollback", msg("NewRollback"), func() error { _, err := runtime.NewRollback(h.w, 2); return err }},
		{"Rollback.Save", msg("Rollback.Save"), r.Save},
		{"Rollback.Load", msg("Rollback.Load"), func() error { return r.Load(0) }},
		{"Rollback.Rewind", msg("Rollback.Rewind"), func() error { return r.Rewind(0) }},
		{"Close", "runtime: Close called during a frame (from a system?); close the world after Frame returns", h.w.Close},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			h.during(t, func() { err = tc.call() })
			assert.EqualError(t, err, tc.want)
			assert.ErrorIs(t, err, runtime.ErrRunning)
		})
	}
}

// TestRollbackRewindMessages: a negative Rewind is an *OptionError of its
// own; one past frame 0 says how many frames have run.
func TestRollbackRewindMessages(t *testing.T) {
	h := newHookWorld(t)
	r, err := runtime.NewRollback(h.w, 4)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, r.Save())
		require.NoError(t, h.w.Frame(0.01))
	}
	before := ringOf(r)
	for _, n := range []int{-1, -100} {
		err := r.Rewind(n)
		assert.ErrorIs(t, err, runtime.ErrOption)
		assert.NotErrorIs(t, err, runtime.ErrNoSnapshot)
		assert.EqualError(t, err, "runtime: Rollback.Rewind("+strconv.Itoa(n)+"): want how many frames back, 0 or more")
	}
	err = r.Rewind(5)
	assert.ErrorIs(t, err, runtime.ErrNoSnapshot)
	assert.EqualError(t, err, "runtime: rollback cannot rewind 5 frames: the world has run 3")
	assert.Equal(t, before, ringOf(r))
	assert.Equal(t, uint64(3), h.w.Frames())
}

// TestRollbackForgetsAfterRestore: after World.Restore of a snapshot (here
// of another world's frame 200), the ring holds nothing (Len 0, no oldest
// or newest, Load refuses its old frames) and fills again from the next
// Save; a ring's own Load keeps its history.
func TestRollbackForgetsAfterRestore(t *testing.T) {
	a := newHookWorld(t)
	r, err := runtime.NewRollback(a.w, 8)
	require.NoError(t, err)
	for range 5 {
		require.NoError(t, r.Save())
		require.NoError(t, a.w.Frame(0.01))
	}
	require.NoError(t, r.Load(2))
	assert.Equal(t, 5, r.Len(), "a ring's own Load keeps its history")
	b := newHookWorld(t)
	for range 200 {
		require.NoError(t, b.w.Frame(0.01))
	}
	save, err := b.w.Snapshot(nil)
	require.NoError(t, err)
	require.NoError(t, a.w.Restore(save))
	assert.Equal(t, 0, r.Len())
	_, ok := r.Oldest()
	assert.False(t, ok)
	_, ok = r.Newest()
	assert.False(t, ok)
	_, ok = r.Checksum(2)
	assert.False(t, ok)
	err = r.Load(2)
	assert.ErrorIs(t, err, runtime.ErrNoSnapshot)
	assert.EqualError(t, err, "runtime: rollback ring holds no snapshot of frame 2: it is empty")
	require.NoError(t, r.Save())
	o, _ := r.Oldest()
	n, _ := r.Newest()
	assert.Equal(t, []any{1, uint64(200), uint64(200)}, []any{r.Len(), o, n})
}

// TestSnapshotReservedField: a nonzero reserved header field (bytes
// 36-39) is refused as such, the checksum resealed.
func TestSnapshotReservedField(t *testing.T) {
	h := newHookWorld(t)
	snap, err := h.w.Snapshot(nil)
	require.NoError(t, err)
	snap[36] = 1
	runtime.FixChecksum(snap)
	err = h.w.Restore(snap)
	assert.ErrorIs(t, err, runtime.ErrCorrupt)
	assert.EqualError(t, err, "runtime: snapshot corrupted (header): reserved field (bytes 36-39) is 1, not zero")
}

// fragile is a codec whose UnmarshalBinary panics on fewer than 4 bytes
// (a codec that trusts its input).
type fragile struct{ v []byte }

func (f *fragile) AppendBinary(dst []byte) ([]byte, error) { return append(dst, f.v...), nil }
func (f *fragile) UnmarshalBinary(src []byte) error {
	_ = src[3]
	f.v = append(f.v[:0], src...)
	return nil
}

// TestRestoreCodecPanics: a resource codec that panics on the bytes makes
// Restore return ErrCorrupt naming the resource, with the world as it was.
func TestRestoreCodecPanics(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	res := runtime.AddResource(b, "fragile", &fragile{v: []byte{1, 2}})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	short, err := w.Snapshot(nil) // 2 bytes: the check panics on them
	require.NoError(t, err)
	(*res.Get()).v = []byte{1, 2, 3, 4, 5}
	before, err := w.Snapshot(nil)
	require.NoError(t, err)
	err = w.Restore(short)
	assert.ErrorIs(t, err, runtime.ErrCorrupt)
	assert.ErrorIs(t, err, systems.ErrResourceState)
	var se *runtime.SnapshotError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "resource fragile", se.Section)
	var pe *systems.CodecPanicError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, err.Error(), "UnmarshalBinary panicked (runtime error: index out of range [3] with length 2)")
	after, err := w.Snapshot(nil)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	assert.Equal(t, []byte{1, 2, 3, 4, 5}, (*res.Get()).v)
}

// TestRestoreEmptySliceResource: a slice resource that is empty and not
// nil in the snapshot is empty and not nil after a restore, also into a
// nil value; a non-empty one keeps its backing array.
func TestRestoreEmptySliceResource(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	res := runtime.AddResource(b, "s", make([]int32, 0, 8))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	empty, err := w.Snapshot(nil)
	require.NoError(t, err)
	*res.Get() = nil
	require.NoError(t, w.Restore(empty))
	assert.NotNil(t, *res.Get())
	assert.Empty(t, *res.Get())
	back := make([]int32, 3, 16)
	*res.Get() = back
	require.NoError(t, w.Restore(empty))
	assert.NotNil(t, *res.Get())
	assert.Equal(t, 16, cap(*res.Get()), "the backing array is kept")
}

// LayPos is a column, event and resource type whose twin of the same
// name and shape is declared in package runtime (export_test.go).
type LayPos struct {
	X, Y float32
	N    int32
}

func layWorld[P any](t *testing.T) *runtime.World {
	t.Helper()
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	tb := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 64, ChunkRows: 64})
	runtime.AddColumn[P](b, tb, "P")
	runtime.AddEvents[P](b, events.Spec{Name: "e", Capacity: 4})
	var zero P
	runtime.AddResource(b, "r", zero)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// TestFingerprintLayout: the fingerprint describes types by their layout,
// not their import path: a type of the same name and shape declared in
// another package gives the same fingerprint, and its snapshot restores; a
// changed field type (of the same size), order, name or nesting gives
// another.
func TestFingerprintLayout(t *testing.T) {
	base := layWorld[LayPos](t)
	same := layWorld[runtime.LayPos](t) // another package
	assert.Equal(t, base.Fingerprint(), same.Fingerprint())
	assert.Equal(t, base.Declarations(), same.Declarations())
	assert.NotContains(t, base.Declarations(), "tickwork/runtime")
	assert.Contains(t, base.Declarations(), `column "P" LayPos=struct/12/4{X@0:float32/4 Y@4:float32/4 N@8:int32/4} 12`)
	snap, err := base.Snapshot(nil)
	require.NoError(t, err)
	require.NoError(t, same.Restore(snap))

	others := map[string]*runtime.World{
		"field type": func() *runtime.World {
			type LayPos struct {
				X, Y float32
				N    uint32
			}
			return layWorld[LayPos](t)
		}(),
		"field order": func() *runtime.World {
			type LayPos struct {
				Y, X float32
				N    int32
			}
			return layWorld[LayPos](t)
		}(),
		"field name": func() *runtime.World {
			type LayPos struct {
				X, Y float32
				M    int32
			}
			return layWorld[LayPos](t)
		}(),
		"nested array": func() *runtime.World {
			type LayPos struct {
				X, Y float32
				N    [1]int32
			}
			return layWorld[LayPos](t)
		}(),
	}
	for name, w := range others {
		t.Run(name, func(t *testing.T) {
			assert.NotEqual(t, base.Fingerprint(), w.Fingerprint())
			assert.ErrorIs(t, w.Restore(snap), runtime.ErrOtherWorld)
		})
	}
}

// TestCounterAddOutsideItsBody: a counter's Add panics, saying how to fix
// it, when called by another system's body (the frame fails with a
// *scheduler.PanicError goes up to Frame's caller) or by the host between frames; its own body's
// adds land in its report.
func TestCounterAddOutsideItsBody(t *testing.T) {
	var ca systems.Counter
	var fromB bool
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	b.System("A", systems.Update, func(d *systems.Decl) systems.RunFunc {
		ca = d.Counter("n")
		return func(*systems.Context) { ca.Add(1) }
	})
	b.System("B", systems.LateUpdate, func(d *systems.Decl) systems.RunFunc {
		return func(*systems.Context) {
			if fromB {
				ca.Add(100)
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	want := `systems: Add on system "A"'s counter "n" outside its body: only that system's body may add to it ` +
		`(not another system, not the host between frames; a kernel sums per worker and the body adds the sum once)`
	assert.PanicsWithValue(t, want, func() { ca.Add(1000) }, "host before the first frame")
	require.NoError(t, w.Frame(0.01))
	v, ok := reportCounter(w.Report(), "A", "n")
	require.True(t, ok)
	assert.Equal(t, int64(1), v)
	assert.PanicsWithValue(t, want, func() { ca.Add(1000) }, "host between frames")
	require.NoError(t, w.Frame(0.01))
	v, _ = reportCounter(w.Report(), "A", "n")
	assert.Equal(t, int64(1), v, "the host's Add landed nowhere")
	assert.Equal(t, int64(2), ca.Total())
	fromB = true
	var got any
	func() {
		defer func() { got = recover() }()
		_ = w.Frame(0.01)
	}()
	pe, ok := got.(*scheduler.PanicError) // a system's panic goes up to Frame's caller
	require.True(t, ok, "%v", got)
	assert.Equal(t, "B", pe.System)
	assert.Equal(t, want, pe.Value)
	assert.Equal(t, int64(3), ca.Total(), "B's Add landed nowhere")
}

// flaky is a codec whose AppendBinary fails while fail is set.
type flaky struct{ fail bool }

func (f *flaky) AppendBinary(dst []byte) ([]byte, error) {
	if f.fail {
		return dst, errors.New("flaky: no bytes now")
	}
	return append(dst, 1), nil
}
func (f *flaky) UnmarshalBinary([]byte) error { return nil }

// TestRollbackSaveCodecError: a codec's error while Save writes the
// snapshot loses only what the slot held: nothing in a ring with room,
// the oldest snapshot in a full one.
func TestRollbackSaveCodecError(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	res := runtime.AddResource(b, "flaky", &flaky{})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	r, err := runtime.NewRollback(w, 3)
	require.NoError(t, err)
	save := func() error { return r.Save() }
	for range 2 {
		require.NoError(t, save())
		require.NoError(t, w.Frame(0.01))
	}
	(*res.Get()).fail = true
	room := ringOf(r)
	assert.ErrorIs(t, save(), runtime.ErrUnsupported)
	assert.Equal(t, room, ringOf(r), "a ring with room is unchanged")
	(*res.Get()).fail = false
	require.NoError(t, save())        // frame 2: full
	require.NoError(t, w.Frame(0.01)) // the world is at frame 3
	(*res.Get()).fail = true
	assert.ErrorIs(t, save(), runtime.ErrUnsupported)
	o, _ := r.Oldest()
	n, _ := r.Newest()
	assert.Equal(t, []any{2, uint64(1), uint64(2)}, []any{r.Len(), o, n}, "the full ring lost frame 0 only")
	assert.NoError(t, r.Load(1))
}

// reportCounter returns the value in the report's frame of the counter name
// of the system named system, and whether both exist.
func reportCounter(r *scheduler.FrameReport, system, name string) (int64, bool) {
	for i := range r.Systems {
		if r.Systems[i].Name != system {
			continue
		}
		for _, c := range r.Systems[i].Counters {
			if c.Name == name {
				return c.Value, true
			}
		}
	}
	return 0, false
}

package tickwork_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// frameBytes is the heap bytes and objects f allocates, run once (no GC
// before it: a forced GC allocates on its own).
func frameBytes(f func()) (bytes, objects uint64) {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, b.Mallocs - a.Mallocs
}

// spawnWorld is a world whose FixedUpdate system spawns and deletes 300
// cars a tick, moves one between two tables and emits an event a tick.
func spawnWorld(t *testing.T, workers int) *tickwork.World {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
	cars := b.Domain(tickwork.DomainSpec{Name: "cars", Capacity: 1024})
	driving := b.Table(tickwork.TableSpec{Name: "Driving", Domain: cars})
	waiting := b.Table(tickwork.TableSpec{Name: "Waiting", Domain: cars})
	speed := tickwork.AddColumn[float32](b, driving, "speed")
	honks := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Honk", Capacity: 64})
	var parked tickwork.Handle
	b.System("traffic", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		dr, wr := tickwork.Record(d, driving), tickwork.Record(d, waiting)
		e := tickwork.Emit(d, honks)
		return func(ctx *tickwork.Context) {
			for range 300 {
				h := dr.Create()
				tickwork.Set(dr, speed, h, 1)
				dr.Delete(h)
			}
			if ctx.Tick()%2 == 0 {
				tickwork.Move(parked, dr, wr)
			} else {
				tickwork.Move(parked, wr, dr)
			}
			e.Emit(int32(ctx.Tick()))
		}
	})
	b.System("count", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		c := tickwork.Consume(d, honks)
		return func(*tickwork.Context) { _ = c.Read() }
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	parked, err = driving.Insert()
	require.NoError(t, err)
	return w
}

// TestLongFrameAllocatesNothing: after a warm-up of ordinary frames (one
// fixed tick each), a long delta (10 s: the tick cap runs 8 ticks and
// drops the rest) and the longest (MaxDelta, one hour) allocate 0 B, the
// first of them included (in the first of up to 5 worlds where the Go
// runtime allocates nothing of its own): a FixedUpdate system's buffers are sized for
// MaxTicksPerFrame playbacks between releases at warm-up
// (commands.Buffer.SetPlays).
func TestLongFrameAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		// The first long frame happens once a world: up to 5 worlds, the
		// first whose first long frame allocates nothing counts (a parked
		// helper may allocate the Go runtime's own sudog after a GC; an
		// allocation of Tickwork's shows in every world).
		var w *tickwork.World
		var err error
		var bytes, objects uint64
		for range 5 {
			w = spawnWorld(t, workers)
			for range 5 {
				require.NoError(t, w.Frame(1.0/60))
			}
			bytes, objects = frameBytes(func() { err = w.Frame(10) })
			require.NoError(t, err)
			if bytes == 0 && objects == 0 {
				break
			}
		}
		assert.Equal(t, [2]uint64{0, 0}, [2]uint64{bytes, objects}, "workers %d: the first Frame(10) after short frames, in each of 5 worlds: bytes, objects", workers)
		r := w.Report()
		assert.Equal(t, 8, r.FixedTicks)
		assert.Positive(t, r.Dropped)
		for _, dt := range []float64{10, 3600, 0.5} {
			assert.Zero(t, testing.AllocsPerRun(10, func() { err = w.Frame(dt) }), "workers %d: Frame(%v)", workers, dt)
			require.NoError(t, err)
			// the fewest bytes of 5 frames: another goroutine of the test
			// binary may allocate during one; Tickwork's would in each
			bytes = ^uint64(0)
			for range 5 {
				b, _ := frameBytes(func() { err = w.Frame(dt) })
				bytes = min(bytes, b)
			}
			assert.Zero(t, bytes, "workers %d: Frame(%v) bytes, the fewest of 5 frames", workers, dt)
		}
	}
}

// TestErrorFramesAllocateNothing: a frame that fails allocates nothing
// either: a refused delta (its *DeltaError is the scheduler's, reused), a
// create into a full table (the *PlaybackError and its *CapacityError are
// the buffer's), a Set of an entity with no row (ErrNoRow), a system
// that fails (the *SystemError is reused; the system's error is its own)
// and a Frame called from a system (its stack look reads into an array).
func TestErrorFramesAllocateNothing(t *testing.T) {
	errJam := errors.New("jam")
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	cars := b.Domain(tickwork.DomainSpec{Name: "cars", Capacity: 4})
	driving := b.Table(tickwork.TableSpec{Name: "Driving", Domain: cars})
	waiting := b.Table(tickwork.TableSpec{Name: "Waiting", Domain: cars})
	wait := tickwork.AddColumn[float32](b, waiting, "wait")
	var mode string
	var parked tickwork.Handle
	var w *tickwork.World
	var inner error // what a nested Frame returned
	b.System("traffic", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		dr, wr := tickwork.Record(d, driving), tickwork.Record(d, waiting)
		return func(ctx *tickwork.Context) {
			switch mode {
			case "full":
				for range 8 {
					dr.Create() // past the domain's room: refused
				}
			case "rowless":
				tickwork.Set(wr, wait, parked, 1)
			case "fail":
				ctx.Fail(errJam)
			case "reentrant":
				inner = w.Frame(0) // refused: frames do not nest
			}
		}
	})
	var err error
	w, err = b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	parked, err = driving.Insert()
	require.NoError(t, err)

	cases := []struct {
		mode string
		dt   float64
		is   error
		want string
	}{
		{"", -1, tickwork.ErrBadDelta, "scheduler: bad frame delta -1 s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)"},
		{"", math.NaN(), tickwork.ErrBadDelta, "scheduler: bad frame delta NaN s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)"},
		{"", 7200, tickwork.ErrBadDelta, "scheduler: bad frame delta 7200 s: want a finite number of seconds from 0 to 3600 (MaxDelta, one hour)"},
		{"full", 1.0 / 60, tickwork.ErrCapacity, ""},
		{"rowless", 1.0 / 60, tickwork.ErrNoRow, `tickwork: frame %d: Update system "traffic": record 0: set in table "Waiting": ` +
			"the entity has no row in the column's table: attach it (tickwork.Recorder.Attach, tickwork.Move) before the write, or write the table it has a row in"},
		{"fail", 1.0 / 60, tickwork.ErrSystem, ""},
		{"reentrant", 1.0 / 60, tickwork.ErrReentrant, ""},
	}
	for _, tc := range cases {
		mode = tc.mode
		for range 3 { // warm-up: the buffers grow
			_ = w.Frame(tc.dt)
		}
		var err error
		n := testing.AllocsPerRun(20, func() { err = w.Frame(tc.dt) })
		assert.Zero(t, n, "mode %q dt %v: allocs", tc.mode, tc.dt)
		bytes, _ := frameBytes(func() { err = w.Frame(tc.dt) })
		assert.Zero(t, bytes, "mode %q dt %v: bytes", tc.mode, tc.dt)
		if tc.mode == "reentrant" {
			require.NoError(t, err, "the outer frame runs on")
			err = inner
		}
		assert.ErrorIs(t, err, tc.is, "mode %q dt %v", tc.mode, tc.dt)
		if tc.want != "" {
			want := tc.want
			if tc.mode == "rowless" {
				want = fmt.Sprintf(want, w.Frames()-1)
			}
			assert.Equal(t, want, err.Error())
		}
	}
}

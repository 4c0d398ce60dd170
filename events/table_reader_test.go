package events

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReaderCadences: a PerFrame reader reads at BeginFrame granularity, a
// PerTick reader at BeginTick granularity, each event once, in order.
func TestReaderCadences(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 16})
	frame, tick := tab.NewReader(PerFrame), tab.NewReader(PerTick)
	read := func(r *Reader[int]) []int {
		got := append([]int{}, r.Read()...)
		r.Done()
		return got
	}
	tab.beginFrame() // frame 0
	_ = tab.Emit(1)  // frame 0, before any tick
	tab.beginTick()
	_ = tab.Emit(2) // during tick 0
	assert.Equal(t, []int{1}, read(tick), "tick 0 reads what was emitted before it began")
	assert.Empty(t, read(frame), "frame 0 reads nothing of frame 0")
	tab.beginTick()
	assert.Equal(t, []int{2}, read(tick))
	assert.Empty(t, read(tick), "read once")
	tab.endFrame()
	_ = tab.Emit(3) // the host, between frames 0 and 1
	assert.Empty(t, read(frame), "not before frame 1 begins")
	tab.beginFrame() // frame 1
	assert.Equal(t, []int{1, 2, 3}, read(frame), "frame 1 reads frame 0's and the host's since")
	assert.Empty(t, read(frame))
	tab.endFrame() // frame 1 ran no tick: the PerTick reader holds 3
	tab.beginFrame()
	tab.endFrame()
	tab.beginFrame()
	assert.Empty(t, read(frame))
	assert.Equal(t, 1, tab.Held(), "event 3 waits for the PerTick reader")
	tab.beginTick()
	assert.Equal(t, []int{3}, read(tick))
	assert.Zero(t, tab.Held())
	assert.Equal(t, PerTick, tick.cadence)
	assert.Equal(t, "PerTick", PerTick.String())
	assert.Equal(t, "Cadence(7)", Cadence(7).String())
}

// TestReaderReadTwiceThenDone: Reads before Done return the same events;
// Done passes exactly what they returned.
func TestReaderReadTwiceThenDone(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 8})
	r := tab.NewReader(PerFrame)
	_ = tab.Emit(1)
	tab.endFrame()
	tab.beginFrame()
	assert.Equal(t, []int{1}, r.Read())
	_ = tab.Emit(2)
	assert.Equal(t, []int{1}, r.Read())
	tab.endFrame()
	tab.beginFrame() // a boundary without Done: still the first Read's events
	assert.Equal(t, []int{1}, r.Read())
	r.Done()
	r.Done() // nothing read since: a no-op
	assert.Equal(t, []int{2}, r.Read())
	r.Done()

	this := mustNew[int](t, Spec{Name: "dead", Capacity: 8, Lifetime: ThisFrame})
	tr := this.NewReader(PerTick)
	_ = this.Emit(1)
	assert.Equal(t, []int{1}, tr.Read())
	_ = this.Emit(2) // the consumer's own emit, in its run
	assert.Equal(t, []int{1}, tr.Read(), "ThisFrame: a later Read returns the first one's events, not the run's own emits")
	tr.Done() // passes 2 with the run
	_ = this.Emit(3)
	assert.Equal(t, []int{3}, tr.Read())
}

// TestRetentionOverflow: an idle reader holds its unread events; emits past
// the capacity are refused with the table's *OverflowError and counted;
// once the reader passes them, emits succeed again.
func TestRetentionOverflow(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 3})
	busy, idle := tab.NewReader(PerFrame), tab.NewReader(PerTick)
	var refused int
	for f := range 5 {
		err := tab.Emit(f)
		if f < 3 {
			require.NoError(t, err)
		} else {
			var oe *OverflowError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, OverflowError{Table: "hits", Capacity: 3}, *oe)
			refused++
		}
		tab.endFrame()
		tab.beginFrame()
		busy.Read()
		busy.Done()
	}
	assert.Equal(t, 2, refused)
	assert.EqualValues(t, 2, tab.takeDropped())
	assert.Equal(t, 3, tab.Held())
	tab.beginTick()
	assert.Equal(t, []int{0, 1, 2}, idle.Read())
	idle.Done()
	assert.Zero(t, tab.Held())
	require.NoError(t, tab.Emit(9))
}

// TestReaderModel drives tables with readers of both cadences through
// random emits, merges, boundaries and reads, against a model that keeps
// every event: each reader reads exactly the events emitted before its
// cadence's last boundary that it has not passed, in order; an emit is
// refused exactly when the table holds Capacity events. Small capacities
// make the held events move to the front of the storage often.
func TestReaderModel(t *testing.T) {
	type ev struct {
		seq int
		p   *int // a pointer, so that retirement zeroes
	}
	for seed := range 200 {
		t.Run("seed="+strconv.Itoa(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 3))
			capacity := 1 + rng.IntN(6)
			tab := mustNew[ev](t, Spec{Name: "m", Capacity: capacity})
			par, err := tab.Parallel(2)
			require.NoError(t, err)
			type model struct {
				r    *Reader[ev]
				next int  // model cursor
				end  int  // end of the last Read
				read bool // Read since the last Done
			}
			var rs []*model
			for range 1 + rng.IntN(3) {
				c := PerFrame
				if rng.IntN(2) == 0 {
					c = PerTick
				}
				rs = append(rs, &model{r: tab.NewReader(c)})
			}
			var log []int // accepted events, by sequence
			frameMark, tickMark := 0, 0
			held := func() int {
				lo := len(log)
				for _, m := range rs {
					lo = min(lo, m.next)
				}
				return len(log) - lo
			}
			x := 0
			emit := func() {
				want := held() < capacity
				err := tab.Emit(ev{seq: x, p: &x})
				if want {
					require.NoError(t, err)
					log = append(log, x)
				} else {
					require.ErrorIs(t, err, ErrOverflow)
				}
				x++
			}
			for step := range 400 {
				switch op := rng.IntN(11); {
				case op < 4:
					emit()
				case op == 4: // a parallel run: 3 events, keys reversed
					room := capacity - held()
					for k := 2; k >= 0; k-- {
						s := par.Worker(k % 2)
						s.Begin(k)
						_ = s.Emit(ev{seq: 1000 + k})
					}
					dropped := par.Merge()
					// Worker 0 stages keys 2 then 0, worker 1 key 1, each
					// at most capacity; the merge keeps a prefix in key order.
					var staged []int
					for k := range 3 {
						if k != 0 || capacity >= 2 {
							staged = append(staged, 1000+k)
						}
					}
					kept := min(len(staged), max(0, room))
					assert.Equal(t, 3-kept, dropped, "step %d", step)
					log = append(log, staged[:kept]...)
				case op == 5:
					tab.beginTick()
					tickMark = len(log)
				case op == 6:
					tab.endFrame() // moves no reader's mark
				case op == 7:
					tab.beginFrame()
					frameMark = len(log)
				default:
					m := rs[rng.IntN(len(rs))]
					lim := frameMark
					if m.r.cadence == PerTick {
						lim = tickMark
					}
					lim = max(lim, m.next)
					if m.read { // read since its last Done: the same events
						lim = m.end
					}
					got := m.r.Read()
					require.Len(t, got, lim-m.next, "step %d", step)
					for i, e := range got {
						require.Equal(t, log[m.next+i], e.seq, "step %d: event %d", step, i)
					}
					m.end, m.read = lim, true
					if rng.IntN(4) != 0 {
						m.r.Done()
						m.next, m.read = m.end, false
					}
				}
				require.Equal(t, held(), tab.Held(), "step %d", step)
			}
			// Retired events hold no pointer.
			for i := range tab.buf {
				s := uint64(i) + tab.base
				if (s < tab.lo || s >= tab.head) && tab.buf[i].p != nil {
					t.Fatalf("buf[%d] (event %d, held %d..%d) still points", i, s, tab.lo, tab.head)
				}
			}
		})
	}
}

// TestThisFrameReaders: a ThisFrame reader reads each event once, even
// when it reads several times in a frame (one per fixed tick); what it
// has not read at EndFrame is counted in Dropped, once per such reader.
func TestThisFrameReaders(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "dead", Capacity: 4, Lifetime: ThisFrame})
	tick, late := tab.NewReader(PerTick), tab.NewReader(PerFrame)
	for k := range 3 { // three ticks, each emitting one event then reading
		_ = tab.Emit(k)
		assert.Equal(t, []int{k}, tick.Read(), "tick %d", k)
		tick.Done()
	}
	assert.Equal(t, []int{0, 1, 2}, late.Read())
	late.Done()
	_ = tab.Emit(3) // neither reads it
	tab.endFrame()
	assert.EqualValues(t, 2, tab.takeDropped(), "event 3 expired unread by both readers")
	assert.Empty(t, tick.Read())
	require.NoError(t, tab.Emit(4))
	assert.Equal(t, []int{4}, late.Read())
}

// TestNewReaderStartsAtHeld: a reader made later reads what the table
// still holds, and the table then holds for it.
func TestNewReaderStartsAtHeld(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 4})
	_ = tab.Emit(1)
	tab.endFrame()
	tab.beginFrame()
	_ = tab.Emit(2)
	r := tab.NewReader(PerFrame)
	assert.Equal(t, []int{1}, r.Read())
	r.Done()
	tab.endFrame()
	tab.endFrame()
	tab.beginFrame()
	assert.Equal(t, []int{2}, r.Read(), "held for the reader past its double-buffer frame")
	assert.Panics(t, func() { tab.NewReader(Cadence(2)) })
}

// TestDoubleBufferThenReader: a NextFrame table without readers shows the
// previous frame's events (Capacity emits a frame, each frame in the other
// half of the storage); a reader registered later starts at the oldest
// event held, wherever the halves lie, and from then on the table holds
// for it. Checked against a model over random emits, merges and frames.
func TestDoubleBufferThenReader(t *testing.T) {
	type ev struct {
		seq int
		p   *int
	}
	for seed := range 100 {
		t.Run("seed="+strconv.Itoa(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 5))
			capacity := 1 + rng.IntN(5)
			tab := mustNew[ev](t, Spec{Name: "d", Capacity: capacity})
			par, err := tab.Parallel(1)
			require.NoError(t, err)
			var prev, cur []int // the model: last frame's events, this frame's
			x := 0
			frames := 1 + rng.IntN(6)
			for f := range frames {
				for range rng.IntN(2 * capacity) {
					x++
					err := tab.Emit(ev{seq: x, p: &x})
					if len(cur) < capacity {
						require.NoError(t, err)
						cur = append(cur, x)
					} else {
						require.ErrorIs(t, err, ErrOverflow)
					}
				}
				if rng.IntN(2) == 0 {
					x++
					_ = par.Worker(0).Emit(ev{seq: x})
					if par.Merge() == 0 {
						cur = append(cur, x)
					}
				}
				if f < frames-1 || rng.IntN(2) == 0 {
					tab.endFrame()
					prev, cur = cur, nil
				}
				var got []int
				for _, e := range tab.Read() {
					got = append(got, e.seq)
				}
				require.Equal(t, prev, got, "frame %d: Read", f)
				assert.Equal(t, len(prev)+len(cur), tab.Held())
			}
			r := tab.NewReader(PerFrame)
			tab.endFrame()
			tab.beginFrame()
			var got []int
			for _, e := range r.Read() {
				got = append(got, e.seq)
			}
			assert.Equal(t, append(append([]int(nil), prev...), cur...), got, "the reader starts at the oldest event held")
			r.Done()
			assert.Zero(t, tab.Held())
			for i, e := range tab.buf {
				require.Nil(t, e.p, "buf[%d] still points after every event retired", i)
			}
		})
	}
}

// TestReaderWhileEmitting: readers of a NextFrame table read while another
// goroutine emits and merges (run with -race).
func TestReaderWhileEmitting(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "n", Capacity: 1000})
	p, err := tab.Parallel(2)
	require.NoError(t, err)
	rs := []*Reader[int]{tab.NewReader(PerFrame), tab.NewReader(PerTick)}
	for v := range 100 {
		_ = tab.Emit(v)
	}
	tab.beginTick()
	tab.endFrame()
	tab.beginFrame()
	var wg sync.WaitGroup
	sums := make([]int, len(rs))
	for i, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for _, v := range r.Read() {
					sums[i] += v
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := range 400 {
			_ = tab.Emit(v)
		}
		for w := range 2 {
			p.Worker(w).Begin(w)
			_ = p.Worker(w).Emit(-1)
		}
		p.Merge()
	}()
	wg.Wait()
	for i, s := range sums {
		assert.Equal(t, 50*4950, s, "reader %d", i)
	}
	for _, r := range rs {
		r.Done()
	}
	assert.Equal(t, 402, tab.Held())
}

// TestReaderAllocs: emitting, reading, passing and both boundaries
// allocate nothing, with retention moving the held events.
func TestReaderAllocs(t *testing.T) {
	tab := mustNew[uint64](t, Spec{Name: "hits", Capacity: 256})
	frame, tick := tab.NewReader(PerFrame), tab.NewReader(PerTick)
	this := mustNew[uint64](t, Spec{Name: "dead", Capacity: 64, Lifetime: ThisFrame})
	tr := this.NewReader(PerTick)
	var sum uint64
	n := 0
	cycle := func() {
		for i := range 100 {
			_ = tab.Emit(uint64(i))
			_ = this.Emit(uint64(i))
		}
		if n++; n%3 == 0 { // a tick every third frame
			tab.beginTick()
			for _, v := range tick.Read() {
				sum += v
			}
			tick.Done()
		}
		for _, v := range frame.Read() {
			sum += v
		}
		frame.Done()
		for _, v := range tr.Read() {
			sum += v
		}
		tr.Done()
		tab.endFrame()
		this.endFrame()
		tab.takeDropped()
		this.takeDropped()
	}
	assert.Zero(t, testing.AllocsPerRun(200, cycle))
	assert.NotZero(t, sum)
}

// TestOverflowErrorMessage: the message names the table and its capacity.
func TestOverflowErrorMessage(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 1})
	_ = tab.Emit(1)
	err := tab.Emit(2)
	assert.True(t, errors.Is(err, ErrOverflow))
	assert.Equal(t, `events: table "hits" is full: it holds its capacity of 1 events (unread, or emitted this frame); event dropped`, err.Error())
}

// A hit emitted in one frame is read once, by a consumer of the next frame.
func TestDeliveryNextFrame(t *testing.T) {
	var out strings.Builder
	type Hit struct {
		Target uint64
		Damage int32
	}
	hits, err := New[Hit](Spec{Name: "hits", Capacity: 2, Lifetime: NextFrame})
	require.NoError(t, err)
	applyHits := hits.NewReader(PerFrame) // set-up: one reader per consumer
	for frame := 1; frame <= 3; frame++ {
		hits.beginFrame()                    // the runtime, at the start of the frame
		for _, h := range applyHits.Read() { // e.g. ApplyHits in FrameStart
			fmt.Fprintf(&out, "frame %d: unit %d takes %d\n", frame, h.Target, h.Damage)
		}
		applyHits.Done() // the runtime, when the consumer's run ends
		if frame == 1 {  // e.g. Collision in FixedUpdate
			_ = hits.Emit(Hit{Target: 7, Damage: 30})
			_ = hits.Emit(Hit{Target: 9, Damage: 10})
			if err := hits.Emit(Hit{Target: 4, Damage: 5}); errors.Is(err, ErrOverflow) {
				fmt.Fprintln(&out, "frame 1:", err)
			}
		}
		hits.endFrame() // the runtime, at the end of the frame
		if d := hits.takeDropped(); d > 0 {
			fmt.Fprintf(&out, "frame %d report: %d hit dropped\n", frame, d)
		}
	}
	assert.Equal(t, `frame 1: events: table "hits" is full: it holds its capacity of 2 events (unread, or emitted this frame); event dropped
frame 1 report: 1 hit dropped
frame 2: unit 7 takes 30
frame 2: unit 9 takes 10
`, out.String())
}

// A FixedUpdate consumer (PerTick) reads each event once, at the first
// fixed tick after its emit, however many ticks each frame runs: frames
// without a tick keep the events for it.
func TestDeliveryPerTick(t *testing.T) {
	var out strings.Builder
	hits, _ := New[int](Spec{Name: "hits", Capacity: 8})
	fixed := hits.NewReader(PerTick)
	for frame, ticks := range []int{0, 0, 2} {
		for tick := range ticks {
			hits.beginTick() // the runtime, before each fixed tick
			fmt.Fprintf(&out, "frame %d, tick %d reads %v\n", frame, tick, fixed.Read())
			fixed.Done()
		}
		_ = hits.Emit(10 * frame) // e.g. a system in Update
		hits.endFrame()
	}
	fmt.Fprintln(&out, "held:", hits.Held())
	assert.Equal(t, `frame 2, tick 0 reads [0 10]
frame 2, tick 1 reads []
held: 1
`, out.String())
}

// A ThisFrame table passes events to later systems of the same frame.
func TestDeliveryThisFrame(t *testing.T) {
	var out strings.Builder
	dead, _ := New[int](Spec{Name: "dead slots", Capacity: 8, Lifetime: ThisFrame})
	_ = dead.Emit(3) // FrameStart: slot 3 died
	_ = dead.Emit(5)
	fmt.Fprintln(&out, "FrameEnd reads", dead.Read())
	dead.endFrame()
	fmt.Fprintln(&out, "next frame reads", dead.Read())
	assert.Equal(t, `FrameEnd reads [3 5]
next frame reads []
`, out.String())
}

package scheduler_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

func seal(t testing.TB, cfg scheduler.Config, list ...systems.System) *scheduler.Scheduler {
	t.Helper()
	s, err := scheduler.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list {
		if err := s.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	return s
}

// body is a system that declares nothing and runs fn.
func body(name string, p systems.Phase, fn systems.RunFunc) systems.System {
	return systems.System{Name: name, Phase: p, Declare: declare(fn)}
}

// counter is a FixedUpdate system that counts its runs in *n.
func counter(name string, n *int) systems.System {
	return body(name, systems.FixedUpdate, func(*systems.Context) { *n++ })
}

// TestFixedStepSpiral: a 10 ms step whose ticks each cost 15 ms. The test
// feeds as each frame's delta the previous frame's cost (ticks run × 15 ms;
// no sleeping), the situation that makes an uncapped accumulator spiral.
func TestFixedStepSpiral(t *testing.T) {
	const step = 10 * time.Millisecond
	const cost = 15 * time.Millisecond
	for _, maxTicks := range []int{1, 3, 8} {
		ticks := 0
		s := seal(t, scheduler.Config{FixedStep: step.Seconds(), MaxTicksPerFrame: maxTicks},
			counter("tick", &ticks))
		var fed time.Duration
		dt := 16 * time.Millisecond // the first frame
		capped := 0
		for frame := 0; frame < 200; frame++ {
			before := ticks
			if err := s.Frame(dt.Seconds()); err != nil {
				t.Fatal(err)
			}
			fed += dt
			ran := ticks - before
			r := s.Report()
			tm := s.Time()
			if ran > maxTicks || r.FixedTicks != ran {
				t.Fatalf("cap %d frame %d: ran %d ticks (report %d)", maxTicks, frame, ran, r.FixedTicks)
			}
			if ran == maxTicks {
				capped++
			}
			if tm.Remaining < 0 || tm.Remaining >= step || r.Remaining != tm.Remaining {
				t.Fatalf("cap %d frame %d: accumulator %v, want [0, %v)", maxTicks, frame, tm.Remaining, step)
			}
			if tm.Fed != fed || tm.Simulated+tm.Dropped+tm.Remaining != fed {
				t.Fatalf("cap %d frame %d: fed %v (sum of deltas %v) != simulated %v + dropped %v + remaining %v",
					maxTicks, frame, tm.Fed, fed, tm.Simulated, tm.Dropped, tm.Remaining)
			}
			if tm.Simulated != time.Duration(ticks)*step || tm.Ticks != uint64(ticks) {
				t.Fatalf("simulated %v for %d ticks", tm.Simulated, ticks)
			}
			dt = time.Duration(ran) * cost
		}
		if capped < 150 {
			t.Fatalf("cap %d: only %d frames hit the cap; the test should reach the steady spiral", maxTicks, capped)
		}
		if tm := s.Time(); tm.Frames != 200 || tm.Dropped == 0 {
			t.Fatalf("cap %d: time %+v", maxTicks, tm)
		}
	}
}

func TestFirstFrameAndPacing(t *testing.T) {
	ticks := 0
	tick := counter("tick", &ticks)
	s := seal(t, scheduler.Config{FixedStep: 0.01}, tick)
	if err := s.Frame(0); err != nil || ticks != 0 {
		t.Fatalf("first frame with dt=0: err %v, %d ticks, want none", err, ticks)
	}
	if err := s.Frame(0.025); err != nil || ticks != 2 {
		t.Fatalf("dt=25ms: err %v, %d ticks, want 2", err, ticks)
	}
	if got := s.Time().Remaining; got != 5*time.Millisecond {
		t.Fatalf("remaining %v, want 5ms", got)
	}

	ticks = 0
	one := seal(t, scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame}, tick)
	for _, dt := range []float64{0, 0.5, 0.001, 10} {
		before := ticks
		if err := one.Frame(dt); err != nil || ticks-before != 1 {
			t.Fatalf("OneTickPerFrame dt=%v: err %v, %d ticks, want 1", dt, err, ticks-before)
		}
	}
	if tm := one.Time(); tm.Ticks != 4 || tm.Dropped != 0 || tm.Remaining != 0 || tm.Simulated != 40*time.Millisecond {
		t.Fatalf("OneTickPerFrame time %+v", tm)
	}
}

func TestBadDelta(t *testing.T) {
	ran := 0
	s := seal(t, scheduler.Config{}, body("a", systems.FrameStart, func(*systems.Context) { ran++ }))
	for _, dt := range []float64{-1e-9, math.NaN(), math.Inf(1), math.Inf(-1), scheduler.MaxDelta * 2} {
		err := s.Frame(dt)
		var de *scheduler.DeltaError
		if !errors.As(err, &de) || !errors.Is(err, scheduler.ErrBadDelta) {
			t.Fatalf("Frame(%v) = %v, want a *DeltaError", dt, err)
		}
	}
	if ran != 0 || s.Frames() != 0 || s.Report() != nil {
		t.Fatalf("a refused frame ran: %d runs, %d frames", ran, s.Frames())
	}
}

// TestEventFixedToNextFrameStart: an event emitted in FixedUpdate is read
// exactly once, by a FrameStart reader of the next frame.
func TestEventFixedToNextFrameStart(t *testing.T) {
	hits, _ := events.New[int](events.Spec{Name: "hits", Capacity: 16})
	var frame uint64
	seen := map[int][]uint64{} // event -> frames it was read in
	emit := systems.System{Name: "emit", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
		e := systems.Emit(s, hits)
		return func(ctx *systems.Context) { e.Emit(int(ctx.Tick())) }
	}}
	read := systems.System{Name: "read", Phase: systems.FrameStart, Declare: func(s *systems.Decl) systems.RunFunc {
		in := systems.Consume(s, hits)
		return func(ctx *systems.Context) {
			for _, v := range in.Read() {
				seen[v] = append(seen[v], ctx.Frame())
			}
			frame = ctx.Frame()
		}
	}}
	s := seal(t, scheduler.Config{FixedStep: 0.01}, read, emit)
	// Frames with 1, 0, 2 and 1 ticks.
	tickFrame := map[int]uint64{}
	tick := 0
	for f, dt := range []float64{0.01, 0.005, 0.015, 0.01, 0} {
		if err := s.Frame(dt); err != nil {
			t.Fatal(err)
		}
		for ; uint64(tick) < s.Time().Ticks; tick++ {
			tickFrame[tick] = uint64(f)
		}
	}
	if frame != 4 || tick != 4 {
		t.Fatalf("ran to frame %d with %d ticks", frame, tick)
	}
	for ev, f := range tickFrame {
		if got := seen[ev]; !slices.Equal(got, []uint64{f + 1}) {
			t.Errorf("event of tick %d (frame %d) read in frames %v, want [%d]", ev, f, got, f+1)
		}
	}
}

// TestBoundaries checks that commands play back after each phase and each
// fixed tick, and how long provisional handles resolve.
func TestBoundaries(t *testing.T) {
	tab, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 64})
	val, _ := ephemeral.AddColumn[int32](tab, "v")
	var log []string
	var fromEnd, fromStart ephemeral.Handle // provisional, created in FrameEnd and FrameStart
	note := func(s string) { log = append(log, s) }
	lenAt := func(where string) systems.RunFunc {
		return func(ctx *systems.Context) { note(where + ":" + strconv.Itoa(tab.Len())) }
	}
	create := func(phase systems.Phase, name string) systems.System {
		return systems.System{Name: name, Phase: phase, Declare: func(s *systems.Decl) systems.RunFunc {
			r := systems.Record(s, tab)
			return func(ctx *systems.Context) {
				h := r.Create()
				systems.Set(r, val, h, int32(ctx.Phase()))
				switch ctx.Phase() {
				case systems.FrameEnd:
					fromEnd = h
				case systems.FrameStart:
					fromStart = h
				}
			}
		}}
	}
	read := func(phase systems.Phase, name, after string) systems.System {
		return systems.System{Name: name, Phase: phase, After: []string{after}, Declare: declare(lenAt(name), rd(val))}
	}
	resolve := systems.System{Name: "resolve", Phase: systems.FrameStart, Before: []string{"mk.start"},
		Declare: declare(func(ctx *systems.Context) {
			if fromEnd == 0 {
				return
			}
			h, ok := ctx.Resolve(fromEnd)
			if v, live := val.Get(h); !ok || !live || v != int32(systems.FrameEnd) {
				note("unresolved")
			} else {
				note("resolved")
			}
		}, rd(val))}
	s := seal(t, scheduler.Config{FixedStep: 0.01},
		resolve,
		create(systems.FrameStart, "mk.start"), read(systems.FrameStart, "rd.start", "mk.start"),
		create(systems.FixedUpdate, "mk.fixed"), read(systems.FixedUpdate, "rd.fixed", "mk.fixed"),
		create(systems.Update, "mk.update"), read(systems.Update, "rd.update", "mk.update"),
		create(systems.LateUpdate, "mk.late"), read(systems.LateUpdate, "rd.late", "mk.late"),
		create(systems.FrameEnd, "mk.end"), read(systems.FrameEnd, "rd.end", "mk.end"),
	)
	if err := s.Frame(0.02); err != nil { // two ticks
		t.Fatal(err)
	}
	want := []string{"rd.start:0", "rd.fixed:1", "rd.fixed:2", "rd.update:3", "rd.late:4", "rd.end:5"}
	if !slices.Equal(log, want) {
		t.Fatalf("frame 0: %v, want %v", log, want)
	}
	if tab.Len() != 6 {
		t.Fatalf("after frame 0: %d rows, want 6", tab.Len())
	}
	if h, ok := s.Resolve(fromEnd); !ok || !tab.IsAlive(h) {
		t.Fatal("FrameEnd create not resolvable after the frame")
	}
	r := s.Report()
	if r.Commands.Created != 6 || r.Commands.Sets != 6 || r.Commands.Played != 12 || r.CommandsDropped() != 0 {
		t.Fatalf("report commands %+v", r.Commands)
	}
	log = nil
	h0 := fromEnd
	if err := s.Frame(0); err != nil {
		t.Fatal(err)
	}
	if log[0] != "resolved" {
		t.Fatalf("frame 1 log %v: the FrameEnd create should resolve in the next FrameStart", log)
	}
	// Frame 1's FrameStart is over: frame 0's creates no longer resolve;
	// frame 1's FrameEnd create does, until frame 2's FrameStart ends.
	if _, ok := s.Resolve(h0); ok {
		t.Fatal("frame 0's FrameEnd create still resolves after frame 1's FrameStart")
	}
	if _, ok := s.Resolve(fromEnd); !ok || fromEnd == h0 {
		t.Fatal("frame 1's FrameEnd create does not resolve")
	}
	if _, ok := s.Resolve(fromStart); ok {
		t.Fatal("a FrameStart create resolves after FrameStart (resolutions are released there)")
	}
}

func TestSystemError(t *testing.T) {
	boom := errors.New("boom")
	ran := []string{}
	mk := func(name string, p systems.Phase, err error) systems.System {
		return body(name, p, func(ctx *systems.Context) {
			ran = append(ran, name)
			ctx.Fail(err)
		})
	}
	ev, _ := events.New[int](events.Spec{Name: "e", Capacity: 1, Lifetime: events.ThisFrame, MayGoUnread: true})
	s := seal(t, scheduler.Config{FixedStep: 0.01},
		mk("a", systems.FixedUpdate, nil), mk("b", systems.FixedUpdate, boom), mk("c", systems.FixedUpdate, nil),
		mk("d", systems.Update, nil),
		systems.System{Name: "emit", Phase: systems.FrameStart, Declare: func(s *systems.Decl) systems.RunFunc {
			e := systems.Emit(s, ev)
			return func(*systems.Context) { e.Emit(1) }
		}})
	err := s.Frame(0.03)
	var se *scheduler.SystemError
	if !errors.As(err, &se) || !errors.Is(err, boom) || !errors.Is(err, scheduler.ErrSystem) || se.System != "b" || se.Phase != systems.FixedUpdate {
		t.Fatalf("Frame = %v, want a *SystemError for b wrapping boom", err)
	}
	if !slices.Equal(ran, []string{"a", "b"}) {
		t.Fatalf("ran %v, want [a b]", ran)
	}
	if ev.Len() != 0 {
		t.Fatal("events not ended after a failed frame")
	}
	tm := s.Time()
	if tm.Ticks != 1 || tm.Dropped != 20*time.Millisecond || tm.Simulated+tm.Dropped+tm.Remaining != tm.Fed {
		t.Fatalf("time after failure %+v", tm)
	}
	if r := s.Report(); r == nil || r.FixedTicks != 1 || r.Dropped != 20*time.Millisecond || r.EventsUnread != 1 {
		t.Fatalf("report after failure %+v", r)
	}
}

func TestReportStats(t *testing.T) {
	var d time.Duration
	s := seal(t, scheduler.Config{ReportWindow: 100, Pacing: scheduler.OneTickPerFrame},
		body("spin", systems.Update, func(*systems.Context) {
			for start := time.Now(); time.Since(start) < d; {
			}
		}),
		body("fixed", systems.FixedUpdate, noop),
	)
	for i := 0; i < 150; i++ {
		d = 0
		if i%10 == 9 {
			d = time.Millisecond
		}
		if err := s.Frame(0.01); err != nil {
			t.Fatal(err)
		}
	}
	r := s.Report()
	spin := r.System("spin")
	if spin == nil || r.System("nope") != nil {
		t.Fatal("System lookup")
	}
	if spin.Window != 100 || spin.Runs != 1 || spin.Phase != systems.Update {
		t.Fatalf("spin %+v", *spin)
	}
	// 10 of the last 100 runs spin 1 ms: p99 sees them, p50 does not.
	if spin.P99 < time.Millisecond || spin.P50 >= 500*time.Microsecond || spin.Mean < 100*time.Microsecond {
		t.Fatalf("spin p50 %v p99 %v mean %v", spin.P50, spin.P99, spin.Mean)
	}
	if spin.Last < time.Millisecond || spin.Total != spin.Last {
		t.Fatalf("last run %v total %v, want the 1 ms spin", spin.Last, spin.Total)
	}
	if r.Frame != 149 || r.FixedTicks != 1 || r.FrameTime <= 0 || r.DT != 0.01 {
		t.Fatalf("report %+v", r)
	}
	if got := r.String(); got == "" {
		t.Fatal("empty String")
	}
}

// TestReportLane: each system's report carries the Lane its System
// declared, in sealed order (which differs from the order of Add here), and
// "" for one that declared none.
func TestReportLane(t *testing.T) {
	s := seal(t, scheduler.Config{Pacing: scheduler.OneTickPerFrame},
		systems.System{Name: "late", Phase: systems.LateUpdate, Declare: declare(noop), Lane: "scalar"},
		systems.System{Name: "b", Phase: systems.FixedUpdate, Declare: declare(noop), After: []string{"a"}, Lane: "avx512"},
		systems.System{Name: "a", Phase: systems.FixedUpdate, Declare: declare(noop), Lane: "avx2"},
		systems.System{Name: "plain", Phase: systems.Update, Declare: declare(noop)},
	)
	require.NoError(t, s.Frame(0.01))
	r := s.Report()
	var got [][2]string
	for _, sr := range r.Systems {
		got = append(got, [2]string{sr.Name, sr.Lane})
	}
	assert.Equal(t, [][2]string{{"a", "avx2"}, {"b", "avx512"}, {"plain", ""}, {"late", "scalar"}}, got)
}

// TestFrameAllocs: a frame with commands, events and a report allocates
// nothing in steady state, the report's statistics included.
func TestFrameAllocs(t *testing.T) {
	f := newFixture(t)
	e := allocWorld(t, f)
	for i := 0; i < 10; i++ {
		if err := e.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(200, func() {
		if err := e.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		_ = e.Report()
	})
	if n != 0 {
		t.Fatalf("a frame allocates %v times, want 0", n)
	}
	if r := e.Report(); r.AllocBytes != 0 {
		t.Logf("report says %d bytes allocated in the last frame", r.AllocBytes)
	}
}

func allocWorld(t testing.TB, f *fixture) *scheduler.Scheduler {
	spawn := systems.System{Name: "spawn", Phase: systems.FrameEnd, Declare: func(s *systems.Decl) systems.RunFunc {
		sp := systems.NewSpawner1(s, f.health)
		return func(*systems.Context) {
			for range 4 {
				sp.Spawn(3)
			}
		}
	}}
	hit := systems.System{Name: "hit", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
		q := systems.NewQuery1(systems.Write(s, f.health))
		em := systems.Emit(s, f.hits)
		return func(*systems.Context) {
			for r, h := range q.All() {
				hp := r.Get()
				if *hp--; *hp <= 0 {
					em.Emit(h)
				}
			}
		}
	}}
	kill := systems.System{Name: "kill", Phase: systems.FrameStart, Declare: func(s *systems.Decl) systems.RunFunc {
		r := systems.Record(s, f.units)
		in := systems.Consume(s, f.hits)
		return func(*systems.Context) {
			for _, h := range in.Read() {
				r.Delete(h)
			}
		}
	}}
	return seal(t, scheduler.Config{Pacing: scheduler.OneTickPerFrame}, spawn, hit, kill)
}

func BenchmarkFrame(b *testing.B) {
	f := newFixture(b)
	s := allocWorld(b, f)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Frame(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
}

// With one tick per frame no fed time stands behind the tick, so a failure
// before it drops nothing, in the clock and in the report alike.
func TestSystemErrorOneTickPerFrameDropsNothing(t *testing.T) {
	boom := errors.New("boom")
	s := seal(t, scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame},
		body("fail", systems.FrameStart, func(ctx *systems.Context) { ctx.Fail(boom) }),
		body("tick", systems.FixedUpdate, noop))
	if err := s.Frame(0.016); !errors.Is(err, boom) {
		t.Fatalf("Frame = %v, want boom", err)
	}
	if tm := s.Time(); tm.Ticks != 0 || tm.Dropped != 0 {
		t.Fatalf("time after failure %+v, want no tick and nothing dropped", tm)
	}
	if r := s.Report(); r == nil || r.FixedTicks != 0 || r.Dropped != 0 {
		t.Fatalf("report after failure %+v, want no tick and nothing dropped", r)
	}
}

// TestFrameReentrant: Frame called from a system returns ErrReentrant and
// runs nothing; the running frame goes on.
func TestFrameReentrant(t *testing.T) {
	var s *scheduler.Scheduler
	runs, ticks := 0, 0
	var nested []error
	var running []bool
	s = seal(t, scheduler.Config{FixedStep: 0.01},
		body("nest", systems.Update, func(*systems.Context) {
			runs++
			running = append(running, s.Running())
			nested = append(nested, s.Frame(0.01))
		}),
		counter("tick", &ticks))
	assert.False(t, s.Running())
	require.NoError(t, s.Frame(0.01))
	require.NoError(t, s.Frame(0.01))
	assert.Equal(t, 2, runs, "the nested calls ran nothing")
	assert.Equal(t, 2, ticks)
	assert.Equal(t, []error{scheduler.ErrReentrant, scheduler.ErrReentrant}, nested)
	assert.Equal(t, []bool{true, true}, running)
	assert.False(t, s.Running())
	assert.Equal(t, uint64(2), s.Frames())
	assert.Equal(t, uint64(2), s.Time().Ticks)
}

// TestFrameAfterPanic: a system's panic does not leave the scheduler
// believing a frame still runs.
func TestFrameAfterPanic(t *testing.T) {
	boom := true
	s := seal(t, scheduler.Config{}, body("p", systems.Update, func(*systems.Context) {
		if boom {
			panic("boom")
		}
	}))
	pe := framePanic(t, s, 0.01)
	assert.Equal(t, "boom", pe.Value, "the system's panic, named (see errors_test.go)")
	assert.False(t, s.Running(), "the running flag is reset, so the error says why Frame refuses")
	boom = false
	assert.ErrorIs(t, s.Frame(0.01), scheduler.ErrPoisoned)
}

// A panic that escapes a frame poisons the scheduler: the aborted frame's
// buffers are never replayed into a later frame, because there is none.
func TestPanicPoisons(t *testing.T) {
	calls := 0
	s := seal(t, scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame},
		body("boom", systems.FixedUpdate, func(*systems.Context) {
			calls++
			if calls == 2 {
				panic("kernel bug")
			}
		}))
	if err := s.Frame(0.01); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if pe, ok := recover().(*scheduler.PanicError); !ok || pe.Value != "kernel bug" {
				t.Fatalf("recovered %v, want the system's panic in a *scheduler.PanicError", pe)
			}
		}()
		_ = s.Frame(0.01)
	}()
	if err := s.Frame(0.01); !errors.Is(err, scheduler.ErrPoisoned) {
		t.Fatalf("Frame after a panic = %v, want ErrPoisoned", err)
	}
	if calls != 2 {
		t.Fatalf("the system ran %d times, want 2 (nothing after the panic)", calls)
	}
}

// A create that playback cannot carry out (a full table) fails the frame's
// result, not only its report.
func TestPlaybackErrorReturned(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := seal(t, scheduler.Config{FixedStep: 0.01, Pacing: scheduler.OneTickPerFrame},
		systems.System{Name: "spawn", Phase: systems.FixedUpdate, Declare: func(s *systems.Decl) systems.RunFunc {
			rec := systems.Record(s, tab)
			return func(*systems.Context) {
				rec.Create()
				rec.Create()
				rec.Create()
			}
		}})
	err = s.Frame(0.01)
	if !errors.Is(err, commands.ErrPlayback) || !errors.Is(err, ephemeral.ErrCapacity) {
		t.Fatalf("Frame = %v, want a playback error wrapping ErrCapacity", err)
	}
	if r := s.Report(); r.Commands.Created != 2 || r.Commands.CapacityErrors != 1 || tab.Len() != 2 {
		t.Fatalf("created %d, capacity errors %d, rows %d; want 2, 1, 2", r.Commands.Created, r.Commands.CapacityErrors, tab.Len())
	}
	if err := s.Frame(0.01); !errors.Is(err, ephemeral.ErrCapacity) {
		t.Fatalf("next frame = %v: the world goes on, and reports again", err)
	}
}

// TestHitchIntegratesByFixedSteps: in FixedUpdate a system's DT is the
// fixed step, so a 200 ms hitch integrates by whole steps (capped) and never
// by the frame's delta; FrameDT is the frame's delta everywhere.
func TestHitchIntegratesByFixedSteps(t *testing.T) {
	const step = 1.0 / 64 // exact in binary: sums of steps are exact
	var x float64         // integrated position at 1 unit per second
	var fixedDT, frameDT, updateDT []float64
	s := seal(t, scheduler.Config{FixedStep: step, MaxTicksPerFrame: 8},
		body("move", systems.FixedUpdate, func(ctx *systems.Context) {
			x += 1 * ctx.DT()
			fixedDT = append(fixedDT, ctx.DT())
			frameDT = append(frameDT, ctx.FrameDT())
		}),
		body("draw", systems.Update, func(ctx *systems.Context) { updateDT = append(updateDT, ctx.DT()) }))
	deltas := []float64{step, step, 0.2, step, step}
	for _, dt := range deltas {
		require.NoError(t, s.Frame(dt))
	}
	tm := s.Time()
	// 0.2 s is 12.8 steps: 8 ticks run (the cap), 4 steps dropped.
	assert.Equal(t, uint64(12), tm.Ticks)
	assert.Equal(t, float64(tm.Ticks)*step, x, "x moved by one step per tick")
	assert.Equal(t, tm.Simulated.Seconds(), x)
	for i, d := range fixedDT {
		require.Equal(t, step, d, "tick %d", i)
	}
	assert.Equal(t, deltas, updateDT, "DT outside FixedUpdate is the frame's delta")
	assert.Contains(t, frameDT, 0.2, "FrameDT in FixedUpdate is the frame's delta")
	assert.Less(t, x, 0.2+4*step, "the hitch did not integrate by its delta")
}

// TestFrameErrorClasses: what Frame returns for each kind of failure, and
// which of them IsFatal calls fatal.
func TestFrameErrorClasses(t *testing.T) {
	ev, err := events.New[int](events.Spec{Name: "small", Capacity: 2})
	require.NoError(t, err)
	emits := 0
	s := seal(t, scheduler.Config{Pacing: scheduler.OneTickPerFrame},
		systems.System{Name: "noisy", Phase: systems.Update, Declare: func(s *systems.Decl) systems.RunFunc {
			e := systems.Emit(s, ev)
			return func(*systems.Context) {
				for range emits {
					e.Emit(1)
				}
			}
		}})
	emits = 3
	err = s.Frame(0.01)
	var oe *events.OverflowError
	require.ErrorAs(t, err, &oe, "an event dropped by overflow fails the frame's result")
	assert.ErrorIs(t, err, events.ErrOverflow)
	assert.Equal(t, "small", oe.Table)
	assert.Equal(t, int64(1), s.Report().EventsDropped)
	assert.False(t, scheduler.IsFatal(err))
	emits = 2
	require.NoError(t, s.Frame(0.01), "the next frame recovers")

	assert.False(t, scheduler.IsFatal(s.Frame(-1)), "a bad delta")
	assert.False(t, scheduler.IsFatal(&scheduler.SystemError{Err: errors.New("x")}))
	assert.False(t, scheduler.IsFatal(nil))
	assert.True(t, scheduler.IsFatal(scheduler.ErrPoisoned))
	assert.True(t, scheduler.IsFatal(errors.Join(errors.New("wrapped"), scheduler.ErrPoisoned)))
}

package runtime_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/plumb"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Event delivery through a real world (docs/architecture.md, Events):
// every consumer system reads every event exactly once, in emission order,
// whatever the number of fixed ticks of each frame.

const evStep = 0.01 // fixed step of the event worlds, in seconds

// emitted is what the harness knows of one event: a label for the logs and
// when it was emitted, for the reference model.
type emitted struct {
	label string
	frame uint64 // frame of the emit
	ticks uint64 // fixed ticks begun at the emit (a FixedUpdate emit counts its own tick)
}

// evRun is one run of a consumer and the events it read.
type evRun struct {
	frame uint64
	tick  uint64 // the running tick (FixedUpdate), else the ticks run so far
	read  []int32
}

// evEmitter and evConsumer declare the systems of an event world.
type evEmitter struct {
	name     string // also the label prefix of its events
	phase    systems.Phase
	parallel bool // emits one event per chunk through a ParallelEmitter
	after    []string
}

type evConsumer struct {
	name  string
	phase systems.Phase
	after []string
	emits bool // also emits, after reading, as a serial emitter of its name
}

// evWorld is a world with one event table of int32 (the event's index in
// the emission log), emitters and consumers.
type evWorld struct {
	w     *runtime.World
	ev    *events.Table[int32]
	log   []emitted          // every accepted event, in emission order
	runs  map[string][]evRun // consumer -> its runs (when record is set)
	count func(emitter string) int
	// record keeps the logs; off, consumers only sum what they read, so
	// that a frame allocates nothing.
	record  bool
	sum     int64
	refused int // events refused by overflow: *events.OverflowError from Emit, or dropped by a merge

}

// evKernel is a parallel emitter's kernel state: one event per chunk,
// labelled from base.
type evKernel struct {
	em   *systems.ParallelEmitter[int32]
	base int32
}

func (k *evKernel) chunk(w, c int) {
	if !k.em.Worker(w, c).Emit(k.base + int32(c)) {
		panic("refused") // sized so that a worker never overflows its staging
	}
}

func newEvWorld(tb testing.TB, spec events.Spec, ems []evEmitter, cons []evConsumer, opts ...runtime.Option) *evWorld {
	return newEvWorldOrdered(tb, spec, ems, cons, false, opts...)
}

// newEvWorldOrdered registers the consumers before the emitters when
// consumersFirst is set, so that in a phase with both they run first.
func newEvWorldOrdered(tb testing.TB, spec events.Spec, ems []evEmitter, cons []evConsumer, consumersFirst bool, opts ...runtime.Option) *evWorld {
	tb.Helper()
	x := &evWorld{runs: map[string][]evRun{}, record: true, count: func(string) int { return 1 }}
	b := runtime.NewBuilder(append([]runtime.Option{runtime.WithFixedStep(evStep)}, opts...)...)
	x.ev = runtime.AddEvents[int32](b, spec)
	require.NoError(tb, b.Err())
	var list []systems.System
	for _, e := range ems {
		list = append(list, systems.System{Name: e.name, Phase: e.phase, After: e.after,
			Declare: func(s *systems.Decl) systems.RunFunc { return x.emitRun(s, e) }})
	}
	for _, c := range cons {
		sys := systems.System{Name: c.name, Phase: c.phase, After: c.after, Declare: func(s *systems.Decl) systems.RunFunc {
			consume := x.consumeRun(s, c.name)
			if !c.emits {
				return consume
			}
			emit := x.emitRun(s, evEmitter{name: c.name, phase: c.phase})
			return func(ctx *systems.Context) {
				consume(ctx)
				emit(ctx)
			}
		}}
		if consumersFirst {
			list = slices.Insert(list, 0, sys)
		} else {
			list = append(list, sys)
		}
	}
	b.Add(list...)
	var err error
	x.w, err = b.Build()
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = x.w.Close() })
	return x
}

// stamp returns the emission stamp of an event emitted now by ctx.
func stamp(ctx *systems.Context) (frame, ticks uint64) {
	if ctx.Phase() == systems.FixedUpdate {
		return ctx.Frame(), ctx.Tick() + 1
	}
	return ctx.Frame(), ctx.Tick()
}

func (x *evWorld) label(name string, ctx *systems.Context) string {
	if !x.record {
		return ""
	}
	if ctx.Phase() == systems.FixedUpdate {
		return name + strconv.FormatUint(ctx.Tick(), 10)
	}
	return name + strconv.FormatUint(ctx.Frame(), 10)
}

func (x *evWorld) emitRun(s *systems.Decl, e evEmitter) systems.RunFunc {
	if e.parallel {
		k := evKernel{em: systems.EmitParallel(s, x.ev)}
		return func(ctx *systems.Context) {
			n := x.count(e.name)
			frame, ticks := stamp(ctx)
			k.base = int32(len(x.log))
			systems.Parallel(ctx, n, k, (*evKernel).chunk) // merged in chunk order when the run ends
			// The merge keeps what fits, a prefix in chunk order (the table
			// has readers: it holds Held() of its Cap()).
			kept := min(n, x.ev.Cap()-x.ev.Held())
			x.refused += n - kept
			for i := 0; i < kept && x.record; i++ {
				x.log = append(x.log, emitted{label: x.label(e.name, ctx) + "." + strconv.Itoa(i), frame: frame, ticks: ticks})
			}
		}
	}
	em := systems.Emit(s, x.ev)
	return func(ctx *systems.Context) {
		n := x.count(e.name)
		frame, ticks := stamp(ctx)
		for k := range n {
			if !em.Emit(int32(len(x.log))) {
				x.refused++
				continue
			}
			if !x.record {
				continue
			}
			l := x.label(e.name, ctx)
			if n > 1 {
				l += "." + strconv.Itoa(k)
			}
			x.log = append(x.log, emitted{label: l, frame: frame, ticks: ticks})
		}
	}
}

func (x *evWorld) consumeRun(s *systems.Decl, name string) systems.RunFunc {
	in := systems.Consume(s, x.ev)
	return func(ctx *systems.Context) {
		evs := in.Read()
		if !x.record {
			for _, v := range evs {
				x.sum += int64(v)
			}
			return
		}
		x.runs[name] = append(x.runs[name], evRun{frame: ctx.Frame(), tick: ctx.Tick(), read: slices.Clone(evs)})
	}
}

// logs renders each consumer's runs as "f3t1: x0 x1" (FixedUpdate: frame
// and running tick) or "f3: s2 u2" (frame phases).
func (x *evWorld) logs(fixed map[string]bool) map[string][]string {
	out := map[string][]string{}
	for name, runs := range x.runs {
		for _, r := range runs {
			s := "f" + strconv.FormatUint(r.frame, 10)
			if fixed[name] {
				s += "t" + strconv.FormatUint(r.tick, 10)
			}
			s += ":"
			for _, v := range r.read {
				s += " " + x.log[v].label
			}
			out[name] = append(out[name], s)
		}
	}
	return out
}

// frames runs one frame per delta (in fixed steps) and checks that the
// frame report counts exactly the events refused in the frame, and that
// the frame's result is the table's *events.OverflowError exactly when it
// refused one.
func (x *evWorld) frames(tb testing.TB, steps ...float64) {
	tb.Helper()
	for _, s := range steps {
		before := x.refused
		err := x.w.Frame(s * evStep)
		if x.refused > before {
			ops, _ := plumb.EventsOf(x.ev)
			require.NoError(tb, ops.Overflowed(), "taken by the frame")
			var oe *events.OverflowError
			require.ErrorAs(tb, err, &oe, "frame %d refused events", x.w.Frames()-1)
			require.Equal(tb, x.ev.Name(), oe.Table)
		} else {
			require.NoError(tb, err)
		}
		require.EqualValues(tb, x.refused-before, x.w.Report().EventsDropped, "frame %d", x.w.Frames()-1)
	}
}

// TestNextFrameDeliveryAcrossTicks: exact read logs for frames with no
// tick, then three ticks, one, none and one, with consumers in every kind
// of phase and emitters in FrameStart, FixedUpdate and Update. Frame
// consumers read in frame t+1 what frame t emitted; the FixedUpdate
// consumer reads at each tick what was emitted before that tick began, and
// holds events over frames that run no tick.
func TestNextFrameDeliveryAcrossTicks(t *testing.T) {
	x := newEvWorld(t, events.Spec{Name: "ev", Capacity: 64},
		[]evEmitter{{name: "s", phase: systems.FrameStart}, {name: "x", phase: systems.FixedUpdate}, {name: "u", phase: systems.Update}},
		[]evConsumer{{name: "start", phase: systems.FrameStart}, {name: "fixed", phase: systems.FixedUpdate},
			{name: "update", phase: systems.Update}, {name: "end", phase: systems.FrameEnd}})
	// Deltas in steps: 0.4, 0.4, 0.1 (no tick), 2.1 (3 ticks: 0, 1, 2), 1
	// (tick 3), 0 (none), 1 (tick 4).
	x.frames(t, 0.4, 0.4, 0.1, 2.1, 1, 0, 1)
	frameLog := []string{"f0:", "f1: s0 u0", "f2: s1 u1", "f3: s2 u2", "f4: s3 x0 x1 x2 u3", "f5: s4 x3 u4", "f6: s5 u5"}
	want := map[string][]string{
		"start": frameLog, "update": frameLog, "end": frameLog,
		"fixed": {"f3t0: s0 u0 s1 u1 s2 u2 s3", "f3t1: x0", "f3t2: x1", "f4t3: x2 u3 s4", "f6t4: x3 u4 s5 u5 s6"},
	}
	assert.Equal(t, want, x.logs(map[string]bool{"fixed": true}))
}

// TestThisFrameDeliveryAcrossTicks: a ThisFrame event is read once by every
// consumer that runs after its emit in its frame: a FixedUpdate consumer
// after the FixedUpdate emitter reads each tick's events in that tick, not
// again in later ticks; frame consumers read every tick's events once.
func TestThisFrameDeliveryAcrossTicks(t *testing.T) {
	x := newEvWorld(t, events.Spec{Name: "ev", Capacity: 64, Lifetime: events.ThisFrame},
		[]evEmitter{{name: "x", phase: systems.FixedUpdate}},
		[]evConsumer{{name: "fixed", phase: systems.FixedUpdate, after: []string{"x"}},
			{name: "late", phase: systems.LateUpdate}, {name: "end", phase: systems.FrameEnd}})
	x.frames(t, 0.4, 0.4, 0.1, 2.1, 1, 0, 1)
	frameLog := []string{"f0:", "f1:", "f2:", "f3: x0 x1 x2", "f4: x3", "f5:", "f6: x4"}
	want := map[string][]string{
		"late": frameLog, "end": frameLog,
		"fixed": {"f3t0: x0", "f3t1: x1", "f3t2: x2", "f4t3: x3", "f6t4: x4"},
	}
	assert.Equal(t, want, x.logs(map[string]bool{"fixed": true}))
}

// TestThisFrameSelfConsumer: a system that consumes and emits a ThisFrame
// table reads the other emitters' events, not its own; its own reach the
// consumers after it, and nothing counts as dropped.
func TestThisFrameSelfConsumer(t *testing.T) {
	fixed := newEvWorld(t, events.Spec{Name: "ev", Capacity: 16, Lifetime: events.ThisFrame},
		[]evEmitter{{name: "x", phase: systems.FixedUpdate}},
		[]evConsumer{{name: "fself", phase: systems.FixedUpdate, after: []string{"x"}, emits: true},
			{name: "late", phase: systems.LateUpdate}})
	fixed.frames(t, 0, 2, 1) // frames() checks that nothing was dropped
	assert.Equal(t, map[string][]string{
		"fself": {"f1t0: x0", "f1t1: x1", "f2t2: x2"},
		"late":  {"f0:", "f1: x0 fself0 x1 fself1", "f2: x2 fself2"},
	}, fixed.logs(map[string]bool{"fself": true}))

	update := newEvWorld(t, events.Spec{Name: "ev", Capacity: 16, Lifetime: events.ThisFrame},
		[]evEmitter{{name: "u", phase: systems.Update}},
		[]evConsumer{{name: "self", phase: systems.Update, after: []string{"u"}, emits: true}, {name: "end", phase: systems.FrameEnd}})
	update.frames(t, 0, 2, 1)
	assert.Equal(t, map[string][]string{
		"self": {"f0: u0", "f1: u1", "f2: u2"},
		"end":  {"f0: u0 self0", "f1: u1 self1", "f2: u2 self2"},
	}, update.logs(nil))
}

// TestThisFrameFixedConsumerRefused: a FixedUpdate consumer of a ThisFrame
// table emitted in FrameStart would miss the events of every frame that
// runs no tick (and, before cursors, read them once per tick): Seal refuses
// it.
func TestThisFrameFixedConsumerRefused(t *testing.T) {
	b := runtime.NewBuilder()
	ev := runtime.AddEvents[int32](b, events.Spec{Name: "ev", Capacity: 8, Lifetime: events.ThisFrame})
	b.System("emit", systems.FrameStart, func(s *systems.Decl) systems.RunFunc { systems.Emit(s, ev); return noop })
	b.System("fixed", systems.FixedUpdate, func(s *systems.Decl) systems.RunFunc { systems.Consume(s, ev); return noop })
	_, err := b.Build()
	var eo *scheduler.EventOrderError
	require.ErrorAs(t, err, &eo)
	assert.ErrorIs(t, err, scheduler.ErrEventOrder)
	assert.Equal(t, scheduler.EventOrderError{Consumer: "fixed", ConsumerPhase: systems.FixedUpdate,
		Emitter: "emit", EmitterPhase: systems.FrameStart, Events: "ev"}, *eo)
}

// TestThisFrameUnreadCounted: a ThisFrame event that a consumer has not
// read when its frame ends (the host emitted it, and the frame ran no
// tick for the FixedUpdate consumer) is counted in the frame report, once
// per consumer that missed it.
func TestThisFrameUnreadCounted(t *testing.T) {
	x := newEvWorld(t, events.Spec{Name: "ev", Capacity: 8, Lifetime: events.ThisFrame}, nil,
		[]evConsumer{{name: "fixed", phase: systems.FixedUpdate}, {name: "update", phase: systems.Update}})
	host := func(v int32) {
		require.NoError(t, x.ev.Emit(v))
		x.log = append(x.log, emitted{label: "h" + strconv.Itoa(int(v))})
	}
	host(0)
	require.NoError(t, x.w.Frame(0)) // no tick: "fixed" misses h0
	assert.EqualValues(t, 1, x.w.Report().EventsDropped)
	host(1)
	require.NoError(t, x.w.Frame(evStep))
	assert.EqualValues(t, 0, x.w.Report().EventsDropped)
	assert.Equal(t, map[string][]string{"fixed": {"f1t0: h1"}, "update": {"f0: h0", "f1: h1"}},
		x.logs(map[string]bool{"fixed": true}))
}

// TestNextFrameRetentionOverflow: a FixedUpdate consumer that runs no tick
// for many frames holds the events it has not read; once they fill the
// table's capacity, further emits are refused with *events.OverflowError
// and counted in the frame report, never dropped silently; the held events
// are all delivered at the next tick, and emits succeed again.
func TestNextFrameRetentionOverflow(t *testing.T) {
	x := newEvWorld(t, events.Spec{Name: "ev", Capacity: 4},
		[]evEmitter{{name: "u", phase: systems.Update}},
		[]evConsumer{{name: "fixed", phase: systems.FixedUpdate}, {name: "update", phase: systems.Update, after: []string{"u"}}})
	for f := range 10 { // no tick
		err := x.w.Frame(0)
		want := int64(0)
		if f >= 4 {
			want = 1 // u's event does not fit: u0..u3 wait for "fixed"
			assert.ErrorIs(t, err, events.ErrOverflow, "frame %d", f)
			assert.False(t, runtime.IsFatal(err))
		} else {
			require.NoError(t, err)
		}
		assert.Equal(t, want, x.w.Report().EventsDropped, "frame %d", f)
	}
	assert.Equal(t, 6, x.refused)
	require.NoError(t, x.w.Frame(evStep)) // tick 0: "fixed" reads u0..u3; u10 fits again
	assert.Zero(t, x.w.Report().EventsDropped)
	require.NoError(t, x.w.Frame(evStep))
	logs := x.logs(map[string]bool{"fixed": true})
	assert.Equal(t, []string{"f10t0: u0 u1 u2 u3", "f11t1: u10"}, logs["fixed"])
	assert.Equal(t, []string{"f0:", "f1: u0", "f2: u1", "f3: u2", "f4: u3", "f5:", "f6:", "f7:", "f8:", "f9:", "f10:", "f11: u10"},
		logs["update"])
}

// TestEventDeliveryProperty: over random frame deltas (many frames with no
// tick, some with several) and random emit counts, in emitters of every
// phase (one FixedUpdate emitter parallel, on two workers), every consumer
// reads, in each run, exactly the events emitted before its boundary that
// it has not read yet (frame consumers: before the frame began; FixedUpdate
// consumers: before the tick began), in emission order; after a flush, each
// has read the whole log exactly once. Odd seeds use a small capacity, so
// that the FixedUpdate consumers' held events fill it: then every refused
// emit is counted in its frame's report, and every accepted one delivered.
func TestEventDeliveryProperty(t *testing.T) {
	ems := []evEmitter{{name: "s", phase: systems.FrameStart}, {name: "x", phase: systems.FixedUpdate},
		{name: "p", phase: systems.FixedUpdate, parallel: true, after: []string{"x"}}, {name: "u", phase: systems.Update},
		{name: "l", phase: systems.LateUpdate}, {name: "e", phase: systems.FrameEnd}}
	cons := []evConsumer{{name: "cs", phase: systems.FrameStart}, {name: "cx", phase: systems.FixedUpdate},
		{name: "cx2", phase: systems.FixedUpdate}, {name: "cu", phase: systems.Update},
		{name: "cl", phase: systems.LateUpdate}, {name: "ce", phase: systems.FrameEnd}}
	fixed := map[string]bool{"cx": true, "cx2": true}
	seeds, frames := 300, 100
	if testing.Short() {
		seeds = 20
	}
	refused := 0 // over the small-capacity seeds
	for seed := range seeds {
		t.Run("seed="+strconv.Itoa(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 9))
			// Seeds 2, 3 mod 4 run each phase's consumers before its emitters
			// (the rule must not depend on the order within a phase).
			capacity := 1 << 14
			if seed%2 == 1 {
				capacity = 8 + rng.IntN(24)
			}
			x := newEvWorldOrdered(t, events.Spec{Name: "ev", Capacity: capacity}, ems, cons, seed%4 >= 2,
				runtime.WithWorkers(2), runtime.WithMaxTicksPerFrame(4))
			flushing := false
			x.count = func(string) int {
				if flushing {
					return 0
				}
				return rng.IntN(4)
			}
			deltas := []float64{0, 0, 0.3, 0.7, 1, 1, 2.5, 4}
			for range frames {
				x.frames(t, deltas[rng.IntN(len(deltas))])
			}
			flushing = true
			x.frames(t, 1, 1)
			for _, c := range cons {
				runs := x.runs[c.name]
				next := 0 // the model's cursor: events read so far
				var all []int32
				for i, r := range runs {
					end := next
					for end < len(x.log) && readable(x.log[end], r, fixed[c.name]) {
						end++
					}
					want := make([]int32, 0, end-next)
					for v := next; v < end; v++ {
						want = append(want, int32(v))
					}
					if !slices.Equal(r.read, want) {
						t.Fatalf("%s run %d (frame %d, tick %d) read %v, want %v", c.name, i, r.frame, r.tick, r.read, want)
					}
					next = end
					all = append(all, r.read...)
				}
				require.Len(t, all, len(x.log), "%s: every event exactly once", c.name)
			}
			if seed%2 == 0 {
				assert.Zero(t, x.refused, "nothing refused at the large capacity")
			}
			refused += x.refused
		})
	}
	assert.Greater(t, refused, seeds, "the small capacities overflow")
}

// readable is the delivery rule of the model: a frame consumer reads what
// was emitted in earlier frames, a FixedUpdate consumer what was emitted
// before its tick began.
func readable(e emitted, r evRun, fixed bool) bool {
	if fixed {
		return e.ticks <= r.tick
	}
	return e.frame < r.frame
}

// TestEventDeliveryZeroAlloc: frames with 0, 1 and 3 ticks through emitters
// and consumers of both lifetimes allocate nothing, by AllocsPerRun and by
// the frame report's byte count.
func TestEventDeliveryZeroAlloc(t *testing.T) {
	for _, life := range []events.Lifetime{events.NextFrame, events.ThisFrame} {
		t.Run(life.String(), func(t *testing.T) {
			ems := []evEmitter{{name: "x", phase: systems.FixedUpdate}, {name: "p", phase: systems.FixedUpdate, parallel: true, after: []string{"x"}}}
			cons := []evConsumer{{name: "fixed", phase: systems.FixedUpdate, after: []string{"p"}}, {name: "end", phase: systems.FrameEnd}}
			if life == events.NextFrame { // a ThisFrame FixedUpdate consumer may have FixedUpdate emitters only
				ems = append(ems, evEmitter{name: "u", phase: systems.Update})
				cons = append(cons, evConsumer{name: "start", phase: systems.FrameStart}, evConsumer{name: "update", phase: systems.Update})
			}
			x := newEvWorld(t, events.Spec{Name: "ev", Capacity: 1024, Lifetime: life}, ems, cons, runtime.WithWorkers(2))
			x.record = false
			x.count = func(string) int { return 5 }
			warm := true // the first ticks make per-worker state and merge scratch
			cycle := func() {
				for _, s := range []float64{0, 0.5, 1, 3, 0} {
					require.NoError(t, x.w.Frame(s*evStep))
					r := x.w.Report()
					if !warm && (r.AllocBytes != 0 || r.EventsDropped != 0) {
						t.Fatalf("frame %d: %d B allocated, %d events dropped", x.w.Frames()-1, r.AllocBytes, r.EventsDropped)
					}
				}
			}
			cycle()
			cycle()
			warm = false
			assert.Zero(t, testing.AllocsPerRun(50, cycle), "allocations per 5 frames")
			assert.NotZero(t, x.sum, "consumers read events")
		})
	}
}

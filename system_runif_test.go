package tickwork_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

const runIfStep = 1.0 / 60

// gateWorld is a world whose FixedUpdate system "toggle" sets the
// resource gate to tick%3 != 1 each tick, before "work" (FixedUpdate),
// which runs only while gate holds and logs the ticks it ran at; "late"
// (Update) runs only while gate holds too and logs the frames it ran at.
type gateWorld struct {
	w           *tickwork.World
	gate        *tickwork.Resource[bool]
	ticks       []uint64 // ticks work ran at
	frames      []uint64 // frames late ran at
	conditioned int      // condition evaluations of work
}

func newGateWorld(t testing.TB, workers int) *gateWorld {
	g := &gateWorld{ticks: make([]uint64, 0, 1024), frames: make([]uint64, 0, 1024)}
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(runIfStep))
	g.gate = tickwork.AddResource(b, "gate", true)
	b.Add(tickwork.System{Name: "toggle", Phase: tickwork.FixedUpdate, Before: []string{"work"},
		Declare: func(d *tickwork.Decl) tickwork.RunFunc {
			gate := tickwork.WriteResource(d, g.gate)
			return func(ctx *tickwork.Context) { *gate = ctx.Tick()%3 != 1 }
		}})
	b.System("work", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			gate := tickwork.ReadResource(c, g.gate)
			return func(*tickwork.Context) bool { g.conditioned++; return *gate }
		})
		n := d.Counter("runs")
		return func(ctx *tickwork.Context) { g.ticks = append(g.ticks, ctx.Tick()); n.Add(1) }
	})
	b.System("late", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			gate := tickwork.ReadResource(c, g.gate)
			return func(*tickwork.Context) bool { return *gate }
		})
		return func(ctx *tickwork.Context) { g.frames = append(g.frames, ctx.Frame()) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	g.w = w
	return g
}

// TestRunIfFlipsPerTick: a condition that an earlier system flips every
// tick is asked once per fixed tick, at the system's slot, and the system
// runs exactly at the ticks where it holds; an Update system sees the last
// tick's value (or the one before the frame when it ran no tick), at 1 and
// 2 workers, over frames of 0, 1 and 3 ticks. The frame report counts each
// skipped run in Skips and nothing of it in Runs, Total or the counter.
func TestRunIfFlipsPerTick(t *testing.T) {
	ticksPerFrame := []int{0, 1, 3, 3, 0, 1, 1, 3, 0, 0, 3, 1}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			g := newGateWorld(t, workers)
			var wantTicks, wantFrames []uint64
			tick, gate := uint64(0), true
			for frame, n := range ticksPerFrame {
				runs, skips := 0, 0
				for range n {
					gate = tick%3 != 1
					if gate {
						wantTicks = append(wantTicks, tick)
						runs++
					} else {
						skips++
					}
					tick++
				}
				if gate {
					wantFrames = append(wantFrames, uint64(frame))
				}
				require.NoError(t, g.w.Frame(float64(n)*runIfStep))
				r := g.w.Report()
				require.Equal(t, n, r.FixedTicks, "frame %d", frame)
				work := r.System("work")
				assert.Equal(t, runs, work.Runs, "frame %d: runs", frame)
				assert.Equal(t, skips, work.Skips, "frame %d: skips", frame)
				assert.Equal(t, runs == 0 && skips > 0, work.Skipped(), "frame %d", frame)
				v, _ := work.Counter("runs")
				assert.Equal(t, int64(runs), v, "frame %d: counter", frame)
				if runs == 0 {
					assert.Zero(t, work.Total, "frame %d: a skipped system's time", frame)
					assert.Zero(t, work.Workers, "frame %d", frame)
				}
				late := r.System("late")
				if gate {
					assert.Equal(t, [2]int{1, 0}, [2]int{late.Runs, late.Skips}, "frame %d: late", frame)
				} else {
					assert.Equal(t, [2]int{0, 1}, [2]int{late.Runs, late.Skips}, "frame %d: late", frame)
					assert.Zero(t, late.Total, "frame %d: a skipped system's time", frame)
				}
				assert.Equal(t, skips+late.Skips, r.Skips(), "frame %d", frame)
			}
			assert.Equal(t, wantTicks, g.ticks)
			assert.Equal(t, wantFrames, g.frames)
			assert.Equal(t, int(tick), g.conditioned, "the condition is asked once per tick")
		})
	}
}

// TestRunIfReportString: the frame report's and a system's String show
// the skipped runs.
func TestRunIfReportString(t *testing.T) {
	g := newGateWorld(t, 1)
	require.NoError(t, g.w.Frame(2*runIfStep)) // ticks 0 (runs) and 1 (skipped); late skipped
	r := g.w.Report()
	assert.Contains(t, r.String(), ", 2 runs skipped, ")
	s := r.System("work").String()
	assert.Contains(t, s, `"work" (FixedUpdate): 1 run, 1 skipped, `)
	require.NoError(t, g.w.Frame(runIfStep)) // tick 2 runs
	r = g.w.Report()
	assert.NotContains(t, r.String(), "skipped")
	assert.Contains(t, r.System("late").String(), `"late" (Update): 1 run, 0 skipped, `)
}

// TestRunIfAllocatesNothing: frames whose conditions hold, fail and flip
// allocate nothing, at 1 and 2 workers.
func TestRunIfAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		g2 := newAllocGate(t, workers)
		for range 10 {
			require.NoError(t, g2.Frame(3*runIfStep))
		}
		k := 0
		allocs := testing.AllocsPerRun(200, func() {
			k++
			_ = g2.Frame(float64(k%4) * runIfStep)
		})
		assert.Zero(t, allocs, "workers=%d", workers)
	}
}

// newAllocGate is gateWorld without the logs: "work" writes a column over
// a table of 300 rows in a kernel when gate holds.
func newAllocGate(t testing.TB, workers int) *tickwork.World {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(runIfStep))
	gate := tickwork.AddResource(b, "gate", true)
	tab := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 1024})
	hp := tickwork.AddColumn[int32](b, tab, "HP")
	b.Add(tickwork.System{Name: "toggle", Phase: tickwork.FixedUpdate, Before: []string{"work"},
		Declare: func(d *tickwork.Decl) tickwork.RunFunc {
			g := tickwork.WriteResource(d, gate)
			return func(ctx *tickwork.Context) { *g = ctx.Tick()%3 != 1 }
		}})
	b.System("work", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			g := tickwork.ReadResource(c, gate)
			return func(*tickwork.Context) bool { return *g }
		})
		q := tickwork.NewQuery1(tickwork.Write(d, hp))
		return func(ctx *tickwork.Context) {
			for r := range q.All() {
				*r.Get()++
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	for range 300 {
		_, err := tab.Insert()
		require.NoError(t, err)
	}
	return w
}

// TestRunIfConflictNamesBoth is the case of bevy #1693: a writer of what a
// run condition reads, unordered with the conditioned system, is a
// conflict Build refuses naming both systems and the datum, for a
// resource and for a column; ordering the pair builds.
func TestRunIfConflictNamesBoth(t *testing.T) {
	build := func(ordered, column bool) error {
		b := tickwork.NewBuilder()
		paused := tickwork.AddResource(b, "paused", false)
		match := b.Table(tickwork.TableSpec{Name: "Match", Capacity: 1})
		on := tickwork.AddColumn[bool](b, match, "on")
		pause := tickwork.System{Name: "pause", Phase: tickwork.Update, Declare: func(d *tickwork.Decl) tickwork.RunFunc {
			p, o := tickwork.WriteResource(d, paused), tickwork.Write(d, on)
			return func(*tickwork.Context) { *p = !*p; _ = o }
		}}
		if ordered {
			pause.Before = []string{"play"}
		}
		b.Add(pause)
		b.System("play", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
				if column {
					q := tickwork.NewQuery1(tickwork.Read(c, on))
					return func(*tickwork.Context) bool {
						for r := range q.All() {
							return *r.Get()
						}
						return false
					}
				}
				p := tickwork.ReadResource(c, paused)
				return func(*tickwork.Context) bool { return !*p }
			})
			return func(*tickwork.Context) {}
		})
		w, err := b.Build()
		if err == nil {
			_ = w.Close()
		}
		return err
	}
	for _, column := range []bool{false, true} {
		datum, want := "resource paused", `Update: "pause" (write) and "play" (read by run condition) both touch resource paused`
		if column {
			datum, want = "Match.on", `Update: "pause" (write) and "play" (read by run condition) both touch Match.on`
		}
		t.Run(datum, func(t *testing.T) {
			err := build(false, column)
			require.ErrorIs(t, err, tickwork.ErrConflict)
			var ce *tickwork.ConflictError
			require.ErrorAs(t, err, &ce)
			require.Len(t, ce.Conflicts, 1)
			c := ce.Conflicts[0]
			assert.Equal(t, [2]string{"pause", "play"}, [2]string{c.A, c.B})
			assert.Equal(t, datum, c.Overlap.Datum)
			assert.Equal(t, want, c.String())
			assert.NoError(t, build(true, column))
		})
	}
}

// TestRunIfRefusesWhatIsNotARead: a condition's declaration that asks for
// an accessor that writes, records, emits or counts fails Build with
// ErrConditionAccess naming the system and the call; a nil test fails it
// with ErrBadDeclaration; a nil declaration and RunIf on a condition's
// Decl panic in the DeclareFunc (ErrDeclarePanic, saying the fix).
func TestRunIfRefusesWhatIsNotARead(t *testing.T) {
	cases := []struct {
		name string
		cond func(c *tickwork.Decl, tab *tickwork.Table, hp *tickwork.Column[int32], res *tickwork.Resource[int], ev *tickwork.Events[int]) tickwork.CondFunc
		err  error
		msg  string
	}{
		{"Write", func(c *tickwork.Decl, _ *tickwork.Table, hp *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.Write(c, hp)
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "Write in a run condition (RunIf): a condition only reads"},
		{"WriteResource", func(c *tickwork.Decl, _ *tickwork.Table, _ *tickwork.Column[int32], res *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.WriteResource(c, res)
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "WriteResource in a run condition"},
		{"Record", func(c *tickwork.Decl, tab *tickwork.Table, _ *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.Record(c, tab)
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "Record in a run condition"},
		{"Spawner", func(c *tickwork.Decl, _ *tickwork.Table, hp *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.NewSpawner1(c, hp)
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "NewSpawner1 in a run condition"},
		{"Emit", func(c *tickwork.Decl, _ *tickwork.Table, _ *tickwork.Column[int32], _ *tickwork.Resource[int], ev *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.Emit(c, ev)
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "Emit in a run condition"},
		{"Counter", func(c *tickwork.Decl, _ *tickwork.Table, _ *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			c.Counter("n")
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrConditionAccess, "Counter in a run condition"},
		{"nil test", func(c *tickwork.Decl, _ *tickwork.Table, hp *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			tickwork.Read(c, hp)
			return nil
		}, tickwork.ErrBadDeclaration, "RunIf: the condition's declaration returned a nil test"},
		{"nested RunIf", func(c *tickwork.Decl, _ *tickwork.Table, _ *tickwork.Column[int32], _ *tickwork.Resource[int], _ *tickwork.Events[int]) tickwork.CondFunc {
			c.RunIf(func(*tickwork.Decl) tickwork.CondFunc { return nil })
			return func(*tickwork.Context) bool { return true }
		}, tickwork.ErrDeclarePanic, "RunIf inside a run condition's declaration"},
		{"nil declaration", nil, tickwork.ErrDeclarePanic, "RunIf(nil) in system \"gated\": pass a function"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := tickwork.NewBuilder()
			tab := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 8})
			hp := tickwork.AddColumn[int32](b, tab, "HP")
			res := tickwork.AddResource(b, "score", 0)
			ev := tickwork.AddEvents[int](b, tickwork.EventSpec{Name: "Hit", Capacity: 8, MayGoUnread: true})
			b.System("gated", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				if tc.cond == nil {
					d.RunIf(nil)
				} else {
					d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc { return tc.cond(c, tab, hp, res, ev) })
				}
				return func(*tickwork.Context) {}
			})
			w, err := b.Build()
			if err == nil {
				_ = w.Close()
			}
			require.ErrorIs(t, err, tc.err)
			require.ErrorIs(t, err, tickwork.ErrSystemDefinition)
			assert.Contains(t, err.Error(), `system "gated"`)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestRunIfMisuseAtRunPanics: a condition that records through the body's
// recorder, adds to the body's counter or emits through the body's emitter
// panics in the frame naming the system (a *PanicError).
func TestRunIfMisuseAtRunPanics(t *testing.T) {
	for _, misuse := range []string{"record", "count", "emit"} {
		t.Run(misuse, func(t *testing.T) {
			b := tickwork.NewBuilder()
			tab := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 8})
			ev := tickwork.AddEvents[int](b, tickwork.EventSpec{Name: "Hit", Capacity: 8})
			b.System("gated", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				rec := tickwork.Record(d, tab)
				n := d.Counter("n")
				em := tickwork.Emit(d, ev)
				d.RunIf(func(*tickwork.Decl) tickwork.CondFunc {
					return func(*tickwork.Context) bool {
						switch misuse {
						case "record":
							rec.Create()
						case "count":
							n.Add(1)
						default:
							em.Emit(1)
						}
						return true
					}
				})
				return func(*tickwork.Context) {}
			})
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			defer func() {
				r := recover()
				var pe *tickwork.PanicError
				require.True(t, errors.As(r.(error), &pe), "%v", r)
				assert.Equal(t, "gated", pe.System)
				switch misuse {
				case "record":
					assert.Contains(t, fmt.Sprint(pe.Value), `a run condition of system "gated" recorded commands: a condition only reads`)
				case "count":
					assert.Contains(t, fmt.Sprint(pe.Value), "outside its body")
				default:
					assert.Contains(t, fmt.Sprint(pe.Value), `a run condition of system "gated" emitted events: a condition only reads`)
				}
			}()
			_ = w.Frame(runIfStep)
			t.Fatal("Frame did not panic")
		})
	}
}

// TestRunIfFailStopsTheFrame: a condition that fails (Context.Fail) skips
// its system and fails the frame with a *SystemError naming it, as a body's
// failure does.
func TestRunIfFailStopsTheFrame(t *testing.T) {
	b := tickwork.NewBuilder()
	bad := errors.New("no match")
	after := 0
	b.System("gated", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(*tickwork.Decl) tickwork.CondFunc {
			return func(ctx *tickwork.Context) bool { ctx.Fail(bad); return true }
		})
		return func(*tickwork.Context) { t.Error("the body of a failed condition ran") }
	})
	b.Add(tickwork.System{Name: "after", Phase: tickwork.Update, After: []string{"gated"},
		Declare: func(*tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) { after++ } }})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	err = w.Frame(runIfStep)
	require.ErrorIs(t, err, bad)
	var se *tickwork.SystemError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "gated", se.System)
	assert.Zero(t, after)
	assert.Equal(t, 1, w.Report().System("gated").Skips)
}

// TestRunIfSkippedConsumerEvents: a skipped run is a run that did not
// happen (docs/architecture.md, Run conditions). A consumer of a NextFrame
// table skipped for some frames reads, at its next run, every event it has
// not read, once each, in emission order; a skipped consumer of a
// ThisFrame table misses that frame's events, counted in EventsDropped. A
// condition that reads the events its body reads sees, after skipped runs,
// everything not yet passed (its reads of a skipped run are not passed).
func TestRunIfSkippedConsumerEvents(t *testing.T) {
	b := tickwork.NewBuilder()
	awake := tickwork.AddResource(b, "awake", true)
	shots := tickwork.AddEvents[uint64](b, tickwork.EventSpec{Name: "Shot", Capacity: 64})
	now := tickwork.AddEvents[uint64](b, tickwork.EventSpec{Name: "Now", Capacity: 64, Lifetime: tickwork.ThisFrame})
	b.System("shoot", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		s, n := tickwork.Emit(d, shots), tickwork.Emit(d, now)
		return func(ctx *tickwork.Context) { s.Emit(ctx.Frame()); n.Emit(ctx.Frame()) }
	})
	var heard, heardNow [][]uint64
	b.Add(tickwork.System{Name: "listen", Phase: tickwork.Update, After: []string{"shoot"}, Declare: func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			a := tickwork.ReadResource(c, awake)
			return func(*tickwork.Context) bool { return *a }
		})
		s, n := tickwork.Consume(d, shots), tickwork.Consume(d, now)
		return func(*tickwork.Context) {
			heard = append(heard, append([]uint64(nil), s.Read()...))
			heardNow = append(heardNow, append([]uint64(nil), n.Read()...))
		}
	}})
	var peeked [][]uint64
	b.System("peek", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		var s *tickwork.Consumer[uint64]
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			s = tickwork.Consume(c, shots)
			return func(*tickwork.Context) bool { return len(s.Read()) >= 3 }
		})
		return func(*tickwork.Context) { peeked = append(peeked, append([]uint64(nil), s.Read()...)) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	pattern := []bool{true, false, false, true, true, false, true}
	for frame, a := range pattern {
		*awake.Get() = a
		require.NoError(t, w.Frame(runIfStep))
		dropped := int64(0)
		if !a {
			dropped = 1 // this frame's Now event, which listen did not read
		}
		assert.Equal(t, dropped, w.Report().EventsDropped, "frame %d", frame)
	}
	assert.Equal(t, [][]uint64{nil, {0, 1, 2}, {3}, {4, 5}}, heard)
	assert.Equal(t, [][]uint64{{0}, {3}, {4}, {6}}, heardNow)
	assert.Equal(t, [][]uint64{{0, 1, 2}, {3, 4, 5}}, peeked)
}

// TestRunIfOverAColumn: a condition over a query of a one-row table's
// column (Match.on) follows the value the host writes between frames, and
// the body may read through the condition's accessor.
func TestRunIfOverAColumn(t *testing.T) {
	b := tickwork.NewBuilder()
	match := b.Table(tickwork.TableSpec{Name: "Match", Capacity: 1})
	on := tickwork.AddColumn[bool](b, match, "on")
	var runs []bool
	var row tickwork.Handle // Match's row, inserted after Build
	b.System("play", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		var r tickwork.ReadColumn[bool]
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			r = tickwork.Read(c, on)
			return func(*tickwork.Context) bool { v, _ := r.Get(row); return v }
		})
		return func(*tickwork.Context) { v, _ := r.Get(row); runs = append(runs, v) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err := match.Insert()
	require.NoError(t, err)
	row = h
	pattern := []bool{false, true, true, false, true}
	want := 0
	for frame, v := range pattern {
		on.Set(h, v)
		require.NoError(t, w.Frame(runIfStep))
		s := w.Report().System("play")
		if v {
			want++
		}
		assert.Equal(t, [2]int{b2i(v), b2i(!v)}, [2]int{s.Runs, s.Skips}, "frame %d", frame)
	}
	assert.Len(t, runs, want)
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// TestRunIfPanicNamesTheSystem: a panic in a condition comes out of Frame
// as a *PanicError naming the system, as a panic in its body does.
func TestRunIfPanicNamesTheSystem(t *testing.T) {
	b := tickwork.NewBuilder()
	b.System("gated", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(*tickwork.Decl) tickwork.CondFunc {
			return func(*tickwork.Context) bool { panic("no match") }
		})
		return func(*tickwork.Context) {}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	defer func() {
		var pe *tickwork.PanicError
		require.True(t, errors.As(recover().(error), &pe))
		assert.Equal(t, "gated", pe.System)
		assert.Equal(t, "no match", pe.Value)
	}()
	_ = w.Frame(runIfStep)
	t.Fatal("Frame did not panic")
}

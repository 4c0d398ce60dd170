package scheduler_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

type fixture struct {
	units, bodies *ephemeral.Table
	health        *ephemeral.Column[int32]
	x, y          *ephemeral.Column[float32]
	hits          *events.Table[ephemeral.Handle]
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{}
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 256})
	must(err)
	f.units, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d})
	must(err)
	f.bodies, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
	must(err)
	f.health, err = ephemeral.AddColumn[int32](f.units, "health")
	must(err)
	f.x, err = ephemeral.AddColumn[float32](f.bodies, "x")
	must(err)
	f.y, err = ephemeral.AddColumn[float32](f.bodies, "y")
	must(err)
	f.hits, err = events.New[ephemeral.Handle](events.Spec{Name: "hits", Capacity: 64})
	must(err)
	return f
}

func noop(*systems.Context) {}

// acc is one accessor a test system asks its declaration for.
type acc func(s *systems.Decl)

func rd[T any](c *ephemeral.Column[T]) acc { return func(s *systems.Decl) { systems.Read(s, c) } }
func wr[T any](c *ephemeral.Column[T]) acc { return func(s *systems.Decl) { systems.Write(s, c) } }
func rec(t *ephemeral.Table) acc           { return func(s *systems.Decl) { systems.Record(s, t) } }
func emit[T any](ev *events.Table[T]) acc  { return func(s *systems.Decl) { systems.Emit(s, ev) } }
func consume[T any](ev *events.Table[T]) acc {
	return func(s *systems.Decl) { systems.Consume(s, ev) }
}

// sys is a system whose declaration asks for accs and whose body does
// nothing.
func sys(name string, p systems.Phase, accs ...acc) systems.System {
	return systems.System{Name: name, Phase: p, Declare: declare(noop, accs...)}
}

func declare(body systems.RunFunc, accs ...acc) systems.DeclareFunc {
	return func(s *systems.Decl) systems.RunFunc {
		for _, a := range accs {
			a(s)
		}
		return body
	}
}

func newScheduler(t testing.TB, list ...systems.System) *scheduler.Scheduler {
	t.Helper()
	s, err := scheduler.New(scheduler.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list {
		if err := s.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func conflictStrings(t *testing.T, err error) []string {
	t.Helper()
	var ce *scheduler.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, scheduler.ErrConflict) {
		t.Fatalf("Seal() = %v, want a *ConflictError", err)
	}
	var out []string
	for _, c := range ce.Conflicts {
		out = append(out, c.String())
	}
	return out
}

func TestConflictsReported(t *testing.T) {
	f := newFixture(t)
	s := newScheduler(t,
		sys("move", systems.FixedUpdate, wr(f.x), wr(f.y)),
		sys("look", systems.FixedUpdate, rd(f.x)),
		sys("heal", systems.FixedUpdate, wr(f.health)),
		sys("kill", systems.FixedUpdate, rd(f.health), rec(f.units)),
		sys("draw", systems.Update, rd(f.x), rd(f.y)), // other phase: no conflict with move
		sys("ready", systems.FixedUpdate, rd(f.y)),
		sys("spawn", systems.FixedUpdate, rec(f.bodies)),
	)
	got := conflictStrings(t, s.Seal())
	want := []string{
		`FixedUpdate: "move" (write) and "look" (read) both touch Body.x`,
		`FixedUpdate: "move" (write) and "ready" (read) both touch Body.y`,
		`FixedUpdate: "heal" (write) and "kill" (read) both touch Unit.health`,
		`FixedUpdate: "kill" (record Unit) and "spawn" (record Body) both touch Unit|Body`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("conflicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Sealed() {
		t.Fatal("Sealed() after a refused Seal")
	}
}

// TestStructuralRule proves both halves of the rule of package systems
// (Access rules): a recorder does not conflict with reads or writes of its
// phase, even of the tables it records for, since its commands land at
// the boundary; two recorders of one domain do, unless ordered.
func TestStructuralRule(t *testing.T) {
	f := newFixture(t)
	other, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Other", Capacity: 8})
	require.NoError(t, err)
	t.Run("recorders and data of one phase", func(t *testing.T) {
		s := newScheduler(t,
			sys("spawn", systems.FixedUpdate, rec(f.bodies), rec(f.units)),
			sys("move", systems.FixedUpdate, wr(f.x)),
			sys("hurt", systems.FixedUpdate, wr(f.health)),
			sys("look", systems.FixedUpdate, rd(f.y)),
			sys("other", systems.FixedUpdate, rec(other)),
		)
		require.NoError(t, s.Seal())
		assert.Equal(t, []string{"spawn", "move", "hurt", "look", "other"}, s.Order(systems.FixedUpdate))
	})
	t.Run("two recorders of one domain", func(t *testing.T) {
		got := conflictStrings(t, newScheduler(t,
			sys("spawn", systems.Update, rec(f.bodies)),
			sys("kill", systems.Update, rec(f.units)),
			sys("again", systems.Update, rec(f.units)),
		).Seal())
		assert.Equal(t, []string{
			`Update: "spawn" (record Body) and "kill" (record Unit) both touch Body|Unit`,
			`Update: "spawn" (record Body) and "again" (record Unit) both touch Body|Unit`,
			`Update: "kill" (record Unit) and "again" (record Unit) both touch Unit`,
		}, got)
	})
	t.Run("ordered recorders", func(t *testing.T) {
		kill := sys("kill", systems.Update, rec(f.units))
		kill.After = []string{"spawn"}
		s := newScheduler(t, kill, sys("spawn", systems.Update, rec(f.bodies)))
		require.NoError(t, s.Seal())
		assert.Equal(t, []string{"spawn", "kill"}, s.Order(systems.Update))
	})
}

func TestConflictsResolvedByOrder(t *testing.T) {
	f := newFixture(t)
	t.Run("direct", func(t *testing.T) {
		a := sys("a", systems.Update, wr(f.x))
		b := sys("b", systems.Update, rd(f.x))
		b.After = []string{"a"}
		if err := newScheduler(t, a, b).Seal(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("transitive", func(t *testing.T) {
		// a writes x, c reads x; ordered only through b: a -> b -> c.
		a := sys("a", systems.Update, wr(f.x))
		b := sys("b", systems.Update)
		c := sys("c", systems.Update, rd(f.x))
		a.Before = []string{"b"}
		c.After = []string{"b"}
		s := newScheduler(t, c, b, a)
		if err := s.Seal(); err != nil {
			t.Fatal(err)
		}
		if got := s.Order(systems.Update); !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Fatalf("order = %v, want [a b c]", got)
		}
	})
	t.Run("partial chain", func(t *testing.T) {
		// a -> b, but c is unordered against both: only the c pairs conflict.
		a := sys("a", systems.Update, wr(f.x))
		b := sys("b", systems.Update, rd(f.x))
		c := sys("c", systems.Update, rd(f.x))
		b.After = []string{"a"}
		got := conflictStrings(t, newScheduler(t, a, b, c).Seal())
		want := []string{`Update: "a" (write) and "c" (read) both touch Body.x`}
		if !slices.Equal(got, want) {
			t.Fatalf("conflicts = %q, want %q", got, want)
		}
	})
}

func TestEventConflicts(t *testing.T) {
	f := newFixture(t)
	this, _ := events.New[int](events.Spec{Name: "this", Capacity: 4, Lifetime: events.ThisFrame})
	// NextFrame: emitter and consumer do not conflict.
	if err := newScheduler(t, sys("e", systems.Update, emit(f.hits)), sys("c", systems.Update, consume(f.hits))).Seal(); err != nil {
		t.Fatalf("NextFrame emit/consume: %v", err)
	}
	got := conflictStrings(t, newScheduler(t,
		sys("e1", systems.Update, emit(f.hits)), sys("e2", systems.Update, emit(f.hits)),
		sys("t1", systems.Update, emit(this)), sys("t2", systems.Update, consume(this)),
	).Seal())
	want := []string{
		`Update: "e1" (emit) and "e2" (emit) both touch event hits`,
		`Update: "t1" (emit) and "t2" (consume) both touch event this`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("conflicts = %q, want %q", got, want)
	}
}

func TestRegistrationOrderKept(t *testing.T) {
	s := newScheduler(t,
		sys("d", systems.Update),
		sys("c", systems.Update),
		systems.System{Name: "b", Phase: systems.Update, Declare: declare(noop), Before: []string{"d"}},
		sys("a", systems.Update),
		systems.System{Name: "e", Phase: systems.Update, Declare: declare(noop), Before: []string{"c"}, After: []string{"a"}},
	)
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	// Kahn with the smallest registration index first: d waits for b, c for
	// e which waits for a.
	if got, want := s.Order(systems.Update), []string{"b", "d", "a", "e", "c"}; !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
}

func TestCycle(t *testing.T) {
	a := systems.System{Name: "a", Phase: systems.LateUpdate, Declare: declare(noop), Before: []string{"b"}}
	b := systems.System{Name: "b", Phase: systems.LateUpdate, Declare: declare(noop), Before: []string{"c"}}
	c := systems.System{Name: "c", Phase: systems.LateUpdate, Declare: declare(noop), Before: []string{"a"}}
	d := systems.System{Name: "d", Phase: systems.LateUpdate, Declare: declare(noop), After: []string{"a"}}
	err := newScheduler(t, d, a, b, c).Seal()
	var ce *scheduler.CycleError
	if !errors.As(err, &ce) || !errors.Is(err, scheduler.ErrCycle) {
		t.Fatalf("Seal() = %v, want a *CycleError", err)
	}
	if ce.Phase != systems.LateUpdate || !slices.Equal(ce.Cycle, []string{"a", "b", "c"}) {
		t.Fatalf("cycle = %v %v, want LateUpdate [a b c]", ce.Phase, ce.Cycle)
	}
	if msg := err.Error(); !strings.Contains(msg, `"a" -> "b" -> "c" -> "a"`) {
		t.Fatalf("message %q does not name the cycle", msg)
	}
}

func TestNames(t *testing.T) {
	t.Run("unknown", func(t *testing.T) {
		a := systems.System{Name: "a", Declare: declare(noop), After: []string{"ghost"}}
		err := newScheduler(t, a).Seal()
		var ue *scheduler.UnknownSystemError
		if !errors.As(err, &ue) || ue.System != "a" || ue.Name != "ghost" || ue.Relation != "after" {
			t.Fatalf("Seal() = %v, want an *UnknownSystemError for ghost", err)
		}
	})
	t.Run("duplicate", func(t *testing.T) {
		err := newScheduler(t, sys("a", systems.Update), sys("a", systems.FrameEnd)).Seal()
		var de *scheduler.DuplicateError
		if !errors.As(err, &de) || de.Name != "a" || !errors.Is(err, scheduler.ErrDuplicateSystem) {
			t.Fatalf("Seal() = %v, want a *DuplicateError for a", err)
		}
	})
	t.Run("phase order", func(t *testing.T) {
		late := systems.System{Name: "late", Phase: systems.FrameEnd, Declare: declare(noop), Before: []string{"early"}}
		early := systems.System{Name: "early", Phase: systems.FrameStart, Declare: declare(noop), Before: []string{"late"}}
		err := newScheduler(t, late, early).Seal()
		var pe *scheduler.PhaseOrderError
		if !errors.As(err, &pe) || pe.System != "late" || pe.Other != "early" {
			t.Fatalf("Seal() = %v, want a *PhaseOrderError for late before early", err)
		}
		// early before late agrees with the phases: only one error.
		if n := strings.Count(err.Error(), "cannot run"); n != 1 {
			t.Fatalf("%d phase-order errors, want 1: %v", n, err)
		}
	})
	t.Run("bad system", func(t *testing.T) {
		s := newScheduler(t)
		if err := s.Add(systems.System{Name: "x"}); !errors.Is(err, systems.ErrNoDeclare) {
			t.Fatalf("Add(no Declare) = %v", err)
		}
		err := s.Add(systems.System{Name: "y", Declare: func(*systems.Decl) systems.RunFunc { return nil }})
		if !errors.Is(err, systems.ErrNoRun) {
			t.Fatalf("Add(nil body) = %v", err)
		}
	})
}

func TestSealed(t *testing.T) {
	s := newScheduler(t, sys("a", systems.Update))
	if err := s.Frame(0); !errors.Is(err, scheduler.ErrNotSealed) {
		t.Fatalf("Frame before Seal = %v", err)
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(sys("b", systems.Update)); !errors.Is(err, scheduler.ErrSealed) {
		t.Fatalf("Add after Seal = %v", err)
	}
	if err := s.Seal(); !errors.Is(err, scheduler.ErrSealed) {
		t.Fatalf("Seal twice = %v", err)
	}
}

func TestConfig(t *testing.T) {
	for name, cfg := range map[string]scheduler.Config{
		"step":     {FixedStep: -1},
		"nan step": {FixedStep: math.NaN()},
		"ticks":    {MaxTicksPerFrame: -1},
		"pacing":   {Pacing: 7},
		"window":   {ReportWindow: -3},
		"records":  {CommandRecords: -1},
	} {
		_, err := scheduler.New(cfg)
		var ce *scheduler.ConfigError
		if !errors.As(err, &ce) || !errors.Is(err, scheduler.ErrConfig) {
			t.Errorf("%s: New = %v, want a *ConfigError", name, err)
		}
	}
}

func TestHook(t *testing.T) {
	f := newFixture(t)
	libWrite := sys("lib.move", systems.FixedUpdate, wr(f.x))
	host := sys("host.read", systems.FixedUpdate, rd(f.x))

	t.Run("order resolves conflict", func(t *testing.T) {
		s := newScheduler(t, host, libWrite)
		_ = s.Hook(func(h *scheduler.Hook) error {
			if got := h.Names(); !slices.Equal(got, []string{"host.read", "lib.move"}) {
				t.Errorf("Names() = %v", got)
			}
			if _, ok := h.Lookup("lib.move"); !ok {
				t.Error("Lookup(lib.move) failed")
			}
			return h.Order("lib.move", "host.read")
		})
		if err := s.Seal(); err != nil {
			t.Fatal(err)
		}
		if got := s.Order(systems.FixedUpdate); !slices.Equal(got, []string{"lib.move", "host.read"}) {
			t.Fatalf("order = %v", got)
		}
	})
	t.Run("add", func(t *testing.T) {
		s := newScheduler(t, libWrite)
		_ = s.Hook(func(h *scheduler.Hook) error {
			hs := host
			hs.After = []string{"lib.move"}
			return h.Add(hs)
		})
		if err := s.Seal(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		s := newScheduler(t, libWrite)
		_ = s.Hook(func(h *scheduler.Hook) error { return h.Order("lib.move", "nope") })
		err := s.Seal()
		var he *scheduler.HookError
		if !errors.As(err, &he) || !errors.Is(err, scheduler.ErrUnknownSystem) || !errors.Is(err, scheduler.ErrHook) {
			t.Fatalf("Seal() = %v, want a *HookError wrapping ErrUnknownSystem", err)
		}
	})
	t.Run("substitute different manifest", func(t *testing.T) {
		s := newScheduler(t, libWrite)
		var subErr error
		_ = s.Hook(func(h *scheduler.Hook) error {
			subErr = h.Substitute("lib.move", declare(noop, rd(f.x)))
			return nil
		})
		if err := s.Seal(); err != nil {
			t.Fatal(err)
		}
		var se *scheduler.SubstituteError
		if !errors.As(subErr, &se) || se.System != "lib.move" || !errors.Is(subErr, scheduler.ErrManifestMismatch) {
			t.Fatalf("Substitute = %v, want a *SubstituteError", subErr)
		}
		if err := func() error {
			var e error
			h := newScheduler(t, libWrite)
			_ = h.Hook(func(h *scheduler.Hook) error { e = h.Substitute("ghost", declare(noop, wr(f.x))); return nil })
			_ = h.Seal()
			return e
		}(); !errors.Is(err, scheduler.ErrUnknownSystem) {
			t.Fatalf("Substitute(ghost) = %v", err)
		}
	})
	t.Run("substitute same manifest", func(t *testing.T) {
		ran := ""
		orig := libWrite
		orig.Declare = declare(func(*systems.Context) { ran = "original" }, wr(f.x))
		s := newScheduler(t, orig)
		_ = s.Hook(func(h *scheduler.Hook) error {
			m, ok := frame.HookManifest(h, "lib.move")
			if !ok || len(m.Writes) != 1 {
				t.Errorf("Manifest(lib.move) = %v, %v", m, ok)
			}
			// Same set, declared differently.
			return h.Substitute("lib.move", func(s *systems.Decl) systems.RunFunc {
				systems.Read(s, f.x)
				systems.Write(s, f.x)
				return func(*systems.Context) { ran = "substitute" }
			})
		})
		if err := s.Seal(); err != nil {
			t.Fatal(err)
		}
		if err := s.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		if ran != "substitute" {
			t.Fatalf("ran %q, want the substitute", ran)
		}
	})
}

// TestNilEventTablesRefused: a nil or typed-nil event table (what a failed
// events.New returns) is refused at Add (by the declaration) and at
// AddEvents instead of passing Seal and panicking at the frame boundary.
func TestNilEventTablesRefused(t *testing.T) {
	var ev *events.Table[int]
	for name, a := range map[string]acc{"nil emit": emit(ev), "nil consume": consume(ev)} {
		s := newScheduler(t)
		err := s.Add(sys("a", systems.Update, a))
		require.ErrorIs(t, err, systems.ErrBadDeclaration, name)
		require.NoError(t, s.Seal(), name)
		require.NotPanics(t, func() { require.NoError(t, s.Frame(0.01)) }, name)
		assert.Empty(t, s.Events(), name)
	}

	s := newScheduler(t)
	assert.Same(t, scheduler.ErrNilEvents, s.AddEvents(ev))
	assert.Same(t, scheduler.ErrNilEvents, s.AddEvents(nil))
	ok, err := events.New[int](events.Spec{Name: "ok", Capacity: 4})
	require.NoError(t, err)
	assert.Same(t, scheduler.ErrNilEvents, s.AddEvents(ok, ev), "none of the tables is registered")
	require.NoError(t, s.Seal())
	assert.Empty(t, s.Events())
	require.NotPanics(t, func() { require.NoError(t, s.Frame(0.01)) })
}

// TestNilHookRefused: Hook(nil) is refused at once rather than panicking
// in Seal.
func TestNilHookRefused(t *testing.T) {
	s := newScheduler(t, sys("a", systems.Update))
	assert.Same(t, scheduler.ErrNilHook, s.Hook(nil))
	require.NotPanics(t, func() { require.NoError(t, s.Seal()) })
}

func TestCommandRecordsBound(t *testing.T) {
	for _, n := range []int{scheduler.MaxCommandRecords + 1, 1 << 40} {
		_, err := scheduler.New(scheduler.Config{CommandRecords: n})
		var ce *scheduler.ConfigError
		require.ErrorAs(t, err, &ce, n)
		assert.Equal(t, "CommandRecords", ce.Field)
		assert.Equal(t, "scheduler: bad CommandRecords "+strconv.Itoa(n)+": want 1..MaxCommandRecords (16777216) records", err.Error())
	}
	_, err := scheduler.New(scheduler.Config{CommandRecords: scheduler.MaxCommandRecords})
	assert.NoError(t, err)
}

// TestThisFrameConsumerAfterEmitters: a ThisFrame consumer must run after
// every emitter in every frame, or it would miss events (a later phase, an
// earlier place in the same phase, a FixedUpdate consumer of an emitter
// outside FixedUpdate in a frame without a tick); Seal refuses it, naming
// the consumer, the first such emitter and the table.
func TestThisFrameConsumerAfterEmitters(t *testing.T) {
	f := newFixture(t)
	this, err := events.New[int](events.Spec{Name: "this", Capacity: 4, Lifetime: events.ThisFrame})
	require.NoError(t, err)
	after := func(s systems.System, names ...string) systems.System { s.After = names; return s }
	before := func(s systems.System, names ...string) systems.System { s.Before = names; return s }

	for _, tc := range []struct {
		name string
		list []systems.System
		want scheduler.EventOrderError
		msg  string
	}{
		{"later phase", []systems.System{sys("late", systems.LateUpdate, emit(this)),
			sys("reader", systems.FixedUpdate, consume(this)), sys("update", systems.Update, emit(this))},
			scheduler.EventOrderError{Consumer: "reader", ConsumerPhase: systems.FixedUpdate,
				Emitter: "update", EmitterPhase: systems.Update, Events: "this"},
			`scheduler: system "reader" (FixedUpdate) consumes ThisFrame events "this",` +
				` but its emitter "update" runs later (Update) and ThisFrame events are cleared at the frame's end,` +
				` so it would never read that emitter's events; move the consumer to Update or a later phase, or make the table NextFrame`},
		{"one emitter earlier, one later", []systems.System{sys("e1", systems.FrameStart, emit(this)),
			sys("c", systems.Update, consume(this)), sys("e2", systems.FrameEnd, emit(this))},
			scheduler.EventOrderError{Consumer: "c", ConsumerPhase: systems.Update,
				Emitter: "e2", EmitterPhase: systems.FrameEnd, Events: "this"}, ""},
		{"same phase, consumer first", []systems.System{sys("e", systems.Update, emit(this)),
			before(sys("c", systems.Update, consume(this)), "e")},
			scheduler.EventOrderError{Consumer: "c", ConsumerPhase: systems.Update,
				Emitter: "e", EmitterPhase: systems.Update, Events: "this"},
			`scheduler: system "c" (Update) consumes ThisFrame events "this",` +
				` but its emitter "e" runs after it in Update and ThisFrame events are cleared at the frame's end,` +
				` so it would miss that emitter's events; order the consumer after the emitter, or make the table NextFrame`},
		{"FixedUpdate consumer, FrameStart emitter", []systems.System{sys("e", systems.FrameStart, emit(this)),
			sys("c", systems.FixedUpdate, consume(this))},
			scheduler.EventOrderError{Consumer: "c", ConsumerPhase: systems.FixedUpdate,
				Emitter: "e", EmitterPhase: systems.FrameStart, Events: "this"},
			`scheduler: system "c" (FixedUpdate) consumes ThisFrame events "this",` +
				` but its emitter "e" runs in FrameStart and a frame may run no fixed tick, so it would miss the events of such frames;` +
				` make the table NextFrame (read once, at the next fixed tick), or move the consumer out of FixedUpdate`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := newScheduler(t, tc.list...).Seal()
			var eo *scheduler.EventOrderError
			require.ErrorAs(t, err, &eo)
			assert.ErrorIs(t, err, scheduler.ErrEventOrder)
			assert.Equal(t, tc.want, *eo)
			if tc.msg != "" {
				assert.Equal(t, tc.msg, err.Error())
			}
		})
	}
	t.Run("every such consumer reported", func(t *testing.T) {
		err := newScheduler(t,
			sys("a", systems.FrameStart, consume(this)),
			sys("b", systems.Update, consume(this)),
			sys("e", systems.LateUpdate, emit(this)),
		).Seal()
		joined, ok := err.(interface{ Unwrap() []error })
		require.True(t, ok, "Seal() = %v, want joined *EventOrderErrors", err)
		var got []string
		for _, e := range joined.Unwrap() {
			var eo *scheduler.EventOrderError
			require.ErrorAs(t, e, &eo)
			got = append(got, eo.Consumer+"<"+eo.Emitter)
		}
		assert.Equal(t, []string{"a<e", "b<e"}, got)
	})
	for name, list := range map[string][]systems.System{
		"same phase, ordered": {sys("e", systems.Update, emit(this)),
			after(sys("c", systems.Update, consume(this)), "e")},
		"consumer after the emitter's phase": {sys("c", systems.FrameEnd, consume(this)), sys("e", systems.Update, emit(this))},
		"FixedUpdate consumer after a FixedUpdate emitter": {sys("e", systems.FixedUpdate, emit(this)),
			after(sys("c", systems.FixedUpdate, consume(this)), "e"), sys("late", systems.LateUpdate, consume(this))},
		"a system consuming its own events": {sys("self", systems.Update, emit(this), consume(this))},
		"no emitter (the host may emit)":    {sys("c", systems.FrameStart, consume(this))},
		"NextFrame consumer before emitter": {sys("c", systems.FrameStart, consume(f.hits)), sys("e", systems.FrameEnd, emit(f.hits))},
	} {
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, newScheduler(t, list...).Seal())
		})
	}
}

// TestThisFrameEventsWithNoConsumer: Seal refuses a ThisFrame table that
// systems emit into (serially or in parallel) and none consumes, one
// *UnreadEventsError per table naming its emitters in running order,
// joined with the event-order errors; a consumer, a table declared
// MayGoUnread, a NextFrame table or a table only the host emits into seal.
func TestThisFrameEventsWithNoConsumer(t *testing.T) {
	f := newFixture(t)
	mk := func(name string, unread bool) *events.Table[int] {
		ev, err := events.New[int](events.Spec{Name: name, Capacity: 4, Lifetime: events.ThisFrame, MayGoUnread: unread})
		require.NoError(t, err)
		return ev
	}
	this, trace, other := mk("this", false), mk("trace", true), mk("other", false)
	emitPar := func(ev *events.Table[int]) acc { return func(s *systems.Decl) { systems.EmitParallel(s, ev) } }

	err := newScheduler(t,
		sys("late", systems.LateUpdate, emit(this)),
		sys("first", systems.FrameStart, emitPar(this)),
		sys("t", systems.Update, emit(trace)),
		sys("o", systems.Update, emit(other)),
	).Seal()
	require.Error(t, err)
	assert.ErrorIs(t, err, scheduler.ErrUnreadEvents)
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "Seal() = %v, want joined errors", err)
	var got []scheduler.UnreadEventsError
	for _, e := range joined.Unwrap() {
		var ue *scheduler.UnreadEventsError
		require.ErrorAs(t, e, &ue)
		got = append(got, *ue)
	}
	assert.Equal(t, []scheduler.UnreadEventsError{
		{Events: "this", Emitters: []string{"first", "late"}},
		{Events: "other", Emitters: []string{"o"}},
	}, got, "trace may go unread; this's emitters in running order")
	assert.Equal(t, `scheduler: systems "first", "late" emit ThisFrame events "this", but no system consumes them,`+
		` so every one would end its frame unread; add a consumer (systems.Consume, tickwork.Observe),`+
		` make the table NextFrame for the host to read between frames, or declare that they may go unread (MayGoUnread in its spec)`,
		joined.Unwrap()[0].Error())
	assert.Contains(t, joined.Unwrap()[1].Error(), `scheduler: system "o" emits ThisFrame events "other", but`)

	t.Run("with event-order errors", func(t *testing.T) {
		err := newScheduler(t,
			sys("c", systems.FrameStart, consume(this)),
			sys("e", systems.Update, emit(this)),
			sys("o", systems.Update, emit(other)),
		).Seal()
		assert.ErrorIs(t, err, scheduler.ErrEventOrder)
		assert.ErrorIs(t, err, scheduler.ErrUnreadEvents)
		joined, ok := err.(interface{ Unwrap() []error })
		require.True(t, ok)
		assert.Len(t, joined.Unwrap(), 2, "one flat list: %v", err)
	})
	for name, list := range map[string][]systems.System{
		"a consumer":       {sys("e", systems.Update, emit(this)), sys("c", systems.FrameEnd, consume(this))},
		"its own consumer": {sys("self", systems.Update, emit(this), consume(this))},
		"MayGoUnread":      {sys("e", systems.Update, emit(trace)), sys("p", systems.LateUpdate, emitPar(trace))},
		"NextFrame":        {sys("e", systems.Update, emit(f.hits))},
		"the host's emits": {sys("n", systems.Update)},
	} {
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, newScheduler(t, list...).Seal())
		})
	}
}

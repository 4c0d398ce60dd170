package scheduler_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// TestCounters: a system's named counters show in the frame report as the
// sum of what the frame's runs added (three fixed ticks: three runs),
// start again at 0 every frame, stay apart per system and per name, and
// Total sums every frame; a frame with counters allocates nothing.
func TestCounters(t *testing.T) {
	var hits, misses, other systems.Counter
	tick := 0
	s := seal(t, scheduler.Config{FixedStep: 0.01, MaxTicksPerFrame: 8},
		systems.System{Name: "Collide", Phase: systems.FixedUpdate, Declare: func(d *systems.Decl) systems.RunFunc {
			hits, misses = d.Counter("hits"), d.Counter("misses")
			return func(*systems.Context) {
				tick++
				hits.Add(int64(tick)) // ticks 1, 2, 3, ... add 1, 2, 3, ...
				misses.Add(10)
			}
		}},
		systems.System{Name: "Score", Phase: systems.Update, Declare: func(d *systems.Decl) systems.RunFunc {
			other = d.Counter("hits")
			return func(*systems.Context) { other.Add(-1) }
		}},
		body("Quiet", systems.Update, func(*systems.Context) {}),
	)
	cases := []struct {
		name         string
		dt           float64
		hits, misses int64 // of Collide in the frame
		total        int64 // hits.Total after it
	}{
		{"first frame runs no tick", 0, 0, 0, 0},
		{"three ticks", 0.03, 1 + 2 + 3, 30, 6},
		{"one tick", 0.01, 4, 10, 10},
		{"two ticks", 0.02, 5 + 6, 20, 21},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, s.Frame(tc.dt))
			r := s.Report()
			v, ok := r.Counter("Collide", "hits")
			assert.True(t, ok)
			assert.Equal(t, tc.hits, v, "Collide hits")
			v, ok = r.Counter("Collide", "misses")
			assert.True(t, ok)
			assert.Equal(t, tc.misses, v, "Collide misses")
			v, ok = r.Counter("Score", "hits")
			assert.True(t, ok)
			assert.Equal(t, int64(-1), v, "Score hits: its own counter")
			assert.Equal(t, tc.total, hits.Total())
			assert.Equal(t, []scheduler.CounterReport{{Name: "hits", Value: tc.hits}, {Name: "misses", Value: tc.misses}},
				r.System("Collide").Counters, "declaration order")
		})
	}
	r := s.Report()
	_, ok := r.Counter("Collide", "lost")
	assert.False(t, ok, "undeclared counter")
	_, ok = r.Counter("Nobody", "hits")
	assert.False(t, ok, "unknown system")
	assert.Empty(t, r.System("Quiet").Counters)
	assert.Equal(t, "misses", misses.Name())
	assert.Equal(t, int64(-4), other.Total())

	allocs := testing.AllocsPerRun(100, func() {
		if err := s.Frame(0.02); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.Report().Counter("Collide", "hits"); !ok {
			t.Fatal("no counter")
		}
	})
	assert.Zero(t, allocs)
}

// TestCounterDeclaration: an empty or repeated counter name fails the
// declaration with a *systems.DefinitionError (ErrBadDeclaration) that
// says what to fix; Add on a zero Counter panics with how to fix it.
func TestCounterDeclaration(t *testing.T) {
	cases := []struct {
		name    string
		declare func(d *systems.Decl)
		detail  string
	}{
		{"empty", func(d *systems.Decl) { d.Counter("") }, "Counter: empty counter name: give the counter a name for the frame report"},
		{"twice", func(d *systems.Decl) { d.Counter("hits"); d.Counter("hits") },
			`Counter: counter "hits" declared twice: declare each counter once and keep its Counter`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scheduler.New(scheduler.Config{})
			require.NoError(t, err)
			err = s.Add(systems.System{Name: "S", Phase: systems.Update, Declare: func(d *systems.Decl) systems.RunFunc {
				tc.declare(d)
				return func(*systems.Context) {}
			}})
			var de *systems.DefinitionError
			require.ErrorAs(t, err, &de)
			assert.ErrorIs(t, err, systems.ErrBadDeclaration)
			assert.Equal(t, tc.detail, de.Detail)
		})
	}
	assert.PanicsWithValue(t, "systems: Add on a zero Counter: declare it with Decl.Counter in the system's DeclareFunc and keep the handle",
		func() { systems.Counter{}.Add(1) })
	assert.Zero(t, systems.Counter{}.Total())
}

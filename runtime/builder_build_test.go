package runtime_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// Add copies a system's Before and After: changing the caller's slices
// after Add changes nothing. Before, Add kept the caller's slices until
// Build, so overwriting an After after Add reordered the world (here the
// After naming a system that does not exist would fail Build).
func TestAddCopiesConstraints(t *testing.T) {
	b := runtime.NewBuilder()
	var order []string
	sys := func(name string) systems.DeclareFunc {
		return func(*systems.Decl) systems.RunFunc { return func(*systems.Context) { order = append(order, name) } }
	}
	after := []string{"first"}
	b.Add(systems.System{Name: "first", Phase: systems.Update, Declare: sys("first")},
		systems.System{Name: "second", Phase: systems.Update, After: after, Declare: sys("second")})
	after[0] = "nobody" // the caller reuses its slice
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(0))
	assert.Equal(t, []string{"first", "second"}, order)
	assert.Equal(t, []string{"first", "second"}, w.Order(systems.Update))
}

// A declaration's accessors are checked at Build against the Builder: a
// DeclareFunc that names another world's table, whatever the caller
// changed after Add, fails Build with a *ForeignError.
func TestForeignTableCheckedAtBuild(t *testing.T) {
	other := runtime.NewBuilder()
	theirs := other.Table(ephemeral.TableSpec{Name: "Theirs", Capacity: 8})
	b := runtime.NewBuilder()
	tab := b.Table(ephemeral.TableSpec{Name: "Ours", Capacity: 8})
	b.System("kill", systems.Update, func(s *systems.Decl) systems.RunFunc {
		systems.Record(s, tab)
		return func(*systems.Context) {}
	})
	tab = theirs // after Add: the declaration runs at Build and sees it
	w, err := b.Build()
	require.Nil(t, w)
	var fe *runtime.ForeignError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "Theirs", fe.Name)
}

// A hook that panics inside Build does not escape it: Build stops the pool
// it started (no goroutine outlives it) and returns a *scheduler.HookError
// naming the hook (its index) that wraps a *scheduler.HookPanicError with
// the panic value (errors.Is scheduler.ErrHook and ErrHookPanic; errors.As
// reaches an error value). Before, the panic escaped Build unwrapped and
// the pool's goroutines leaked.
func TestHookPanicInBuild(t *testing.T) {
	cause := errors.New("boom")
	for _, tc := range []struct {
		name  string
		value any
	}{{"error value", cause}, {"string value", "boom"}} {
		t.Run(tc.name, func(t *testing.T) {
			before := settledGoroutines()
			b := runtime.NewBuilder(runtime.WithWorkers(4))
			b.System("s", systems.Update, func(*systems.Decl) systems.RunFunc { return func(*systems.Context) {} })
			b.Hook(func(*scheduler.Hook) error { return nil })
			b.Hook(func(*scheduler.Hook) error { panic(tc.value) })
			var w *runtime.World
			var err error
			require.NotPanics(t, func() { w, err = b.Build() })
			require.Nil(t, w)
			var he *scheduler.HookError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, 1, he.Index)
			var hp *scheduler.HookPanicError
			require.ErrorAs(t, err, &hp)
			assert.Equal(t, tc.value, hp.Value)
			assert.NotEmpty(t, hp.Stack)
			assert.ErrorIs(t, err, scheduler.ErrHook)
			assert.ErrorIs(t, err, scheduler.ErrHookPanic)
			assert.Equal(t, tc.value == cause, errors.Is(err, cause))
			assert.Contains(t, err.Error(), "scheduler: hook 1: panicked: boom")
			assert.LessOrEqual(t, goroutinesAtMost(before), before, "the pool's goroutines ended")
		})
	}
}

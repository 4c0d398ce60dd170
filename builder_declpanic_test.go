package tickwork_test

import (
	"errors"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestBuildDeclarePanic: a DeclareFunc that panics fails Build with a typed
// error naming the system and the panic value (before, the panic unwound
// through Build), and leaves no goroutine behind: ten such Builds of a
// four-worker world end with the goroutines they started.
func TestBuildDeclarePanic(t *testing.T) {
	build := func(declare tickwork.DeclareFunc) error {
		b := tickwork.NewBuilder(tickwork.WithWorkers(4))
		tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
		x := tickwork.AddColumn[int](b, tab, "X")
		b.System("ok", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc { tickwork.Write(d, x); return func(*tickwork.Context) {} })
		b.System("bad", tickwork.LateUpdate, declare)
		w, err := b.Build()
		assert.Nil(t, w)
		return err
	}
	before := goruntime.NumGoroutine()
	var err error
	for range 10 {
		require.NotPanics(t, func() {
			err = build(func(*tickwork.Decl) tickwork.RunFunc {
				var p *int
				_ = *p // a bug in set-up code
				return nil
			})
		})
	}
	assert.ErrorIs(t, err, tickwork.ErrDeclarePanic)
	assert.ErrorIs(t, err, tickwork.ErrSystemDefinition)
	var de *tickwork.SystemDefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "bad", de.System)
	var pe *tickwork.DeclarePanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "bad", pe.System)
	assert.Contains(t, string(pe.Stack), "builder_declpanic_test.go", "the stack shows where the DeclareFunc panicked")
	var re goruntime.Error
	assert.ErrorAs(t, err, &re, "the runtime error the panic carried is reachable")
	assert.Equal(t, `systems: system "bad": the DeclareFunc panicked: runtime error: invalid memory address or nil pointer dereference`, err.Error())
	deadline := time.Now().Add(5 * time.Second)
	for goruntime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, goruntime.NumGoroutine(), before, "no worker outlives a failed Build")

	err = build(func(*tickwork.Decl) tickwork.RunFunc { panic("declare boom") })
	assert.Equal(t, `systems: system "bad": the DeclareFunc panicked: declare boom`, err.Error())
	boom := errors.New("boom")
	err = build(func(*tickwork.Decl) tickwork.RunFunc { panic(boom) })
	assert.ErrorIs(t, err, boom)
	assert.ErrorIs(t, err, tickwork.ErrDeclarePanic)
}

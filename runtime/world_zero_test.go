package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// A World not made by Builder.Build (a zero World{} or a nil *World):
// Frame and Close return ErrZeroWorld; the methods without an error result
// panic with a message that says how to make one. Before, each was a nil
// dereference.
func TestZeroWorld(t *testing.T) {
	const msg = "runtime: World not made by Builder.Build (a zero World{} or a nil *World): build one with NewBuilder(...).Build()"
	for name, w := range map[string]*runtime.World{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorIs(t, w.Frame(1.0/60), runtime.ErrZeroWorld)
			assert.ErrorIs(t, w.Close(), runtime.ErrZeroWorld)
			assert.True(t, runtime.IsFatal(w.Frame(0)), "no frame can run on it")
			assert.EqualError(t, runtime.ErrZeroWorld, msg)
			for method, call := range map[string]func(){
				"Report":  func() { w.Report() },
				"Resolve": func() { w.Resolve(0) },
				"Time":    func() { w.Time() },
				"Frames":  func() { w.Frames() },
				"Order":   func() { w.Order(systems.Update) },
				"Workers": func() { w.Workers() },
				"Tables":  func() { w.Tables() },
				"Budget":  func() { w.Budget() },
			} {
				assert.PanicsWithValue(t, msg, call, method)
			}
		})
	}
}

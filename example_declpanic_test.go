package tickwork_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// A bug in a system's set-up code (its DeclareFunc) fails Build with an
// error naming the system; the panic's stack is in the *DeclarePanicError.
func ExampleDeclareFunc_panic() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		var speeds map[string]*float64
		_ = *speeds["walk"] // a nil pointer: the config was never loaded
		return func(*tickwork.Context) {}
	})
	_, err := b.Build()
	fmt.Println(err)
	var pe *tickwork.DeclarePanicError
	fmt.Println(errors.Is(err, tickwork.ErrDeclarePanic), errors.As(err, &pe) && len(pe.Stack) > 0)
	// Output:
	// systems: system "spawn": the DeclareFunc panicked: runtime error: invalid memory address or nil pointer dereference
	// true true
}

//go:build tickwork_debug

package tickwork_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// In the checking debug build (go test -tags tickwork_debug), a system
// that writes through the slice of a column it declared only to read
// fails the frame, naming itself and the column (docs/architecture.md,
// Debug build); the normal build runs it unchecked.
func Example_debugBuild() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	b.System("heal", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		r := tickwork.Read(s, hp) // declared: a read
		return func(*tickwork.Context) {
			r.All()[0] = 100 // but written
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	if _, err := tickwork.HostQuery1(hp).Insert(10); err != nil {
		panic(err)
	}
	err = w.Frame(1.0 / 60)
	var uw *tickwork.UndeclaredWriteError
	fmt.Println(tickwork.DebugBuild, errors.Is(err, tickwork.ErrUndeclaredWrite))
	if errors.As(err, &uw) {
		fmt.Println(uw.System, uw.Column)
	}
	// Output:
	// true true
	// heal Unit.hp
}

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

// In the checking debug build, a system that declares MaintainIndex and
// changes an index key of a row it does not mark fails the frame, naming
// itself, the index, its key columns and the row (docs/architecture.md,
// Debug build); the normal build leaves the index stale.
func ExampleUnmarkedIndexWriteError() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	hp := tickwork.AddColumn[int32](b, units, "hp")
	byHP := tickwork.AddSortedIndex(b, "byHP", hp)
	b.System("heal", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		w, marks := tickwork.Write(s, hp), tickwork.MaintainIndex(s, byHP)
		return func(*tickwork.Context) {
			w.All()[0] += 5
			marks.Mark(0)
			w.All()[2] += 5 // changed, not marked
		}
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	q := tickwork.HostQuery1(hp)
	for range 3 {
		if _, err := q.Insert(10); err != nil {
			panic(err)
		}
	}
	err = w.Frame(1.0 / 60)
	var uw *tickwork.UnmarkedIndexWriteError
	fmt.Println(errors.Is(err, tickwork.ErrUnmarkedIndexWrite))
	if errors.As(err, &uw) {
		fmt.Println(uw.System, uw.Index, uw.Columns, uw.Row)
	}
	// Output:
	// true
	// heal byHP Unit.hp 2
}

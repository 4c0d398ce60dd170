package tickwork_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// A grazer that splits is a row system: Spawns2 gives the row function a
// spawner of the grazers' table (before, a spawner could not be a use).
// Every run each sheep eats 1; one that reaches 4 splits in two of 2.
func ExampleSpawns2() {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	sheep := b.Table(tickwork.TableSpec{Name: "Sheep", Capacity: 64})
	energy := tickwork.AddColumn[float32](b, sheep, "Energy")
	x := tickwork.AddColumn[float32](b, sheep, "X")
	births := tickwork.Spawns2(energy, x)
	tickwork.Each2(b, "graze", tickwork.Update, tickwork.Writes(energy), tickwork.Reads(x),
		func(_ *tickwork.Context, _ tickwork.Handle, e, x *float32) {
			*e++
			if *e >= 4 {
				*e /= 2
				births.Spawn(*e, *x+1)
			}
		}, births)
	w, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	if _, err := tickwork.HostQuery2(energy, x).Insert(1, 0); err != nil {
		fmt.Println(err)
		return
	}
	for range 6 {
		if err := w.Frame(1.0 / 60); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(sheep.Len(), " ")
	}
	fmt.Println()
	// Output: 1 1 2 2 4 4
}

// Spawns of every form: Each and ParallelEach (through At) spawn the same
// rows, in row order whatever the worker count, and a Spawns use given to
// two systems fails Build naming both.
func TestRowSystemSpawns(t *testing.T) {
	run := func(t *testing.T, parallel bool, workers int) []int32 {
		b := tickwork.NewBuilder(tickwork.WithWorkers(workers))
		tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 4096})
		v := tickwork.AddColumn[int32](b, tab, "V")
		sp := tickwork.Spawns1(v)
		if parallel {
			tickwork.ParallelEach1(b, "split", tickwork.Update, tickwork.Reads(v), func(wk tickwork.Worker, _ tickwork.Handle, v *int32) {
				if *v%3 == 0 {
					sp.At(wk).Spawn(*v + 1000)
				}
			}, sp)
		} else {
			tickwork.Each1(b, "split", tickwork.Update, tickwork.Reads(v), func(_ *tickwork.Context, _ tickwork.Handle, v *int32) {
				if *v%3 == 0 {
					sp.Spawn(*v + 1000)
				}
			}, sp)
		}
		w, err := b.Build()
		require.NoError(t, err)
		defer w.Close()
		require.NoError(t, tickwork.HostQuery1(v).InsertN(2000, func(h tickwork.Handle, v *int32) { *v = int32(h.Index()) }))
		require.NoError(t, w.Frame(0.01))
		var got []int32
		for r := range tickwork.HostQuery1(v).All() {
			got = append(got, *r.Get())
		}
		return got
	}
	want := make([]int32, 0, 2667)
	for i := range int32(2000) {
		want = append(want, i)
	}
	for i := int32(0); i < 2000; i += 3 {
		want = append(want, i+1000)
	}
	assert.Equal(t, want, run(t, false, 1))
	assert.Equal(t, want, run(t, true, 1))
	got := run(t, true, 2)
	assert.Equal(t, want, got, "ParallelEach's spawns merge in chunk order")

	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	x := tickwork.AddColumn[int32](b, tab, "X")
	sp := tickwork.Spawns1(x)
	tickwork.Each1(b, "a", tickwork.Update, tickwork.Reads(x), func(*tickwork.Context, tickwork.Handle, *int32) {}, sp)
	tickwork.Each1(b, "b", tickwork.Update, tickwork.Reads(x), func(*tickwork.Context, tickwork.Handle, *int32) {}, sp)
	_, err := b.Build()
	require.ErrorIs(t, err, tickwork.ErrDeclarePanic)
	assert.Contains(t, err.Error(), `Spawns1 of system "a" given to system "b" too`)

	// A nil column fails Build as NewSpawner1's.
	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	x = tickwork.AddColumn[int32](b, tab, "X")
	tickwork.Each1(b, "a", tickwork.Update, tickwork.Reads(x), func(*tickwork.Context, tickwork.Handle, *int32) {}, tickwork.Spawns1[int32](nil))
	_, err = b.Build()
	require.ErrorIs(t, err, tickwork.ErrBadDeclaration)
}

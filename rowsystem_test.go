package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// Row systems declare what their arguments say: two that write one column
// unordered conflict, as two hand-written systems would; ordered (Orders)
// they run in that order, each row once per run, with the uses bound at
// Build.
func TestRowSystems(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	x := tickwork.AddColumn[int32](b, tab, "X")
	tickwork.Each1(b, "a", tickwork.Update, tickwork.Writes(x), func(*tickwork.Context, tickwork.Handle, *int32) {})
	tickwork.Each1(b, "b", tickwork.Update, tickwork.Writes(x), func(*tickwork.Context, tickwork.Handle, *int32) {})
	_, err := b.Build()
	require.ErrorIs(t, err, tickwork.ErrConflict)

	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab = b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	x, y := tickwork.AddColumn[int32](b, tab, "X"), tickwork.AddColumn[int32](b, tab, "Y")
	total := tickwork.AddResource(b, "total", int32(0))
	ev := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Big", Capacity: 64})
	sum, em, rec := tickwork.WritesResource(total), tickwork.Emits(ev), tickwork.Records(tab)
	tickwork.Each2(b, "double", tickwork.Update, tickwork.Writes(x), tickwork.Reads(y), func(_ *tickwork.Context, _ tickwork.Handle, x, y *int32) {
		*x = 2**x + *y
	}, tickwork.Orders("sum"))
	tickwork.Each1(b, "sum", tickwork.Update, tickwork.Reads(x), func(_ *tickwork.Context, h tickwork.Handle, x *int32) {
		*sum.V += *x
		if *x > 20 {
			em.Emit(*x)
			rec.Delete(h)
		}
	}, sum, em, rec)
	var big []int32
	tickwork.Observe(b, ev, func(e *int32) { big = append(big, *e) })
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	assert.Equal(t, []string{"sum", "double", "observe Big"}, append(w.Order(tickwork.Update), w.Order(tickwork.FrameEnd)...))
	require.NoError(t, tickwork.HostQuery2(x, y).InsertN(3, func(h tickwork.Handle, x, y *int32) { *x, *y = int32(h.Index()), 1 }))
	require.NoError(t, w.Frame(0.01)) // sum 0+1+2, then x = 1, 3, 5
	assert.Equal(t, int32(3), *total.Get())
	require.NoError(t, w.Frame(0.01)) // sum 9, then x = 3, 7, 11
	require.NoError(t, w.Frame(0.01)) // sum 21, then x = 7, 15, 23
	require.NoError(t, w.Frame(0.01)) // sum 45: 23 emitted and deleted
	assert.Equal(t, int32(3+9+21+45), *total.Get())
	assert.Equal(t, 2, tab.Len())
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, []int32{23}, big)
}

// A use given to two systems fails Build, naming both.
func TestRowSystemUseBoundOnce(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	x := tickwork.AddColumn[int32](b, tab, "X")
	rec := tickwork.Records(tab)
	tickwork.Each1(b, "a", tickwork.Update, tickwork.Reads(x), func(*tickwork.Context, tickwork.Handle, *int32) {}, rec)
	tickwork.Each1(b, "b", tickwork.Update, tickwork.Reads(x), func(*tickwork.Context, tickwork.Handle, *int32) {}, rec)
	_, err := b.Build()
	require.ErrorIs(t, err, tickwork.ErrDeclarePanic)
	assert.Contains(t, err.Error(), `Records of system "a" given to system "b" too`)
}

// A nil row function fails Build with the declaration's typed error naming
// the system and the maker, for Each and ParallelEach at the smallest and
// the largest arity, before any frame could run it.
func TestRowSystemNilFunc(t *testing.T) {
	type mk func(b *tickwork.Builder, x *tickwork.Column[int32])
	cases := map[string]mk{
		"Each1": func(b *tickwork.Builder, x *tickwork.Column[int32]) {
			tickwork.Each1(b, "s", tickwork.Update, tickwork.Reads(x), nil)
		},
		"ParallelEach1": func(b *tickwork.Builder, x *tickwork.Column[int32]) {
			tickwork.ParallelEach1(b, "s", tickwork.Update, tickwork.Reads(x), nil)
		},
		"Each2": func(b *tickwork.Builder, x *tickwork.Column[int32]) {
			tickwork.Each2(b, "s", tickwork.Update, tickwork.Reads(x), tickwork.Reads(x), nil)
		},
		"ParallelEach15": func(b *tickwork.Builder, x *tickwork.Column[int32]) {
			r := tickwork.Reads(x)
			tickwork.ParallelEach15(b, "s", tickwork.Update, r, r, r, r, r, r, r, r, r, r, r, r, r, r, r, nil)
		},
		"Each15": func(b *tickwork.Builder, x *tickwork.Column[int32]) {
			r := tickwork.Reads(x)
			tickwork.Each15(b, "s", tickwork.Update, r, r, r, r, r, r, r, r, r, r, r, r, r, r, r, nil)
		},
	}
	for call, add := range cases {
		t.Run(call, func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(1))
			tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
			x := tickwork.AddColumn[int32](b, tab, "X")
			add(b, x)
			w, err := b.Build()
			require.ErrorIs(t, err, tickwork.ErrBadDeclaration)
			require.Nil(t, w)
			var de *tickwork.SystemDefinitionError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "s", de.System)
			assert.Equal(t, `systems: system "s": bad declaration: `+call+`: nil row function: give the function called with each row`, err.Error())
		})
	}
}

// A row system with RunsIf runs only in the frames its condition holds,
// and the condition's read is the system's: an unordered writer of it is
// a conflict.
func TestRowSystemRunsIf(t *testing.T) {
	build := func(writer bool) (*tickwork.World, *tickwork.Resource[bool], *tickwork.Column[int32], error) {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
		x := tickwork.AddColumn[int32](b, tab, "X")
		on := tickwork.AddResource(b, "on", true)
		tickwork.Each1(b, "grow", tickwork.Update, tickwork.Writes(x), func(_ *tickwork.Context, _ tickwork.Handle, x *int32) { *x++ },
			tickwork.RunsIf(func(c *tickwork.Decl) tickwork.CondFunc {
				v := tickwork.ReadResource(c, on)
				return func(*tickwork.Context) bool { return *v }
			}))
		if writer {
			b.System("flip", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				v := tickwork.WriteResource(d, on)
				return func(*tickwork.Context) { *v = !*v }
			})
		}
		w, err := b.Build()
		if err == nil {
			t.Cleanup(func() { _ = w.Close() })
			_, err = tab.Insert()
		}
		return w, on, x, err
	}
	_, _, _, err := build(true)
	require.ErrorIs(t, err, tickwork.ErrConflict)
	assert.Contains(t, err.Error(), `"grow" (read by run condition) and "flip" (write) both touch resource on`)

	w, on, x, err := build(false)
	require.NoError(t, err)
	for _, v := range []bool{true, false, true, true, false} {
		*on.Get() = v
		require.NoError(t, w.Frame(0.01))
	}
	assert.Equal(t, []int32{3}, x.All()[:1])
}

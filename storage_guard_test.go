package tickwork_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

const guardMsg = ` in domain "T" while the world's frame runs (from a system's body, or from another goroutine during World.Frame): ` +
	`a structural change of the host is for set-up and between frames; from a system, record it: `

// A host structural change from a system's body (Table.Insert, Delete,
// a host query's Insert and InsertN, ...) panics naming the recorder call
// to use (before, it ran and broke the frame's iteration), and changes
// nothing; between frames the same calls work.
func TestStructuralChangeInFrame(t *testing.T) {
	create := "Recorder.Create (Record, or the use Records) or a spawner's Spawn (NewSpawner1.., or the use Spawns1..)"
	cases := []struct {
		call, use string
		do        func(tab *tickwork.Table, x *tickwork.Column[int32], h tickwork.Handle)
	}{
		{"Table.Insert", create, func(tab *tickwork.Table, _ *tickwork.Column[int32], _ tickwork.Handle) { _, _ = tab.Insert() }},
		{"Table.InsertN", create, func(tab *tickwork.Table, _ *tickwork.Column[int32], _ tickwork.Handle) {
			_ = tab.InsertN(make([]tickwork.Handle, 2))
		}},
		{"Table.Delete", "Recorder.Delete (Record, Records)", func(tab *tickwork.Table, _ *tickwork.Column[int32], h tickwork.Handle) { tab.Delete(h) }},
		{"Table.Detach", "Recorder.Remove (Record, Records)", func(tab *tickwork.Table, _ *tickwork.Column[int32], h tickwork.Handle) { tab.Detach(h) }},
		{"Domain.Delete", "Recorder.Delete (Record, Records)", func(tab *tickwork.Table, _ *tickwork.Column[int32], h tickwork.Handle) { tab.Domain().Delete(h) }},
		{"Query1.Insert", create, func(_ *tickwork.Table, x *tickwork.Column[int32], _ tickwork.Handle) {
			_, _ = tickwork.HostQuery1(x).Insert(1)
		}},
		{"Query2.InsertN", create, func(_ *tickwork.Table, x *tickwork.Column[int32], _ tickwork.Handle) {
			_ = tickwork.HostQuery2(x, x).InsertN(1, nil)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.call, func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(1))
			tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
			x := tickwork.AddColumn[int32](b, tab, "X")
			var h tickwork.Handle
			b.System("s", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
				tickwork.Read(d, x)
				return func(*tickwork.Context) { tc.do(tab, x, h) }
			})
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			h, err = tab.Insert()
			require.NoError(t, err)
			var pe *tickwork.PanicError
			func() {
				defer func() {
					err, _ := recover().(error)
					require.ErrorAs(t, err, &pe)
				}()
				_ = w.Frame(0.01)
			}()
			assert.Equal(t, "tickwork: "+tc.call+guardMsg+tc.use, pe.Value)
			assert.Equal(t, 1, tab.Len(), "nothing changed")
			assert.True(t, tab.IsAlive(h))
			tc.do(tab, x, h) // between frames: allowed
		})
	}
}

// A host structural change from another goroutine while Frame runs panics
// on that goroutine the same way (one atomic load, race-free: run with
// -race), and the frame goes on.
func TestStructuralChangeDuringFrame(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 16})
	inFrame, tried := make(chan struct{}), make(chan any)
	b.System("s", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
		return func(*tickwork.Context) {
			inFrame <- struct{}{}
			<-tried // wait for the other goroutine's attempt
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	var got any
	go func() {
		<-inFrame
		func() {
			defer func() { got = recover() }()
			_, _ = tab.Insert()
		}()
		tried <- nil
	}()
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, "tickwork: Table.Insert"+guardMsg+
		"Recorder.Create (Record, or the use Records) or a spawner's Spawn (NewSpawner1.., or the use Spawns1..)", got)
	assert.Equal(t, 0, tab.Len())
	_, err = tab.Insert()
	require.NoError(t, err, "between frames")
}

// TestColumnSetInFrame: the host's Column.Set from a system's body, a
// write the manifest never declared, panics in the debug build naming the
// column and the accessor to use; the normal build does not check it
// (docs/architecture.md, Debug build) and the write happens.
func TestColumnSetInFrame(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tab := b.Table(tickwork.TableSpec{Name: "T", Capacity: 8})
	hp := tickwork.AddColumn[int32](b, tab, "HP")
	h, err := tab.Insert()
	require.NoError(t, err)
	b.System("sneak", tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc {
		return func(*tickwork.Context) { hp.Set(h, 42) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	got := framePanic(w)
	if !tickwork.DebugBuild {
		require.Nil(t, got)
		v, _ := hp.Get(h)
		assert.Equal(t, int32(42), v)
		return
	}
	require.NotNil(t, got)
	assert.Contains(t, fmt.Sprint(got), `tickwork: Column.Set of column "HP" while the world's frame runs (from a system's body, `+
		`or from another goroutine during World.Frame): the host writes between frames; in a system declare the write (Write, WriteTracked) and use the accessor's Set`)
}

package tickwork_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/index"
)

// Every bad index declaration is an *IndexError (ErrIndex) naming the
// index, recorded on the Builder and returned by Build, and the
// declaration returns nil.
func TestIndexDeclarationErrors(t *testing.T) {
	type setup struct {
		b    *tickwork.Builder
		t, u *tickwork.Table
		x, y *tickwork.Column[float32]
		ux   *tickwork.Column[float32]
		h    *tickwork.Column[int32]
	}
	mk := func() setup {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		tt := b.Table(tickwork.TableSpec{Name: "T", Capacity: 64})
		u := b.Table(tickwork.TableSpec{Name: "U", Capacity: 64})
		return setup{b: b, t: tt, u: u, x: tickwork.AddColumn[float32](b, tt, "X"), y: tickwork.AddColumn[float32](b, tt, "Y"),
			ux: tickwork.AddColumn[float32](b, u, "X"), h: tickwork.AddColumn[int32](b, tt, "H")}
	}
	other := mk()
	cases := []struct {
		name            string
		declare         func(s setup) bool // reports whether the declaration returned nil
		sentinel        error
		index, table, c string
	}{
		{"nil column", func(s setup) bool { return tickwork.AddHashIndex[int32](s.b, "I", nil) == nil }, tickwork.ErrIndexColumn, "I", "", ""},
		{"column of another builder", func(s setup) bool { return tickwork.AddSortedIndex(s.b, "I", other.h) == nil }, tickwork.ErrIndexColumn, "I", "T", "H"},
		{"name used twice", func(s setup) bool {
			tickwork.AddHashIndex(s.b, "I", s.h)
			return tickwork.AddUniqueIndex(s.b, "I", s.h) == nil
		}, tickwork.ErrIndexName, "I", "", ""},
		{"empty name", func(s setup) bool { return tickwork.AddHashIndex(s.b, "", s.h) == nil }, tickwork.ErrIndexName, "", "", ""},
		{"grid cell 0", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.y, 0) == nil }, index.ErrCellSize, "G", "T", ""},
		{"grid cell -1", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.y, -1) == nil }, index.ErrCellSize, "G", "T", ""},
		{"grid cell 1e-40 (a non-finite inverse)", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.y, 1e-40) == nil }, index.ErrCellSize, "G", "T", ""},
		{"grid cell 1e-10 (a grid short of one unit)", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.y, 1e-10) == nil }, index.ErrCellSize, "G", "T", ""},
		{"grid cell NaN", func(s setup) bool {
			return tickwork.AddGridIndex(s.b, "G", s.x, s.y, float32(math.NaN())) == nil
		}, index.ErrCellSize, "G", "T", ""},
		{"grid cell Inf", func(s setup) bool {
			return tickwork.AddGridIndex(s.b, "G", s.x, s.y, float32(math.Inf(1))) == nil
		}, index.ErrCellSize, "G", "T", ""},
		{"two tables", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.ux, 8) == nil }, tickwork.ErrIndexColumn, "G", "T", "X"},
		{"composite of two tables", func(s setup) bool {
			return tickwork.AddHashIndexOf(s.b, "C", s.t, func(int) int32 { return 0 }, s.h, s.ux) == nil
		}, tickwork.ErrIndexColumn, "C", "T", "X"},
		{"composite without key", func(s setup) bool {
			return tickwork.AddHashIndexOf[int32](s.b, "C", s.t, nil, s.h) == nil
		}, tickwork.ErrIndexColumn, "C", "", ""},
		{"float hash key", func(s setup) bool { return tickwork.AddHashIndex(s.b, "F", s.x) == nil }, tickwork.ErrIndexColumn, "F", "T", "X"},
		{"float unique key", func(s setup) bool { return tickwork.AddUniqueIndex(s.b, "F", s.x) == nil }, tickwork.ErrIndexColumn, "F", "T", "X"},
		{"composite key with a float", func(s setup) bool {
			type key struct {
				H int32
				X float32
			}
			return tickwork.AddHashIndexOf(s.b, "C", s.t, func(int) key { return key{} }, s.h, s.x) == nil
		}, tickwork.ErrIndexColumn, "C", "T", "H"},
		{"grid on one column", func(s setup) bool { return tickwork.AddGridIndex(s.b, "G", s.x, s.x, 8) == nil }, tickwork.ErrIndexColumn, "G", "T", "X"},
		{"event index of nil table", func(s setup) bool {
			return tickwork.AddEventIndex[int32](s.b, "E", nil, func(*int32) int32 { return 0 }) == nil
		}, tickwork.ErrIndexColumn, "E", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mk()
			require.True(t, c.declare(s), "the declaration returns nil")
			err := s.b.Err()
			require.ErrorIs(t, err, tickwork.ErrIndex)
			require.ErrorIs(t, err, c.sentinel)
			var ie *tickwork.IndexError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, c.index, ie.Index)
			assert.Equal(t, c.table, ie.Table)
			assert.Equal(t, c.c, ie.Column)
			assert.NotContains(t, err.Error(), "\n", "one line")
			_, berr := s.b.Build()
			assert.Same(t, err, berr, "Build returns the recorded error")
		})
	}
	t.Run("after Build", func(t *testing.T) {
		s := mk()
		w, err := s.b.Build()
		require.NoError(t, err)
		defer w.Close()
		require.Nil(t, tickwork.AddHashIndex(s.b, "Late", s.h))
		require.ErrorIs(t, s.b.Err(), tickwork.ErrBuilt)
		require.ErrorIs(t, s.b.Err(), tickwork.ErrIndex)
	})
}

// A system that reads an index and writes one of its key columns fails
// Build with a *StaleIndexError naming the system, the index and the
// column; ReadIndex's reads of the key columns make an unordered writer
// and reader an ordinary conflict, and ordering them builds.
// An index read before its world is built (or after a Build that
// failed) panics saying so: it has filed nothing yet, and an empty
// answer would be silent loss.
func TestIndexReadBeforeBuildPanics(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tb := b.Table(tickwork.TableSpec{Name: "T", Capacity: 64})
	x, y := tickwork.AddColumn[float32](b, tb, "X"), tickwork.AddColumn[float32](b, tb, "Y")
	g := tickwork.AddGridIndex(b, "G", x, y, 8)
	s := tickwork.AddSortedIndex(b, "S", x)
	ev := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "E", Capacity: 8, MayGoUnread: true})
	e := tickwork.AddEventIndex(b, "EI", ev, func(v *int32) int32 { return *v })
	const msg = " read before its world was built: Build the world first (a failed Build leaves it unbuilt: check its error)"
	assert.PanicsWithValue(t, "tickwork: index G"+msg, func() { g.Grid() })
	assert.PanicsWithValue(t, "tickwork: index S"+msg, func() { s.Sorted() })
	assert.PanicsWithValue(t, "tickwork: index EI"+msg, func() { e.Hash() })
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	assert.NotPanics(t, func() { g.Grid(); s.Sorted(); e.Hash() })
}

func TestIndexReadChecks(t *testing.T) {
	mk := func() (*tickwork.Builder, *tickwork.Column[int32], *tickwork.SortedIndex[int32]) {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		u := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
		hp := tickwork.AddColumn[int32](b, u, "Health")
		return b, hp, tickwork.AddSortedIndex(b, "UnitsByHealth", hp)
	}
	b, hp, ix := mk()
	b.System("heal", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		tickwork.ReadIndex(d, ix)
		tickwork.Write(d, hp)
		return func(*tickwork.Context) {}
	})
	_, err := b.Build()
	require.ErrorIs(t, err, tickwork.ErrStaleIndex)
	var se *tickwork.StaleIndexError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, tickwork.StaleIndexError{System: "heal", Index: "UnitsByHealth", Column: "Unit.Health"}, *se)

	for _, ordered := range []bool{false, true} {
		b, hp, ix := mk()
		b.System("damage", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			tickwork.Write(d, hp)
			return func(*tickwork.Context) {}
		})
		b.System("weakest", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			if ordered {
				d.After("damage")
			}
			tickwork.ReadIndex(d, ix)
			return func(*tickwork.Context) {}
		})
		w, err := b.Build()
		if !ordered {
			require.ErrorIs(t, err, tickwork.ErrConflict)
			continue
		}
		require.NoError(t, err)
		w.Close()
	}
}

// A unique index refusing a duplicate: the frame returns an *IndexError
// naming the index and the system, wrapping the *index.DuplicateError
// with both rows; the refused row stays out of the index, and is filed
// once its key is unique again. From playback and from the host (at the
// accessor's first use, and the next Frame) alike.
func TestUniqueIndexDuplicate(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	p := b.Table(tickwork.TableSpec{Name: "Player", Capacity: 128})
	id := tickwork.AddColumn[int64](b, p, "Id")
	ix := tickwork.AddUniqueIndex(b, "PlayerById", id)
	var dup bool
	b.System("rename", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		ids := tickwork.Write(d, id)
		return func(*tickwork.Context) {
			if dup {
				ids.All()[3] = 7 // row 1 holds 7
				dup = false
			}
		}
	})
	var rec *tickwork.Recorder
	var setDup bool
	b.System("spawn", tickwork.LateUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		rec = tickwork.Record(d, p)
		return func(*tickwork.Context) {
			if setDup {
				h := rec.Create()
				tickwork.Set(rec, id, h, 9) // row 2 holds 9
				setDup = false
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	hs := make([]tickwork.Handle, 4)
	require.NoError(t, p.InsertN(hs))
	for i, h := range hs {
		id.Set(h, int64(5+2*i)) // 5, 7, 9, 11
	}
	require.NoError(t, w.Frame(1.0/60))
	u := ix.Unique()
	require.Equal(t, int32(2), u.Find(9))

	dup = true
	err = w.Frame(1.0 / 60)
	require.ErrorIs(t, err, tickwork.ErrIndex)
	require.ErrorIs(t, err, index.ErrDuplicateKey)
	var ie *tickwork.IndexError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "PlayerById", ie.Index)
	assert.Equal(t, "rename", ie.System)
	var de *index.DuplicateError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, int32(3), de.Row)
	assert.Equal(t, int32(1), de.Held)
	_, filed := u.Key(3)
	assert.False(t, filed, "the refused row stays out")
	assert.Equal(t, int32(1), u.Find(7))

	// The holder changes key: the refused row is filed at its next change.
	id.Set(hs[1], 70)
	id.Set(hs[3], 7)
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, int32(3), ix.Unique().Find(7))

	setDup = true
	err = w.Frame(1.0 / 60)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "playback", ie.System)
	require.ErrorAs(t, err, &de)
	assert.Equal(t, int32(2), de.Held)

	// The host: the accessor's sync finds it, the next Frame returns it.
	id.Set(hs[0], 70)
	assert.Equal(t, int32(1), ix.Unique().Find(70))
	err = w.Frame(1.0 / 60)
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "host", ie.System)
	require.NoError(t, w.Frame(1.0/60), "reported once")
}

// Keys swapped between two rows, or rotated among three, by one system
// (and by the host between frames) are no duplicate: the sync checks the
// batch once all of it is applied, so every row is filed under its new
// key and the frame returns nil; a true duplicate in the same batch is
// still refused, once.
func TestUniqueIndexKeySwapInOneWriter(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	p := b.Table(tickwork.TableSpec{Name: "Player", Capacity: 128})
	id := tickwork.AddColumn[int64](b, p, "Id")
	ix := tickwork.AddUniqueIndex(b, "PlayerById", id)
	var step int
	b.System("rekey", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		ids := tickwork.Write(d, id)
		return func(*tickwork.Context) {
			v := ids.All()
			switch step {
			case 1: // swap rows 0 and 1
				v[0], v[1] = v[1], v[0]
			case 2: // rotate rows 1, 2, 3
				v[1], v[2], v[3] = v[2], v[3], v[1]
			case 3: // a swap and a true duplicate: row 4 takes row 0's key
				v[2], v[3] = v[3], v[2]
				v[4] = v[0]
			}
			step = 0
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	hs := make([]tickwork.Handle, 5)
	require.NoError(t, p.InsertN(hs))
	for i, h := range hs {
		id.Set(h, int64(10*(i+1))) // 10, 20, 30, 40, 50
	}
	require.NoError(t, w.Frame(1.0/60))
	find := func(k int64) int32 { return ix.Unique().Find(k) }

	step = 1
	require.NoError(t, w.Frame(1.0/60), "a swap in one system")
	assert.Equal(t, []int32{1, 0}, []int32{find(10), find(20)})

	step = 2
	require.NoError(t, w.Frame(1.0/60), "a rotation in one system")
	assert.Equal(t, []int32{1, 3, 2}, []int32{find(30), find(10), find(40)}, "30 at row 1, 10 at row 3, 40 at row 2")

	// the host swaps rows 0 and 4 between frames
	id.Set(hs[0], 50)
	id.Set(hs[4], 20)
	require.NoError(t, w.Frame(1.0/60), "a swap by the host")
	assert.Equal(t, []int32{0, 4}, []int32{find(50), find(20)})

	step = 3
	err = w.Frame(1.0 / 60)
	var de *index.DuplicateError
	require.ErrorAs(t, err, &de, "row 4 takes row 0's key")
	assert.Equal(t, []int32{4, 0}, []int32{de.Row, de.Held})
	assert.Equal(t, []int32{3, 2}, []int32{find(40), find(10)}, "the swap in the same batch is filed")
	_, filed := ix.Unique().Key(4)
	assert.False(t, filed, "the duplicate stays out")
}

// Frames with every kind of index, their writers (marked and diffed),
// commands and events allocate nothing, at 1 and 2 workers.
func TestIndexFramesAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, workers := range []int{1, 2} {
		p := newPropWorldChecked(t, workers, false)
		for range 100 {
			h, err := p.unit.Insert()
			require.NoError(t, err)
			p.nextID++
			p.id.Set(h, p.nextID)
		}
		for range 50 { // warm up: buffers and event segments grow
			require.NoError(t, p.w.Frame(1.0/60))
		}
		allocs := testing.AllocsPerRun(50, func() {
			if err := p.w.Frame(1.0 / 60); err != nil {
				panic(err)
			}
		})
		assert.Zero(t, allocs, "%d workers", workers)
		require.NotZero(t, p.byA.Hash().Len())
		// A rollback's load rebuilds every index, allocating nothing either.
		rb, err := tickwork.NewRollback(p.w, 2)
		require.NoError(t, err)
		require.NoError(t, rb.Save())
		old, _ := rb.Newest()
		allocs = testing.AllocsPerRun(20, func() {
			if err := rb.Load(old); err != nil {
				panic(err)
			}
			if err := p.w.Frame(1.0 / 60); err != nil {
				panic(err)
			}
		})
		assert.Zero(t, allocs, "%d workers, rollback", workers)
	}
}

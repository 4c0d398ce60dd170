package commands_test

import (
	"errors"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// ants is a domain of two tables an ant moves between: Forager (x, y,
// energy, tag int32) and Carrier (x, y, cargo, tag int64). x and y are
// shared by name and type; tag only by name.
type ants struct {
	forager, carrier *ephemeral.Table
	fx, fy, cx, cy   *ephemeral.Column[float32]
	energy, ftag     *ephemeral.Column[int32]
	cargo            *ephemeral.Column[int32]
	ctag             *ephemeral.Column[int64]
}

func newAnts(t testing.TB, capacity int) ants {
	t.Helper()
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "ants", Capacity: capacity, ChunkRows: 64})
	require.NoError(t, err)
	var a ants
	a.forager, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Forager", Domain: d})
	require.NoError(t, err)
	a.carrier, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Carrier", Domain: d})
	require.NoError(t, err)
	a.fx, _ = ephemeral.AddColumn[float32](a.forager, "x")
	a.fy, _ = ephemeral.AddColumn[float32](a.forager, "y")
	a.energy, _ = ephemeral.AddColumn[int32](a.forager, "energy")
	a.ftag, _ = ephemeral.AddColumn[int32](a.forager, "tag")
	a.cargo, _ = ephemeral.AddColumn[int32](a.carrier, "cargo")
	a.cy, _ = ephemeral.AddColumn[float32](a.carrier, "y") // another column order than Forager's
	a.cx, _ = ephemeral.AddColumn[float32](a.carrier, "x")
	a.ctag, err = ephemeral.AddColumn[int64](a.carrier, "tag")
	require.NoError(t, err)
	return a
}

// foragers inserts n foragers directly, ant i at (i, 10+i) with energy
// 100+i and tag i, and returns their handles.
func (a ants) foragers(t testing.TB, n int) []ephemeral.Handle {
	t.Helper()
	hs := make([]ephemeral.Handle, n)
	require.NoError(t, a.forager.InsertN(hs))
	for i, h := range hs {
		a.fx.Set(h, float32(i))
		a.fy.Set(h, float32(10+i))
		a.energy.Set(h, int32(100+i))
		a.ftag.Set(h, int32(i))
	}
	return hs
}

func play(p *commands.Playback, bufs ...*commands.Buffer) commands.Stats { return p.PlayAll(bufs) }

// TestPassThroughEmpty: within one buffer's playback an entity whose last
// row a Remove took is still alive: an Attach to another table of its
// domain, recorded after the Remove or before it, keeps it, with its
// handle; only an entity still rowless when the buffer's playback ends is
// deleted (Emptied), once however often it was emptied, and its slot
// stays taken until then.
func TestPassThroughEmpty(t *testing.T) {
	t.Run("remove then attach", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 3)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
		fr.Remove(hs[1])
		cr.Attach(hs[1])
		commands.Set(cr, a.cargo, hs[1], 7)
		st := play(p, b)
		assert.Equal(t, commands.Stats{Played: 3, Removed: 1, Attached: 1, Sets: 1}, st)
		assert.True(t, a.carrier.IsAlive(hs[1]), "the same handle, now a carrier")
		assert.False(t, a.forager.IsAlive(hs[1]))
		v, ok := a.cargo.Get(hs[1])
		assert.True(t, ok)
		assert.Equal(t, int32(7), v)
		assert.Equal(t, 3, a.forager.Domain().Len(), "no entity was deleted")
		assert.Equal(t, 2, a.forager.Len())
		assert.Equal(t, 1, a.carrier.Len())
	})
	t.Run("attach then remove", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 3)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
		cr.Attach(hs[1])
		fr.Remove(hs[1])
		assert.Equal(t, commands.Stats{Played: 2, Removed: 1, Attached: 1}, play(p, b))
		assert.True(t, a.carrier.IsAlive(hs[1]))
		assert.Equal(t, 3, a.forager.Domain().Len())
	})
	t.Run("remove only: deleted at the end", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 3)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr := b.Recorder(a.forager)
		fr.Remove(hs[1])
		assert.Equal(t, commands.Stats{Played: 1, Removed: 1, Emptied: 1}, play(p, b))
		d := a.forager.Domain()
		assert.False(t, d.IsAlive(hs[1]), "no rowless entity is left (the zombie-slot fix)")
		assert.Equal(t, 2, d.Len())
		n := fr.Create()
		play(p, b)
		assert.Equal(t, d.MakeHandle(1, hs[1].Generation()+2), mustResolve(t, p, n), "the freed slot is reused, one generation on")
	})
	t.Run("emptied twice, deleted once", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 2)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
		fr.Remove(hs[0])
		cr.Attach(hs[0])
		cr.Remove(hs[0])
		assert.Equal(t, commands.Stats{Played: 3, Removed: 2, Attached: 1, Emptied: 1}, play(p, b))
		assert.False(t, a.forager.Domain().IsAlive(hs[0]))
		assert.Equal(t, 1, a.forager.Domain().Len())
	})
	t.Run("provisional: create, remove, attach in one buffer", func(t *testing.T) {
		a := newAnts(t, 8)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
		n := fr.Create()
		fr.Remove(n)
		cr.Attach(n)
		assert.Equal(t, commands.Stats{Played: 3, Created: 1, Removed: 1, Attached: 1}, play(p, b))
		assert.True(t, a.carrier.IsAlive(mustResolve(t, p, n)))
	})
	t.Run("the buffer is the scope: another buffer's attach comes too late", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 2)
		p := commands.NewPlayback(nil)
		b0, b1 := newBuffer(t, p, 0), newBuffer(t, p, 0)
		b0.Recorder(a.forager).Remove(hs[0])
		b1.Recorder(a.carrier).Attach(hs[0])
		st := play(p, b0, b1)
		assert.Equal(t, 1, st.Emptied, "deleted at the end of its buffer's playback")
		assert.Equal(t, 1, st.FailedAttaches)
		var pe *commands.PlaybackError
		require.ErrorAs(t, st.Err, &pe)
		assert.Equal(t, commands.PlaybackError{Buffer: 1, Record: 0, Op: "attach", Table: "Carrier", Err: ephemeral.ErrStaleHandle}, *pe)
	})
	t.Run("merged worker buffers are one playback", func(t *testing.T) {
		a := newAnts(t, 8)
		hs := a.foragers(t, 2)
		p := commands.NewPlayback(nil)
		ws, err := p.NewBuffers("kernel", 2, 0)
		require.NoError(t, err)
		ws[1].Begin(0)
		ws[1].Recorder(a.forager).Remove(hs[0]) // chunk 0, worker 1
		ws[0].Begin(1)
		ws[0].Recorder(a.carrier).Attach(hs[0]) // chunk 1, worker 0
		st := p.PlayMerged(ws)
		assert.Equal(t, commands.Stats{Played: 2, Removed: 1, Attached: 1}, st)
		assert.True(t, a.carrier.IsAlive(hs[0]))
	})
	t.Run("an emptied entity keeps its slot until the end", func(t *testing.T) {
		a := newAnts(t, 2)
		hs := a.foragers(t, 2)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		fr := b.Recorder(a.forager)
		fr.Remove(hs[0])
		_, err := fr.TryCreate()
		var ce *ephemeral.CapacityError
		require.ErrorAs(t, err, &ce, "a Remove does not make room: the entity may get a row again")
		assert.Equal(t, ephemeral.CapacityError{Table: "Forager", Capacity: 2, Live: 2, Requested: 1}, *ce)
		st := play(p, b)
		assert.Equal(t, 1, st.Emptied)
		assert.Equal(t, 1, st.CapacityErrors)
		assert.Equal(t, 1, a.forager.Domain().Len())
	})
}

// TestEmptiedDeletedInRecordOrder: the entities left rowless are deleted at
// the end of the playback in the order of the removes that emptied them
// (record order; in a merged stream, the merged order), whatever their
// slots. Observed through the test hook: the table state does not show it
// (free slots are a set).
func TestEmptiedDeletedInRecordOrder(t *testing.T) {
	a := newAnts(t, 8)
	hs := a.foragers(t, 5)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
	var order []ephemeral.Handle
	commands.SetTestEmptied(func(h ephemeral.Handle) { order = append(order, h) })
	t.Cleanup(func() { commands.SetTestEmptied(nil) })
	fr.Remove(hs[3])
	fr.Remove(hs[0])
	fr.Remove(hs[2]) // re-attached: not deleted
	fr.Remove(hs[4])
	cr.Attach(hs[2])
	st := play(p, b)
	assert.Equal(t, 3, st.Emptied)
	assert.Equal(t, []ephemeral.Handle{hs[3], hs[0], hs[4]}, order)

	// Merged: chunk order, whichever worker recorded it.
	order = nil
	ws, err := p.NewBuffers("kernel", 2, 0)
	require.NoError(t, err)
	ws[0].Begin(1)
	ws[0].Recorder(a.forager).Remove(hs[1])
	ws[1].Begin(0)
	ws[1].Recorder(a.carrier).Remove(hs[2])
	p.PlayMerged(ws)
	assert.Equal(t, []ephemeral.Handle{hs[2], hs[1]}, order)
	assert.Zero(t, a.forager.Domain().Len())
}

// TestFailedAttachReported: an attach that fails at playback is counted and
// reported in Stats.Err, whatever the reason: a dead entity
// (ErrStaleHandle), one that has a row (ErrRowExists), another domain's
// (ErrForeignHandle, counted as foreign).
func TestFailedAttachReported(t *testing.T) {
	a := newAnts(t, 8)
	hs := a.foragers(t, 2)
	a.forager.Delete(hs[0])
	other := newAnts(t, 8)
	oh := other.foragers(t, 1)
	for _, tc := range []struct {
		name string
		h    ephemeral.Handle
		err  error
		st   commands.Stats
	}{
		{"dead", hs[0], ephemeral.ErrStaleHandle, commands.Stats{Played: 2, FailedAttaches: 1}},
		{"has a row", hs[1], ephemeral.ErrRowExists, commands.Stats{Played: 2, FailedAttaches: 1}},
		{"foreign", oh[0], ephemeral.ErrForeignHandle, commands.Stats{Played: 2, ForeignHandles: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := commands.NewPlayback(nil)
			b := newBuffer(t, p, 0)
			fr := b.Recorder(a.forager)
			fr.Delete(0) // record 0: a stale delete, no error
			fr.Attach(tc.h)
			st := play(p, b)
			require.ErrorIs(t, st.Err, commands.ErrPlayback)
			require.ErrorIs(t, st.Err, tc.err)
			var pe *commands.PlaybackError
			require.ErrorAs(t, st.Err, &pe)
			assert.Equal(t, commands.PlaybackError{Buffer: 0, Record: 1, Op: "attach", Table: "Forager", Err: tc.err}, *pe)
			st.Err = nil
			tc.st.StaleDeletes = 1
			assert.Equal(t, tc.st, st)
		})
	}
}

// TestMove: Move carries the columns the two tables share by name and
// type, zeroes the destination's others, drops the source's others, keeps
// the handle and the entity's other rows, in one record; a failed move
// changes nothing and is reported.
func TestMove(t *testing.T) {
	a := newAnts(t, 8)
	hs := a.foragers(t, 3)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
	commands.Move(hs[1], fr, cr)
	n := fr.Create() // a new forager, moved in the same playback
	commands.Set(fr, a.fx, n, 5.5)
	commands.Set(fr, a.fy, n, -2)
	commands.Move(n, fr, cr)
	commands.Set(cr, a.cargo, n, 3) // after the move: the carrier row
	assert.Equal(t, 6, b.Len(), "one record a move")
	st := play(p, b)
	assert.Equal(t, commands.Stats{Played: 6, Created: 1, Sets: 3, Moved: 2}, st)

	assert.False(t, a.forager.IsAlive(hs[1]))
	require.True(t, a.carrier.IsAlive(hs[1]), "the same handle")
	get := func(c *ephemeral.Column[float32], h ephemeral.Handle) float32 { v, _ := c.Get(h); return v }
	assert.Equal(t, float32(1), get(a.cx, hs[1]), "x carried")
	assert.Equal(t, float32(11), get(a.cy, hs[1]), "y carried, whatever the column order")
	cargo, _ := a.cargo.Get(hs[1])
	tag, _ := a.ctag.Get(hs[1])
	assert.Zero(t, cargo, "a column the source lacks starts at zero")
	assert.Zero(t, tag, "tag is int32 in Forager, int64 in Carrier: not carried")
	m := mustResolve(t, p, n)
	assert.Equal(t, float32(5.5), get(a.cx, m))
	assert.Equal(t, float32(-2), get(a.cy, m))
	cargo, _ = a.cargo.Get(m)
	assert.Equal(t, int32(3), cargo)
	assert.Equal(t, 4, a.forager.Domain().Len())
	assert.Equal(t, 2, a.forager.Len())
	assert.Equal(t, 2, a.carrier.Len())
	// The values left behind do not leak into the next row at that slot.
	commands.Move(hs[1], cr, fr)
	play(p, b)
	e, _ := a.energy.Get(hs[1])
	assert.Zero(t, e, "energy was dropped with the forager row")
	assert.Equal(t, float32(1), get(a.fx, hs[1]), "and x comes back")

	other := newAnts(t, 8)
	oh := other.foragers(t, 1)
	for _, tc := range []struct {
		name string
		h    ephemeral.Handle
		err  error
		st   commands.Stats
	}{
		{"no row in the source", m, commands.ErrMoveNoRow, commands.Stats{Played: 1, FailedMoves: 1}},
		{"dead", ephemeral.Handle(0), ephemeral.ErrStaleHandle, commands.Stats{Played: 1, FailedMoves: 1}},
		{"foreign", oh[0], ephemeral.ErrForeignHandle, commands.Stats{Played: 1, ForeignHandles: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			commands.Move(tc.h, fr, cr)
			st := play(p, b)
			require.ErrorIs(t, st.Err, tc.err)
			var pe *commands.PlaybackError
			require.ErrorAs(t, st.Err, &pe)
			assert.Equal(t, commands.PlaybackError{Buffer: 0, Record: 0, Op: "move", Table: "Forager", Err: tc.err}, *pe)
			st.Err = nil
			assert.Equal(t, tc.st, st)
		})
	}
	t.Run("a row in the destination", func(t *testing.T) {
		cr.Attach(hs[0])
		play(p, b)
		commands.Move(hs[0], fr, cr)
		st := play(p, b)
		require.ErrorIs(t, st.Err, ephemeral.ErrRowExists)
		assert.Equal(t, 1, st.FailedMoves)
		assert.True(t, a.forager.IsAlive(hs[0]), "nothing changed")
		assert.True(t, a.carrier.IsAlive(hs[0]))
	})
	t.Run("misuse panics", func(t *testing.T) {
		b2 := newBuffer(t, p, 0)
		assert.PanicsWithValue(t, "commands: Move within table Forager: move to another table of its domain",
			func() { commands.Move(hs[0], fr, fr) })
		assert.PanicsWithValue(t, "commands: Move from table Forager to table Carrier through recorders of two buffers: take both recorders from one Buffer",
			func() { commands.Move(hs[0], fr, b2.Recorder(a.carrier)) })
		assert.PanicsWithValue(t, "commands: Move from table Forager to table Forager of another domain: a row moves only between tables of one domain",
			func() { commands.Move(hs[0], fr, b.Recorder(other.forager)) })
	})
}

// TestBoundedRecorder: 10 000 000 creates into an 8 192-row table are
// refused from create 8 193 on, at the call (a *CapacityError naming the
// table and its capacity), quickly and in bounded memory; writes to the
// refused handle are not recorded; playback counts every refusal and
// reports the first. Deletes recorded before a create make room for it.
func TestBoundedRecorder(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Bird", Capacity: 8192})
	require.NoError(t, err)
	x, err := ephemeral.AddColumn[float32](tab, "x")
	require.NoError(t, err)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 0)
	rec := b.Recorder(tab)
	setX := commands.NewSetter(rec, x)
	n := 10_000_000
	if raceEnabled {
		n = 1_000_000 // the same refusals, in a time the race detector allows
	}
	var before, after runtimeMem
	before.read()
	start := nowNanos()
	first := -1
	var firstErr error
	for i := range n {
		h, err := rec.TryCreate()
		if err != nil && first < 0 {
			first, firstErr = i, err
		}
		setX.Set(h, float32(i))
	}
	elapsed := nowNanos() - start
	after.read()
	assert.Equal(t, 8192, first, "create 8 193 is the first refused")
	var ce *ephemeral.CapacityError
	require.ErrorAs(t, firstErr, &ce)
	assert.True(t, errors.Is(firstErr, ephemeral.ErrCapacity))
	assert.Equal(t, ephemeral.CapacityError{Table: "Bird", Capacity: 8192, Live: 8192, Requested: 1}, *ce)
	assert.Equal(t, `ephemeral: table "Bird" is full: capacity 8192 rows, 8192 live, 1 requested`, firstErr.Error())
	assert.Equal(t, 2*8192+1, b.Len(), "the creates that fit, their writes, one refusal record")
	assert.Less(t, elapsed, int64(5e9), "%d refused creates take %d ns", n, elapsed)
	grew := after.total - before.total
	assert.Less(t, grew, uint64(4<<20), "recording allocated %d bytes", grew)
	t.Logf("%d TryCreate+Set: %.0f ms, %d bytes allocated", n, float64(elapsed)/1e6, grew)

	h, err := rec.TryCreate()
	assert.Same(t, firstErr, err, "every refusal until playback returns the first one's error")
	_, ok := p.Resolve(h)
	assert.False(t, ok)

	st := play(p, b)
	var pe *commands.PlaybackError
	require.ErrorAs(t, st.Err, &pe)
	assert.Equal(t, commands.PlaybackError{Buffer: 0, Record: 2 * 8192, Create: 8193, Op: "create", Table: "Bird", Err: firstErr}, *pe)
	st.Err = nil
	assert.Equal(t, commands.Stats{Played: 2*8192 + 1, Created: 8192, Sets: 8192, CapacityErrors: n - 8192 + 1, DroppedSets: n - 8192}, st)
	assert.Equal(t, 8192, tab.Len())

	// After playback the recorder takes creates again as deletes make room:
	// a delete recorded before a create counts.
	_, err = rec.TryCreate()
	assert.ErrorIs(t, err, ephemeral.ErrCapacity, "still full")
	h0, _ := tab.HandleAt(0)
	b.Reset()
	rec.Delete(h0)
	_, err = rec.TryCreate()
	assert.NoError(t, err, "the delete before it made room")
	_, err = rec.TryCreate()
	assert.ErrorIs(t, err, ephemeral.ErrCapacity)
	st = play(p, b)
	assert.Equal(t, 1, st.Created)
	assert.Equal(t, 1, st.Deleted)
	assert.Equal(t, 1, st.CapacityErrors)
	assert.Equal(t, 8192, tab.Len())
}

// runtimeMem reads the process's cumulative heap allocation.
type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var s goruntime.MemStats
	goruntime.ReadMemStats(&s)
	m.total = s.TotalAlloc
}

func nowNanos() int64 { return time.Now().UnixNano() }

// Moving entities between tables (Move, Remove then Attach, an entity
// emptied and deleted at the end) records and plays back with no
// allocation once warm, and so does a buffer whose creates are refused
// after the first refusal's error.
func TestPassThroughAllocs(t *testing.T) {
	a := newAnts(t, 64)
	hs := a.foragers(t, 16)
	p := commands.NewPlayback(nil)
	b := newBuffer(t, p, 64)
	fr, cr := b.Recorder(a.forager), b.Recorder(a.carrier)
	frame := func() {
		for _, h := range hs[:8] {
			commands.Move(h, fr, cr)
		}
		for _, h := range hs[8:] {
			fr.Remove(h)
			cr.Attach(h)
		}
		n := fr.Create()
		fr.Remove(n) // emptied: deleted at the end
		st := p.PlayAll([]*commands.Buffer{b})
		if st.Err != nil || st.Moved != 8 || st.Attached != 8 || st.Emptied != 1 {
			panic(st)
		}
		for _, h := range hs[:8] {
			commands.Move(h, cr, fr)
		}
		for _, h := range hs[8:] {
			cr.Remove(h)
			fr.Attach(h)
		}
		if st := p.PlayAll([]*commands.Buffer{b}); st.Err != nil || st.Emptied != 0 {
			panic(st)
		}
		p.Release()
	}
	frame()
	assert.Zero(t, testing.AllocsPerRun(50, frame))
	assert.Equal(t, 16, a.forager.Len())
	assert.Equal(t, 16, a.forager.Domain().Len())
}

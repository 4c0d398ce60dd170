package commands_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// twinWorlds is two unit domains (Unit and Body tables each) with the same
// history, so b's handles have the slot and generation of a's: a has 9
// units, b 8 (b's next create takes slot 8, generation 1, which a's ninth
// unit holds). Unit i of a has hp 100+i, of b 200+i; the even units of a
// also have a Body row with x = i.
type twinWorlds struct {
	a, b   domainWorld
	ha, hb []ephemeral.Handle
}

func newTwinWorlds(t *testing.T) twinWorlds {
	t.Helper()
	tw := twinWorlds{a: newDomainWorld(t, 16), b: newDomainWorld(t, 16)}
	tw.ha, tw.hb = make([]ephemeral.Handle, 9), make([]ephemeral.Handle, 8)
	require.NoError(t, tw.a.unit.InsertN(tw.ha))
	require.NoError(t, tw.b.unit.InsertN(tw.hb))
	for i, h := range tw.ha {
		require.True(t, tw.a.hp.Set(h, int32(100+i)))
		if i%2 == 0 {
			require.NoError(t, tw.a.body.Attach(h))
			require.True(t, tw.a.x.Set(h, float32(i)))
		}
	}
	for i, h := range tw.hb {
		require.True(t, tw.b.hp.Set(h, int32(200+i)))
		require.Equal(t, untag(tw.ha[i]), untag(h), "slot %d: same index and generation", i)
	}
	return tw
}

// requireUntouched checks every row of a and b against the set-up; b may
// have gained bRows rows beyond its 8.
func (tw twinWorlds) requireUntouched(t *testing.T, bRows int) {
	t.Helper()
	assert.Equal(t, 9, tw.a.unit.Len(), "a Unit.Len")
	assert.Equal(t, 5, tw.a.body.Len(), "a Body.Len")
	assert.Equal(t, 9, tw.a.unit.Domain().Len(), "a domain Len")
	for i, h := range tw.ha {
		hp, ok := tw.a.hp.Get(h)
		assert.True(t, ok, "a unit %d", i)
		assert.Equal(t, int32(100+i), hp, "a unit %d hp", i)
		x, ok := tw.a.x.Get(h)
		assert.Equal(t, i%2 == 0, ok, "a unit %d Body row", i)
		if ok {
			assert.Equal(t, float32(i), x, "a unit %d x", i)
		}
	}
	assert.Equal(t, 8+bRows, tw.b.unit.Len(), "b Unit.Len")
	assert.Zero(t, tw.b.body.Len(), "b Body.Len")
	for i, h := range tw.hb {
		hp, ok := tw.b.hp.Get(h)
		assert.True(t, ok, "b unit %d", i)
		assert.Equal(t, int32(200+i), hp, "b unit %d hp", i)
	}
}

// requireForeignErr checks that err reports record rec, an op on table
// table, as naming a foreign handle.
func requireForeignErr(t *testing.T, err error, rec int, op, table string) {
	t.Helper()
	require.ErrorIs(t, err, commands.ErrPlayback)
	require.ErrorIs(t, err, ephemeral.ErrForeignHandle)
	var pe *commands.PlaybackError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, commands.PlaybackError{Buffer: 0, Record: rec, Op: op, Table: table, Err: ephemeral.ErrForeignHandle}, *pe)
}

// TestForeignHandlePlayback records every recorder operation that takes a
// handle with a handle of another domain (b's, matching a live entity of a
// by slot and generation) through a's recorders: playback must touch no
// row of either world, count the record in ForeignHandles and report it.
func TestForeignHandlePlayback(t *testing.T) {
	tests := []struct {
		name string
		// record records through a's recorders of buffer buf, using b's
		// handles (and b's recorders, for creates in b).
		record func(tw twinWorlds, buf *commands.Buffer)
		want   commands.Stats
		rec    int    // the record Err names
		op     string // and its op
		table  string // and table
		bRows  int    // rows created in b
	}{
		{"Attach", func(tw twinWorlds, buf *commands.Buffer) {
			buf.Recorder(tw.a.body).Attach(tw.hb[1]) // a's unit 1 has no Body row
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "attach", "Body", 0},
		{"Delete", func(tw twinWorlds, buf *commands.Buffer) {
			buf.Recorder(tw.a.unit).Delete(tw.hb[2])
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "delete", "Unit", 0},
		{"Delete through Body", func(tw twinWorlds, buf *commands.Buffer) {
			buf.Recorder(tw.a.body).Delete(tw.hb[4])
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "delete", "Body", 0},
		{"Remove", func(tw twinWorlds, buf *commands.Buffer) {
			buf.Recorder(tw.a.body).Remove(tw.hb[2])
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "remove", "Body", 0},
		{"Remove the last row", func(tw twinWorlds, buf *commands.Buffer) {
			buf.Recorder(tw.a.unit).Remove(tw.hb[3]) // a's unit 3 has only its Unit row
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "remove", "Unit", 0},
		{"Set", func(tw twinWorlds, buf *commands.Buffer) {
			commands.Set(buf.Recorder(tw.a.unit), tw.a.hp, tw.hb[3], -1)
		}, commands.Stats{Played: 1, ForeignHandles: 1}, 0, "set", "Unit", 0},
		{"Setter.Set", func(tw twinWorlds, buf *commands.Buffer) {
			s := commands.NewSetter(buf.Recorder(tw.a.body), tw.a.x)
			s.Set(tw.hb[0], -1)
			s.Set(tw.hb[6], -1)
		}, commands.Stats{Played: 2, ForeignHandles: 2}, 0, "set", "Body", 0},
		{"SetN", func(tw twinWorlds, buf *commands.Buffer) {
			commands.SetN(buf.Recorder(tw.a.unit), tw.a.hp, tw.hb[:4], []int32{-1, -2, -3, -4})
		}, commands.Stats{Played: 1, ForeignHandles: 4}, 0, "set", "Unit", 0},
		{"SetN mixed with own and stale handles", func(tw twinWorlds, buf *commands.Buffer) {
			units := buf.Recorder(tw.a.unit)
			commands.SetN(units, tw.a.hp, []ephemeral.Handle{tw.hb[0], tw.ha[1], 0, tw.hb[2]}, []int32{-1, 101, -3, -4})
		}, commands.Stats{Played: 1, Sets: 1, DroppedSets: 1, ForeignHandles: 2}, 0, "set", "Unit", 0},
		{"Set inside a create run", func(tw twinWorlds, buf *commands.Buffer) {
			units := buf.Recorder(tw.a.unit)
			n := units.Create()
			commands.Set(units, tw.a.hp, tw.hb[5], -1)
			units.Delete(n) // leave a as it was
		}, commands.Stats{Played: 3, Created: 1, Deleted: 1, ForeignHandles: 1}, 1, "set", "Unit", 0},
		{"Create in b, then use with a", func(tw twinWorlds, buf *commands.Buffer) {
			p := buf.Recorder(tw.b.unit).Create() // resolves to b's 8:1, a's unit 8 has 8:1 too
			units, bodies := buf.Recorder(tw.a.unit), buf.Recorder(tw.a.body)
			commands.Set(units, tw.a.hp, p, -1)
			commands.NewSetter(units, tw.a.hp).Set(p, -2)
			commands.SetN(units, tw.a.hp, []ephemeral.Handle{p}, []int32{-3})
			bodies.Attach(p)
			bodies.Remove(tw.hb[0])
			units.Remove(p)
			units.Delete(p)
			bodies.Delete(p)
		}, commands.Stats{Played: 9, Created: 1, ForeignHandles: 8}, 1, "set", "Unit", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTwinWorlds(t)
			p := commands.NewPlayback(nil)
			buf := newBuffer(t, p, 0)
			tc.record(tw, buf)
			st := p.PlayAll([]*commands.Buffer{buf})
			requireForeignErr(t, st.Err, tc.rec, tc.op, tc.table)
			st.Err = nil
			assert.Equal(t, tc.want, st)
			tw.requireUntouched(t, tc.bRows)
		})
	}
}

// TestForeignHandleStatsAdd: Add sums the new counters.
func TestForeignHandleStatsAdd(t *testing.T) {
	var s commands.Stats
	s.Add(commands.Stats{ForeignHandles: 2, Emptied: 1})
	s.Add(commands.Stats{ForeignHandles: 3, Emptied: 4})
	assert.Equal(t, commands.Stats{ForeignHandles: 5, Emptied: 5}, s)
}

// TestRemoveThenDelete: records play in record order (Policies, Playback
// order): a Remove of an entity's last row leaves it alive with no row, so
// a Delete recorded after it deletes it (Deleted, not Emptied, not stale)
// and no live entity is left: the slot is freed and its generation
// advances once.
func TestRemoveThenDelete(t *testing.T) {
	t.Run("real handle, standalone table", func(t *testing.T) {
		w := newWorld(t, 8, 64)
		hs := w.insert(t, 3)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		rec := b.Recorder(w.units)
		rec.Remove(hs[1])
		rec.Delete(hs[1])
		assert.Equal(t, commands.Stats{Played: 2, Removed: 1, Deleted: 1}, p.PlayAll([]*commands.Buffer{b}))
		assert.Equal(t, 2, w.units.Len())
		assert.Equal(t, 2, w.units.Domain().Len(), "no entity without rows is left")
		assert.False(t, w.units.Domain().IsAlive(hs[1]))

		n := rec.Create()
		assert.Equal(t, commands.Stats{Played: 1, Created: 1}, p.PlayAll([]*commands.Buffer{b}))
		assert.Equal(t, w.units.Domain().MakeHandle(1, hs[1].Generation()+2), mustResolve(t, p, n),
			"the freed slot is reused, one generation on")
		assert.Equal(t, 3, w.units.Domain().Len())
	})

	t.Run("provisional handle, one playback", func(t *testing.T) {
		w := newWorld(t, 8, 64)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		rec := b.Recorder(w.units)
		n := rec.Create()
		commands.Set(rec, w.value, n, 5)
		rec.Remove(n)
		rec.Delete(n)
		assert.Equal(t, commands.Stats{Played: 4, Created: 1, Sets: 1, Removed: 1, Deleted: 1}, p.PlayAll([]*commands.Buffer{b}))
		assert.Zero(t, w.units.Len())
		assert.Zero(t, w.units.Domain().Len())
		r := mustResolve(t, p, n)
		assert.False(t, w.units.Domain().IsAlive(r))

		m := rec.Create()
		p.PlayAll([]*commands.Buffer{b})
		assert.Equal(t, w.units.Domain().MakeHandle(0, 3), mustResolve(t, p, m))
	})

	t.Run("shared domain: only the last row frees", func(t *testing.T) {
		w := newDomainWorld(t, 8)
		p := commands.NewPlayback(nil)
		b := newBuffer(t, p, 0)
		units, bodies := b.Recorder(w.unit), b.Recorder(w.body)
		n := units.Create()
		bodies.Attach(n)
		p.PlayAll([]*commands.Buffer{b})
		h := mustResolve(t, p, n)

		bodies.Remove(h)
		assert.Equal(t, commands.Stats{Played: 1, Removed: 1}, p.PlayAll([]*commands.Buffer{b}))
		assert.True(t, w.unit.Domain().IsAlive(h), "the Unit row is left")
		assert.Equal(t, 1, w.unit.Domain().Len())

		units.Remove(h)
		units.Delete(h)
		bodies.Delete(h)
		assert.Equal(t, commands.Stats{Played: 3, Removed: 1, Deleted: 1, StaleDeletes: 1}, p.PlayAll([]*commands.Buffer{b}))
		assert.False(t, w.unit.Domain().IsAlive(h))
		assert.Zero(t, w.unit.Domain().Len())
		assert.Zero(t, w.unit.Len())
		assert.Zero(t, w.body.Len())
	})
}

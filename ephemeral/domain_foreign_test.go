package ephemeral_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// twinTables is two standalone tables (two domains) given the same history:
// 10 rows inserted, rows 3 and 7 deleted and reinserted, so every handle of
// b has the slot index and generation of a live handle of a. Row i of a
// holds 100+i, row i of b holds 200+i.
type twinTables struct {
	a, b   bodyTable
	ha, hb []ephemeral.Handle // by slot
}

func newTwinTables(t *testing.T) twinTables {
	t.Helper()
	tw := twinTables{a: newBodyTable(t, "a", 16, 64), b: newBodyTable(t, "b", 16, 64)}
	for _, x := range []struct {
		bt   bodyTable
		hs   *[]ephemeral.Handle
		base int64
	}{{tw.a, &tw.ha, 100}, {tw.b, &tw.hb, 200}} {
		hs := make([]ephemeral.Handle, 10)
		require.NoError(t, x.bt.InsertN(hs))
		for _, i := range []int{3, 7} {
			require.True(t, x.bt.Delete(hs[i]))
			h, err := x.bt.Insert()
			require.NoError(t, err)
			require.Equal(t, hs[i].Index(), h.Index())
			hs[i] = h
		}
		for i, h := range hs {
			require.True(t, x.bt.id.Set(h, x.base+int64(i)))
			require.True(t, x.bt.body.Set(h, bodyOf(x.base+int64(i))))
		}
		*x.hs = hs
	}
	require.NotEqual(t, tw.a.Domain().Tag(), tw.b.Domain().Tag(), "two domains, two tags")
	for i := range tw.ha {
		require.Equal(t, untagged(tw.ha[i]), untagged(tw.hb[i]), "slot %d: same index and generation", i)
		require.NotEqual(t, tw.ha[i], tw.hb[i], "slot %d: different handles", i)
	}
	return tw
}

// requireUntouched checks that every row of both tables still holds its
// value, with the counts of the set-up.
func (tw twinTables) requireUntouched(t *testing.T) {
	t.Helper()
	for _, x := range []struct {
		bt   bodyTable
		hs   []ephemeral.Handle
		base int64
	}{{tw.a, tw.ha, 100}, {tw.b, tw.hb, 200}} {
		assert.Equal(t, 10, x.bt.Len(), "%s.Len", x.bt.Name())
		assert.Equal(t, 10, x.bt.Domain().Len(), "%s domain Len", x.bt.Name())
		for i, h := range x.hs {
			x.bt.requireRow(t, h, x.base+int64(i))
		}
	}
}

// TestForeignHandle uses each handle of table b, every one matching a live
// row of table a by slot and generation, with every operation of a that
// takes a handle: each must miss, change nothing, and say so.
func TestForeignHandle(t *testing.T) {
	ops := []struct {
		name string
		// do applies the operation to a with the foreign handle h and
		// checks what it returned.
		do func(t *testing.T, a bodyTable, h ephemeral.Handle)
	}{
		{"Column.Get", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			v, ok := a.id.Get(h)
			assert.False(t, ok)
			assert.Zero(t, v)
			bv, ok := a.body.Get(h)
			assert.False(t, ok)
			assert.Zero(t, bv)
		}},
		{"Column.Set", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.id.Set(h, -1))
			assert.False(t, a.body.Set(h, bodyOf(-1)))
		}},
		{"Column.Ptr", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.Nil(t, a.id.Ptr(h))
		}},
		{"Table.IsAlive", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.IsAlive(h))
		}},
		{"Lease.Row", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			if ephemeral.DebugBuild { // the debug build refuses the probe (docs/architecture.md, Debug build)
				assert.PanicsWithValue(t, foreignProbe(a, h), func() { a.Lease().Row(h) })
				assert.PanicsWithValue(t, foreignProbe(a, h), func() { a.Lease().Find(h) })
				return
			}
			row, ok := a.Lease().Row(h)
			assert.False(t, ok)
			assert.Zero(t, row)
			assert.False(t, a.Lease().IsAlive(h))
		}},
		{"Table.Delete", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.Delete(h))
		}},
		{"Table.DeleteN", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.Zero(t, a.DeleteN([]ephemeral.Handle{h, h}))
		}},
		{"Table.Detach", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.Detach(h))
		}},
		{"Table.Attach", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			err := a.Attach(h)
			assert.ErrorIs(t, err, ephemeral.ErrForeignHandle)
			assert.NotErrorIs(t, err, ephemeral.ErrStaleHandle)
			assert.NotErrorIs(t, err, ephemeral.ErrRowExists)
		}},
		{"Domain.IsAlive", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.Domain().IsAlive(h))
		}},
		{"Domain.Owns", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.Domain().Owns(h))
		}},
		{"Domain.Delete", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.False(t, a.Domain().Delete(h))
		}},
		{"Domain.DeleteN", func(t *testing.T, a bodyTable, h ephemeral.Handle) {
			assert.Zero(t, a.Domain().DeleteN([]ephemeral.Handle{h}))
		}},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			tw := newTwinTables(t)
			for _, h := range tw.hb {
				op.do(t, tw.a, h)
			}
			// And the other way round: a's handles on b.
			for _, h := range tw.ha {
				op.do(t, tw.b, h)
			}
			tw.requireUntouched(t)
		})
	}
}

// foreignProbe is the debug build's panic of a probe of a's lease with
// the foreign handle h.
func foreignProbe(a bodyTable, h ephemeral.Handle) string {
	tag := strconv.Itoa(int(a.Domain().Tag()))
	return "ephemeral: a Lease of table " + strconv.Quote(a.Name()) + " (domain " + strconv.Quote(a.Domain().Name()) +
		", tag " + tag + ") probed with handle " + h.String() + " of another domain (tag " + strconv.Itoa(int(h.Tag())) +
		"): a handle names rows only in the tables of the domain that issued it; probe a table of the handle's own domain (tickwork_debug check)"
}

// TestForeignHandleOfSharedDomain: the member tables of a domain accept each
// other's handles; a table of another domain with the same history does not.
func TestForeignHandleOfSharedDomain(t *testing.T) {
	f := newDomainFixture(t)
	u, err := f.units.Insert()
	require.NoError(t, err)
	require.NoError(t, f.bodies.Attach(u), "same domain: not foreign")
	require.True(t, f.dom.Owns(u))

	g := newDomainFixture(t)
	gu, err := g.units.Insert()
	require.NoError(t, err)
	require.True(t, g.hp.Set(gu, 7))
	require.Equal(t, untagged(u), untagged(gu))

	assert.False(t, g.dom.Owns(u))
	assert.ErrorIs(t, g.bodies.Attach(u), ephemeral.ErrForeignHandle)
	assert.False(t, g.hp.Set(u, 1))
	assert.False(t, g.units.Delete(u))
	assert.False(t, g.dom.Delete(u))
	hp, ok := g.hp.Get(gu)
	assert.True(t, ok)
	assert.Equal(t, int32(7), hp, "g's entity at the same slot is untouched")
	assert.Equal(t, 1, g.dom.Len())
	assert.Zero(t, g.bodies.Len())
}

// TestDomainTags: tags are nonzero, consecutive domains get distinct ones,
// and they repeat after MaxHandleTag domains, the documented collision
// bound (docs/architecture.md, "Handle layout").
func TestDomainTags(t *testing.T) {
	newDom := func() *ephemeral.Domain {
		d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 1, ChunkRows: 64})
		require.NoError(t, err)
		return d
	}
	first := newDom()
	seen := map[uint32]bool{first.Tag(): true}
	var last *ephemeral.Domain
	for i := 1; i < ephemeral.MaxHandleTag; i++ {
		last = newDom()
		require.NotZero(t, last.Tag())
		require.LessOrEqual(t, last.Tag(), uint32(ephemeral.MaxHandleTag))
		require.False(t, seen[last.Tag()], "domain %d repeats tag %d", i, last.Tag())
		seen[last.Tag()] = true
	}
	assert.Len(t, seen, ephemeral.MaxHandleTag, "MaxHandleTag domains in a row: all distinct")
	wrap := newDom()
	assert.Equal(t, first.Tag(), wrap.Tag(), "the next one repeats the first tag")

	// Two domains that share a tag do not tell their handles apart: the
	// bound is real.
	h, err := first.Create()
	require.NoError(t, err)
	hw, err := wrap.Create()
	require.NoError(t, err)
	assert.Equal(t, h, hw)
	assert.True(t, wrap.IsAlive(h))

	// A standalone table takes a tag too, and issues handles with it.
	tb := newBodyTable(t, "t", 4, 64)
	th := tb.insert(t, 1)
	assert.Equal(t, tb.Domain().Tag(), th.Tag())
	assert.NotEqual(t, wrap.Tag(), tb.Domain().Tag())
}

// TestGenerationWrap: a slot reused 2^(HandleGenerationBits-1) times comes
// back to its first generation, with the domain's tag intact: the reuse
// bound of docs/architecture.md ("Handle layout"), and no carry into the tag.
func TestGenerationWrap(t *testing.T) {
	if testing.Short() {
		t.Skip("2^21 reuses of a slot")
	}
	bt := newBodyTable(t, "wrap", 1, 64)
	d := bt.Domain()
	first, err := bt.Insert()
	require.NoError(t, err)
	require.Equal(t, d.MakeHandle(0, 1), first)
	h := first
	const reuses = 1 << (ephemeral.HandleGenerationBits - 1)
	for i := 1; i <= reuses; i++ {
		if !bt.Delete(h) {
			t.Fatalf("reuse %d: Delete(%v) failed", i, h)
		}
		if h, err = bt.Insert(); err != nil {
			t.Fatal(err)
		}
		if h.Tag() != d.Tag() || h.Generation()&1 != 1 {
			t.Fatalf("reuse %d: %v has tag %d (want %d) or an even generation", i, h, h.Tag(), d.Tag())
		}
		if i == reuses-1 {
			assert.Equal(t, d.MakeHandle(0, 1<<ephemeral.HandleGenerationBits-1), h, "the last generation before the wrap")
			assert.False(t, bt.IsAlive(first))
		}
	}
	assert.Equal(t, first, h, "after 2^21 reuses the first handle matches again")
	assert.True(t, bt.IsAlive(first))
	assert.Equal(t, 1, bt.Len())
	assert.Equal(t, 1, d.Len())
}

// TestDetachLastRow: detaching an entity's last row deletes the entity, so
// no sequence of operations leaves a live entity with no rows that no
// table can delete.
func TestDetachLastRow(t *testing.T) {
	t.Run("standalone", func(t *testing.T) {
		bt := newBodyTable(t, "units", 4, 64)
		hs := []ephemeral.Handle{bt.insert(t, 1), bt.insert(t, 2), bt.insert(t, 3)}
		require.True(t, bt.Detach(hs[1]))
		assert.Equal(t, 2, bt.Len())
		assert.Equal(t, 2, bt.Domain().Len(), "the entity went with its only row")
		assert.False(t, bt.Domain().IsAlive(hs[1]))
		bt.requireDead(t, hs[1])
		assert.False(t, bt.Delete(hs[1]), "nothing left to delete")
		assert.False(t, bt.Detach(hs[1]))
		assert.ErrorIs(t, bt.Attach(hs[1]), ephemeral.ErrStaleHandle)
		assert.Equal(t, 2, bt.Domain().Len())

		// The slot is free: the next insert takes it, one generation on.
		h := bt.insert(t, 4)
		assert.Equal(t, bt.Domain().MakeHandle(hs[1].Index(), hs[1].Generation()+2), h)
		assert.Equal(t, 3, bt.Len())
		assert.Equal(t, 3, bt.Domain().Len())
		bt.requireRow(t, hs[0], 1)
		bt.requireRow(t, hs[2], 3)
		bt.requireRow(t, h, 4)
		bt.requireDead(t, hs[1])

		// Detach everything: the domain is empty and every slot is free.
		for _, x := range []ephemeral.Handle{hs[0], h, hs[2]} {
			require.True(t, bt.Detach(x))
		}
		assert.Zero(t, bt.Len())
		assert.Zero(t, bt.Domain().Len())
		out := make([]ephemeral.Handle, 4)
		require.NoError(t, bt.InsertN(out), "all 4 slots free")
		assert.Equal(t, []uint32{0, 1, 2, 3}, []uint32{out[0].Index(), out[1].Index(), out[2].Index(), out[3].Index()})
		assert.Equal(t, []uint32{3, 5, 3, 1}, []uint32{out[0].Generation(), out[1].Generation(), out[2].Generation(), out[3].Generation()})
	})

	t.Run("shared domain", func(t *testing.T) {
		f := newDomainFixture(t)
		u, err := f.units.Insert()
		require.NoError(t, err)
		require.NoError(t, f.bodies.Attach(u))
		require.NoError(t, f.names.Attach(u))
		other, err := f.units.Insert()
		require.NoError(t, err)

		require.True(t, f.units.Detach(u))
		assert.True(t, f.dom.IsAlive(u), "two rows left")
		require.True(t, f.names.Detach(u))
		assert.True(t, f.dom.IsAlive(u), "the bodies row is left")
		assert.Equal(t, 2, f.dom.Len())
		require.True(t, f.bodies.Detach(u))
		assert.False(t, f.dom.IsAlive(u), "no row left: deleted")
		assert.Equal(t, 1, f.dom.Len())
		assert.Equal(t, 1, f.units.Len())
		assert.Zero(t, f.bodies.Len())
		assert.Zero(t, f.names.Len())
		assert.True(t, f.units.IsAlive(other))

		h, err := f.bodies.Insert()
		require.NoError(t, err)
		assert.Equal(t, f.dom.MakeHandle(u.Index(), u.Generation()+2), h, "u's slot is reused")
	})

	t.Run("created bare, attached, detached", func(t *testing.T) {
		f := newDomainFixture(t)
		h, err := f.dom.Create()
		require.NoError(t, err)
		assert.Equal(t, 1, f.dom.Len(), "Create makes an entity with no rows, for Attach")
		require.NoError(t, f.bodies.Attach(h))
		require.True(t, f.bodies.Detach(h))
		assert.False(t, f.dom.IsAlive(h))
		assert.Zero(t, f.dom.Len())

		// A bare entity that never gets a row is deleted through its domain.
		h, err = f.dom.Create()
		require.NoError(t, err)
		assert.True(t, f.dom.Delete(h))
		assert.Zero(t, f.dom.Len())
	})
}

package ephemeral_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/kelindar/bitmap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// body is the small struct the tests and benchmarks store.
type body struct {
	X, Y, VX, VY float32
}

// bodyTable is a standalone table with an int64 "id" column and a body
// "body" column.
type bodyTable struct {
	*ephemeral.Table
	id   *ephemeral.Column[int64]
	body *ephemeral.Column[body]
}

func newBodyTable(tb testing.TB, name string, capacity, chunkRows int) bodyTable {
	tb.Helper()
	t, err := ephemeral.NewTable(ephemeral.TableSpec{Name: name, Capacity: capacity, ChunkRows: chunkRows})
	require.NoError(tb, err)
	id, err := ephemeral.AddColumn[int64](t, "id")
	require.NoError(tb, err)
	b, err := ephemeral.AddColumn[body](t, "body")
	require.NoError(tb, err)
	return bodyTable{Table: t, id: id, body: b}
}

// insert inserts one row and writes v to both columns.
func (bt bodyTable) insert(tb testing.TB, v int64) ephemeral.Handle {
	tb.Helper()
	h, err := bt.Insert()
	require.NoError(tb, err)
	require.True(tb, bt.id.Set(h, v))
	require.True(tb, bt.body.Set(h, bodyOf(v)))
	return h
}

func bodyOf(v int64) body {
	f := float32(v)
	return body{X: f, Y: -f, VX: f / 2, VY: f * 3}
}

// requireRow checks that h is live and reads back v in every column.
func (bt bodyTable) requireRow(tb testing.TB, h ephemeral.Handle, v int64) {
	tb.Helper()
	require.True(tb, bt.IsAlive(h), "IsAlive(%v)", h)
	got, ok := bt.id.Get(h)
	require.True(tb, ok, "id.Get(%v)", h)
	assert.Equal(tb, v, got, "id.Get(%v)", h)
	gb, ok := bt.body.Get(h)
	require.True(tb, ok, "body.Get(%v)", h)
	assert.Equal(tb, bodyOf(v), gb, "body.Get(%v)", h)
	row, ok := bt.Lease().Row(h)
	require.True(tb, ok, "Lease.Row(%v)", h)
	assert.Equal(tb, int(h.Index()), row, "Lease.Row(%v)", h)
	assert.Equal(tb, row, bt.Lease().Find(h), "Lease.Find(%v)", h)
	assert.Equal(tb, row, findByWords(bt.Lease().Words(), h), "Find by Lease.Words(%v)", h)
	assert.Equal(tb, v, bt.id.All()[row], "id.All()[%d]", row)
}

// leaseRow is l.Row(h) for a lease of a table of dom, and 0, false for a
// handle of another domain, which the debug build's probe refuses
// (checked here: docs/architecture.md, Debug build).
func leaseRow(tb testing.TB, l ephemeral.Lease, dom *ephemeral.Domain, h ephemeral.Handle) (int, bool) {
	if ephemeral.DebugBuild && h.Tag() != 0 && h.Tag() != dom.Tag() {
		if !panics(func() { l.Row(h) }) { // not assert.Panics, which takes a stack each time: the fuzz probes many
			tb.Errorf("Lease.Row(%v) of another domain did not panic", h)
		}
		return 0, false
	}
	return l.Row(h)
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// findByWords is Lease.Find as Lease.Words states it.
func findByWords(words []uint32, h ephemeral.Handle) int {
	if i, w := h.Index(), uint32(h>>32); uint64(i) < uint64(len(words)) && w != 0 && words[i] == w {
		return int(i)
	}
	return -1
}

// requireDead checks that h reaches no row: every read fails and every
// write is refused.
func (bt bodyTable) requireDead(tb testing.TB, h ephemeral.Handle) {
	tb.Helper()
	assert.False(tb, bt.IsAlive(h), "IsAlive(%v)", h)
	got, ok := bt.id.Get(h)
	assert.False(tb, ok, "id.Get(%v) ok", h)
	assert.Zero(tb, got, "id.Get(%v) value", h)
	gb, ok := bt.body.Get(h)
	assert.False(tb, ok, "body.Get(%v) ok", h)
	assert.Zero(tb, gb, "body.Get(%v) value", h)
	assert.Nil(tb, bt.id.Ptr(h), "id.Ptr(%v)", h)
	if ephemeral.DebugBuild && h.Tag() != 0 && h.Tag() != bt.Domain().Tag() {
		// The debug build refuses a probe with another domain's handle
		// (docs/architecture.md, Debug build).
		assert.Panics(tb, func() { bt.Lease().Row(h) }, "Lease.Row(%v)", h)
		assert.Panics(tb, func() { bt.Lease().Find(h) }, "Lease.Find(%v)", h)
		return
	}
	row, ok := bt.Lease().Row(h)
	assert.False(tb, ok, "Lease.Row(%v) ok", h)
	assert.Zero(tb, row, "Lease.Row(%v) row", h)
	assert.Equal(tb, -1, bt.Lease().Find(h), "Lease.Find(%v)", h)
	assert.Equal(tb, -1, findByWords(bt.Lease().Words(), h), "Find by Lease.Words(%v)", h)
	assert.False(tb, bt.Lease().IsAlive(h), "Lease.IsAlive(%v)", h)
}

func TestStaleHandleAfterSlotReuse(t *testing.T) {
	deleters := []struct {
		name   string
		delete func(bt bodyTable, h ephemeral.Handle) bool
	}{
		{"Table.Delete", func(bt bodyTable, h ephemeral.Handle) bool { return bt.Delete(h) }},
		{"Table.DeleteN", func(bt bodyTable, h ephemeral.Handle) bool { return bt.DeleteN([]ephemeral.Handle{h, h}) == 1 }},
		{"Domain.Delete", func(bt bodyTable, h ephemeral.Handle) bool { return bt.Domain().Delete(h) }},
		{"Domain.DeleteN", func(bt bodyTable, h ephemeral.Handle) bool {
			return bt.Domain().DeleteN([]ephemeral.Handle{h, h}) == 1
		}},
	}
	for _, d := range deleters {
		t.Run(d.name, func(t *testing.T) {
			bt := newBodyTable(t, "units", 8, 0)
			h := bt.insert(t, 7)
			require.True(t, d.delete(bt, h))
			bt.requireDead(t, h)
			assert.Equal(t, 0, bt.Len())

			h2, err := bt.Insert()
			require.NoError(t, err)
			assert.NotEqual(t, h, h2)
			assert.Equal(t, h.Index(), h2.Index(), "slot is reused")
			assert.Equal(t, h.Generation()+2, h2.Generation(), "generation bumps on delete and on create")
			assert.Equal(t, uint32(1), h2.Generation()&1, "live generations are odd")

			// The new row starts zeroed, although the slot held 7.
			bt.requireRow(t, h2, 0)
			require.True(t, bt.id.Set(h2, 42))
			require.True(t, bt.body.Set(h2, bodyOf(42)))

			// Through h: no read, no write, no delete.
			bt.requireDead(t, h)
			assert.False(t, bt.id.Set(h, -1), "Set through stale handle")
			assert.False(t, bt.body.Set(h, bodyOf(-1)), "Set through stale handle")
			assert.False(t, d.delete(bt, h), "second delete")
			assert.False(t, bt.Detach(h), "Detach through stale handle")
			assert.ErrorIs(t, bt.Attach(h), ephemeral.ErrStaleHandle)

			assert.Equal(t, 1, bt.Len())
			assert.Equal(t, 1, bt.Domain().Len())
			bt.requireRow(t, h2, 42)
		})
	}
}

func TestZeroAndMadeUpHandles(t *testing.T) {
	bt := newBodyTable(t, "units", 100, 64)
	h := bt.insert(t, 1) // 0:1
	d := bt.Domain()
	tests := []struct {
		name   string
		h      ephemeral.Handle
		attach error // what Attach returns
	}{
		{"zero", 0, ephemeral.ErrStaleHandle},
		{"even generation", d.MakeHandle(h.Index(), 2), ephemeral.ErrStaleHandle},
		{"next generation", d.MakeHandle(h.Index(), 3), ephemeral.ErrStaleHandle},
		{"generation zero", d.MakeHandle(h.Index(), 0), ephemeral.ErrStaleHandle},
		{"empty slot", d.MakeHandle(1, 1), ephemeral.ErrStaleHandle},
		{"past capacity, inside last chunk", d.MakeHandle(100, 1), ephemeral.ErrStaleHandle},
		{"past last chunk", d.MakeHandle(128, 1), ephemeral.ErrStaleHandle},
		{"max index", d.MakeHandle(^uint32(0), 1), ephemeral.ErrStaleHandle},
		{"untagged, same index and generation", ephemeral.MakeHandle(h.Index(), h.Generation()), ephemeral.ErrForeignHandle},
		{"untagged, high word zero, empty slot", ephemeral.MakeHandle(1, 0), ephemeral.ErrForeignHandle},
		{"another tag, same index and generation", tagged(h, d.Tag()%ephemeral.MaxHandleTag+1), ephemeral.ErrForeignHandle},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bt.requireDead(t, tc.h)
			assert.False(t, d.IsAlive(tc.h), "Domain.IsAlive")
			assert.False(t, bt.id.Set(tc.h, 9))
			assert.False(t, bt.Delete(tc.h))
			assert.False(t, d.Delete(tc.h))
			assert.False(t, bt.Detach(tc.h))
			err := bt.Attach(tc.h)
			assert.ErrorIs(t, err, tc.attach)
			assert.Equal(t, tc.attach, err, "Attach: exactly the sentinel")
			assert.Equal(t, tc.attach == ephemeral.ErrForeignHandle, tc.h != 0 && !d.Owns(tc.h), "Owns")
			assert.Equal(t, 1, bt.Len())
			assert.Equal(t, 1, d.Len())
			bt.requireRow(t, h, 1)
		})
	}
	assert.True(t, ephemeral.Handle(0).IsZero())
	assert.Equal(t, "0", ephemeral.Handle(0).String())
	assert.Equal(t, "5:3", ephemeral.MakeHandle(5, 3).String())
	assert.Equal(t, fmt.Sprintf("5:3@%d", d.Tag()), d.MakeHandle(5, 3).String())
}

// tagged is h with tag tag: the same slot index and generation, as another
// domain with that tag would issue them.
func tagged(h ephemeral.Handle, tag uint32) ephemeral.Handle {
	return ephemeral.Handle(uint64(tag)<<(32+ephemeral.HandleGenerationBits)) | ephemeral.MakeHandle(h.Index(), h.Generation())
}

// untagged is h without its tag: what two domains with the same history
// issue alike.
func untagged(h ephemeral.Handle) ephemeral.Handle {
	return ephemeral.MakeHandle(h.Index(), h.Generation())
}

func TestRecreateAfterDeletingAll(t *testing.T) {
	tests := []struct {
		name    string
		created int
		order   func(hs []ephemeral.Handle) // order of the deletes
	}{
		{"create 5, delete 5 ascending, create 1", 5, func([]ephemeral.Handle) {}},
		{"create 5, delete 5 descending, create 1", 5, func(hs []ephemeral.Handle) {
			for i, j := 0, len(hs)-1; i < j; i, j = i+1, j-1 {
				hs[i], hs[j] = hs[j], hs[i]
			}
		}},
		{"create 5, delete 5 shuffled, create 1", 5, func(hs []ephemeral.Handle) {
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
		}},
		{"create 1, delete 1, create 1", 1, func([]ephemeral.Handle) {}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bt := newBodyTable(t, "units", 16, 0)
			hs := make([]ephemeral.Handle, tc.created)
			for i := range hs {
				hs[i] = bt.insert(t, int64(i+1))
			}
			tc.order(hs)
			for _, h := range hs {
				require.True(t, bt.Delete(h))
			}
			assert.Equal(t, 0, bt.Len())
			assert.Equal(t, 0, bt.Domain().Len())

			h := bt.insert(t, 99)
			assert.Equal(t, 1, bt.Len())
			assert.Equal(t, 1, bt.Domain().Len())
			assert.Equal(t, bt.Domain().MakeHandle(0, 3), h, "lowest free slot, generation 1 -> 2 -> 3")
			bt.requireRow(t, h, 99)
			for _, old := range hs {
				bt.requireDead(t, old)
			}
			assert.Equal(t, 1, bt.ChunkLen(0))
			assert.Equal(t, 1, bt.Enabled(0).Count())
		})
	}
}

func TestCapacity(t *testing.T) {
	tests := []struct {
		capacity, chunkRows int
	}{
		{1, 64},
		{63, 64},
		{64, 64},
		{65, 64},
		{100, 64},
		{4096, 0},
		{5000, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("capacity=%d/chunk=%d", tc.capacity, tc.chunkRows), func(t *testing.T) {
			bt := newBodyTable(t, "units", tc.capacity, tc.chunkRows)
			hs := make([]ephemeral.Handle, tc.capacity)
			for i := range hs {
				hs[i] = bt.insert(t, int64(i))
			}
			require.Equal(t, tc.capacity, bt.Len())

			requireFull := func(t *testing.T, err error, requested int) {
				t.Helper()
				require.Error(t, err)
				assert.ErrorIs(t, err, ephemeral.ErrCapacity)
				var ce *ephemeral.CapacityError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, "units", ce.Table)
				assert.Equal(t, tc.capacity, ce.Capacity)
				assert.Equal(t, requested, ce.Requested)
				assert.Greater(t, ce.Live+ce.Requested, ce.Capacity, "Live+Requested must exceed Capacity: %v", err)
				assert.Contains(t, err.Error(), `"units"`)
				assert.Equal(t, tc.capacity, bt.Len(), "count stays at capacity")
				assert.Equal(t, tc.capacity, bt.Domain().Len())
			}

			h, err := bt.Insert()
			assert.Zero(t, h)
			requireFull(t, err, 1)
			_, err = bt.Domain().Create()
			requireFull(t, err, 1)
			out := make([]ephemeral.Handle, 3)
			requireFull(t, bt.InsertN(out), 3)
			assert.Equal(t, make([]ephemeral.Handle, 3), out, "failed InsertN writes no handle")

			// Free one slot in the middle: the next insert takes it.
			victim := hs[tc.capacity/2]
			require.True(t, bt.Delete(victim))
			h, err = bt.Insert()
			require.NoError(t, err)
			assert.Equal(t, victim.Index(), h.Index())
			assert.Equal(t, victim.Generation()+2, h.Generation())
			assert.Equal(t, tc.capacity, bt.Len())
			for i, old := range hs {
				if old != victim {
					bt.requireRow(t, old, int64(i))
				}
			}
			_, err = bt.Insert()
			requireFull(t, err, 1)
		})
	}
}

func TestInsertNAllOrNothing(t *testing.T) {
	bt := newBodyTable(t, "units", 100, 64)
	first := make([]ephemeral.Handle, 90)
	require.NoError(t, bt.InsertN(first))
	for i, h := range first {
		assert.Equal(t, bt.Domain().MakeHandle(uint32(i), 1), h, "InsertN handle %d", i)
	}
	require.Equal(t, 3, bt.DeleteN([]ephemeral.Handle{first[3], first[70], first[3], 0, first[89]}),
		"DeleteN skips repeated and zero handles")
	require.Equal(t, 1, bt.DeleteN([]ephemeral.Handle{first[10]}))
	require.Equal(t, 86, bt.Len())

	tooMany := make([]ephemeral.Handle, 15) // 14 free
	err := bt.InsertN(tooMany)
	require.ErrorIs(t, err, ephemeral.ErrCapacity)
	var ce *ephemeral.CapacityError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, ephemeral.CapacityError{Table: "units", Capacity: 100, Live: 86, Requested: 15}, *ce)
	assert.Equal(t, make([]ephemeral.Handle, 15), tooMany)
	assert.Equal(t, 86, bt.Len(), "a bulk insert that does not fit inserts nothing")
	assert.Equal(t, 86, bt.Domain().Len())
	require.ErrorIs(t, bt.Domain().CreateN(tooMany), ephemeral.ErrCapacity)
	assert.Equal(t, 86, bt.Domain().Len())

	exact := make([]ephemeral.Handle, 14)
	require.NoError(t, bt.InsertN(exact))
	mk := bt.Domain().MakeHandle
	assert.Equal(t, []ephemeral.Handle{
		mk(3, 3), mk(10, 3), mk(70, 3), mk(89, 3),
		mk(90, 1), mk(91, 1), mk(92, 1), mk(93, 1),
		mk(94, 1), mk(95, 1), mk(96, 1), mk(97, 1),
		mk(98, 1), mk(99, 1),
	}, exact, "lowest free slots first")
	assert.Equal(t, 100, bt.Len())
	require.NoError(t, bt.InsertN(nil), "an empty bulk insert fits a full table")
}

// wantEnabled builds the enabled bitmap of one chunk from the live rows.
func wantEnabled(chunkRows, chunk int, live map[int]bool) bitmap.Bitmap {
	want := make(bitmap.Bitmap, chunkRows/64)
	for row := range live {
		if row/chunkRows == chunk {
			want.Set(uint32(row % chunkRows))
		}
	}
	return want
}

func TestChunkBoundary(t *testing.T) {
	for _, chunkRows := range []int{64, 128, 4096} {
		n := chunkRows + 1
		last := chunkRows // the only row of chunk 1
		deletes := []struct {
			name string
			rows []int
		}{
			{"none", nil},
			{"last of chunk 0", []int{last - 1}},
			{"first of chunk 1", []int{last}},
			{"both sides", []int{last - 1, last}},
			{"first and boundary", []int{0, last - 1, last}},
			{"every other", func() []int {
				var rows []int
				for r := 0; r < n; r += 2 {
					rows = append(rows, r)
				}
				return rows
			}()},
		}
		for _, d := range deletes {
			t.Run(d.name, func(t *testing.T) {
				bt := newBodyTable(t, "units", 2*chunkRows, chunkRows)
				require.Equal(t, 2, bt.Chunks())
				hs := make([]ephemeral.Handle, n)
				for i := range hs {
					hs[i] = bt.insert(t, int64(1000+i))
					require.Equal(t, uint32(i), hs[i].Index())
				}
				live := map[int]bool{}
				for i := range hs {
					live[i] = true
				}
				for _, r := range d.rows {
					require.True(t, bt.Delete(hs[r]))
					delete(live, r)
				}
				assert.Equal(t, len(live), bt.Len())
				for i, h := range hs {
					if live[i] {
						bt.requireRow(t, h, int64(1000+i))
					} else {
						bt.requireDead(t, h)
					}
				}
				for c := 0; c < bt.Chunks(); c++ {
					want := wantEnabled(chunkRows, c, live)
					assert.Equal(t, want, bt.Enabled(c), "Enabled(%d)", c)
					assert.Equal(t, want.Count(), bt.ChunkLen(c), "ChunkLen(%d)", c)
					// Spans see the same values as Get, at row c*chunkRows+r.
					ids := bt.id.Span(c)
					require.Len(t, ids, chunkRows)
					want.Range(func(r uint32) {
						assert.Equal(t, int64(1000+c*chunkRows+int(r)), ids[r], "Span(%d)[%d]", c, r)
					})
				}
				for row := 0; row < bt.Chunks()*chunkRows; row++ {
					h, ok := bt.HandleAt(row)
					if live[row] {
						assert.True(t, ok, "HandleAt(%d)", row)
						assert.Equal(t, hs[row], h, "HandleAt(%d)", row)
					} else {
						assert.False(t, ok, "HandleAt(%d)", row)
						assert.Zero(t, h, "HandleAt(%d)", row)
					}
				}
				_, ok := bt.HandleAt(-1)
				assert.False(t, ok)
			})
		}
	}
}

// domainFixture is a domain with three member tables.
type domainFixture struct {
	dom                  *ephemeral.Domain
	units, bodies, names *ephemeral.Table
	hp                   *ephemeral.Column[int32]
	pos                  *ephemeral.Column[[2]float32]
	tag                  *ephemeral.Column[uint8]
}

func newDomainFixture(t *testing.T) domainFixture {
	t.Helper()
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "entities", Capacity: 200, ChunkRows: 64})
	require.NoError(t, err)
	var f domainFixture
	f.dom = dom
	for _, p := range []struct {
		tb   **ephemeral.Table
		name string
	}{{&f.units, "units"}, {&f.bodies, "bodies"}, {&f.names, "tags"}} {
		*p.tb, err = ephemeral.NewTable(ephemeral.TableSpec{Name: p.name, Domain: dom})
		require.NoError(t, err)
	}
	f.hp, err = ephemeral.AddColumn[int32](f.units, "hp")
	require.NoError(t, err)
	f.pos, err = ephemeral.AddColumn[[2]float32](f.bodies, "pos")
	require.NoError(t, err)
	f.tag, err = ephemeral.AddColumn[uint8](f.names, "tag")
	require.NoError(t, err)
	return f
}

func TestDomain(t *testing.T) {
	t.Run("shared handle space", func(t *testing.T) {
		f := newDomainFixture(t)
		assert.Equal(t, []*ephemeral.Table{f.units, f.bodies, f.names}, f.dom.Tables())
		assert.Equal(t, 200, f.units.Cap())
		assert.Equal(t, 64, f.bodies.ChunkRows())
		assert.Same(t, f.dom, f.units.Domain())

		u, err := f.units.Insert()
		require.NoError(t, err)
		b, err := f.bodies.Insert()
		require.NoError(t, err)
		assert.Equal(t, f.dom.MakeHandle(0, 1), u)
		assert.Equal(t, f.dom.MakeHandle(1, 1), b, "a member's insert takes the domain's lowest free slot")
		assert.Equal(t, f.dom.Tag(), u.Tag(), "the domain's tag")
		assert.True(t, f.units.IsAlive(u))
		assert.False(t, f.bodies.IsAlive(u), "no row in bodies yet")
		assert.False(t, f.units.IsAlive(b))
		assert.Equal(t, 2, f.dom.Len())
		assert.Equal(t, 1, f.units.Len())
		assert.Equal(t, 1, f.bodies.Len())
	})

	t.Run("delete removes rows from every member and no other", func(t *testing.T) {
		deleters := []struct {
			name   string
			delete func(f domainFixture, h ephemeral.Handle) bool
		}{
			{"Domain.Delete", func(f domainFixture, h ephemeral.Handle) bool { return f.dom.Delete(h) }},
			{"units.Delete", func(f domainFixture, h ephemeral.Handle) bool { return f.units.Delete(h) }},
			{"bodies.Delete", func(f domainFixture, h ephemeral.Handle) bool { return f.bodies.Delete(h) }},
			{"bodies.DeleteN", func(f domainFixture, h ephemeral.Handle) bool {
				return f.bodies.DeleteN([]ephemeral.Handle{h}) == 1
			}},
		}
		for _, d := range deleters {
			t.Run(d.name, func(t *testing.T) {
				f := newDomainFixture(t)
				hs := make([]ephemeral.Handle, 130) // three chunks
				require.NoError(t, f.units.InsertN(hs))
				for i, h := range hs {
					require.True(t, f.hp.Set(h, int32(i)))
					if i%2 == 0 {
						require.NoError(t, f.bodies.Attach(h))
						require.True(t, f.pos.Set(h, [2]float32{float32(i), 1}))
					}
					if i%3 == 0 {
						require.NoError(t, f.names.Attach(h))
						require.True(t, f.tag.Set(h, uint8(i)))
					}
				}
				// Even, so that each has a bodies row; 0, 6 and 126 have a tags row.
				victims := map[int]bool{0: true, 6: true, 62: true, 64: true, 126: true}
				for i := range victims {
					require.True(t, d.delete(f, hs[i]), "delete %v", hs[i])
					assert.False(t, d.delete(f, hs[i]), "second delete of %v", hs[i])
				}
				for i, h := range hs {
					if victims[i] {
						assert.False(t, f.dom.IsAlive(h))
						assert.False(t, f.units.IsAlive(h))
						assert.False(t, f.bodies.IsAlive(h))
						assert.False(t, f.names.IsAlive(h))
						continue
					}
					assert.True(t, f.dom.IsAlive(h))
					hp, ok := f.hp.Get(h)
					assert.True(t, ok)
					assert.Equal(t, int32(i), hp)
					pos, ok := f.pos.Get(h)
					assert.Equal(t, i%2 == 0, ok, "bodies row of %d", i)
					if ok {
						assert.Equal(t, [2]float32{float32(i), 1}, pos)
					}
					tag, ok := f.tag.Get(h)
					assert.Equal(t, i%3 == 0, ok, "tags row of %d", i)
					if ok {
						assert.Equal(t, uint8(i), tag)
					}
				}
				assert.Equal(t, 125, f.dom.Len())
				assert.Equal(t, 125, f.units.Len())
				assert.Equal(t, 65-5, f.bodies.Len())
				assert.Equal(t, 44-3, f.names.Len())
				for _, tb := range f.dom.Tables() {
					n := 0
					for c := 0; c < tb.Chunks(); c++ {
						n += tb.Enabled(c).Count()
						assert.Equal(t, tb.Enabled(c).Count(), tb.ChunkLen(c))
					}
					assert.Equal(t, tb.Len(), n, "enabled bits of %s", tb.Name())
				}
			})
		}
	})

	t.Run("Table.Delete of an entity without a row there", func(t *testing.T) {
		f := newDomainFixture(t)
		h, err := f.units.Insert()
		require.NoError(t, err)
		assert.False(t, f.bodies.Delete(h), "no row in bodies: nothing to delete")
		assert.Zero(t, f.bodies.DeleteN([]ephemeral.Handle{h}))
		assert.True(t, f.units.IsAlive(h))
		assert.True(t, f.dom.IsAlive(h))
	})

	t.Run("Attach", func(t *testing.T) {
		f := newDomainFixture(t)
		h, err := f.dom.Create()
		require.NoError(t, err)
		assert.True(t, f.dom.IsAlive(h))
		for _, tb := range f.dom.Tables() {
			assert.False(t, tb.IsAlive(h), "Create makes no rows")
			assert.Zero(t, tb.Len())
		}
		require.NoError(t, f.bodies.Attach(h))
		assert.True(t, f.bodies.IsAlive(h))
		pos, ok := f.pos.Get(h)
		assert.True(t, ok)
		assert.Zero(t, pos)

		err = f.bodies.Attach(h)
		assert.ErrorIs(t, err, ephemeral.ErrRowExists)
		assert.NotErrorIs(t, err, ephemeral.ErrStaleHandle)
		assert.Equal(t, 1, f.bodies.Len())

		require.True(t, f.dom.Delete(h))
		err = f.units.Attach(h)
		assert.ErrorIs(t, err, ephemeral.ErrStaleHandle)
		assert.NotErrorIs(t, err, ephemeral.ErrRowExists)
		assert.ErrorIs(t, f.units.Attach(0), ephemeral.ErrStaleHandle)
		assert.Zero(t, f.units.Len())

		// A handle of another domain, even one whose index and generation
		// name a live entity here, is refused as foreign.
		other := newBodyTable(t, "other", 200, 64)
		oh := other.insert(t, 1)
		g := newDomainFixture(t)
		mine, err := g.dom.Create()
		require.NoError(t, err)
		require.Equal(t, untagged(oh), untagged(mine), "same slot and generation")
		err = g.units.Attach(oh)
		assert.ErrorIs(t, err, ephemeral.ErrForeignHandle)
		assert.NotErrorIs(t, err, ephemeral.ErrStaleHandle)
		assert.Zero(t, g.units.Len())
		assert.False(t, g.units.IsAlive(mine), "no row attached to the entity at oh's slot")
	})

	t.Run("Detach", func(t *testing.T) {
		f := newDomainFixture(t)
		h, err := f.units.Insert()
		require.NoError(t, err)
		require.True(t, f.hp.Set(h, 5))
		require.NoError(t, f.bodies.Attach(h))
		require.True(t, f.pos.Set(h, [2]float32{3, 4}))

		assert.True(t, f.bodies.Detach(h))
		assert.False(t, f.bodies.Detach(h), "second Detach")
		assert.False(t, f.names.Detach(h), "no row to detach")
		assert.False(t, f.bodies.IsAlive(h))
		_, ok := f.pos.Get(h)
		assert.False(t, ok)
		assert.Zero(t, f.bodies.Len())
		assert.Zero(t, f.bodies.ChunkLen(0))
		assert.Zero(t, f.bodies.Enabled(0).Count())
		hp, ok := f.hp.Get(h)
		assert.True(t, ok, "the entity's other rows live on")
		assert.Equal(t, int32(5), hp)
		assert.True(t, f.dom.IsAlive(h))

		// Re-attach: a fresh zero row.
		require.NoError(t, f.bodies.Attach(h))
		pos, ok := f.pos.Get(h)
		assert.True(t, ok)
		assert.Zero(t, pos)

		// Detaching the entity's last row deletes the entity: its slot is
		// freed and its generation advances.
		assert.True(t, f.units.Detach(h))
		assert.True(t, f.dom.IsAlive(h), "the bodies row is left")
		assert.Equal(t, 1, f.dom.Len())
		assert.True(t, f.bodies.Detach(h))
		assert.False(t, f.dom.IsAlive(h), "no row left: deleted")
		assert.Zero(t, f.dom.Len())
		for _, tb := range f.dom.Tables() {
			assert.Zero(t, tb.Len(), "%s.Len", tb.Name())
		}
		assert.False(t, f.dom.Delete(h), "already deleted")
		h2, err := f.units.Insert()
		require.NoError(t, err)
		assert.Equal(t, f.dom.MakeHandle(h.Index(), h.Generation()+2), h2, "the slot is free again, one generation on")
		assert.False(t, f.units.IsAlive(h))
		assert.Equal(t, 1, f.dom.Len())
	})

	t.Run("domain capacity binds every member", func(t *testing.T) {
		f := newDomainFixture(t)
		hs := make([]ephemeral.Handle, 150)
		require.NoError(t, f.units.InsertN(hs))
		require.NoError(t, f.dom.CreateN(make([]ephemeral.Handle, 50)))
		_, err := f.bodies.Insert()
		require.ErrorIs(t, err, ephemeral.ErrCapacity)
		var ce *ephemeral.CapacityError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "bodies", ce.Table)
		assert.Equal(t, 200, ce.Capacity)
		assert.Greater(t, ce.Live+ce.Requested, ce.Capacity, "Live+Requested must exceed Capacity: %v", err)
		assert.Zero(t, f.bodies.Len())
		// Attach makes no entity: it fits in a full domain.
		require.NoError(t, f.bodies.Attach(hs[0]))
	})
}

func TestDefinitionErrors(t *testing.T) {
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 100, ChunkRows: 64})
	require.NoError(t, err)
	tests := []struct {
		name   string
		define func() error
		want   error
	}{
		{"table: empty name", func() error { return newTableErr(ephemeral.TableSpec{Capacity: 10}) }, ephemeral.ErrEmptyName},
		{"table: zero capacity", func() error { return newTableErr(ephemeral.TableSpec{Name: "t"}) }, ephemeral.ErrZeroCapacity},
		{"table: negative capacity", func() error { return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: -1}) }, ephemeral.ErrZeroCapacity},
		{"table: capacity past MaxCapacity", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: ephemeral.MaxCapacity + 1})
		}, ephemeral.ErrZeroCapacity},
		{"table: chunk rows not a power of two", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: 10, ChunkRows: 100})
		}, ephemeral.ErrChunkRows},
		{"table: chunk rows below MinChunkRows", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: 10, ChunkRows: 32})
		}, ephemeral.ErrChunkRows},
		{"table: chunk rows above MaxChunkRows", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: 10, ChunkRows: 2 * ephemeral.MaxChunkRows})
		}, ephemeral.ErrChunkRows},
		{"table: negative chunk rows", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: 10, ChunkRows: -64})
		}, ephemeral.ErrChunkRows},
		{"table: capacity differs from domain", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", Capacity: 50, Domain: dom})
		}, ephemeral.ErrDomainMismatch},
		{"table: chunk rows differ from domain", func() error {
			return newTableErr(ephemeral.TableSpec{Name: "t", ChunkRows: 128, Domain: dom})
		}, ephemeral.ErrDomainMismatch},
		{"table: empty name in domain", func() error { return newTableErr(ephemeral.TableSpec{Domain: dom}) }, ephemeral.ErrEmptyName},
		{"domain: empty name", func() error { return newDomainErr(ephemeral.DomainSpec{Capacity: 10}) }, ephemeral.ErrEmptyName},
		{"domain: zero capacity", func() error { return newDomainErr(ephemeral.DomainSpec{Name: "d"}) }, ephemeral.ErrZeroCapacity},
		{"domain: negative capacity", func() error { return newDomainErr(ephemeral.DomainSpec{Name: "d", Capacity: -5}) }, ephemeral.ErrZeroCapacity},
		{"domain: bad chunk rows", func() error {
			return newDomainErr(ephemeral.DomainSpec{Name: "d", Capacity: 10, ChunkRows: 65})
		}, ephemeral.ErrChunkRows},
		{"column: empty name", func() error { return addColumnErr[int32]("") }, ephemeral.ErrEmptyName},
		{"column: duplicate name", func() error { return addColumnErr[int32]("taken") }, ephemeral.ErrDuplicateColumn},
		{"column: duplicate name, other type", func() error { return addColumnErr[body]("taken") }, ephemeral.ErrDuplicateColumn},
		{"column: pointer", func() error { return addColumnErr[*int]("c") }, ephemeral.ErrUnsupportedType},
		{"column: string", func() error { return addColumnErr[string]("c") }, ephemeral.ErrUnsupportedType},
		{"column: slice", func() error { return addColumnErr[[]float32]("c") }, ephemeral.ErrUnsupportedType},
		{"column: map", func() error { return addColumnErr[map[int]int]("c") }, ephemeral.ErrUnsupportedType},
		{"column: interface", func() error { return addColumnErr[any]("c") }, ephemeral.ErrUnsupportedType},
		{"column: chan", func() error { return addColumnErr[chan int]("c") }, ephemeral.ErrUnsupportedType},
		{"column: func", func() error { return addColumnErr[func()]("c") }, ephemeral.ErrUnsupportedType},
		{"column: unsafe.Pointer", func() error { return addColumnErr[unsafe.Pointer]("c") }, ephemeral.ErrUnsupportedType},
		{"column: struct with a string field", func() error {
			return addColumnErr[struct {
				X    float32
				Name string
			}]("c")
		}, ephemeral.ErrUnsupportedType},
		{"column: array of strings", func() error { return addColumnErr[[2]string]("c") }, ephemeral.ErrUnsupportedType},
		{"column: nested struct with a pointer", func() error {
			return addColumnErr[struct{ A [2]struct{ P *body } }]("c")
		}, ephemeral.ErrUnsupportedType},
		{"column: nil table", func() error {
			_, err := ephemeral.AddColumn[int32](nil, "x")
			return err
		}, ephemeral.ErrNilTable},
		// 2^20 rows of 2^29 bytes: past the runtime's allocation limit, where
		// make panics.
		{"column: past the allocation limit", func() error { return bigColumnErr[[1 << 29]byte](1 << 20) }, ephemeral.ErrTooLarge},
		// 2^20 rows of 2^21 bytes = 2 TiB: below the runtime's limit, where
		// make would fail with a fatal out-of-memory error.
		{"column: past MaxColumnBytes", func() error { return bigColumnErr[[1 << 21]byte](1 << 20) }, ephemeral.ErrTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.define()
			require.Error(t, err)
			assert.ErrorIs(t, err, ephemeral.ErrDefinition)
			assert.ErrorIs(t, err, tc.want)
			var de *ephemeral.DefinitionError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tc.want, de.Err)
			assert.Regexp(t, `^ephemeral: `, err.Error())
			assert.Contains(t, err.Error(), tc.want.Error())
			for _, other := range []error{ephemeral.ErrCapacity, ephemeral.ErrStaleHandle, ephemeral.ErrRowExists} {
				assert.NotErrorIs(t, err, other)
			}
		})
	}
	assert.Len(t, dom.Tables(), 0, "failed definitions join no domain")
}

func TestDefinitionErrorNamesTableAndColumn(t *testing.T) {
	err := addColumnErr[struct {
		X    float32
		Name string
	}]("label")
	var de *ephemeral.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "defs", de.Table)
	assert.Equal(t, "label", de.Column)
	assert.Contains(t, de.Detail, "Name")
	assert.Equal(t, `ephemeral: table "defs" column "label": column element type must be pointer-free (struct { X float32; Name string } holds field Name: a string)`, err.Error())

	err = addColumnErr[int]("taken")
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "taken", de.Column)
	assert.Equal(t, `ephemeral: table "defs" column "taken": duplicate column name`, err.Error())
}

func TestSupportedColumnTypes(t *testing.T) {
	type inner struct {
		H  ephemeral.Handle
		On bool
		V  [3]float64
	}
	type outer struct {
		I  inner
		Is [2]inner
		N  int8
		C  complex64
		_  [4]byte
	}
	tests := []struct {
		name string
		add  func(tb *ephemeral.Table, name string) (check func(h ephemeral.Handle) bool, err error)
	}{
		{"int", addRoundTrip[int](-7)},
		{"int8", addRoundTrip[int8](-8)},
		{"int16", addRoundTrip[int16](-16)},
		{"int32", addRoundTrip[int32](-32)},
		{"int64", addRoundTrip[int64](-64)},
		{"uint", addRoundTrip[uint](7)},
		{"uint8", addRoundTrip[uint8](8)},
		{"uint16", addRoundTrip[uint16](16)},
		{"uint32", addRoundTrip[uint32](32)},
		{"uint64", addRoundTrip[uint64](64)},
		{"float32", addRoundTrip[float32](1.5)},
		{"float64", addRoundTrip[float64](2.5)},
		{"complex128", addRoundTrip(complex(1, 2))},
		{"bool", addRoundTrip(true)},
		{"Handle", addRoundTrip(ephemeral.MakeHandle(3, 5))},
		{"array", addRoundTrip([4]float32{1, 2, 3, 4})},
		{"array of arrays", addRoundTrip([2][2]int16{{1, 2}, {3, 4}})},
		{"empty struct", addRoundTrip(struct{}{})},
		{"zero-length array", addRoundTrip([0]int{})},
		{"nested structs", addRoundTrip(outer{I: inner{H: 9, On: true, V: [3]float64{1, 2, 3}}, N: -1, C: 1i})},
	}
	tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "types", Capacity: 4})
	require.NoError(t, err)
	h, err := tb.Insert()
	require.NoError(t, err)
	var names []string
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check, err := tc.add(tb, tc.name)
			require.NoError(t, err)
			assert.True(t, check(h), "value reads back")
			names = append(names, tc.name)
		})
	}
	assert.Equal(t, names, tb.Columns())
}

// addRoundTrip adds a column of v's type and returns a check that a row
// reads zero, then writes v to it and reads it back.
func addRoundTrip[T comparable](v T) func(tb *ephemeral.Table, name string) (func(h ephemeral.Handle) bool, error) {
	return func(tb *ephemeral.Table, name string) (func(h ephemeral.Handle) bool, error) {
		c, err := ephemeral.AddColumn[T](tb, name)
		if err != nil {
			return nil, err
		}
		return func(h ephemeral.Handle) bool {
			var zero T
			if got, ok := c.Get(h); !ok || got != zero {
				return false // a row of a new column starts zeroed
			}
			return c.Set(h, v) && *c.Ptr(h) == v && c.All()[h.Index()] == v
		}, nil
	}
}

func newTableErr(spec ephemeral.TableSpec) error {
	_, err := ephemeral.NewTable(spec)
	return err
}

func newDomainErr(spec ephemeral.DomainSpec) error {
	_, err := ephemeral.NewDomain(spec)
	return err
}

// addColumnErr adds a column to a fresh table "defs" that already has a
// column "taken".
func addColumnErr[T any](name string) error {
	tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "defs", Capacity: 10})
	if err != nil {
		return err
	}
	if _, err := ephemeral.AddColumn[int32](tb, "taken"); err != nil {
		return err
	}
	_, err = ephemeral.AddColumn[T](tb, name)
	if err == nil {
		return errors.New("AddColumn succeeded")
	}
	return err
}

// bigColumnErr adds a column of T to a fresh table "big" of capacity rows.
func bigColumnErr[T any](capacity int) error {
	tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "big", Capacity: capacity})
	if err != nil {
		return err
	}
	if _, err = ephemeral.AddColumn[T](tb, "blob"); err == nil {
		return errors.New("AddColumn succeeded")
	}
	if cols := tb.Columns(); len(cols) != 0 {
		return fmt.Errorf("failed AddColumn left columns %q", cols)
	}
	return err
}

func TestAddColumnNilTable(t *testing.T) {
	c, err := ephemeral.AddColumn[float32](nil, "x")
	assert.Nil(t, c)
	var de *ephemeral.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, ephemeral.ErrNilTable, de.Err)
	assert.Equal(t, "x", de.Column)
	assert.Equal(t, `ephemeral: column "x": table is nil: pass the *Table returned by NewTable`, err.Error())
}

func TestAddColumnTooLarge(t *testing.T) {
	const rows = 1 << 20
	tb, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "big", Capacity: rows})
	require.NoError(t, err)
	c, err := ephemeral.AddColumn[[1 << 21]byte](tb, "blob")
	assert.Nil(t, c)
	var de *ephemeral.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, ephemeral.ErrTooLarge, de.Err)
	assert.Equal(t, "big", de.Table)
	assert.Equal(t, "blob", de.Column)
	assert.Equal(t, `ephemeral: table "big" column "blob": column would exceed MaxColumnBytes `+
		`(1048576 rows of 2097152-byte [2097152]uint8 exceed 1099511627776 bytes)`, err.Error())
	assert.Empty(t, tb.Columns(), "a refused column is not added")

	// A column within the bound still works on the same table.
	ok, err := ephemeral.AddColumn[[16]byte](tb, "small")
	require.NoError(t, err)
	assert.Len(t, ok.All(), rows)
	// Zero-size elements cost nothing, whatever the capacity.
	_, err = ephemeral.AddColumn[struct{}](tb, "tag")
	require.NoError(t, err)
}

func TestColumnAddedAfterRows(t *testing.T) {
	bt := newBodyTable(t, "units", 10, 0)
	h := bt.insert(t, 3)
	late, err := ephemeral.AddColumn[float64](bt.Table, "late")
	require.NoError(t, err)
	v, ok := late.Get(h)
	assert.True(t, ok)
	assert.Zero(t, v)
	assert.Equal(t, []string{"id", "body", "late"}, bt.Columns())
	assert.Same(t, bt.Table, late.Table())
	assert.Equal(t, "late", late.Name())
	assert.Len(t, late.All(), bt.Chunks()*bt.ChunkRows())
	bt.requireRow(t, h, 3)
}

func TestSpansArePinStable(t *testing.T) {
	bt := newBodyTable(t, "units", 300, 64)
	all := bt.id.All()
	span := bt.id.Span(2)
	enabled := bt.Enabled(2)
	hs := make([]ephemeral.Handle, 300)
	require.NoError(t, bt.InsertN(hs))
	for i, h := range hs {
		require.True(t, bt.id.Set(h, int64(i)))
	}
	require.Equal(t, 150, bt.DeleteN(hs[:150]))
	require.NoError(t, bt.InsertN(hs[:150]))
	assert.Equal(t, &all[0], &bt.id.All()[0], "All never moves")
	assert.Equal(t, &span[0], &bt.id.Span(2)[0], "Span never moves")
	assert.Equal(t, &enabled[0], &bt.Enabled(2)[0], "Enabled never moves")
	assert.Equal(t, int64(160), span[160-128], "row 160 was never deleted")
	assert.Zero(t, span[140-128], "row 140 was deleted and inserted again")
	assert.Equal(t, 64, enabled.Count())
}

// history drives a table through a seeded random history of inserts,
// deletes and writes, and returns every handle that an insert returned.
func history(tb testing.TB, bt bodyTable, seed uint64, steps int) []ephemeral.Handle {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var issued, live []ephemeral.Handle
	batch := make([]ephemeral.Handle, 0, 32)
	for step := 0; step < steps; step++ {
		switch op := rng.IntN(10); {
		case op < 4:
			if h, err := bt.Insert(); err == nil {
				issued, live = append(issued, h), append(live, h)
				require.True(tb, bt.id.Set(h, rng.Int64()))
			}
		case op < 5:
			batch = batch[:rng.IntN(cap(batch))]
			if bt.InsertN(batch) == nil {
				issued, live = append(issued, batch...), append(live, batch...)
			}
		case op < 8 && len(live) > 0:
			k := rng.IntN(len(live))
			require.True(tb, bt.Delete(live[k]))
			live[k] = live[len(live)-1]
			live = live[:len(live)-1]
		case op < 9 && len(live) > 0:
			require.True(tb, bt.body.Set(live[rng.IntN(len(live))], bodyOf(rng.Int64N(1000))))
		default: // a made-up handle, live by chance at times
			h := bt.Domain().MakeHandle(rng.Uint32N(uint32(bt.Cap())), rng.Uint32N(8))
			if bt.Delete(h) {
				k := slices.Index(live, h)
				live[k] = live[len(live)-1]
				live = live[:len(live)-1]
			}
		}
	}
	return issued
}

func TestDeterminism(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			a := newBodyTable(t, "a", 300, 64)
			b := newBodyTable(t, "b", 300, 64)
			ha := history(t, a, seed, 5000)
			hb := history(t, b, seed, 5000)
			require.NotEqual(t, a.Domain().Tag(), b.Domain().Tag())
			for i := range ha {
				require.Equal(t, a.Domain().Tag(), ha[i].Tag())
				require.Equal(t, b.Domain().Tag(), hb[i].Tag())
				ha[i], hb[i] = untagged(ha[i]), untagged(hb[i])
			}
			require.Equal(t, ha, hb, "same history, same slots and generations")
			require.Equal(t, a.Len(), b.Len())
			for c := 0; c < a.Chunks(); c++ {
				require.Equal(t, a.Enabled(c), b.Enabled(c), "Enabled(%d)", c)
				require.Equal(t, a.ChunkLen(c), b.ChunkLen(c), "ChunkLen(%d)", c)
			}
			for row := 0; row < a.Chunks()*a.ChunkRows(); row++ {
				h, ok := a.HandleAt(row)
				hb, okb := b.HandleAt(row)
				require.Equal(t, ok, okb, "HandleAt(%d)", row)
				require.Equal(t, untagged(h), untagged(hb), "HandleAt(%d)", row)
				if ok {
					require.Equal(t, a.id.All()[row], b.id.All()[row], "id row %d", row)
					require.Equal(t, a.body.All()[row], b.body.All()[row], "body row %d", row)
				}
			}
			assert.Positive(t, a.Len())
		})
	}
}

// TestChunkIndexPanics: a chunk index outside 0..Chunks()-1 is a bug in the
// caller's chunk loop, reported with how to fix it.
func TestChunkIndexPanics(t *testing.T) {
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 25 * 64, ChunkRows: 64})
	require.NoError(t, err)
	x, err := ephemeral.AddColumn[float32](tab, "x")
	require.NoError(t, err)
	require.Equal(t, 25, tab.Chunks())
	assert.Len(t, x.Span(24), 64)
	assert.Equal(t, 0, tab.ChunkLen(24))
	assert.Equal(t, 0, tab.Enabled(24).Count())

	const tail = ": chunk index out of range 0..24; loop c over 0..Table.Chunks()-1"
	for _, c := range []int{99, 25, -1} {
		n := fmt.Sprint(c)
		assert.PanicsWithValue(t, `ephemeral: Span(`+n+`) of column "x" of table "T"`+tail, func() { x.Span(c) })
		assert.PanicsWithValue(t, `ephemeral: Enabled(`+n+`) of table "T"`+tail, func() { tab.Enabled(c) })
		assert.PanicsWithValue(t, `ephemeral: ChunkLen(`+n+`) of table "T"`+tail, func() { tab.ChunkLen(c) })
	}
}

// TestDefinitionErrorKinds: an error names a domain as a domain, a table
// (even when its private domain refused the spec) as a table, and an empty
// column name as a column name.
func TestDefinitionErrorKinds(t *testing.T) {
	tests := []struct {
		name   string
		define func() error
		kind   ephemeral.DefinitionKind
		want   error
		msg    string
	}{
		{"domain: zero capacity", func() error { return newDomainErr(ephemeral.DomainSpec{Name: "d"}) },
			ephemeral.KindDomain, ephemeral.ErrZeroCapacity,
			`ephemeral: domain "d": capacity must be between 1 and MaxCapacity = 1073741824 (got 0)`},
		{"domain: bad chunk rows", func() error { return newDomainErr(ephemeral.DomainSpec{Name: "d", Capacity: 10, ChunkRows: 65}) },
			ephemeral.KindDomain, ephemeral.ErrChunkRows,
			`ephemeral: domain "d": chunk rows must be a power of two between MinChunkRows = 64 and MaxChunkRows = 1048576 (got 65)`},
		{"domain: empty name", func() error { return newDomainErr(ephemeral.DomainSpec{Capacity: 10}) },
			ephemeral.KindDomain, ephemeral.ErrEmptyName, `ephemeral: domain name must not be empty`},
		{"table: zero capacity", func() error { return newTableErr(ephemeral.TableSpec{Name: "t"}) },
			ephemeral.KindTable, ephemeral.ErrZeroCapacity,
			`ephemeral: table "t": capacity must be between 1 and MaxCapacity = 1073741824 (got 0)`},
		{"table: empty name", func() error { return newTableErr(ephemeral.TableSpec{Capacity: 10}) },
			ephemeral.KindTable, ephemeral.ErrEmptyName, `ephemeral: table name must not be empty`},
		{"column: empty name", func() error { return addColumnErr[int32]("") },
			ephemeral.KindTable, ephemeral.ErrEmptyName, `ephemeral: table "defs": column name must not be empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.define()
			var de *ephemeral.DefinitionError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, tc.kind, de.Kind)
			assert.ErrorIs(t, err, ephemeral.ErrDefinition)
			assert.ErrorIs(t, err, tc.want)
			assert.Equal(t, tc.msg, err.Error())
		})
	}
	assert.Equal(t, "domain", ephemeral.KindDomain.String())
	assert.Equal(t, "table", ephemeral.KindTable.String())
}

// TestRowLiveIsHandleAt checks RowLive against HandleAt's liveness over
// every row of a table after random inserts and deletes (rows reused,
// chunks emptied).
func TestRowLiveIsHandleAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "T", Capacity: 1000, ChunkRows: 64})
	require.NoError(t, err)
	var live []ephemeral.Handle
	for round := range 20 {
		for range rng.IntN(120) {
			if h, err := tab.Insert(); err == nil {
				live = append(live, h)
			}
		}
		for range rng.IntN(100) {
			if len(live) == 0 {
				break
			}
			i := rng.IntN(len(live))
			tab.Delete(live[i])
			live = slices.Delete(live, i, i+1)
		}
		n := 0
		for r := range tab.Chunks() * tab.ChunkRows() {
			_, want := tab.HandleAt(r)
			require.Equal(t, want, tab.RowLive(r), "round %d row %d", round, r)
			if want {
				n++
			}
		}
		require.Equal(t, len(live), n, "round %d", round)
	}
}

package ephemeral_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kelindar/bitmap"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// fuzzA is a row of table A in the model: the values of its two columns.
type fuzzA struct {
	x int64
	f fuzzF
}

type fuzzF struct {
	P  [2]float32
	On bool
}

// fuzzModel is the trivially correct model of a domain "D" with two member
// tables A and B: maps from handle to values, and the slot policy written
// the obvious way (scan for the lowest free slot). An entity whose last row
// is detached is deleted.
type fuzzModel struct {
	capacity int
	dom      *ephemeral.Domain // for its tag only
	gens     []uint32          // generation of each slot; odd = live entity
	a        map[ephemeral.Handle]fuzzA
	b        map[ephemeral.Handle]uint32
}

func (m *fuzzModel) live() int {
	n := 0
	for _, g := range m.gens {
		n += int(g & 1)
	}
	return n
}

func (m *fuzzModel) alive(h ephemeral.Handle) bool {
	i := int(h.Index())
	return h.Tag() == m.dom.Tag() && i < m.capacity && m.gens[i] == h.Generation() && h.Generation()&1 == 1
}

// handle is D's handle of slot i at its current generation.
func (m *fuzzModel) handle(i int) ephemeral.Handle {
	return m.dom.MakeHandle(uint32(i), m.gens[i])
}

// detached updates the model after h's row was detached from a table: an
// entity with no row left is deleted.
func (m *fuzzModel) detached(h ephemeral.Handle) {
	_, inA := m.a[h]
	_, inB := m.b[h]
	if !inA && !inB {
		m.gens[h.Index()]++
	}
}

// alloc takes the lowest free slot, or returns false when the domain is full.
func (m *fuzzModel) alloc() (ephemeral.Handle, bool) {
	for i, g := range m.gens {
		if g&1 == 0 {
			m.gens[i]++
			return m.handle(i), true
		}
	}
	return 0, false
}

func (m *fuzzModel) delete(h ephemeral.Handle) bool {
	if !m.alive(h) {
		return false
	}
	delete(m.a, h)
	delete(m.b, h)
	m.gens[h.Index()]++
	return true
}

// fuzzRun decodes operations from the fuzz input and applies each to the
// real domain and to the model, comparing every observable after each.
type fuzzRun struct {
	t      *testing.T
	data   []byte
	dom    *ephemeral.Domain
	ta, tb *ephemeral.Table
	x      *ephemeral.Column[int64]
	f      *ephemeral.Column[fuzzF]
	y      *ephemeral.Column[uint32]
	m      fuzzModel
	issued []ephemeral.Handle // every handle an insert or create returned
	// other is a standalone table of another domain, full, whose row i
	// holds i: its handles i:1 have the slot and generation of D's first
	// entities. No operation on D may change it.
	other   *ephemeral.Table
	otherV  *ephemeral.Column[int64]
	otherHs []ephemeral.Handle
	probes  []ephemeral.Handle // scratch for check
}

// next consumes one byte of input; 0 once it is exhausted.
func (r *fuzzRun) next() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// pick chooses a handle: mostly one issued before (live or not), sometimes
// the zero handle, a made-up one, one of the other domain or an untagged one.
func (r *fuzzRun) pick() ephemeral.Handle {
	switch b := r.next(); {
	case b < 16:
		return 0
	case b < 40:
		return r.dom.MakeHandle(uint32(r.next())%uint32(r.m.capacity+70), uint32(r.next()%6))
	case b < 48:
		return ephemeral.MakeHandle(uint32(r.next())%uint32(r.m.capacity+70), uint32(r.next()%6))
	case b < 56:
		return r.otherHs[int(r.next())%len(r.otherHs)]
	case len(r.issued) == 0:
		return 0
	default:
		return r.issued[int(r.next())*len(r.issued)/256]
	}
}

func (r *fuzzRun) value() int64 { return int64(int8(r.next())) * 1000003 }

func (r *fuzzRun) fvalue() fuzzF {
	v := r.next()
	return fuzzF{P: [2]float32{float32(v), -float32(v) / 4}, On: v&1 == 1}
}

// requireFull checks a capacity error against the model.
func (r *fuzzRun) requireFull(err error, kind ephemeral.DefinitionKind, table string, requested int) {
	t := r.t
	t.Helper()
	require.ErrorIs(t, err, ephemeral.ErrCapacity)
	var ce *ephemeral.CapacityError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, ephemeral.CapacityError{Kind: kind, Table: table, Capacity: r.m.capacity, Live: r.m.live(), Requested: requested}, *ce)
}

// insertN inserts n rows (into tb when it is not nil, else as bare
// entities) in the real domain and in the model.
func (r *fuzzRun) insertN(tb *ephemeral.Table, n int) {
	t := r.t
	out := make([]ephemeral.Handle, n)
	var err error
	name := "D"
	switch {
	case tb == nil && n == 1:
		out[0], err = r.dom.Create()
	case tb == nil:
		err = r.dom.CreateN(out)
	case n == 1:
		name = tb.Name()
		out[0], err = tb.Insert()
	default:
		name = tb.Name()
		err = tb.InsertN(out)
	}
	if n > r.m.capacity-r.m.live() {
		kind := ephemeral.KindTable
		if tb == nil {
			kind = ephemeral.KindDomain // the domain's own create names the domain
		}
		r.requireFull(err, kind, name, n)
		require.Equal(t, make([]ephemeral.Handle, n), out, "a failed insert returns no handle")
		return
	}
	require.NoError(t, err)
	for _, h := range out {
		want, ok := r.m.alloc()
		require.True(t, ok)
		require.Equal(t, want, h, "the lowest free slot, with the next generation")
		r.issued = append(r.issued, h)
		switch tb {
		case r.ta:
			r.m.a[h] = fuzzA{}
		case r.tb:
			r.m.b[h] = 0
		}
	}
}

func (r *fuzzRun) step() {
	t := r.t
	switch op := r.next() % 18; op {
	case 0:
		r.insertN(r.ta, 1)
	case 1:
		r.insertN(r.tb, 1)
	case 2:
		r.insertN(r.ta, int(r.next()%80))
	case 3:
		r.insertN(r.tb, int(r.next()%80))
	case 4:
		if r.next()&1 == 0 {
			r.insertN(nil, 1)
		} else {
			r.insertN(nil, int(r.next()%80))
		}
	case 5:
		h := r.pick()
		_, has := r.m.a[h]
		require.Equal(t, has, r.ta.Delete(h), "A.Delete(%v)", h)
		if has {
			r.m.delete(h)
		}
	case 6:
		h := r.pick()
		_, has := r.m.b[h]
		require.Equal(t, has, r.tb.Delete(h), "B.Delete(%v)", h)
		if has {
			r.m.delete(h)
		}
	case 7:
		h := r.pick()
		require.Equal(t, r.m.delete(h), r.dom.Delete(h), "D.Delete(%v)", h)
	case 8:
		hs := make([]ephemeral.Handle, r.next()%40)
		for i := range hs {
			hs[i] = r.pick()
		}
		want := 0
		switch r.next() % 3 {
		case 0:
			for _, h := range hs {
				if _, has := r.m.a[h]; has && r.m.delete(h) {
					want++
				}
			}
			require.Equal(t, want, r.ta.DeleteN(hs), "A.DeleteN(%v)", hs)
		case 1:
			for _, h := range hs {
				if _, has := r.m.b[h]; has && r.m.delete(h) {
					want++
				}
			}
			require.Equal(t, want, r.tb.DeleteN(hs), "B.DeleteN(%v)", hs)
		default:
			for _, h := range hs {
				if r.m.delete(h) {
					want++
				}
			}
			require.Equal(t, want, r.dom.DeleteN(hs), "D.DeleteN(%v)", hs)
		}
	case 9:
		h := r.pick()
		err := r.ta.Attach(h)
		_, has := r.m.a[h]
		switch {
		case h != 0 && h.Tag() != r.dom.Tag():
			require.Equal(t, ephemeral.ErrForeignHandle, err, "A.Attach(%v)", h)
		case !r.m.alive(h):
			require.ErrorIs(t, err, ephemeral.ErrStaleHandle, "A.Attach(%v)", h)
		case has:
			require.ErrorIs(t, err, ephemeral.ErrRowExists, "A.Attach(%v)", h)
		default:
			require.NoError(t, err, "A.Attach(%v)", h)
			r.m.a[h] = fuzzA{}
		}
	case 10:
		h := r.pick()
		err := r.tb.Attach(h)
		_, has := r.m.b[h]
		switch {
		case h != 0 && h.Tag() != r.dom.Tag():
			require.Equal(t, ephemeral.ErrForeignHandle, err, "B.Attach(%v)", h)
		case !r.m.alive(h):
			require.ErrorIs(t, err, ephemeral.ErrStaleHandle, "B.Attach(%v)", h)
		case has:
			require.ErrorIs(t, err, ephemeral.ErrRowExists, "B.Attach(%v)", h)
		default:
			require.NoError(t, err, "B.Attach(%v)", h)
			r.m.b[h] = 0
		}
	case 11:
		h := r.pick()
		_, has := r.m.a[h]
		require.Equal(t, has, r.ta.Detach(h), "A.Detach(%v)", h)
		if has {
			delete(r.m.a, h)
			r.m.detached(h)
		}
	case 12:
		h := r.pick()
		_, has := r.m.b[h]
		require.Equal(t, has, r.tb.Detach(h), "B.Detach(%v)", h)
		if has {
			delete(r.m.b, h)
			r.m.detached(h)
		}
	case 13:
		h, v := r.pick(), r.value()
		row, has := r.m.a[h]
		require.Equal(t, has, r.x.Set(h, v), "x.Set(%v)", h)
		if has {
			row.x = v
			r.m.a[h] = row
		}
	case 14:
		h, v := r.pick(), r.fvalue()
		row, has := r.m.a[h]
		p := r.f.Ptr(h)
		require.Equal(t, has, p != nil, "f.Ptr(%v)", h)
		if has {
			*p = v
			row.f = v
			r.m.a[h] = row
		}
	case 15:
		h, v := r.pick(), r.fvalue()
		row, has := r.m.a[h]
		require.Equal(t, has, r.f.Set(h, v), "f.Set(%v)", h)
		if has {
			row.f = v
			r.m.a[h] = row
		}
	case 16:
		h, v := r.pick(), uint32(r.value())
		_, has := r.m.b[h]
		require.Equal(t, has, r.y.Set(h, v), "y.Set(%v)", h)
		if has {
			r.m.b[h] = v
		}
	default: // a write through a lease and the whole column
		h, v := r.pick(), uint32(r.next())
		_, has := r.m.b[h]
		row, ok := leaseRow(t, r.tb.Lease(), r.dom, h)
		require.Equal(t, has, ok, "B.Lease().Row(%v)", h)
		if ok {
			r.y.All()[row] = v
			r.m.b[h] = v
		}
	}
}

// same fails t when got != want, naming what(h). check calls it after every
// operation of a fuzz input, so it boxes nothing and calls t.Helper (a stack
// walk) only on failure.
func same[T comparable](t *testing.T, what string, h ephemeral.Handle, got, want T) {
	if got != want {
		t.Helper()
		t.Fatalf("%s(%v) = %v, want %v", what, h, got, want)
	}
}

// sameRow is same for a row, chunk or other int argument.
func sameRow[T comparable](t *testing.T, what string, i int, got, want T) {
	if got != want {
		t.Helper()
		t.Fatalf("%s(%d) = %v, want %v", what, i, got, want)
	}
}

// check compares every observable of the domain and its tables with the
// model.
func (r *fuzzRun) check() {
	t := r.t
	m := &r.m
	sameRow(t, "D.Len", 0, r.dom.Len(), m.live())
	sameRow(t, "A.Len", 0, r.ta.Len(), len(m.a))
	sameRow(t, "B.Len", 0, r.tb.Len(), len(m.b))

	// Every handle ever issued, plus made-up handles: the zero handle, past
	// capacity, and for every slot its current and its next generation, and
	// the current one untagged and with the other domain's tag.
	probes := append(r.probes[:0], r.issued...)
	probes = append(probes, 0, r.dom.MakeHandle(uint32(m.capacity), 1), r.dom.MakeHandle(^uint32(0), 1))
	probes = append(probes, r.otherHs...)
	for i := 0; i < m.capacity; i++ {
		probes = append(probes, m.handle(i), r.dom.MakeHandle(uint32(i), m.gens[i]+1),
			ephemeral.MakeHandle(uint32(i), m.gens[i]), r.other.Domain().MakeHandle(uint32(i), m.gens[i]))
	}
	r.probes = probes
	la, lb := r.ta.Lease(), r.tb.Lease()
	allX := r.x.All()
	for _, h := range probes {
		same(t, "D.IsAlive", h, r.dom.IsAlive(h), m.alive(h))
		wa, hasA := m.a[h]
		same(t, "A.IsAlive", h, r.ta.IsAlive(h), hasA)
		row, ok := leaseRow(t, la, r.dom, h)
		same(t, "A.Lease().Row ok", h, ok, hasA)
		x, okx := r.x.Get(h)
		f, okf := r.f.Get(h)
		same(t, "x.Get ok", h, okx, hasA)
		same(t, "f.Get ok", h, okf, hasA)
		same(t, "x.Get", h, x, wa.x)
		same(t, "f.Get", h, f, wa.f)
		if hasA {
			same(t, "A.Lease().Row", h, row, int(h.Index()))
			sameRow(t, "x.All()", row, allX[row], wa.x)
		} else {
			same(t, "A.Lease().Row", h, row, 0)
		}
		wb, hasB := m.b[h]
		same(t, "B.IsAlive", h, r.tb.IsAlive(h), hasB)
		_, okb := leaseRow(t, lb, r.dom, h)
		same(t, "B.Lease().IsAlive", h, okb, hasB)
		y, oky := r.y.Get(h)
		same(t, "y.Get ok", h, oky, hasB)
		same(t, "y.Get", h, y, wb)
	}

	// The other domain's table is untouched.
	sameRow(t, "other.Len", 0, r.other.Len(), len(r.otherHs))
	for i, h := range r.otherHs {
		v, ok := r.otherV.Get(h)
		same(t, "other.Get ok", h, ok, true)
		same(t, "other.Get", h, v, int64(i))
	}

	// Enabled bitmaps, chunk counts and HandleAt, row by row.
	for _, tc := range []struct {
		tb   *ephemeral.Table
		rows func(h ephemeral.Handle) bool
	}{
		{r.ta, func(h ephemeral.Handle) bool { _, ok := m.a[h]; return ok }},
		{r.tb, func(h ephemeral.Handle) bool { _, ok := m.b[h]; return ok }},
	} {
		cr := tc.tb.ChunkRows()
		handleAt := tc.tb.Name() + ".HandleAt"
		want := make(bitmap.Bitmap, cr/64)
		for c := 0; c < tc.tb.Chunks(); c++ {
			clear(want)
			for r := 0; r < cr; r++ {
				slot := c*cr + r
				var h ephemeral.Handle
				if slot < m.capacity {
					h = m.handle(slot)
				}
				got, ok := tc.tb.HandleAt(slot)
				if h != 0 && tc.rows(h) {
					want.Set(uint32(r))
					sameRow(t, handleAt, slot, ok, true)
					sameRow(t, handleAt, slot, got, h)
				} else {
					sameRow(t, handleAt, slot, ok, false)
				}
			}
			if !slices.Equal(want, tc.tb.Enabled(c)) {
				require.Equal(t, want, tc.tb.Enabled(c), "%s.Enabled(%d)", tc.tb.Name(), c)
			}
			sameRow(t, tc.tb.Name()+".ChunkLen", c, tc.tb.ChunkLen(c), want.Count())
		}
	}
}

// fuzzSeeds are inputs for the seed corpus: byte 0 is the capacity - 1,
// then operations.
func fuzzSeeds() [][]byte {
	seeds := [][]byte{
		{0, 0, 0, 0, 5, 16, 0, 0},                 // capacity 1: insert, full, delete, reuse
		{69, 2, 70, 0, 0, 2, 10, 8, 30, 200, 0},   // fill 70 rows in bulk, then over capacity
		{130, 2, 79, 2, 60, 8, 20, 0, 0, 0, 2, 9}, // across chunk boundaries
		{64, 0, 1, 9, 200, 0, 10, 200, 0, 11, 200, 0, 12, 200, 1, 7, 200, 1},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 8; i++ {
		b := make([]byte, 400)
		for k := range b {
			b[k] = byte(rng.Uint32())
		}
		seeds = append(seeds, b)
	}
	return seeds
}

func FuzzTable(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 4096 {
			return
		}
		capacity := 1 + int(data[0])
		dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "D", Capacity: capacity, ChunkRows: 64})
		require.NoError(t, err)
		r := &fuzzRun{t: t, data: data[1:], dom: dom}
		r.m = fuzzModel{capacity: capacity, dom: dom, gens: make([]uint32, capacity),
			a: map[ephemeral.Handle]fuzzA{}, b: map[ephemeral.Handle]uint32{}}
		r.other, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "other", Capacity: capacity, ChunkRows: 64})
		require.NoError(t, err)
		require.NotEqual(t, dom.Tag(), r.other.Domain().Tag())
		r.otherV, err = ephemeral.AddColumn[int64](r.other, "v")
		require.NoError(t, err)
		r.otherHs = make([]ephemeral.Handle, capacity)
		require.NoError(t, r.other.InsertN(r.otherHs))
		for i, h := range r.otherHs {
			require.True(t, r.otherV.Set(h, int64(i)))
		}
		r.ta, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "A", Domain: dom})
		require.NoError(t, err)
		r.tb, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "B", Domain: dom})
		require.NoError(t, err)
		r.x, err = ephemeral.AddColumn[int64](r.ta, "x")
		require.NoError(t, err)
		r.f, err = ephemeral.AddColumn[fuzzF](r.ta, "f")
		require.NoError(t, err)
		r.y, err = ephemeral.AddColumn[uint32](r.tb, "y")
		require.NoError(t, err)
		r.check()
		for len(r.data) > 0 {
			r.step()
			r.check()
		}
	})
}

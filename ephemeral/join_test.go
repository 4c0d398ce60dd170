package ephemeral_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// joinWorld is a domain of n entities (chunks of chunkRows) and four
// member tables: pos (an int32 column, value = 10*slot), vel (a float64
// column, value = -slot), tag (no column) and dead (no column). Every
// entity has a pos row; vel, tag and dead rows are attached at random
// (seed), and one entity in 7 is deleted afterwards, so that the
// matching rows have holes, short runs and empty words.
type joinWorld struct {
	dom             *ephemeral.Domain
	pos, vel        *ephemeral.Table
	tag, dead       *ephemeral.Table
	x               *ephemeral.Column[int32]
	v               *ephemeral.Column[float64]
	hs              []ephemeral.Handle // every entity made, live or deleted
	inVel, inTag    map[uint32]bool    // by slot, at attach time
	inDead, deleted map[uint32]bool
}

func newJoinWorld(t testing.TB, n, chunkRows int, seed uint64) *joinWorld {
	t.Helper()
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: n, ChunkRows: chunkRows})
	require.NoError(t, err)
	w := &joinWorld{dom: dom, inVel: map[uint32]bool{}, inTag: map[uint32]bool{}, inDead: map[uint32]bool{}, deleted: map[uint32]bool{}}
	mk := func(name string) *ephemeral.Table {
		tab, err := ephemeral.NewTable(ephemeral.TableSpec{Name: name, Domain: dom})
		require.NoError(t, err)
		return tab
	}
	w.pos, w.vel, w.tag, w.dead = mk("pos"), mk("vel"), mk("tag"), mk("dead")
	w.x, err = ephemeral.AddColumn[int32](w.pos, "x")
	require.NoError(t, err)
	w.v, err = ephemeral.AddColumn[float64](w.vel, "v")
	require.NoError(t, err)
	w.hs = make([]ephemeral.Handle, n)
	require.NoError(t, w.pos.InsertN(w.hs))
	rng := rand.New(rand.NewPCG(seed, seed))
	for _, h := range w.hs {
		i := h.Index()
		w.x.Set(h, int32(10*i))
		// Runs of members, so that runs cross word and chunk ends.
		if rng.IntN(4) != 0 || i%64 == 63 || i%64 == 0 {
			require.NoError(t, w.vel.Attach(h))
			w.v.Set(h, -float64(i))
			w.inVel[i] = true
		}
		if rng.IntN(3) != 0 {
			require.NoError(t, w.tag.Attach(h))
			w.inTag[i] = true
		}
		if rng.IntN(10) == 0 {
			require.NoError(t, w.dead.Attach(h))
			w.inDead[i] = true
		}
	}
	for _, h := range w.hs {
		if rng.IntN(7) == 0 {
			require.True(t, dom.Delete(h))
			w.deleted[h.Index()] = true
		}
	}
	return w
}

// want lists, in slot order, the live entities with a pos row that pass
// the model's filters.
func (w *joinWorld) want(vel, tag, notDead bool) []ephemeral.Handle {
	var out []ephemeral.Handle
	for _, h := range w.hs {
		i := h.Index()
		if w.deleted[i] || (vel && !w.inVel[i]) || (tag && !w.inTag[i]) || (notDead && w.inDead[i]) {
			continue
		}
		out = append(out, h)
	}
	return out
}

func TestJoinAllMatchesModel(t *testing.T) {
	for _, chunkRows := range []int{64, 128, 4096} {
		for _, n := range []int{1, 200, 3000} {
			w := newJoinWorld(t, n, chunkRows, uint64(n+chunkRows))
			q, err := ephemeral.NewJoin2(w.x, w.v, ephemeral.With(w.tag), ephemeral.Without(w.dead))
			require.NoError(t, err)
			want := w.want(true, true, true)
			var got []ephemeral.Handle
			for r, h := range q.All() {
				px, pv := r.Get()
				require.Equal(t, int32(10*h.Index()), *px, "x of %v", h)
				require.Equal(t, -float64(h.Index()), *pv, "v of %v", h)
				got = append(got, h)
			}
			assert.Equal(t, want, got, "n=%d chunkRows=%d: All yields the model's entities in row order", n, chunkRows)
			assert.Equal(t, len(want), q.Count(), "Count")

			// Chunk by chunk, the runs and the mask give the same rows.
			var byChunk, byRuns, byMask []ephemeral.Handle
			for c := range q.Chunks() {
				for _, h := range q.Chunk(c) {
					byChunk = append(byChunk, h)
				}
				xs, vs := q.Spans(c)
				last := -1
				for lo, hi := q.NextRun(c, 0); lo < hi; lo, hi = q.NextRun(c, hi) {
					require.Greater(t, lo, last, "runs are maximal and ascending")
					for r := lo; r < hi; r++ {
						row := c*chunkRows + r
						require.Equal(t, int32(10*row), xs[r])
						require.Equal(t, -float64(row), vs[r])
						h, ok := w.pos.HandleAt(row)
						require.True(t, ok)
						byRuns = append(byRuns, h)
					}
					last = hi
				}
				for wd := range chunkRows / 64 {
					m := q.Mask(c, wd)
					for b := range 64 {
						if m&(1<<b) != 0 {
							h, _ := w.pos.HandleAt(c*chunkRows + wd*64 + b)
							byMask = append(byMask, h)
						}
					}
				}
				var byRange []int
				for lo, hi := range q.Runs(c) {
					byRange = append(byRange, lo, hi)
				}
				var byNext []int
				for lo, hi := q.NextRun(c, 0); lo < hi; lo, hi = q.NextRun(c, hi) {
					byNext = append(byNext, lo, hi)
				}
				assert.Equal(t, byNext, byRange, "Runs yields NextRun's runs")
			}
			assert.Equal(t, want, byChunk, "Chunk over every chunk")
			assert.Equal(t, want, byRuns, "NextRun over every chunk")
			assert.Equal(t, want, byMask, "Mask over every chunk")

			// Has and Get agree with the model for every handle made.
			in := map[ephemeral.Handle]bool{}
			for _, h := range want {
				in[h] = true
			}
			for _, h := range w.hs {
				assert.Equal(t, in[h], q.Has(h), "Has(%v)", h)
				r, ok := q.Get(h)
				assert.Equal(t, in[h], ok, "Get(%v)", h)
				if ok {
					px, _ := r.Get()
					assert.Equal(t, int32(10*h.Index()), *px)
				}
			}
		}
	}
}

func TestJoinRunsAreMaximal(t *testing.T) {
	w := newJoinWorld(t, 1000, 128, 9)
	q, err := ephemeral.NewJoin1(w.x, ephemeral.With(w.vel))
	require.NoError(t, err)
	for c := range q.Chunks() {
		prevHi := -1
		for lo, hi := range q.Runs(c) {
			require.Less(t, lo, hi)
			if lo > 0 {
				h, ok := w.pos.HandleAt(c*128 + lo - 1)
				assert.False(t, ok && q.Has(h), "row before run [%d,%d) of chunk %d matches: not maximal", lo, hi, c)
			}
			if hi < 128 {
				h, ok := w.pos.HandleAt(c*128 + hi)
				assert.False(t, ok && q.Has(h), "row after run [%d,%d) of chunk %d matches: not maximal", lo, hi, c)
			}
			assert.Greater(t, lo, prevHi)
			prevHi = hi
		}
		lo, hi := q.NextRun(c, 128)
		assert.Equal(t, [2]int{128, 128}, [2]int{lo, hi}, "NextRun past the chunk")
	}
}

func TestJoinFiltersEachKind(t *testing.T) {
	w := newJoinWorld(t, 2000, 64, 3)
	cases := []struct {
		name                string
		filters             []ephemeral.Filter
		vel, tag, notDead   bool
		columnOfVelRequired bool
	}{
		{name: "column only"},
		{name: "with a tag table", filters: []ephemeral.Filter{ephemeral.With(w.tag)}, tag: true},
		{name: "without", filters: []ephemeral.Filter{ephemeral.Without(w.dead)}, notDead: true},
		{name: "with two, repeated", filters: []ephemeral.Filter{ephemeral.With(w.vel, w.tag), ephemeral.With(w.tag, w.pos)}, vel: true, tag: true},
		{name: "with and without", filters: []ephemeral.Filter{ephemeral.With(w.vel), ephemeral.Without(w.dead)}, vel: true, notDead: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := ephemeral.NewJoin1(w.x, tc.filters...)
			require.NoError(t, err)
			var got []ephemeral.Handle
			for _, h := range q.All() {
				got = append(got, h)
			}
			assert.Equal(t, w.want(tc.vel, tc.tag, tc.notDead), got)
		})
	}
}

func TestJoinTagTable(t *testing.T) {
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 301, ChunkRows: 64})
	require.NoError(t, err)
	body, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "body", Domain: dom})
	x, _ := ephemeral.AddColumn[float32](body, "x")
	stunned, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "stunned", Domain: dom})
	require.NoError(t, err, "a table without columns is a tag table")
	assert.Empty(t, stunned.Columns())

	hs := make([]ephemeral.Handle, 300)
	require.NoError(t, body.InsertN(hs))
	for _, h := range hs {
		x.Set(h, float32(h.Index()))
		if h.Index()%3 == 0 {
			require.NoError(t, stunned.Attach(h))
		}
	}
	require.ErrorIs(t, stunned.Attach(hs[0]), ephemeral.ErrRowExists)
	require.True(t, stunned.Detach(hs[3]))
	assert.True(t, dom.IsAlive(hs[3]), "detaching a tag keeps the entity, which has a body row")
	assert.Equal(t, 99, stunned.Len())

	// A tag-only entity: created bare, tagged, then its only row detached.
	lone, err := dom.Create()
	require.NoError(t, err)
	require.NoError(t, stunned.Attach(lone))

	tags, err := ephemeral.NewJoin(ephemeral.With(stunned))
	require.NoError(t, err)
	var got []uint32
	for h := range tags.All() {
		got = append(got, h.Index())
	}
	require.Len(t, got, 100)
	assert.Equal(t, uint32(0), got[0])
	assert.Equal(t, uint32(6), got[1], "row 3 was detached")
	assert.Equal(t, lone.Index(), got[99])

	moving, err := ephemeral.NewJoin1(x, ephemeral.Without(stunned))
	require.NoError(t, err)
	n := 0
	for r, h := range moving.All() {
		assert.False(t, stunned.IsAlive(h))
		assert.Equal(t, float32(h.Index()), *r.Get())
		n++
	}
	assert.Equal(t, 300-99, n)

	require.True(t, stunned.Detach(lone))
	assert.False(t, dom.IsAlive(lone), "detaching an entity's last row, a tag, deletes it")
	assert.False(t, tags.Has(lone))
}

func TestJoinDefinitionErrors(t *testing.T) {
	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	a, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "a", Domain: dom})
	b, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "b", Domain: dom})
	other, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "other", Capacity: 64})
	ax, _ := ephemeral.AddColumn[int32](a, "x")
	ox, _ := ephemeral.AddColumn[int32](other, "x")

	cases := []struct {
		name, msg string
		sentinel  error
		err       error
	}{
		{"columns of two domains", `ephemeral: table "other": a join's tables must belong to one domain (table "other" is of domain "other", table "a" of domain "units")`,
			ephemeral.ErrJoinDomains, err2(ephemeral.NewJoin2(ax, ox))},
		{"a With of another domain", `ephemeral: table "other": a join's tables must belong to one domain (table "other" is of domain "other", table "a" of domain "units")`,
			ephemeral.ErrJoinDomains, err1(ephemeral.NewJoin1(ax, ephemeral.With(other)))},
		{"a Without of another domain", `ephemeral: table "other": a join's tables must belong to one domain (table "other" is of domain "other", table "b" of domain "units")`,
			ephemeral.ErrJoinDomains, err0(ephemeral.NewJoin(ephemeral.With(b), ephemeral.Without(other)))},
		{"no table", `ephemeral: a join needs a column or a With table (add With(table) or a column)`,
			ephemeral.ErrJoinEmpty, err0(ephemeral.NewJoin(ephemeral.Without(b)))},
		{"required and excluded", `ephemeral: table "a": a join's table is both required and excluded (Without)`,
			ephemeral.ErrJoinExcluded, err1(ephemeral.NewJoin1(ax, ephemeral.With(b), ephemeral.Without(a)))},
		{"nil column", "ephemeral: column is nil: pass the *Column returned by AddColumn",
			ephemeral.ErrNilColumn, err2(ephemeral.NewJoin2[int32, int32](ax, nil))},
		{"nil table", "ephemeral: table is nil: pass the *Table returned by NewTable",
			ephemeral.ErrNilTable, err1(ephemeral.NewJoin1(ax, ephemeral.With(nil)))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			assert.ErrorIs(t, tc.err, ephemeral.ErrDefinition)
			assert.ErrorIs(t, tc.err, tc.sentinel)
			var de *ephemeral.DefinitionError
			require.True(t, errors.As(tc.err, &de))
			assert.Equal(t, tc.msg, tc.err.Error())
		})
	}
}

func err0(_ ephemeral.Join, err error) error                  { return err }
func err1[A any](_ ephemeral.Join1[A], err error) error       { return err }
func err2[A, B any](_ ephemeral.Join2[A, B], err error) error { return err }

func TestJoinArities(t *testing.T) {
	dom, _ := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "d", Capacity: 100, ChunkRows: 64})
	a, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "a", Domain: dom})
	b, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "b", Domain: dom})
	c1, _ := ephemeral.AddColumn[int8](a, "c1")
	c2, _ := ephemeral.AddColumn[int16](b, "c2")
	c3, _ := ephemeral.AddColumn[int32](a, "c3")
	c4, _ := ephemeral.AddColumn[int64](b, "c4")
	hs := make([]ephemeral.Handle, 100)
	require.NoError(t, a.InsertN(hs))
	for _, h := range hs {
		i := h.Index()
		c1.Set(h, int8(i))
		c3.Set(h, int32(3*i))
		if i%2 == 0 {
			require.NoError(t, b.Attach(h))
			c2.Set(h, int16(2*i))
			c4.Set(h, int64(4*i))
		}
	}
	q4, err := ephemeral.NewJoin4(c1, c2, c3, c4)
	require.NoError(t, err)
	n := 0
	for r, h := range q4.All() {
		p1, p2, p3, p4 := r.Get()
		i := h.Index()
		require.Equal(t, [4]int64{int64(i), int64(2 * i), int64(3 * i), int64(4 * i)},
			[4]int64{int64(*p1), int64(*p2), int64(*p3), *p4})
		n++
	}
	assert.Equal(t, 50, n)
	q3, err := ephemeral.NewJoin3(c3, c2, c1)
	require.NoError(t, err)
	assert.Equal(t, 50, q3.Count())
	assert.Equal(t, []*ephemeral.Table{a, b}, q3.Required(), "the columns' tables, each once, in column order")
	assert.Same(t, a, q3.Table())
	q1, err := ephemeral.NewJoin1(c1, ephemeral.Without(b))
	require.NoError(t, err)
	assert.Equal(t, 50, q1.Count())
	assert.Equal(t, []*ephemeral.Table{b}, q1.Excluded())
	assert.Nil(t, ephemeral.Join{}.Table())
}

func TestJoinAllocatesNothing(t *testing.T) {
	w := newJoinWorld(t, 5000, 4096, 1)
	q, err := ephemeral.NewJoin2(w.x, w.v, ephemeral.With(w.tag), ephemeral.Without(w.dead))
	require.NoError(t, err)
	tags, err := ephemeral.NewJoin(ephemeral.With(w.tag))
	require.NoError(t, err)
	var sum float64
	pass := func() {
		for r, h := range q.All() {
			px, pv := r.Get()
			*px++
			sum += *pv + float64(h.Index())
		}
		for c := range q.UsedChunks() {
			for r := range q.Chunk(c) {
				_, pv := r.Get()
				sum += *pv
			}
			xs, vs := q.Spans(c)
			for lo, hi := q.NextRun(c, 0); lo < hi; lo, hi = q.NextRun(c, hi) {
				for i := lo; i < hi; i++ {
					sum += vs[i] + float64(xs[i])
				}
			}
			for lo, hi := range q.Runs(c) {
				sum += float64(hi - lo)
			}
		}
		for h := range tags.All() {
			sum += float64(h.Index())
		}
		sum += float64(q.Count())
	}
	assert.Zero(t, testing.AllocsPerRun(20, pass), "allocations per iteration of every form")
	// Bytes through testing.Benchmark, as the queries' test: TotalAlloc
	// also counts what other goroutines allocate, which its many runs
	// divide away.
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			pass()
		}
	})
	assert.Zero(t, res.AllocedBytesPerOp(), "bytes per iteration of every form")
	assert.NotZero(t, sum)
}

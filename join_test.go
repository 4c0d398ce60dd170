package tickwork_test

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

type jvec struct{ X, Y float32 }

// herd is a world of 3 000 entities in one domain: every one has a Body
// row (pos), two in three a Motion row (vel); Frozen and Marked are tag
// tables (no columns). Each fixed tick, "move" moves the entities with a
// body and a motion and no Frozen tag (a Parallel kernel over the join's
// chunks), and "freeze" (Update) tags with Frozen the moving entities
// that crossed x = 40 and untags the frozen ones whose y passed 30, while
// "count" counts the frozen entities through a join of the tag alone.
type herd struct {
	w              *tickwork.World
	body, motion   *tickwork.Table
	frozen, marked *tickwork.Table
	pos, vel       *tickwork.Column[jvec]
	frozenSeen     *int
}

type moveKernel struct {
	q  tickwork.Join2[jvec, jvec]
	dt float32
}

func newHerd(t *testing.T, workers int) *herd {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(1.0/64))
	dom := b.Domain(tickwork.DomainSpec{Name: "herd", Capacity: 3000, ChunkRows: 256})
	h := &herd{frozenSeen: new(int)}
	h.body = b.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
	h.motion = b.Table(tickwork.TableSpec{Name: "Motion", Domain: dom})
	h.frozen = b.Table(tickwork.TableSpec{Name: "Frozen", Domain: dom})
	h.marked = b.Table(tickwork.TableSpec{Name: "Marked", Domain: dom})
	h.pos = tickwork.AddColumn[jvec](b, h.body, "pos")
	h.vel = tickwork.AddColumn[jvec](b, h.motion, "vel")
	b.System("move", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		q := tickwork.NewJoin2(tickwork.Write(s, h.pos), tickwork.Read(s, h.vel), tickwork.Without(h.frozen))
		return func(ctx *tickwork.Context) {
			tickwork.Parallel(ctx, q.UsedChunks(), moveKernel{q, float32(ctx.DT())}, func(st *moveKernel, _, c int) {
				for r := range st.q.Chunk(c) {
					p, v := r.Get()
					p.X += float32(v.X * st.dt)
					p.Y += float32(v.Y * st.dt)
				}
			})
		}
	})
	b.System("freeze", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		moving := tickwork.NewJoin1(tickwork.Read(s, h.pos), tickwork.With(h.motion))
		isFrozen := tickwork.Presence(s, h.frozen)
		stopped := tickwork.NewJoin1(tickwork.Read(s, h.pos), tickwork.With(h.frozen))
		rec := tickwork.Record(s, h.frozen)
		rec.Reserve(4096)
		return func(*tickwork.Context) {
			for r, e := range moving.All() {
				if !isFrozen.IsAlive(e) && r.Get().X > 40 {
					rec.Attach(e)
				}
			}
			for r, e := range stopped.All() {
				if r.Get().Y > 30 {
					rec.Remove(e)
				}
			}
		}
	})
	b.System("count", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		tags := tickwork.NewJoin(s, tickwork.With(h.frozen))
		return func(*tickwork.Context) {
			n := 0
			for range tags.All() {
				n++
			}
			*h.frozenSeen = n
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	h.w = w
	t.Cleanup(func() { _ = w.Close() })

	hs := make([]tickwork.Handle, 3000)
	require.NoError(t, h.body.InsertN(hs))
	for i, e := range hs {
		h.pos.Set(e, jvec{float32(i % 50), float32(i % 37)})
		if i%3 != 0 {
			require.NoError(t, h.motion.Attach(e))
			h.vel.Set(e, jvec{float32(i%11) + 1, float32(i%5) + 0.5})
		}
		if i%7 == 0 {
			require.NoError(t, h.marked.Attach(e))
		}
	}
	return h
}

// digest hashes every body's position in row order, and the frozen rows.
func (h *herd) digest() uint64 {
	f := fnv.New64a()
	var buf [8]byte
	put := func(v uint32) {
		buf[0], buf[1], buf[2], buf[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		_, _ = f.Write(buf[:4])
	}
	q := tickwork.HostJoin1(h.pos)
	for r, e := range q.All() {
		p := r.Get()
		put(e.Index())
		put(math.Float32bits(p.X))
		put(math.Float32bits(p.Y))
		if h.frozen.IsAlive(e) {
			put(1)
		}
	}
	return f.Sum64()
}

// Entities move through a join in a Parallel kernel, are tagged and
// untagged through a recorder of a tag table, and are counted through a
// join of the tag alone; the result does not depend on the worker count
// and a frame allocates nothing.
func TestJoinInWorld(t *testing.T) {
	var digests []uint64
	for _, workers := range []int{1, 2, 4} {
		h := newHerd(t, workers)
		for range 40 {
			require.NoError(t, h.w.Frame(1.0/16))
		}
		assert.Positive(t, h.frozen.Len(), "some entities froze")
		n0 := h.frozen.Len()
		require.NoError(t, h.w.Frame(1.0/16))
		assert.Equal(t, n0, *h.frozenSeen, "count saw the tags as they were before its phase's playback")
		digests = append(digests, h.digest())

		// Frozen entities did not move in the last frame; the others did.
		before := map[tickwork.Handle]jvec{}
		q := tickwork.HostJoin1(h.pos)
		require.NoError(t, q.Err())
		for r, e := range q.All() {
			before[e] = *r.Get()
		}
		frozenNow := map[tickwork.Handle]bool{}
		tags := tickwork.HostJoin(tickwork.With(h.frozen))
		require.NoError(t, tags.Err())
		for e := range tags.All() {
			frozenNow[e] = true
		}
		require.NoError(t, h.w.Frame(1.0/64)) // one tick, then freeze's playback
		moved, still := 0, 0
		for r, e := range q.All() {
			if *r.Get() != before[e] {
				moved++
				assert.True(t, h.motion.IsAlive(e) && !frozenNow[e], "%v moved", e)
			} else {
				still++
			}
		}
		assert.Positive(t, moved)
		assert.Positive(t, still)

		allocs := testing.AllocsPerRun(10, func() { _ = h.w.Frame(1.0 / 64) })
		assert.Zero(t, allocs, "allocations per frame, workers=%d", workers)
	}
	assert.Equal(t, digests[0], digests[1], "1 and 2 workers")
	assert.Equal(t, digests[0], digests[2], "1 and 4 workers")
}

// A tag table (no columns) is declared, attached and removed by handle,
// survives a snapshot and filters joins.
func TestTagTable(t *testing.T) {
	h := newHerd(t, 1)
	var tagged []tickwork.Handle
	marked := tickwork.HostJoin(tickwork.With(h.marked))
	require.NoError(t, marked.Err())
	for e := range marked.All() {
		tagged = append(tagged, e)
	}
	require.Len(t, tagged, 429) // 0, 7, ..., 2996
	assert.Empty(t, h.marked.Columns())
	assert.Equal(t, uint32(7), tagged[1].Index())
	require.True(t, h.marked.Detach(tagged[1]))
	assert.ErrorIs(t, h.marked.Attach(tagged[0]), tickwork.ErrRowExists)

	snap, err := h.w.Snapshot(nil)
	require.NoError(t, err)
	require.True(t, h.marked.Detach(tagged[2]))
	require.NoError(t, h.w.Restore(snap))
	assert.True(t, h.marked.IsAlive(tagged[2]), "the snapshot holds the tag table's rows")
	assert.False(t, h.marked.IsAlive(tagged[1]))
	assert.Equal(t, 428, marked.Count())

	// With and Without of tags in a join with columns.
	q := tickwork.HostJoin2(h.pos, h.vel, tickwork.With(h.marked), tickwork.Without(h.frozen))
	require.NoError(t, q.Err())
	n := 0
	for _, e := range q.All() {
		assert.True(t, h.marked.IsAlive(e) && h.motion.IsAlive(e) && !h.frozen.IsAlive(e))
		n++
	}
	assert.Equal(t, 285, n, "marked entities with a motion row (i%7 == 0, i%3 != 0: 286) but row 7, none frozen yet")
	r, ok := q.Get(tagged[4]) // row 28
	require.True(t, ok)
	p, v := r.Get()
	assert.Equal(t, jvec{28, 28}, *p)
	assert.Equal(t, jvec{28%11 + 1, 28%5 + 0.5}, *v)
	_, ok = q.Get(tagged[3]) // row 21 has no motion row
	assert.False(t, ok)
	_, ok = q.Get(tagged[0]) // row 0 has no motion row
	assert.False(t, ok)
}

// A join's columns are covered by Build's conflict check; its tag
// filters conflict with nothing; tables of two domains are refused.
func TestJoinBuildErrors(t *testing.T) {
	build := func(declare func(b *tickwork.Builder, pos *tickwork.Column[jvec], tag, other *tickwork.Table)) error {
		b := tickwork.NewBuilder(tickwork.WithWorkers(1))
		dom := b.Domain(tickwork.DomainSpec{Name: "d", Capacity: 64})
		body := b.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
		tag := b.Table(tickwork.TableSpec{Name: "Tag", Domain: dom})
		other := b.Table(tickwork.TableSpec{Name: "Other", Capacity: 64})
		declare(b, tickwork.AddColumn[jvec](b, body, "pos"), tag, other)
		w, err := b.Build()
		if err == nil {
			_ = w.Close()
		}
		return err
	}
	err := build(func(b *tickwork.Builder, pos *tickwork.Column[jvec], tag, _ *tickwork.Table) {
		b.System("look", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.NewJoin1(tickwork.Read(s, pos), tickwork.With(tag))
			return func(*tickwork.Context) {}
		})
		b.System("push", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.Write(s, pos)
			return func(*tickwork.Context) {}
		})
	})
	require.ErrorIs(t, err, tickwork.ErrConflict)
	assert.Contains(t, err.Error(), `"look" (read) and "push" (write) both touch Body.pos`)

	err = build(func(b *tickwork.Builder, pos *tickwork.Column[jvec], tag, _ *tickwork.Table) {
		b.System("look", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.NewJoin1(tickwork.Read(s, pos), tickwork.Without(tag))
			tickwork.Presence(s, tag)
			return func(*tickwork.Context) {}
		})
		b.System("tagger", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.Record(s, tag)
			return func(*tickwork.Context) {}
		})
	})
	assert.NoError(t, err, "a presence read and a recorder of the tag do not conflict")

	err = build(func(b *tickwork.Builder, pos *tickwork.Column[jvec], _, other *tickwork.Table) {
		b.System("mixed", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			tickwork.NewJoin1(tickwork.Read(s, pos), tickwork.With(other))
			return func(*tickwork.Context) {}
		})
	})
	require.ErrorIs(t, err, tickwork.ErrJoinDomains)
	require.ErrorIs(t, err, tickwork.ErrSystemDefinition)
	assert.Equal(t, `systems: system "mixed": bad declaration: NewJoin1: ephemeral: table "Other": a join's tables `+
		`must belong to one domain (table "Other" is of domain "Other", table "Body" of domain "d")`, err.Error())

	err = tickwork.HostJoin(tickwork.With(nil)).Err()
	assert.ErrorIs(t, err, tickwork.ErrStorageDefinition)
	assert.Equal(t, "ephemeral: table is nil: pass the *Table returned by NewTable", err.Error())
}

package ephemeral_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/ephemeral"
)

// joinEntities is the entity count of BenchmarkJoin.
const joinEntities = 100_000

// joinBench is BenchmarkJoin's data: a domain of joinEntities entities,
// each with a body row (pos), half of them, at random, with a motion row
// (vel), a tenth, at random, with a frozen row (a tag table, no column).
type joinBench struct {
	body, motion, frozen *ephemeral.Table
	pos, vel             *ephemeral.Column[vec2]
	matched              int // entities with a motion row and no frozen row
}

// joinBlock is the run length of BenchmarkJoinClustered's members.
const joinBlock = 256

// newJoinBench makes the data; with clustered, members come in blocks of
// joinBlock consecutive entities (the same counts, picked by block).
func newJoinBench(b *testing.B, clustered bool) *joinBench {
	b.Helper()
	dom, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: joinEntities})
	if err != nil {
		b.Fatal(err)
	}
	jb := &joinBench{}
	for _, p := range []struct {
		t    **ephemeral.Table
		name string
	}{{&jb.body, "body"}, {&jb.motion, "motion"}, {&jb.frozen, "frozen"}} {
		if *p.t, err = ephemeral.NewTable(ephemeral.TableSpec{Name: p.name, Domain: dom}); err != nil {
			b.Fatal(err)
		}
	}
	jb.pos, _ = ephemeral.AddColumn[vec2](jb.body, "pos")
	jb.vel, _ = ephemeral.AddColumn[vec2](jb.motion, "vel")
	hs := make([]ephemeral.Handle, joinEntities)
	if err := jb.body.InsertN(hs); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20, 20))
	pick := func(n int) []int {
		if !clustered {
			return rng.Perm(joinEntities)[:n]
		}
		var out []int
		for _, blk := range rng.Perm(joinEntities / joinBlock)[:n/joinBlock] {
			for i := blk * joinBlock; i < (blk+1)*joinBlock; i++ {
				out = append(out, i)
			}
		}
		return out
	}
	for _, i := range pick(joinEntities / 2) {
		_ = jb.motion.Attach(hs[i])
		jb.vel.Set(hs[i], vec2{float32(i % 7), 1})
	}
	for _, i := range pick(joinEntities / 10) {
		_ = jb.frozen.Attach(hs[i])
	}
	for _, h := range hs {
		if jb.motion.IsAlive(h) && !jb.frozen.IsAlive(h) {
			jb.matched++
		}
	}
	return jb
}

// BenchmarkJoin moves the entities that have a body and a motion row and
// no frozen row (pos += vel*dt; 100 000 entities, half of them in motion,
// a tenth frozen, both at random: about 45 000 entities, in runs of about
// two rows): the join's row form (tickwork: Join2 with Without, All), its
// span form (tickwork-spans: Spans and Runs per chunk), and two hand
// joins of the same work, the bitmap AND written by hand over the enabled
// words (hand) and a walk of the motion rows that probes body and frozen
// through leases (hand-lease). ns/op over one pass; per-row ns in
// ns/entity. Run (docs/benchmarks.md, Joins):
//
//	go test -run '^$' -bench 'Join$' -benchmem -count 6 ./ephemeral/
func BenchmarkJoin(b *testing.B) { benchmarkJoin(b, false) }

// BenchmarkJoinClustered is BenchmarkJoin with members in blocks of 256
// consecutive entities (half the blocks in motion, a tenth frozen, at
// random): long runs, the span form's case. Run:
//
//	go test -run '^$' -bench 'JoinClustered$' -benchmem ./ephemeral/
func BenchmarkJoinClustered(b *testing.B) { benchmarkJoin(b, true) }

func benchmarkJoin(b *testing.B, clustered bool) {
	jb := newJoinBench(b, clustered)
	q, err := ephemeral.NewJoin2(jb.pos, jb.vel, ephemeral.Without(jb.frozen))
	if err != nil {
		b.Fatal(err)
	}
	if q.Count() != jb.matched {
		b.Fatalf("join matches %d entities, want %d", q.Count(), jb.matched)
	}
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			joinRows(q)
		}
		reportPerEntity(b, jb.matched)
	})
	b.Run("tickwork-spans", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			joinSpans(q)
		}
		reportPerEntity(b, jb.matched)
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			joinHand(jb)
		}
		reportPerEntity(b, jb.matched)
	})
	b.Run("hand-lease", func(b *testing.B) {
		mq, err := ephemeral.NewQuery1(jb.vel)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			joinLease(jb, mq)
		}
		reportPerEntity(b, jb.matched)
	})
}

func reportPerEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

// joinRows is the row form a system writes.
func joinRows(q ephemeral.Join2[vec2, vec2]) {
	for r := range q.All() {
		p, v := r.Get()
		p.X += v.X * iterDT
		p.Y += v.Y * iterDT
	}
}

// joinSpans is the span form a kernel writes, chunk by chunk.
func joinSpans(q ephemeral.Join2[vec2, vec2]) {
	for c := range q.UsedChunks() {
		p, v := q.Spans(c)
		for lo, hi := range q.Runs(c) {
			p, v := p[lo:hi], v[lo:hi]
			for i := range p {
				p[i].X += v[i].X * iterDT
				p[i].Y += v[i].Y * iterDT
			}
		}
	}
}

// joinHand is the join written by hand: per chunk, the AND of the body
// and motion enabled words AND NOT the frozen ones, then each set bit.
func joinHand(jb *joinBench) {
	ps, vs := jb.pos.All(), jb.vel.All()
	rows := jb.body.ChunkRows()
	for c := range jb.body.Chunks() {
		eb, em, ef := jb.body.Enabled(c), jb.motion.Enabled(c), jb.frozen.Enabled(c)
		em, ef = em[:len(eb)], ef[:len(eb)]
		base := c * rows
		for w, word := range eb {
			m := word & em[w] &^ ef[w]
			at := base + w<<6
			for ; m != 0; m &= m - 1 {
				i := at + bits.TrailingZeros64(m)
				ps[i].X += vs[i].X * iterDT
				ps[i].Y += vs[i].Y * iterDT
			}
		}
	}
}

// joinLease is the join of a user without joins: walk the motion rows,
// probe body and frozen by handle through their leases.
func joinLease(jb *joinBench, mq ephemeral.Query1[vec2]) {
	body, frozen := jb.body.Lease(), jb.frozen.Lease()
	ps := jb.pos.All()
	for r, h := range mq.All() {
		i, ok := body.Row(h)
		if !ok || frozen.IsAlive(h) {
			continue
		}
		v := r.Get()
		ps[i].X += v.X * iterDT
		ps[i].Y += v.Y * iterDT
	}
}

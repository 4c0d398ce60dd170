package tickwork_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/ephemeral"
)

// BenchmarkJoin is the face's side of ephemeral's BenchmarkJoin, on the
// same data (100 000 entities; half of them, at random, with a Motion
// row; a tenth, at random, Frozen, a tag table): pos += vel*dt over the
// entities with a Motion row and no Frozen row, through the face's
// Join2.All (tickwork), the engine's (engine), and the bitmap AND written
// by hand over Table.Enabled and Column.All (hand), in one run. Run:
//
//	go test -run '^$' -bench 'Join$' -benchmem -count 6 .
func BenchmarkJoin(b *testing.B) {
	const n = 100_000
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1))
	dom := bl.Domain(tickwork.DomainSpec{Name: "units", Capacity: n})
	body := bl.Table(tickwork.TableSpec{Name: "Body", Domain: dom})
	motion := bl.Table(tickwork.TableSpec{Name: "Motion", Domain: dom})
	frozen := bl.Table(tickwork.TableSpec{Name: "Frozen", Domain: dom})
	pos := tickwork.AddColumn[jvec](bl, body, "pos")
	vel := tickwork.AddColumn[jvec](bl, motion, "vel")
	w, err := bl.Build()
	require.NoError(b, err)
	defer w.Close()
	hs := make([]tickwork.Handle, n)
	require.NoError(b, body.InsertN(hs))
	rng := rand.New(rand.NewPCG(20, 20))
	for _, i := range rng.Perm(n)[:n/2] {
		require.NoError(b, motion.Attach(hs[i]))
		vel.Set(hs[i], jvec{float32(i % 7), 1})
	}
	for _, i := range rng.Perm(n)[:n/10] {
		require.NoError(b, frozen.Attach(hs[i]))
	}
	q := tickwork.HostJoin2(pos, vel, tickwork.Without(frozen))
	require.NoError(b, q.Err())
	eq, err := ephemeral.NewJoin2((*ephemeral.Column[jvec])(pos), (*ephemeral.Column[jvec])(vel),
		ephemeral.Without((*ephemeral.Table)(frozen)))
	require.NoError(b, err)
	// The loops are functions of their own: calls inside a b.Loop loop are
	// not inlined, and the iterators must be, as in a system's body.
	b.Run("tickwork", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			faceJoinMove(q)
		}
	})
	b.Run("engine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			engineJoinMove(eq)
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handJoinMove(body, motion, frozen, pos, vel)
		}
	})
}

const joinDT = 1.0 / 64

func faceJoinMove(q tickwork.Join2[jvec, jvec]) {
	for r := range q.All() {
		p, v := r.Get()
		p.X += v.X * joinDT
		p.Y += v.Y * joinDT
	}
}

func engineJoinMove(q ephemeral.Join2[jvec, jvec]) {
	for r := range q.All() {
		p, v := r.Get()
		p.X += v.X * joinDT
		p.Y += v.Y * joinDT
	}
}

// handJoinMove is the join written by hand: the AND of the body and
// motion enabled words AND NOT the frozen ones, then each set bit.
func handJoinMove(body, motion, frozen *tickwork.Table, pos, vel *tickwork.Column[jvec]) {
	ps, vs := pos.All(), vel.All()
	rows := body.ChunkRows()
	for c := range body.Chunks() {
		eb, em, ef := body.Enabled(c), motion.Enabled(c), frozen.Enabled(c)
		em, ef = em[:len(eb)], ef[:len(eb)]
		base := c * rows
		for w, word := range eb {
			m := word & em[w] &^ ef[w]
			at := base + w<<6
			for ; m != 0; m &= m - 1 {
				i := at + bits.TrailingZeros64(m)
				ps[i].X += vs[i].X * joinDT
				ps[i].Y += vs[i].Y * joinDT
			}
		}
	}
}

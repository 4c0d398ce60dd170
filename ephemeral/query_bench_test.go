package ephemeral_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/kelindar/bitmap"

	"github.com/tickwork/tickwork/ephemeral"
)

// vec2 is a 2-D position or velocity, the element of the iterate benchmark.
type vec2 struct{ X, Y float32 }

const iterDT = 1.0 / 64 // a power of two: the three lanes compute the same bits

// moveTable is a table of n rows with pos and vel columns, every row
// inserted (vel of row i is (i%7, 1)) and then, with holes, one row in 8
// deleted at random: the same data for every lane.
func moveTable(b *testing.B, n int, holes bool) (*ephemeral.Table, *ephemeral.Column[vec2], *ephemeral.Column[vec2]) {
	b.Helper()
	t, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "move", Capacity: n})
	if err != nil {
		b.Fatal(err)
	}
	pos, _ := ephemeral.AddColumn[vec2](t, "pos")
	vel, _ := ephemeral.AddColumn[vec2](t, "vel")
	hs := make([]ephemeral.Handle, n)
	if err := t.InsertN(hs); err != nil {
		b.Fatal(err)
	}
	for i, h := range hs {
		vel.Set(h, vec2{float32(i % 7), 1})
	}
	if holes {
		for _, i := range rand.New(rand.NewPCG(3, 3)).Perm(n)[:n/8] {
			t.Delete(hs[i])
		}
	}
	return t, pos, vel
}

// BenchmarkIterate moves 50 000 rows (pos += vel*dt, two 8-byte columns),
// dense and with one row in 8 deleted at random (runs of about 8 rows):
// the typed query's row form (tickwork: Query2.All) and span form
// (tickwork-spans: Spans and Runs per chunk) against the hand-written
// chunk loop they replace (hand: Enabled, the EachRun of that code,
// Column.All). Run:
//
//	go test -run '^$' -bench 'Iterate$' -benchmem ./ephemeral/
func BenchmarkIterate(b *testing.B) {
	for _, holes := range []bool{false, true} {
		name := "dense"
		if holes {
			name = "holes"
		}
		b.Run(name, func(b *testing.B) {
			t, pos, vel := moveTable(b, lookupRows, holes)
			q, err := ephemeral.NewQuery2(pos, vel)
			if err != nil {
				b.Fatal(err)
			}
			live := t.Len()
			b.Run("tickwork", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					moveRows(q)
				}
				reportPerRow(b, live)
			})
			b.Run("tickwork-spans", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					moveSpans(q)
				}
				reportPerRow(b, live)
			})
			b.Run("hand", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					moveHand(t, pos, vel)
				}
				reportPerRow(b, live)
			})
		})
	}
}

// moveRows is the row form a system writes.
func moveRows(q ephemeral.Query2[vec2, vec2]) {
	for r := range q.All() {
		p, v := r.Get()
		p.X += v.X * iterDT
		p.Y += v.Y * iterDT
	}
}

// moveSpans is the span form a kernel writes, chunk by chunk.
func moveSpans(q ephemeral.Query2[vec2, vec2]) {
	for c := range q.Table().Chunks() {
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

// moveHand is the chunk loop of the code before typed queries, with the
// EachRun of that code (eachRunBefore), so that the baseline stays what it
// was.
func moveHand(t *ephemeral.Table, pos, vel *ephemeral.Column[vec2]) {
	ps, vs := pos.All(), vel.All()
	for c := range t.Chunks() {
		base := c * t.ChunkRows()
		eachRunBefore(t.Enabled(c), func(lo, hi int) {
			for r := base + lo; r < base+hi; r++ {
				ps[r].X += vs[r].X * iterDT
				ps[r].Y += vs[r].Y * iterDT
			}
		})
	}
}

// eachRunBefore is ephemeral.EachRun as it was before typed queries (it
// now steps with the queries' run scanner): the baseline of
// BenchmarkIterate, copied verbatim.
func eachRunBefore(mask bitmap.Bitmap, fn func(lo, hi int)) {
	lo := -1
	for w, word := range mask {
		base := w << 6
		if word == ^uint64(0) {
			if lo < 0 {
				lo = base
			}
			continue
		}
		if word == 0 {
			if lo >= 0 {
				fn(lo, base)
				lo = -1
			}
			continue
		}
		for b := 0; b < 64; {
			if word>>uint(b)&1 == 1 {
				if lo < 0 {
					lo = base + b
				}
				ones := bits.TrailingZeros64(^(word >> uint(b)))
				b += ones
			} else {
				if lo >= 0 {
					fn(lo, base+b)
					lo = -1
				}
				zeros := bits.TrailingZeros64(word >> uint(b))
				if zeros == 64 {
					break
				}
				b += zeros
			}
		}
	}
	if lo >= 0 {
		fn(lo, len(mask)<<6)
	}
}

package ephemeral_test

import (
	"testing"

	"github.com/tickwork/tickwork/ephemeral"
)

// wideTable is BenchmarkIterateWide's table: n rows of five columns (pos,
// vel, acc, age, mass), every row inserted through Query5.InsertN, then,
// with holes, every 8th row deleted.
func wideTable(b *testing.B, n int, holes bool) wide {
	b.Helper()
	t, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "wide", Capacity: n})
	if err != nil {
		b.Fatal(err)
	}
	pos, _ := ephemeral.AddColumn[vec2](t, "pos")
	vel, _ := ephemeral.AddColumn[vec2](t, "vel")
	acc, _ := ephemeral.AddColumn[vec2](t, "acc")
	age, _ := ephemeral.AddColumn[int32](t, "age")
	mass, _ := ephemeral.AddColumn[float32](t, "mass")
	q, err := ephemeral.NewQuery5(pos, vel, acc, age, mass)
	if err != nil {
		b.Fatal(err)
	}
	var hs []ephemeral.Handle
	err = q.InsertN(n, func(h ephemeral.Handle, p, v, a *vec2, g *int32, m *float32) {
		i := float32(h.Index() % 7)
		*v, *a, *m = vec2{i, 1}, vec2{1, -i}, 1+i
		if holes && h.Index()%8 == 3 {
			hs = append(hs, h)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	t.DeleteN(hs)
	return wide{q, pos, vel, acc, age, mass}
}

// wide is the query of wideTable and its columns.
type wide struct {
	q             ephemeral.Query5[vec2, vec2, vec2, int32, float32]
	pos, vel, acc *ephemeral.Column[vec2]
	age           *ephemeral.Column[int32]
	mass          *ephemeral.Column[float32]
}

// BenchmarkIterateWide is BenchmarkIterate for a 5-column query, whose
// row (five pointers) no longer fits the registers the 4-column rows stay
// in: the row form (Query5.All), the span form (Spans and Runs) and the
// hand-written loop over Column.All with NextRun, integrating pos, vel and
// age of 50 000 rows. Run:
//
//	go test -run '^$' -bench 'IterateWide$' -benchmem ./ephemeral/
func BenchmarkIterateWide(b *testing.B) {
	for _, holes := range []bool{false, true} {
		name := "dense"
		if holes {
			name = "holes"
		}
		b.Run(name, func(b *testing.B) {
			k := wideTable(b, lookupRows, holes)
			q, live := k.q, k.q.Table().Len()
			b.Run("tickwork", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					wideRows(q)
				}
				reportPerRow(b, live)
			})
			b.Run("tickwork-spans", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					wideSpans(q)
				}
				reportPerRow(b, live)
			})
			b.Run("hand", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					wideHand(k)
				}
				reportPerRow(b, live)
			})
		})
	}
}

// wideRows is the row form a system writes.
func wideRows(q ephemeral.Query5[vec2, vec2, vec2, int32, float32]) {
	for r := range q.All() {
		p, v, a, g, m := r.Get()
		inv := 1 / *m
		v.X += a.X * inv * iterDT
		v.Y += a.Y * inv * iterDT
		p.X += v.X * iterDT
		p.Y += v.Y * iterDT
		*g++
	}
}

// wideSpans is the span form a kernel writes, chunk by chunk.
func wideSpans(q ephemeral.Query5[vec2, vec2, vec2, int32, float32]) {
	for c := range q.Table().Chunks() {
		p, v, a, g, m := q.Spans(c)
		for lo, hi := range q.Runs(c) {
			p, v, a, g, m := p[lo:hi], v[lo:hi], a[lo:hi], g[lo:hi], m[lo:hi]
			for i := range p {
				inv := 1 / m[i]
				v[i].X += a[i].X * inv * iterDT
				v[i].Y += a[i].Y * inv * iterDT
				p[i].X += v[i].X * iterDT
				p[i].Y += v[i].Y * iterDT
				g[i]++
			}
		}
	}
}

// wideHand is the loop without a query: whole columns, the runs of each
// chunk's enabled bitmap with NextRun.
func wideHand(k wide) {
	t := k.q.Table()
	p, v, a, g, m := k.pos.All(), k.vel.All(), k.acc.All(), k.age.All(), k.mass.All()
	for c := range t.Chunks() {
		mask, base := t.Enabled(c), c*t.ChunkRows()
		for lo, hi := ephemeral.NextRun(mask, 0); lo < hi; lo, hi = ephemeral.NextRun(mask, hi) {
			for r := base + lo; r < base+hi; r++ {
				inv := 1 / m[r]
				v[r].X += a[r].X * inv * iterDT
				v[r].Y += a[r].Y * inv * iterDT
				p[r].X += v[r].X * iterDT
				p[r].Y += v[r].Y * iterDT
				g[r]++
			}
		}
	}
}

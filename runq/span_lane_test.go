package runq_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// sameValues reports whether a and b hold the same values bit for bit,
// any two NaNs of one type counted as the same value (docs/architecture.md,
// Run-time queries: Parity).
func sameValues(a, b []runq.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		switch x.Kind() {
		case schema.Float32:
			if y.Kind() == x.Kind() && x.Float32() != x.Float32() && y.Float32() != y.Float32() {
				continue
			}
		case schema.Float64:
			if y.Kind() == x.Kind() && x.Float64() != x.Float64() && y.Float64() != y.Float64() {
				continue
			}
		}
		return false
	}
	return true
}

// TestSpanLaneMatchesRowLane prepares generated queries of every shape
// the span lane runs (a where and items of nested arithmetic over every
// column type and the parameters, rows in scan order with and without a
// limit, a sort, a top-N, groups of one and two keys, ungrouped
// aggregates) and checks each result against the same query run row by
// row through its per-row closures (runq.RowLane), values bit for bit.
func TestSpanLaneMatchesRowLane(t *testing.T) {
	a := newArena(t, 11, 480)
	rng := rand.New(rand.NewPCG(5, 8))
	shapes := []func(g *gen, c string) string{
		func(g *gen, c string) string {
			return "where " + c + " select u, " + g.num(2, "int32") + " as A, " + g.num(2, "float32") + " as B, " + g.num(2, "float64") + " as C, " + g.num(2, "int64") + " as D, u.Alive, u.Target"
		},
		func(g *gen, c string) string { return "where " + c + " select u, " + g.num(2, "int32") + " as A limit 9" },
		func(g *gen, c string) string {
			return "where " + c + " select u, " + g.num(2, "float32") + " as K order by K desc, u.Gold"
		},
		func(g *gen, c string) string {
			return "where " + c + " select u, " + g.num(2, "int32") + " as K, u.X order by K, u.X desc limit 7"
		},
		func(g *gen, c string) string {
			return "where " + c + " group by (" + g.num(1, "int32") + ") % 5 select count(), sum(" + g.num(2, "float32") + "), min(" + g.num(1, "float64") + "), max(" + g.num(1, "int64") + "), avg(" + g.num(1, "int32") + ")"
		},
		func(g *gen, c string) string {
			return "where " + c + " group by u.Health % 3, u.X select u.Health % 3 as H, u.X, count(), max(" + g.num(2, "float32") + ") order by count() desc limit 12"
		},
		func(g *gen, c string) string {
			return "where " + c + " select count(), sum(" + g.num(2, "int32") + "), sum(u.X), min(u.X), max(" + g.num(2, "float32") + "), avg(u.Speed), min(u.Gold), max(" + g.num(1, "int64") + ")"
		},
	}
	ran := 0
	for i := range 400 {
		b := make([]byte, 48)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		g := &gen{b: b}
		text := "query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u " + shapes[i%len(shapes)](g, g.cond(2)) + " }"
		spans, err := runq.Prepare(a.cat, text)
		if err != nil {
			continue // a text the checker refuses (a constant overflow, a type, ...)
		}
		rows, err := runq.Prepare(a.cat, text)
		if err != nil {
			t.Fatal(err)
		}
		runq.RowLane(rows)
		for k := range 3 {
			args := []runq.Value{runq.I32(int32(rng.IntN(90)) - 5), runq.F32(float32(k) - 1.5), runq.Ref(a.units[rng.IntN(len(a.units))])}
			got, err := spans.Run(nil, args)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			want, err := rows.Run(nil, args)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if !sameValues(got, want) {
				t.Fatalf("%s\nargs %v\nspan lane %v\nrow lane  %v", text, args, got, want)
			}
		}
		ran++
	}
	if ran < 200 {
		t.Fatalf("only %d of 400 generated queries were accepted", ran)
	}
	t.Logf("%d queries compared", ran)
}

package runq_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

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

// spanShapes make a query body of each shape the span lane runs from a
// generator and a where.
var spanShapes = []func(g *gen, c string) string{
	func(g *gen, c string) string {
		return "where " + c + " select distinct (" + g.num(2, "int32") + ") % 7 as A, u.Alive"
	},
	func(g *gen, c string) string {
		return "where " + c + " select distinct (" + g.num(1, "int32") + ") % 5 as A, u.X order by A desc limit 4"
	},
	func(g *gen, c string) string {
		return "where " + c + " select distinct " + g.num(2, "float32") + " as A limit 6"
	},
	func(g *gen, c string) string {
		return "where " + c + " select u, u.X order by u.X desc, index(u) after (fx, mn) limit 5"
	},
	func(g *gen, c string) string {
		return "where " + c + " select u, u.Health order by u.Health, index(u) after (mn, 100)"
	},
	func(g *gen, c string) string {
		return "where " + c + " select u, " + g.num(2, "int32") + " as A, " + g.num(2, "float32") + " as B, " + g.num(2, "float64") + " as C, " + g.num(2, "int64") + " as D, u.Alive, u.Target"
	},
	func(g *gen, c string) string {
		return "where " + c + " select u, " + g.num(2, "int32") + " as A limit 9"
	},
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

// TestSpanLaneMatchesRowLane prepares generated queries of every shape
// the span lane runs (a where and items of nested arithmetic over every
// column type and the parameters, rows in scan order with and without a
// limit, a sort, a top-N, groups of one and two keys, ungrouped
// aggregates) and checks each result against the same query run row by
// row through its per-row closures (runq.RowLane), values bit for bit.
func TestSpanLaneMatchesRowLane(t *testing.T) {
	a := newArena(t, 11, 480)
	rng := rand.New(rand.NewPCG(5, 8))
	var texts []string
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	operands := []string{"u.Health %s mn", "u.Health %s 40", "u.X %s fx", "u.X %s 1.5", "u.X %s -0.0", "u.Gold %s 500", "u.Speed %s 0.5", "u.Alive == %s"}
	for i, o := range operands { // the selector's conjunctions: spans, then refines, ties included
		for j, op := range ops {
			c := strings.Replace(o, "%s", op, 1)
			if strings.HasPrefix(o, "u.Alive") {
				c = "u.Alive == " + []string{"true", "false"}[j%2]
			}
			d := strings.Replace(operands[(i+j+1)%len(operands)], "%s", ops[(j+i)%len(ops)], 1)
			if strings.HasPrefix(d, "u.Alive") {
				d = "not u.Alive"
			}
			texts = append(texts,
				"query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u where "+c+" select u }",
				"query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u where u.Alive and "+c+" select u }",
				"query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u where "+c+" and "+d+" and u.Alive select u, u.X }",
				"query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u where "+d+" and (u.Alive and "+c+") select u }",
				"query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u where ("+c+" and not u.Alive) and "+d+" select u }")
		}
	}
	ran := 0
	for i := range 600 + len(texts) {
		if i >= 600 {
			ran += compareLanes(t, a, rng, texts[i-600])
			continue
		}
		b := make([]byte, 48)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		g := &gen{b: b}
		ran += compareLanes(t, a, rng, "query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u "+spanShapes[i%len(spanShapes)](g, g.cond(2))+" }")
	}
	if ran < 300+len(texts) {
		t.Fatalf("only %d of %d queries were accepted", ran, 600+len(texts))
	}
	t.Logf("%d queries compared", ran)
}

// compareLanes runs text in both lanes with three sets of arguments and
// fails on a difference; 0 when the checker refuses text, else 1.
func compareLanes(t *testing.T, a *arena, rng *rand.Rand, text string) int {
	t.Helper()
	spans, err := runq.Prepare(a.cat, text)
	if err != nil {
		return 0 // a text the checker refuses (a constant overflow, a type, ...)
	}
	rows, err := runq.Prepare(a.cat, text)
	if err != nil {
		t.Fatal(err)
	}
	runq.RowLane(rows)
	for k := range 3 {
		mn := []int32{40, int32(rng.IntN(90)) - 5, 3}[k]
		args := []runq.Value{runq.I32(mn), runq.F32([]float32{1.5, 3, -2}[k]), runq.Ref(a.units[rng.IntN(len(a.units))])}
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
	return 1
}

// TestSpanLaneKeepsTheRowLaneBudget: with a budget, a query succeeds or
// fails with ErrBudget in the span lane as in the row lane, with the same
// rows (a limit that ends the row lane's scan before the budget ends the
// span lane's too, though a span gathers several runs).
func TestSpanLaneKeepsTheRowLaneBudget(t *testing.T) {
	a := newArena(t, 4, 480)
	for _, text := range []string{
		"query Q() { from Unit u select u limit 3 }",
		"query Q() { from Unit u where u.Alive select u, u.Health limit 40 }",
		"query Q() { from Unit u where u.Health > 20 select u order by u.X limit 5 }",
		"query Q() { from Unit u group by u.Alive select u.Alive, count() }",
	} {
		for _, budget := range []int64{1, 10, 63, 64, 65, 70, 130, 200, 300, 431, 1000} {
			spans, err := runq.Prepare(a.cat, text)
			require.NoError(t, err)
			rows, err := runq.Prepare(a.cat, text)
			require.NoError(t, err)
			runq.RowLane(rows)
			spans.SetBudget(budget)
			rows.SetBudget(budget)
			got, gerr := spans.Run(nil, nil)
			want, werr := rows.Run(nil, nil)
			require.Equal(t, errors.Is(werr, runq.ErrBudget), errors.Is(gerr, runq.ErrBudget), "%s, budget %d: span lane %v, row lane %v", text, budget, gerr, werr)
			require.True(t, sameValues(got, want), "%s, budget %d", text, budget)
		}
	}
}

// FuzzSpanLane is TestSpanLaneMatchesRowLane's comparison of the two lanes
// over queries generated from the input's bytes (its shape, where and
// expressions); its seeds run in every go test.
func FuzzSpanLane(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03", "\x00\x05\x10\x20\x30", "\x06\xff\xfe\xfd\xfc\xfb", "\x04\x03\x07\x02\x05\x01\x09"} {
		f.Add([]byte(s))
	}
	a := newArena(f, 13, 450)
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b: b}
		shape := spanShapes[g.pick(len(spanShapes))]
		text := "query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u " + shape(g, g.cond(3)) + " }"
		compareLanes(t, a, rand.New(rand.NewPCG(uint64(len(b)), 1)), text)
	})
}

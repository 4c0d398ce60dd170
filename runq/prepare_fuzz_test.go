package runq_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// zeroArgs are zero values of q's parameters' kinds.
func zeroArgs(q *runq.Query) []runq.Value {
	var args []runq.Value
	for _, p := range q.Params() {
		switch p.Type.Kind {
		case schema.Int32:
			args = append(args, runq.I32(3))
		case schema.Int64:
			args = append(args, runq.I64(5))
		case schema.Float32:
			args = append(args, runq.F32(0.5))
		case schema.Float64:
			args = append(args, runq.F64(-1))
		case schema.Bool:
			args = append(args, runq.Bool(true))
		default:
			args = append(args, runq.Ref(0))
		}
	}
	return args
}

// FuzzPrepare feeds any text to Prepare and, when it prepares, runs it
// under a budget: never a panic or a hang, an error always an *runq.Error
// positioned in the text, a result of whole rows. Its seeds (the bad
// queries and good ones of every family) run in every go test.
func FuzzPrepare(f *testing.F) {
	for _, c := range badQueries {
		f.Add(c.text)
	}
	for _, s := range []string{
		"query Q(min: int32) { from Unit u where u.Health >= min and u.Alive select u, u.Health, u.X }",
		"query Q(n: int32) { from Unit u select u, u.X order by u.X desc, u.Gold limit n }",
		"query Q() { from Unit u group by u.Health % 4, u.Alive select u.Health % 4 as B, u.Alive, count(), avg(u.X) order by count() desc }",
		"query Q() { from Unit u select count(), sum(u.X), min(u.Speed), max(u.Gold) }",
		"query Q() { from Unit u select distinct u.Health % 3 as H, u.X }",
		"query Q(h: ref Unit) { from Unit u where u == h select u.Target, index(u) as I }",
		"query Q(s: int64) { from Unit u where u.Serial == s and has(u, Hero) select u }",
		"query Q() { from Unit u left join Unit t on u.Target join Hero h on u where t.Health > 3 or missing(t) select u, t.Health, h.Rank, t as T }",
		"query Q(n: int32) { from Unit u where exists(from Unit t where t.Target == u and t.Health > n) select u, u.X }",
		"query Q() { (from Unit u where u.Alive select u, u.X) except (from Unit u where has(u, Hero) select u, u.X) }",
		"query Q() { from Unit u select u, row_number() over (partition by u.Alive order by u.X desc) as N, sum(u.Gold) over (order by u.X) as G order by u.Gold limit 9 }",
		"query Q(f: float64) { from Unit u where float64(u.X) * f + u.Speed > f select u, floor(u.Speed) as F }",
	} {
		f.Add(s)
	}
	a := newArena(f, 4, 200)
	f.Fuzz(func(t *testing.T, text string) {
		q, err := runq.Prepare(a.cat, text)
		if err != nil {
			e, ok := err.(*runq.Error)
			if !ok || e.Pos.File != "query" || e.Pos.Line < 1 {
				t.Fatalf("Prepare(%q): error %T %v, want a *runq.Error in the text", text, err, err)
			}
			return
		}
		q.SetBudget(1000)
		rows, err := q.Run(nil, zeroArgs(q))
		if err != nil {
			t.Fatalf("Run(%q): %v", text, err)
		}
		if w := len(q.Columns()); w == 0 || len(rows)%w != 0 {
			t.Fatalf("Run(%q): %d values for %d columns", text, len(rows), w)
		}
	})
}

// gen builds a random query text from fuzz bytes over Unit's columns: a
// bool expression of comparisons, arithmetic and boolean operators over
// every column type, parameters and constants (NaN-producing ones
// included).
type gen struct {
	b []byte
	i int
}

func (g *gen) pick(n int) int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1]) % n
}

func (g *gen) num(depth int, t string) string {
	leaves := map[string][]string{
		"int32":   {"u.Health", "mn", "3", "-7", "index(u)", "floor(u.X)"},
		"float32": {"u.X", "fx", "0.5", "-0.0", "1e30"},
		"float64": {"u.Speed", "float64(u.X)", "float64(u.Gold)", "2.25"},
		"int64":   {"u.Gold", "u.Serial", "int64(u.Health)", "100"},
	}[t]
	if depth <= 0 || g.pick(3) == 0 {
		return leaves[g.pick(len(leaves))]
	}
	ops := []string{"+", "-", "*", "/"}
	if t == "int32" || t == "int64" {
		if g.pick(4) == 0 {
			return "(" + g.num(depth-1, t) + " % " + []string{"3", "7", "-2"}[g.pick(3)] + ")"
		}
		ops = ops[:3]
	}
	if g.pick(6) == 0 {
		return "-(" + g.num(depth-1, t) + ")"
	}
	return "(" + g.num(depth-1, t) + " " + ops[g.pick(len(ops))] + " " + g.num(depth-1, t) + ")"
}

func (g *gen) cond(depth int) string {
	switch g.pick(6) {
	case 0:
		if depth > 0 {
			return "(" + g.cond(depth-1) + " and " + g.cond(depth-1) + ")"
		}
	case 1:
		if depth > 0 {
			return "(" + g.cond(depth-1) + " or " + g.cond(depth-1) + ")"
		}
	case 2:
		if depth > 0 {
			return "not (" + g.cond(depth-1) + ")"
		}
	case 3:
		return []string{"u.Alive", "has(u, Hero)", "u.Target == h", "u == h", "u.Alive == true"}[g.pick(5)]
	}
	t := []string{"int32", "float32", "float64", "int64"}[g.pick(4)]
	op := []string{"==", "!=", "<", "<=", ">", ">="}[g.pick(6)]
	return g.num(depth, t) + " " + op + " " + g.num(depth, t)
}

// FuzzQueryLaws generates a where over every column type and checks laws
// the interpreter must keep whatever the expression: the rows of `where E`
// and of `where not (E)` partition the table's rows in ascending index,
// count() over E is the number of E's rows, and `order by X limit n` is
// the first n rows of `order by X`.
func FuzzQueryLaws(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03", "\x00\x05\x10\x20\x30", "\xff\xfe\xfd\xfc\xfb\xfa\xf9", strings.Repeat("\x07\x03", 20)} {
		f.Add([]byte(s))
	}
	a := newArena(f, 5, 300)
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b: b}
		e := g.cond(3)
		key := g.num(2, []string{"int32", "float32", "float64", "int64"}[g.pick(4)])
		head := "query Q(mn: int32, fx: float32, h: ref Unit) { from Unit u "
		args := []runq.Value{runq.I32(int32(g.pick(90))), runq.F32(float32(g.pick(9)) - 4), runq.Ref(a.units[g.pick(len(a.units))])}
		run := func(text string) []runq.Value {
			t.Helper()
			q, err := runq.Prepare(a.cat, text)
			if err != nil {
				t.Skip(err) // a text the checker refuses (a constant overflow, ...)
			}
			rows, err := q.Run(nil, args)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			return rows
		}
		yes := run(head + "where " + e + " select u }")
		no := run(head + "where not (" + e + ") select u }")
		all := run(head + "select u }")
		merged := make([]runq.Value, 0, len(all))
		i, j := 0, 0
		for i < len(yes) || j < len(no) {
			if j >= len(no) || i < len(yes) && yes[i].Handle().Index() < no[j].Handle().Index() {
				merged = append(merged, yes[i])
				i++
			} else {
				merged = append(merged, no[j])
				j++
			}
		}
		if fmt.Sprint(merged) != fmt.Sprint(all) {
			t.Fatalf("where %s and its negation do not partition the rows: %d + %d of %d", e, len(yes), len(no), len(all))
		}
		if n := run(head + "where " + e + " select count() }"); n[0].Int64() != int64(len(yes)) {
			t.Fatalf("count() over %s is %d, rows %d", e, n[0].Int64(), len(yes))
		}
		sorted := run(head + "where " + e + " select u, " + key + " as K order by K }")
		top := run(head + "where " + e + " select u, " + key + " as K order by K limit 7 }")
		if want := sorted[:min(len(sorted), 14)]; fmt.Sprint(top) != fmt.Sprint(want) {
			t.Fatalf("order by %s limit 7 is not the sort's first 7\n%v\n%v", key, top, want)
		}
	})
}

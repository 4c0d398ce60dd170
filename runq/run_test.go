package runq_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/runq"
)

// TestRunStopsAtTheBudget: a query over more rows than its budget stops
// with ErrBudget, returns no rows and changes nothing in the world; under
// the budget it runs.
func TestRunStopsAtTheBudget(t *testing.T) {
	a := newArena(t, 2, 300)
	q, err := runq.Prepare(a.cat, "query Q() { from Unit u where u.Health > 10 select u, u.Health }")
	require.NoError(t, err)
	before := a.snapshot()
	q.SetBudget(100)
	rows, err := q.Run(nil, nil)
	require.ErrorIs(t, err, runq.ErrBudget)
	require.Empty(t, rows)
	require.GreaterOrEqual(t, q.Visited(), int64(101))
	require.Equal(t, before, a.snapshot(), "the world is untouched")
	q.SetBudget(int64(a.unit.Len()))
	rows, err = q.Run(rows, nil)
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	require.Equal(t, int64(a.unit.Len()), q.Visited())
}

// snapshot is every unit's values, for checking a query changed nothing.
func (a *arena) snapshot() []any {
	var out []any
	for _, h := range a.units {
		hp, ok := a.health.Get(h)
		x, _ := a.x.Get(h)
		out = append(out, ok, hp, math.Float32bits(x))
	}
	return append(out, a.unit.Len(), a.hero.Len())
}

// TestRunChecksArguments: a wrong count or kind of arguments is ErrArgs.
func TestRunChecksArguments(t *testing.T) {
	a := newArena(t, 1, 20)
	q, err := runq.Prepare(a.cat, "query Q(min: int32, h: ref Unit) { from Unit u where u.Health >= min and u.Target != h select u }")
	require.NoError(t, err)
	_, err = q.Run(nil, []runq.Value{runq.I32(1)})
	require.ErrorIs(t, err, runq.ErrArgs)
	require.EqualError(t, err, "runq: 1 argument for 2 parameters")
	_, err = q.Run(nil, []runq.Value{runq.I64(1), runq.Ref(0)})
	require.EqualError(t, err, "runq: argument 0 (min) is an int64, want int32")
	_, err = q.Run(nil, []runq.Value{runq.I32(1), {}})
	require.EqualError(t, err, "runq: argument 1 (h) is an invalid Value, want ref Unit")
	_, err = q.Run(nil, []runq.Value{runq.F32(1), runq.Ref(0)})
	require.EqualError(t, err, "runq: argument 0 (min) is a float32, want int32")
	one, err := runq.Prepare(a.cat, "query One(min: int32) { from Unit u where u.Health >= min select u }")
	require.NoError(t, err)
	_, err = one.Run(nil, []runq.Value{runq.I32(1), runq.I32(2)})
	require.EqualError(t, err, "runq: 2 arguments for 1 parameter")
	var e *runq.Error
	require.True(t, errors.As(err, &e))
}

// TestRunResults: hand-checked results of the families over a small world:
// order by with NaN last and ties by index, group by floats (-0 and +0 one
// group), aggregates over no rows, a unique key lookup and a point lookup.
func TestRunResults(t *testing.T) {
	a := newArena(t, 1, 0)
	nan := float32(math.NaN())
	xs := []float32{3, nan, 0, 1, float32(math.Copysign(0, -1)), 3, float32(math.Inf(-1))}
	for i, x := range xs {
		h, err := a.unit.Insert()
		require.NoError(t, err)
		a.units = append(a.units, h)
		a.x.Set(h, x)
		a.health.Set(h, int32(i%3))
		a.serial.Set(h, int64(i))
		a.alive.Set(h, i%2 == 0)
	}
	run := func(text string, args ...runq.Value) []runq.Value {
		t.Helper()
		q, err := runq.Prepare(a.cat, text)
		require.NoError(t, err, text)
		rows, err := q.Run(nil, args)
		require.NoError(t, err, text)
		return rows
	}
	idx := func(rows []runq.Value, w int) (out []uint32) {
		for i := 0; i < len(rows); i += w {
			out = append(out, rows[i].Handle().Index())
		}
		return out
	}
	// total order: -Inf, 0s (index order), 1, 3, 3, NaN
	require.Equal(t, []uint32{6, 2, 4, 3, 0, 5, 1}, idx(run("query Q() { from Unit u select u, u.X order by u.X }"), 2))
	require.Equal(t, []uint32{1, 0, 5, 3}, idx(run("query Q(n: int32) { from Unit u select u order by u.X desc limit n }", runq.I32(4)), 1))
	g := run("query Q() { from Unit u group by u.X select u.X, count() }")
	require.Len(t, g, 10) // -Inf, 0, 1, 3, NaN
	require.Equal(t, uint32(0), math.Float32bits(g[2].Float32()), "-0 and +0: one group, +0")
	require.Equal(t, int64(2), g[3].Int64())
	require.True(t, g[8].Float32() != g[8].Float32())
	empty := run("query Q() { from Unit u where u.Health > 100 select count(), min(u.X), avg(u.Speed), sum(u.Gold) }")
	require.Equal(t, []runq.Value{runq.I64(0), runq.F32(0), runq.F64(0), runq.I64(0)}, empty)
	mm := run("query Q() { from Unit u select min(u.X), max(u.X) }")
	require.True(t, math.IsInf(float64(mm[0].Float32()), -1))
	require.True(t, mm[1].Float32() != mm[1].Float32(), "NaN is the max")
	require.Equal(t, []uint32{4}, idx(run("query Q(s: int64) { from Unit u where u.Serial == s select u }", runq.I64(4)), 1))
	require.Equal(t, []runq.Value{runq.I32(0)}, run("query Q(h: ref Unit) { from Unit u where u == h select u.Health }", runq.Ref(a.units[3])))
	require.Empty(t, run("query Q(h: ref Unit) { from Unit u where u == h select u.Health }", runq.Ref(0)))
	// every comparison of a float column with a constant, a parameter and
	// an expression, NaN and the zeros included, as Go compares
	ops := map[string]func(a, b float32) bool{"==": func(a, b float32) bool { return a == b }, "!=": func(a, b float32) bool { return a != b },
		"<": func(a, b float32) bool { return a < b }, "<=": func(a, b float32) bool { return a <= b },
		">": func(a, b float32) bool { return a > b }, ">=": func(a, b float32) bool { return a >= b }}
	for op, f := range ops {
		for _, c := range []float32{0, 3, nan} {
			var want int64
			for _, x := range xs {
				if f(x, c) {
					want++
				}
			}
			got := run("query Q(c: float32) { from Unit u where u.X "+op+" c select count() }", runq.F32(c))
			require.Equal(t, want, got[0].Int64(), "u.X %s %v (parameter)", op, c)
			got = run("query Q(c: float32) { from Unit u where u.X + 0.0 "+op+" c select count() }", runq.F32(c))
			require.Equal(t, want, got[0].Int64(), "u.X + 0.0 %s %v (expression)", op, c)
			if c == c {
				got = run(fmt.Sprintf("query Q() { from Unit u where u.X %s %v select count() }", op, c))
				require.Equal(t, want, got[0].Int64(), "u.X %s %v (constant)", op, c)
			}
		}
	}
}

// TestRunAllocatesNothingOnceWarm: a point lookup and a filter, run again
// with new arguments into the same buffer, allocate nothing.
func TestRunAllocatesNothingOnceWarm(t *testing.T) {
	a := newArena(t, 3, 400)
	for _, text := range []string{
		"query Q(h: ref Unit) { from Unit u where u == h select u.Health, u.X }",
		"query Q(h: ref Unit) { from Unit u where u.Target == h or u.Alive select u, u.Gold * 2 as G }",
		"query Q(h: ref Unit) { from Unit u where u != h group by u.Health % 7 select u.Health % 7 as B, count(), sum(u.X) }",
		"query Q(h: ref Unit) { from Unit u where u != h select u, u.X order by u.X desc, u.Gold limit 10 }",
		"query Q(h: ref Unit) { from Unit u where u != h select distinct u.Health % 5 as B, u.Alive }",
		"query Q(h: ref Unit) { from Unit u left join Unit t on u.Target where t != h select u, t.Health, row_number() over (partition by u.Alive order by u.X desc) as N, sum(u.Speed) over (order by u.Gold) as S order by u.Gold limit 20 }",
		"query Q(h: ref Unit) { from Unit u where u != h select u, u.X order by u.X desc, index(u) after (1.5, 7) limit 5 }",
		"query Q(h: ref Unit) { from Unit u where not exists(from Unit t where t.Target == u and t != h) select u }",
		"query Q(h: ref Unit) { (from Unit u where u.Alive select u.Health % 9 as K) union (from Hero r where r != h select r.Rank as K) }",
		"query Q(h: ref Unit) { from Unit u where u != h and u.Health >= 10 select u, u.X * 2.0 as D order by D, u.Gold desc }",
		"query Q(h: ref Unit) { from Unit u where u != h select count(), sum(u.X), min(u.Gold), max(u.Health * 3) as M, avg(u.Speed) }",
		"query Q(h: ref Unit) { from Unit u where u.Target != h group by u.Alive, u.Health / 10 select u.Alive, u.Health / 10 as D, min(u.X), count() }",
	} {
		q, err := runq.Prepare(a.cat, text)
		require.NoError(t, err)
		args := []runq.Value{runq.Ref(a.units[0])}
		buf, err := q.Run(nil, args)
		require.NoError(t, err)
		i := 0
		allocs := testing.AllocsPerRun(200, func() {
			i++
			args[0] = runq.Ref(a.units[i%len(a.units)])
			buf, _ = q.Run(buf, args)
		})
		require.Zero(t, allocs, text)
	}
}

// TestCountOnlyReadsTheTableLength: count()s alone over a whole table are
// its live row count (deleted rows not counted) without a scan, as the
// generated query's plan; a where keeps the scan.
func TestCountOnlyReadsTheTableLength(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	d := b.Domain(tickwork.DomainSpec{Name: "Actors", Capacity: 64})
	unit := b.Table(tickwork.TableSpec{Name: "Unit", Domain: d})
	health := tickwork.AddColumn[int32](b, unit, "Health")
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	var hs []tickwork.Handle
	for i := range 10 {
		h, err := unit.Insert()
		require.NoError(t, err)
		health.Set(h, int32(i))
		hs = append(hs, h)
	}
	require.True(t, unit.Delete(hs[3]))
	cat, err := runq.NewCatalog("game.tw", "domain Actors(capacity: 64)\ntable Unit(domain: Actors) { Health: int32 }\n")
	require.NoError(t, err)
	require.NoError(t, cat.BindTable("Unit", unit))
	require.NoError(t, runq.BindColumn(cat, "Unit", "Health", health))

	q, err := runq.Prepare(cat, "query N() { from Unit u select count(), count() as Again }")
	require.NoError(t, err)
	require.Equal(t, "count the live rows of Unit (Table.Len)", q.Plan())
	rows, err := q.Run(nil, nil)
	require.NoError(t, err)
	require.Equal(t, []runq.Value{runq.I64(9), runq.I64(9)}, rows)
	require.Zero(t, q.Visited())

	q, err = runq.Prepare(cat, "query M() { from Unit u where u.Health > 4 select count() }")
	require.NoError(t, err)
	require.Equal(t, "scan Unit (ascending index); filter; aggregate", q.Plan())
	rows, err = q.Run(nil, nil)
	require.NoError(t, err)
	require.Equal(t, []runq.Value{runq.I64(5)}, rows)
}

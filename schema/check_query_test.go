package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// TestQueryErrors checks the exact message (position and fix) and kind of
// each error a query declaration can make (docs/schema.md, Queries).
func TestQueryErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"unknown/table", schema.ErrUnknown,
			"query Q() { from Nope u select u }",
			"bad.tw:7:18: unknown table \"Nope\" in from of query Q; the tables are Body, Hit, Shot, Unit"},
		{"unknown/column", schema.ErrUnknown,
			"query Q() { from Unit u select u.Nope }",
			"bad.tw:7:34: unknown column \"Nope\" in u.Nope (u is a row of table Unit); its columns are Health"},
		{"unknown/param", schema.ErrUnknown,
			"query Q() { from Unit u where u.Health > lim select u }",
			"bad.tw:7:42: unknown parameter, constant or row variable \"lim\"; constants are W"},
		{"unknown/variable", schema.ErrUnknown,
			"query Q() { from Unit u select x.Health }",
			"bad.tw:7:32: unknown row variable \"x\"; did you mean \"u\"?"},
		{"type/mismatched comparison", schema.ErrType,
			"query Q(a: float32) { from Unit u where u.Health > a select u }",
			"bad.tw:7:52: mismatched types int32 and float32 in >; convert one, as float32(...)"},
		{"type/where not bool", schema.ErrType,
			"query Q() { from Unit u where u select u }",
			"bad.tw:7:31: the where of query Q must be a bool, not u"},
		{"type/order by a constant", schema.ErrType,
			"query Q() { from Unit u select u order by 3 }",
			"bad.tw:7:43: order by 3 in query Q is a constant, which orders nothing; order by a column, an expression of one or a result name"},
		{"type/neither grouped nor aggregated", schema.ErrType,
			"query Q() { from Unit u group by u.Health select u.Health, u }",
			"bad.tw:7:60: select item u of query Q is neither a group key nor an aggregate; add it to group by, or aggregate it (min(u), max(u), ...)"},
		{"type/rows and aggregates", schema.ErrType,
			"query Q() { from Unit u select u.Health, count() }",
			"bad.tw:7:32: select of query Q mixes rows (Health) and aggregates; group by the row's keys, or aggregate every item"},
		{"type/aggregate in where", schema.ErrType,
			"query Q() { from Unit u where sum(u.Health) > 1 select u }",
			"bad.tw:7:31: aggregate sum() in where of query Q: aggregates are select items or order keys; filter rows in where, groups by their keys"},
		{"type/count in where", schema.ErrType,
			"query Q() { from Unit u where count() > 1 select u }",
			"bad.tw:7:31: aggregate count() in where of query Q: aggregates are select items or order keys; filter rows in where, groups by their keys"},
		{"value/three group keys", schema.ErrValue,
			"query Q() { from Body b group by b.X, b.Y, b.X + b.Y select count() }",
			"bad.tw:7:44: query Q groups by more than 2 keys; group by at most 2 (combine keys in one expression, or split the query)"},
		{"type/nested aggregate", schema.ErrType,
			"query Q() { from Unit u select sum(max(u.Health)) as S }",
			"bad.tw:7:36: nested aggregate max() in query Q: an aggregate's argument is a row's expression; aggregate once"},
		{"type/limit not an int", schema.ErrType,
			"query Q(n: float32) { from Unit u select u limit n }",
			"bad.tw:7:50: limit of query Q must be an int32 or int64 parameter or an integer constant, not parameter n (float32)"},
		{"value/negative limit", schema.ErrValue,
			"query Q() { from Unit u select u limit -1 }",
			"bad.tw:7:40: limit -1 of query Q is outside 0..2147483647"},
		{"duplicate/result names", schema.ErrDuplicate,
			"query Q() { from Unit u select u.Health, u.Health }",
			"bad.tw:7:42: select item u.Health of query Q has the result name Health of the item at bad.tw:7:32; add as NAME to one of them"},
		{"missing/result name", schema.ErrMissing,
			"query Q() { from Unit u select u.Health + 1 }",
			"bad.tw:7:32: select item u.Health + 1 of query Q needs a result name; add as NAME"},
		{"value/result name", schema.ErrValue,
			"query Q() { from Unit u select u.Health as _x }",
			"bad.tw:7:44: result name \"_x\" of query Q must start with a letter (it becomes an exported Go field); rename it"},
		{"type/entity join across domains", schema.ErrType,
			"query Q() { from Unit u join Shot s on u select u }",
			"bad.tw:7:40: join Shot s on u: Shot is a standalone table and u's table Unit is in domain Actors; an entity join finds the same entity's row in another table of its domain; join through a ref column (on u.COLUMN) instead"},
		{"type/entity join on an event", schema.ErrType,
			"query Q() { from Hit h join Body b on h select b }",
			"bad.tw:7:39: join Body b on h: h is an event, which has no entity; join through a ref field (on h.FIELD)"},
		{"type/has outside the domain", schema.ErrType,
			"query Q() { from Unit u where has(u, Shot) select u }",
			"bad.tw:7:38: has(u, Shot): Shot is a standalone table and u's table Unit is in domain Actors; has tests the tables of its variable's domain (Unit, Body)"},
		{"access/writing statement", schema.ErrAccess,
			"query Q() { from Unit u set u.Health = 1 select u }",
			"bad.tw:7:25: query Q has a set statement; a query reads only (no set, match, emit, delete or count): write it in a system, or select the values"},
		{"access/world value", schema.ErrAccess,
			"query Q() { from Unit u where u.Health > @tick select u }",
			"bad.tw:7:42: query Q cannot read @tick: a query reads the tables and its parameters only; pass the value as a parameter"},
		{"duplicate/param and constant", schema.ErrDuplicate,
			"query Q(W: int32) { from Unit u select u }",
			"bad.tw:7:9: parameter \"W\" of query Q has the name of the constant declared at bad.tw:1:7; use another name"},
		{"duplicate/params", schema.ErrDuplicate,
			"query Q(n: int32, n: int32) { from Unit u select u }",
			"bad.tw:7:19: parameter \"n\" of query Q is already declared at bad.tw:7:9; use another name"},
		{"duplicate/query and table", schema.ErrDuplicate,
			"query Unit() { from Unit u select u }",
			"bad.tw:7:7: query \"Unit\" is already declared as a table at bad.tw:3:7; rename one of them"},
		{"value/order of one row", schema.ErrValue,
			"query Q() { from Unit u select count() order by count() }",
			"bad.tw:7:7: query Q aggregates without group by, so it returns exactly one row: order by and limit do nothing; drop them, or group by a key"},
		{"type/aggregate order without groups", schema.ErrType,
			"query Q() { from Unit u select u order by count() }",
			"bad.tw:7:43: order by count() in query Q: an aggregate orders groups, and this query has none; group by a key"},
		{"type/distinct order", schema.ErrType,
			"query Q() { from Unit u select distinct u.Health order by u }",
			"bad.tw:7:59: order by u in query Q with select distinct: order a distinct result by its select items only"},
		{"unknown/count() in a system", schema.ErrUnknown,
			"system S(phase: update) { from Shot s match { count() > 1 => {} } }",
			"bad.tw:7:47: count() is an aggregate of a query's select; a system counts with count NAME"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { requireOneError(t, prelude+c.src, c.kind, c.want) })
	}
}

// TestQueryChecked: a valid query's model: names, types, groups, order
// keys, the probe plan and the access.
func TestQueryChecked(t *testing.T) {
	s, err := schema.Load("ok.tw", []byte(prelude+`query Q(h: ref Unit, n: int32) {
	from Unit u
	join Body b on u
	where u == h and u.Health > 0 and has(u, Body)
	select u, u.Health, b.X
	order by u.Health desc, X
	limit n
}
query G() {
	from Hit e
	group by e.Target
	select e.Target, sum(e.Damage), count(), avg(e.Damage) as Mean
	order by SumDamage desc
}`))
	require.NoError(t, err)
	q := s.Queries[0]
	require.Equal(t, "h", q.Probe.Name, "u == h is planned as a probe")
	require.NotNil(t, q.Where, "the other conjuncts stay")
	var names []string
	for _, it := range q.Select {
		names = append(names, it.Name+":"+it.T.String())
	}
	require.Equal(t, []string{"Unit:ref Unit", "Health:int32", "X:float32"}, names)
	require.Len(t, q.OrderBy, 2)
	require.True(t, q.OrderBy[0].Desc)
	require.Equal(t, 2, q.OrderBy[1].Item, "an order key may name a result")
	require.Equal(t, schema.EntityJoin, q.Joins[0].Kind)
	require.True(t, q.Access.Handle)
	require.Len(t, q.Access.Reads, 2)
	g := s.Queries[1]
	names = nil
	for _, it := range g.Select {
		names = append(names, it.Name+":"+it.T.String())
	}
	require.Equal(t, []string{"Target:ref Unit", "SumDamage:int64", "Count:int64", "Mean:float64"}, names)
	require.Equal(t, 0, g.Select[0].Group)
	require.Equal(t, 1, g.OrderBy[0].Item)
	require.Equal(t, []*schema.EventTable{s.Events[0]}, g.Access.Events)
}

// requireOneError loads src as bad.tw and requires exactly one error: want
// (its whole text) of kind.
func requireOneError(t *testing.T, src string, kind error, want string) {
	t.Helper()
	_, err := schema.Load("bad.tw", []byte(src))
	require.Error(t, err)
	require.Equal(t, want, err.Error())
	require.True(t, errors.Is(err, kind), "kind of %v", err)
	var list schema.ErrorList
	require.True(t, errors.As(err, &list))
	require.Len(t, list, 1, "one error: %v", err)
}

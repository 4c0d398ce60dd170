package schema_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// TestSemiQueryErrors checks the exact message (position and fix) and
// kind of each error an exists subquery or a set operation can make
// (docs/schema.md, Queries: exists, Set operations): every form the
// generator does not compile is refused, none parsed as something else.
func TestSemiQueryErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"type/exists of an expression", schema.ErrType,
			"query Q() { from Unit u where exists(u.Health) select u }",
			"bad.tw:7:31: exists takes a subquery, exists(from TABLE v where v.REF == ROW and ...), not the expression u.Health; write the subquery after exists("},
		{"type/exists()", schema.ErrType,
			"query Q() { from Unit u where exists() select u }",
			"bad.tw:7:31: exists takes a subquery, exists(from TABLE v where v.REF == ROW and ...), not an empty argument list; write the subquery after exists("},
		{"syntax/a subquery in another call", schema.ErrSyntax,
			"query Q() { from Body b where int32(from Shot s where s.Target == b) > 0 select b }",
			"bad.tw:7:31: int32(from Shot s ...): a subquery is the argument of exists only (exists(from Shot s where ...) in a query's where); int32 takes expressions"},
		{"type/not correlated", schema.ErrType,
			"query Q() { from Body b where exists(from Shot s where s.TTL > 0) select b }",
			"bad.tw:7:56: exists(from Shot s where s.TTL > 0) in query Q is not correlated; correlate it with the from row: exists(from Shot s where s.REF == b and ...) (Shot's refs to Body: Target)"},
		{"missing/no where", schema.ErrMissing,
			"query Q() { from Body b where exists(from Shot s) select b }",
			"bad.tw:7:31: exists(from Shot s) in query Q has no where; correlate it with the from row: exists(from Shot s where s.REF == b and ...) (Shot's refs to Body: Target)"},
		{"type/reads the outer row", schema.ErrType,
			"query Q() { from Body b where exists(from Shot s where s.Target == b and b.X > 0) select b }",
			"bad.tw:7:74: exists(from Shot s ...) in query Q reads b: a subquery's conditions read s and the parameters only, besides its correlation s.Target == b; test b in the outer where"},
		{"type/in a select item", schema.ErrType,
			"query Q() { from Body b select b, exists(from Shot s where s.Target == b) as E }",
			"bad.tw:7:35: exists(...) in a select item, order key or limit of query Q: a subquery filters the rows, so it stands in the where only"},
		{"type/in a system", schema.ErrType,
			"system S(phase: update) { from Body b match { exists(from Shot s where s.Target == b) => { set b.X = 0 } } }",
			"bad.tw:7:47: exists(...) in system S: a subquery is a query's (in its where); a system reads other rows through a join (join TABLE v on u.REF)"},
		{"value/in a constant", schema.ErrValue,
			"const K: int32 = exists(from Shot s where s.TTL > 0)",
			"bad.tw:7:18: exists(...) is not constant; a constant expression uses literals and constants only"},
		{"value/nested", schema.ErrValue,
			"query Q() { from Body b where exists(from Shot s where s.Target == b and exists(from Shot t where t.Target == b)) select b }",
			"bad.tw:7:74: nested exists in query Q: a subquery's conditions read its own row and the parameters; test the inner table in a second exists of the outer where"},
		{"type/over an event table", schema.ErrType,
			"query Q() { from Hit e where exists(from Shot s where s.Target == e.Target) select e.Damage }",
			"bad.tw:7:30: exists(...) in query Q over event table Hit: a subquery marks rows of a table, and events are not rows; run the query over a table"},
		{"type/of an event table", schema.ErrType,
			"query Q() { from Unit u where exists(from Hit e where e.Target == u) select u }",
			"bad.tw:7:43: exists(from Hit ...) in query Q: Hit is an event table; a subquery scans a table"},
		{"unknown/table", schema.ErrUnknown,
			"query Q() { from Body b where exists(from Shots s where s.Target == b) select b }",
			"bad.tw:7:43: unknown table \"Shots\" in exists of query Q; did you mean \"Shot\"?"},
		{"duplicate/variable", schema.ErrDuplicate,
			"query Q() { from Body b where exists(from Shot b where b.Target == b) select b }",
			"bad.tw:7:48: row variable \"b\" is already declared at bad.tw:7:23; use another name"},
		{"type/where not bool", schema.ErrType,
			"query Q() { from Body b where exists(from Shot s where s.TTL) select b }",
			"bad.tw:7:56: the where of exists(from Shot s ...) must be a bool, not s.TTL"},
		{"type/set of other types", schema.ErrType,
			"query Q() { (from Unit u select u) union (from Unit v select v.Health) }",
			"bad.tw:7:62: item 1 of the union of query Q is int32 on the right and ref Unit on the left; the sides select the same types, in the same order"},
		{"type/set of other lengths", schema.ErrType,
			"query Q() { (from Unit u select u) union (from Unit v select v, v.Health) }",
			"bad.tw:7:43: the sides of the union of query Q select 1 and 2 items; select the same number of items, of the same types"},
		{"value/side ordered", schema.ErrValue,
			"query Q() { (from Unit u select u) intersect (from Unit v select v order by v.Health) }",
			"bad.tw:7:47: a side of the intersect of query Q has order by; each side of a set operation is a filter and projection (from, joins, where, select): drop it"},
		{"value/side limited", schema.ErrValue,
			"query Q(n: int32) { (from Unit u select u limit n) except (from Unit v select v) }",
			"bad.tw:7:22: a side of the except of query Q has limit; each side of a set operation is a filter and projection (from, joins, where, select): drop it"},
		{"type/side over events", schema.ErrType,
			"query Q() { (from Hit e select e.Target) union (from Unit v select v) }",
			"bad.tw:7:14: a side of the union of query Q runs over event table Hit; each side of a set operation runs over a table (its rows have an index to merge by)"},
		{"unknown/parameter type once", schema.ErrUnknown,
			"query Q(n: nope) { (from Unit u select u) union (from Unit v select v) }",
			"bad.tw:7:12: unknown type \"nope\" in parameter n of query Q; types are int32, int64, float32, float64, bool, ref TABLE and the declared structs"},
		{"syntax/side without brackets", schema.ErrSyntax,
			"query Q() { (from Unit u select u) union from Unit v select v }",
			"bad.tw:7:42: unexpected keyword from; expected \"(\""},
		{"syntax/unknown operation", schema.ErrSyntax,
			"query Q() { (from Unit u select u) minus (from Unit v select v) }",
			"bad.tw:7:36: unexpected name minus; expected \"union\", \"intersect\" or \"except\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { requireOneError(t, prelude+c.src, c.kind, c.want) })
	}
}

// TestSemiQueryChecked: the model of an exists subquery (its table,
// correlation, other conditions and reads) and of a set operation (its
// sides, names and plan choice).
func TestSemiQueryChecked(t *testing.T) {
	s, err := schema.Load("ok.tw", []byte(prelude+`query E(n: int32) {
	from Body b
	where not exists(from Shot s where s.Target == b and s.TTL > n and s.X > 0) and b.X > 0
	select b
}
query F() { (from Unit u where u.Health > 0 select u, u.Health) except (from Unit u where has(u, Body) select u, u.Health) }
query M() { (from Unit u select u.Health as H) union (from Shot s select s.TTL) }`))
	require.NoError(t, err)
	e := s.Queries[0]
	require.Len(t, e.Exists, 1)
	x := e.Exists[0]
	require.Equal(t, "Shot", x.Table.Name)
	require.Equal(t, "Target", x.Via.Name)
	require.Equal(t, e.From, x.Outer)
	require.NotNil(t, x.Where, "s.TTL > n and s.X > 0 stay")
	var cols []string
	for _, k := range x.Uses {
		cols = append(cols, k.Name)
	}
	require.Equal(t, []string{"Target", "X", "TTL"}, cols, "the correlation first, then column order")
	var reads []string
	for _, k := range e.Access.Reads {
		reads = append(reads, k.Table.Name+"."+k.Name)
	}
	require.Equal(t, []string{"Body.X", "Shot.X", "Shot.TTL", "Shot.Target"}, reads, "the subquery's columns are in the manifest")
	f, m := s.Queries[1], s.Queries[2]
	require.Equal(t, schema.Except, f.SetOp.Kind)
	require.True(t, f.SetOp.Fused, "one table, one variable name, the same items")
	require.Nil(t, f.From)
	require.Equal(t, schema.Union, m.SetOp.Kind)
	require.False(t, m.SetOp.Fused)
	require.Equal(t, "H", m.SetOp.Right.Select[0].Name, "the right side takes the left's names")
}

package schema_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// TestWindowErrors checks the exact message (position and fix) and kind of
// each error of a window function, an after clause and a unique attribute
// (docs/schema.md, Queries).
func TestWindowErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"type/window in where", schema.ErrType,
			"query Q() { from Unit u where row_number() over (order by u.Health) > 1 select u }",
			"bad.tw:7:31: window function row_number() in where of query Q: a window function is a whole select item (select ..., row_number() over (partition by KEY order by KEY) as NAME); filter rows in where, order them in order by"},
		{"type/window in an expression", schema.ErrType,
			"query Q() { from Unit u select u, sum(u.Health) over (order by u.Health) + 1 as S }",
			"bad.tw:7:35: window function sum() inside an expression of query Q: a window function is a whole select item (select ..., sum(EXPR) over (partition by KEY order by KEY) as NAME); filter rows in where, order them in order by"},
		{"type/window as order key", schema.ErrType,
			"query Q() { from Unit u select u order by sum(u.Health) over (order by u.Health) }",
			"bad.tw:7:43: window function sum() in an order key of query Q: a window function is a whole select item (select ..., sum(EXPR) over (partition by KEY order by KEY) as NAME); filter rows in where, order them in order by"},
		{"type/window in group by", schema.ErrType,
			"query Q() { from Unit u group by row_number() over () select count() }",
			"bad.tw:7:34: window function row_number() in a group key of query Q: a window function is a whole select item (select ..., row_number() over (partition by KEY order by KEY) as NAME); filter rows in where, order them in order by"},
		{"unknown/window in a system", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.TTL = row_number() over (order by s.X) }",
			"bad.tw:7:51: row_number() over (...) is a window function of a query's select; a system reads its own row only"},
		{"missing/row_number without over", schema.ErrMissing,
			"query Q() { from Unit u select u, row_number() as N }",
			"bad.tw:7:35: row_number() in query Q needs its window: row_number() over (partition by KEY order by KEY) as NAME"},
		{"type/row_number with an argument", schema.ErrType,
			"query Q() { from Unit u select u, row_number(u.Health) over () as N }",
			"bad.tw:7:35: row_number takes no arguments, not 1: row_number() over (...)"},
		{"unknown/min over", schema.ErrUnknown,
			"query Q() { from Unit u select u, min(u.Health) over (order by u.Health) as M }",
			"bad.tw:7:35: min() over (...) in query Q: the window functions are row_number() and sum(EXPR); aggregate whole groups with group by"},
		{"type/partition by a struct", schema.ErrType,
			"struct V { X: float32 }\ntable P(capacity: 8) { At: V }\nquery Q() { from P p select p, row_number() over (partition by p.At) as N }",
			"bad.tw:9:64: p.At is a V struct: name one of its fields (p.At.X), or set it whole with set p.At = ..."},
		{"type/order by a struct in a window", schema.ErrType,
			"struct V { X: float32 }\ntable P(capacity: 8) { At: V }\nquery Q() { from P p select p, row_number() over (order by p.At) as N }",
			"bad.tw:9:60: p.At is a V struct: name one of its fields (p.At.X), or set it whole with set p.At = ..."},
		{"type/partition by a constant", schema.ErrType,
			"query Q() { from Unit u select u, row_number() over (partition by 1) as N }",
			"bad.tw:7:67: partition by 1 in the window of query Q is a constant; partition a column or an expression of one"},
		{"type/sum of a bool", schema.ErrType,
			"query Q() { from Unit u select u, sum(u.Health > 0) over () as S }",
			"bad.tw:7:39: sum needs a number, not u.Health > 0 (bool)"},
		{"type/window and group by", schema.ErrType,
			"query Q() { from Unit u group by u.Health select u.Health, row_number() over () as N }",
			"bad.tw:7:60: query Q mixes a window function with group by or aggregates; a window numbers or sums rows: drop the group by, or split the query"},
		{"type/window and distinct", schema.ErrType,
			"query Q() { from Unit u select distinct u.Health, row_number() over () as N }",
			"bad.tw:7:51: query Q has a window function in a select distinct; drop distinct (a window's values differ row by row)"},
		{"type/order by a window's result", schema.ErrType,
			"query Q() { from Unit u select u, row_number() over (order by u.Health) as N order by N }",
			"bad.tw:7:87: order by N in query Q names a window function's result; order by the window's own keys (a running sum or a row number follows them)"},
		{"missing/window result name", schema.ErrMissing,
			"query Q() { from Unit u select u, row_number() over () }",
			"bad.tw:7:35: select item row_number() over () of query Q needs a result name; add as NAME"},
		{"missing/after without order by", schema.ErrMissing,
			"query Q(h: int32) { from Unit u select u after (h) limit 10 }",
			"bad.tw:7:42: after in query Q needs an order by: keyset pagination keeps the rows after a key of the order (order by o.Day, index(o) after (day, ix) limit n)"},
		{"value/after of the wrong length", schema.ErrValue,
			"query Q(h: int32) { from Unit u select u order by u.Health, index(u) after (h) }",
			"bad.tw:7:70: after in query Q gives 1 value for 2 order keys; give one value per key, in their order"},
		{"type/after of the wrong type", schema.ErrType,
			"query Q(x: float32) { from Unit u select u order by u.Health after (x) }",
			"bad.tw:7:69: after value x of query Q is float32, and order key 1 is int32; give a value of the key's type"},
		{"type/after not a parameter", schema.ErrType,
			"query Q() { from Unit u select u order by u.Health after (u.Health) }",
			"bad.tw:7:59: after value u.Health of query Q must be a parameter or a constant (the last page's key), not u.Health"},
		{"type/after with aggregates", schema.ErrType,
			"query Q(h: int32) { from Unit u group by u.Health select u.Health, count() order by u.Health after (h) }",
			"bad.tw:7:94: after in query Q pages rows; a query with group by, aggregates or window functions cannot take it: filter in where"},
		{"type/unique float", schema.ErrType,
			"table T(capacity: 8) { K: float32 unique }",
			"bad.tw:7:24: column K of table T is float32 and cannot be unique; unique keys are int32, int64 or ref (float equality is not a key: NaN, -0)"},
		{"type/unique bool", schema.ErrType,
			"table T(capacity: 8) { K: bool unique }",
			"bad.tw:7:24: column K of table T is bool and cannot be unique; unique keys are int32, int64 or ref (float equality is not a key: NaN, -0)"},
		{"type/unique struct", schema.ErrType,
			"struct V { X: int32 }\ntable T(capacity: 8) { K: V unique }",
			"bad.tw:8:24: column K of table T is struct V and cannot be unique; mark an int32, int64 or ref column unique (a struct's fields are several columns)"},
		{"type/unique event field", schema.ErrType,
			"event table E(capacity: 8, lifetime: next_frame) { K: int32 unique }",
			"bad.tw:7:52: field K of event table E is unique; unique is an attribute of a table column (an event table has no keys): drop it"},
		{"type/unique struct field", schema.ErrType,
			"struct V { X: int32 unique }",
			"bad.tw:7:12: field X of struct V is unique; unique is an attribute of a table column (a struct's field is one column of several): drop it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { requireOneError(t, prelude+c.src, c.kind, c.want) })
	}
}

// TestWindowChecked: the model of window functions, an after clause and a
// unique key lookup.
func TestWindowChecked(t *testing.T) {
	s, err := schema.Load("ok.tw", []byte(prelude+`table Card(capacity: 8) { Code: int64 unique  Owner: ref Unit  Level: int32 }
query Win() {
	from Unit u
	select u, row_number() over (partition by u.Health % 3 order by u.Health desc, index(u)) as N,
		sum(u.Health) over (order by u.Health) as Run, u.Health
	order by u.Health
}
query P(h: int32, ix: int32, n: int32) {
	from Unit u
	select u
	order by u.Health desc, index(u)
	after (h, ix)
	limit n
}
query L(c: int64) {
	from Card k
	where k.Level > 1 and c == k.Code
	select k, k.Level
}`))
	require.NoError(t, err)
	card := s.Tables[len(s.Tables)-1]
	require.True(t, card.Columns[0].Unique)
	require.False(t, card.Columns[2].Unique)
	w := s.Queries[0]
	require.Len(t, w.Windows, 2)
	require.Equal(t, schema.RowNumber, w.Windows[0].Kind)
	require.Len(t, w.Windows[0].Partition, 1)
	require.Len(t, w.Windows[0].Order, 2)
	require.True(t, w.Windows[0].Order[0].Desc)
	require.Equal(t, schema.RunningSum, w.Windows[1].Kind)
	require.Equal(t, "int64", w.Windows[1].T.String())
	var names []string
	for _, it := range w.Select {
		names = append(names, it.Name+":"+it.T.String())
	}
	require.Equal(t, []string{"Unit:ref Unit", "N:int64", "Run:int64", "Health:int32"}, names)
	require.Same(t, w.Windows[1], w.Select[2].Win)
	require.Equal(t, 2, w.Windows[1].Item)
	p := s.Queries[1]
	require.Len(t, p.After, 2)
	require.Equal(t, "h", p.After[0].(*schema.ParamRef).Param.Name)
	l := s.Queries[2]
	require.NotNil(t, l.Unique, "c == k.Code is planned as a unique key lookup")
	require.Same(t, card.Columns[0], l.Unique.Column)
	require.NotNil(t, l.Unique.Rest, "the other conjunct filters the row")
	require.NotNil(t, l.Where, "the where keeps both")
}

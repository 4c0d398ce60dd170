package schema_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// TestIndexErrors checks the exact message (position and fix) and kind of
// each error an index declaration or a using clause can make
// (docs/schema.md, Indexes).
func TestIndexErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"unknown/table", schema.ErrUnknown,
			"index I on Bdy(X, Y) grid(cell: 8)",
			"bad.tw:7:12: unknown table \"Bdy\" of index I; did you mean \"Body\"?"},
		{"unknown/column", schema.ErrUnknown,
			"index I on Unit(Helth) sorted",
			"bad.tw:7:17: unknown column \"Helth\" of table Unit in index I; did you mean \"Health\"?"},
		{"unknown/kind", schema.ErrUnknown,
			"index I on Unit(Health) btree",
			"bad.tw:7:25: unknown kind \"btree\" of index I; the kinds are hash, unique, sorted, grid"},
		{"type/float hash key", schema.ErrType,
			"index I on Body(X) hash",
			"bad.tw:7:17: index I is a hash index on Body.X, a float32 column: floats have no exact equality key (-0 == +0, NaN != NaN); make it sorted (one column), or a grid over two float32 columns"},
		{"type/float unique key", schema.ErrType,
			"index I on Shot(TTL, X) unique",
			"bad.tw:7:22: index I is a unique index on Shot.X, a float32 column: floats have no exact equality key (-0 == +0, NaN != NaN); make it sorted (one column), or a grid over two float32 columns"},
		{"type/ref sorted key", schema.ErrType,
			"index I on Shot(Target) sorted",
			"bad.tw:7:17: index I is a sorted index on Shot.Target, a ref Body column; a sorted index orders numbers (integers, floats): make it hash for equality"},
		{"type/bool sorted key", schema.ErrType,
			"table F(capacity: 8) { On: bool }\nindex I on F(On) sorted",
			"bad.tw:8:14: index I is a sorted index on F.On, a bool column; a sorted index orders numbers (integers, floats): make it hash for equality"},
		{"value/sorted on two columns", schema.ErrValue,
			"index I on Shot(X, TTL) sorted",
			"bad.tw:7:20: index I is a sorted index on 2 columns; a sorted index has one key column (for equality on several, make it hash)"},
		{"type/grid on one column", schema.ErrType,
			"index I on Body(X) grid(cell: 8)",
			"bad.tw:7:17: index I is a grid on (X float32); a grid is on exactly two float32 columns of one table, X then Y: on Body(X, Y) grid(cell: SIZE)"},
		{"type/grid on an int column", schema.ErrType,
			"index I on Shot(X, TTL) grid(cell: 8)",
			"bad.tw:7:17: index I is a grid on (X float32, TTL int32); a grid is on exactly two float32 columns of one table, X then Y: on Shot(X, Y) grid(cell: SIZE)"},
		{"missing/grid cell", schema.ErrMissing,
			"index I on Body(X, Y) grid",
			"bad.tw:7:23: index I is a grid without a cell size; add (cell: SIZE), the side of a square cell in world units, about the size of the boxes queried"},
		{"value/grid cell 0", schema.ErrValue,
			"index I on Body(X, Y) grid(cell: 0)",
			"bad.tw:7:34: option cell of index I is 0; a cell size is a positive finite number of world units (as a float32)"},
		{"value/grid cell negative", schema.ErrValue,
			"index I on Body(X, Y) grid(cell: -2.5)",
			"bad.tw:7:34: option cell of index I is -2.5; a cell size is a positive finite number of world units (as a float32)"},
		{"value/grid cell subnormal", schema.ErrValue,
			"index I on Body(X, Y) grid(cell: 1e-40)",
			"bad.tw:7:34: option cell of index I is 1e-40; a cell size is at least 2^-31 world units (index.MinCell): a grid has int32 cells a side, so a smaller cell's grid would not reach one world unit"},
		{"value/grid cell below 2^-31", schema.ErrValue,
			"index I on Body(X, Y) grid(cell: 0.0000000001)",
			"bad.tw:7:34: option cell of index I is 1e-10; a cell size is at least 2^-31 world units (index.MinCell): a grid has int32 cells a side, so a smaller cell's grid would not reach one world unit"},
		{"value/grid cell infinite", schema.ErrValue,
			"index I on Body(X, Y) grid(cell: 1e39)",
			"bad.tw:7:34: option cell of index I is 1e+39; a cell size is a positive finite number of world units (as a float32)"},
		{"unknown/option of a sorted index", schema.ErrUnknown,
			"index I on Unit(Health) sorted(cell: 4)",
			"bad.tw:7:32: index I is a sorted index, which takes no options (only a grid takes cell); drop the parentheses"},
		{"duplicate/two indexes of one name", schema.ErrDuplicate,
			"index I on Unit(Health) sorted\nindex I on Body(X, Y) grid(cell: 8)",
			"bad.tw:8:7: index \"I\" is already declared as an index at bad.tw:7:7; rename one of them"},
		{"duplicate/index named as a table", schema.ErrDuplicate,
			"index Body on Unit(Health) sorted",
			"bad.tw:7:7: index \"Body\" is already declared as a table at bad.tw:4:7; rename one of them"},
		{"duplicate/column twice", schema.ErrDuplicate,
			"index I on Shot(TTL, TTL) hash",
			"bad.tw:7:22: index I names column TTL twice; name each key column once"},
		{"type/sorted event index", schema.ErrType,
			"index I on Hit(Damage) sorted",
			"bad.tw:7:24: index I is a sorted index on event table Hit; an event table's index is hash (equality and group by of its fields)"},
		{"unknown/using an unknown index", schema.ErrUnknown,
			"index ByHealth on Unit(Health) sorted\nquery Q() { from Unit u using index ByHelth select u }",
			"bad.tw:8:37: unknown index \"ByHelth\" in using of query Q; did you mean \"ByHealth\"?"},
		{"type/using a table", schema.ErrType,
			"query Q() { from Unit u using index Body select u }",
			"bad.tw:7:37: using index Body in query Q: Body is a table, not an index"},
		{"value/using an index of another table", schema.ErrValue,
			"index ByHealth on Unit(Health) sorted\nquery Q() { from Body b using index ByHealth select b }",
			"bad.tw:8:37: using index ByHealth in query Q: the index is on table Unit, and the query is from table Body; use an index on table Body (it has none: declare one), or using scan"},
		{"value/using an index that cannot serve", schema.ErrValue,
			"index ByHealth on Unit(Health) sorted\nquery Q() { from Unit u using index ByHealth where u.Health != 2 select u }",
			"bad.tw:8:37: using index ByHealth in query Q: it serves neither the order (no order by) nor a range (the where has no range conjunct on u.Health); ByHealth serves order by u.Health [desc][, index(u)] (no group by, aggregate, distinct or window), or a where with a range conjunct on u.Health (>=, >, <=, <, == a parameter or a constant)"},
		{"value/using a grid without a box", schema.ErrValue,
			"index Pos on Body(X, Y) grid(cell: 8)\nquery Q(x: float32) { from Body b using index Pos where b.X >= x select b }",
			"bad.tw:8:47: using index Pos in query Q: its where bounds neither a box of b.X and b.Y on all four sides nor a disc; Pos serves a where with the box b.X >= x0 and b.X <= x1 and b.Y >= y0 and b.Y <= y1, or the disc (b.X - x)*(b.X - x) + (b.Y - y)*(b.Y - y) <= r2 (parameters or constants)"},
		{"value/using a hash without its key", schema.ErrValue,
			"index ByTarget on Hit(Target) hash\nquery Q() { from Hit h using index ByTarget where h.Damage > 1 select h.Damage }",
			"bad.tw:8:36: using index ByTarget in query Q: its where has no conjunct h.Target == x (x a parameter or a constant); ByTarget serves a where with the conjuncts h.Target == x (x a parameter or a constant), or a group by h.Target"},
		{"value/using a sorted index for a descending page", schema.ErrValue,
			"index ByHealth on Unit(Health) sorted\nquery Q(h: int32, i: int32) { from Unit u using index ByHealth select u order by u.Health desc, index(u) after (h, i) limit 3 }",
			"bad.tw:8:55: using index ByHealth in query Q: it serves neither the order (a descending keyset page) nor a range (the where has no range conjunct on u.Health); ByHealth serves order by u.Health [desc][, index(u)] (no group by, aggregate, distinct or window), or a where with a range conjunct on u.Health (>=, >, <=, <, == a parameter or a constant)"},
		{"value/using index in a set side", schema.ErrValue,
			"index ByHealth on Unit(Health) sorted\nquery Q() { (from Unit u using index ByHealth where u.Health > 1 select u) union (from Unit u select u) }",
			"bad.tw:8:38: using index ByHealth in a side of set operation Q: each side is a scan; drop the using clause"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { requireOneError(t, prelude+c.src, c.kind, c.want) })
	}
}

// TestIndexPlans: the planner's choice for each rule (docs/schema.md,
// Indexes), the forcing clauses, and the model of the declarations.
func TestIndexPlans(t *testing.T) {
	s, err := schema.Load("ok.tw", []byte(prelude+`table Acct(capacity: 64) { Id: int64  Region: int32  Kind: int32  Bal: float64 }
index ById on Acct(Id) unique
index ByRegionKind on Acct(Kind, Region) hash
index ByBal on Acct(Bal) sorted
index ByHealth on Unit(Health) sorted
index Pos on Body(X, Y) grid(cell: 64)
index ByTarget on Hit(Target) hash
query Find(id: int64) { from Acct a where a.Bal > 0 and a.Id == id select a }
query Equal(r: int32) { from Acct a where a.Region == r and 3 == a.Kind select a }
query Ordered(n: int32) { from Unit u select u, u.Health order by u.Health desc, index(u) limit n }
query Range(lo: float64) { from Acct a where a.Bal >= lo and a.Bal < 10 select a }
query Box(x0: float32, x1: float32) { from Body b where b.Y <= 5 and x0 <= b.X and b.X < x1 and b.Y > -5 select b }
query Disc(x: float32, y: float32) { from Body b where (b.Y - y) * (b.Y - y) + (b.X - x) * (b.X - x) <= 9 select b }
query Groups() { from Hit h group by h.Target select h.Target, count() }
query Scan() { from Unit u where u.Health != 3 select u }
query Forced() { from Unit u using scan select u order by u.Health }
query ForcedIx(id: int64) { from Acct a using index ByBal where a.Id == id and a.Bal <= 2 select a }
`))
	require.NoError(t, err)
	require.Len(t, s.Indexes, 6)
	require.Equal(t, schema.GridIndex, s.Indexes[4].Kind)
	require.Equal(t, float32(64), s.Indexes[4].Cell)
	require.Equal(t, "Kind", s.Indexes[1].Columns[0].Name)
	require.NotNil(t, s.Indexes[5].Event)
	want := map[string]string{"Find": "ById find", "Equal": "ByRegionKind equal", "Ordered": "ByHealth ordered",
		"Range": "ByBal range", "Box": "Pos box", "Disc": "Pos disc", "Groups": "ByTarget groups", "Scan": "", "Forced": "",
		"ForcedIx": "ByBal range"}
	for _, q := range s.Queries {
		got := ""
		if q.Index != nil {
			got = q.Index.Index.Name + " " + q.Index.Walk.String()
		}
		require.Equal(t, want[q.Name], got, q.Name)
	}
	eq := s.Queries[1].Index
	require.Len(t, eq.Keys, 2)
	_, isLit := eq.Keys[0].(*schema.Lit)
	require.True(t, isLit, "keys in the index's column order: Kind first")
	require.True(t, s.Queries[2].Index.Desc)
	require.True(t, s.Queries[8].Scan)
	require.Nil(t, s.Queries[0].Unique, "a unique index's find, not the unique column scan")
}

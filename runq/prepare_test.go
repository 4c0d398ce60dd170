package runq_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// badQueries are query texts Prepare refuses, each with its exact message
// (position in the text, file "query") and its sentinel.
var badQueries = []struct {
	text, msg string
	kind      error
}{
	{"",
		"query:1:1: want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found nothing", runq.ErrQuery},
	{"   ",
		"query:1:1: want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found nothing", runq.ErrQuery},
	{"\x00\x01\x02",
		"query:1:1: unexpected character '\\x00'; names are ASCII letters, digits and _, comments start with //", schema.ErrSyntax},
	{"\xff\xfe",
		"query:1:1: invalid UTF-8; save the schema as UTF-8", schema.ErrSyntax},
	{"query",
		"query:1:6: unexpected end of file; expected a name", schema.ErrSyntax},
	{"query Q(",
		"query:1:9: unexpected end of file; expected \")\"", schema.ErrSyntax},
	{"query Q() {",
		"query:1:12: unexpected end of file; expected SynQueryBody or SynSetQuery", schema.ErrSyntax},
	{"query Q() { from Unit u }",
		"query:1:25: unexpected \"}\"; expected \"select\"", schema.ErrSyntax},
	{"query Q() { from Unit u select u.Nope }",
		"query:1:34: unknown column \"Nope\" in u.Nope (u is a row of table Unit); its columns are Health, Gold, X, Speed, Alive, Target, Serial", schema.ErrUnknown},
	{"query Q() { from Nope u select u }",
		"query:1:18: unknown table \"Nope\" in from of query Q; the tables are Hero, Hit, Loot, Unit", schema.ErrUnknown},
	{"query Q() { from Unit u select v.Health }",
		"query:1:32: unknown row variable \"v\"; did you mean \"u\"?", schema.ErrUnknown},
	{"query Q() { from Unit u where u.Health select u }",
		"query:1:31: the where of query Q must be a bool, not u.Health", schema.ErrType},
	{"query Q() { from Unit u where u.X + 1 select u }",
		"query:1:31: the where of query Q must be a bool, not u.X + 1.0", schema.ErrType},
	{"query Q() { from Unit u where u.Health == 1.5 select u }",
		"query:1:43: constant 1.5 is not an integer; it cannot be int32", schema.ErrType},
	{"query Q() { from Unit u select u.Health / 0 as H }",
		"query:1:41: division by zero", schema.ErrValue},
	{"query Q() { from Unit u select u.Health % u.Health as H }",
		"query:1:41: integer % needs a constant divisor: a zero divisor at run time would panic the kernel", schema.ErrValue},
	{"query Q() { from Unit u select u.Health + 99999999999999999999999 as H }",
		"query:1:43: constant 99999999999999999999999 overflows int32", schema.ErrValue},
	{"query Q() { from Unit u where u.Health > 1e99999 select u }",
		"query:1:42: constant 1e+99999 is not an integer; it cannot be int32", schema.ErrType},
	{"query Q() { from Unit u set u.Health = 1 select u }",
		"query:1:25: query Q has a set statement; a query reads only (no set, match, emit, delete or count): write it in a system, or select the values", schema.ErrAccess},
	{"query Q() { from Unit u select u } query R() { from Unit u select u }",
		"query:1:36: want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found a query, a query", runq.ErrQuery},
	{"system S(phase: update) { from Unit u set u.Health = 0 }",
		"query:1:1: want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found a system (a run-time query only reads)", runq.ErrQuery},
	{"table T { A: int32 }",
		"query:1:1: want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found a table or domain (the catalog's schema is fixed)", runq.ErrQuery},
	{"query Unit() { from Unit u select u }",
		"query:1:7: query \"Unit\" is already declared as a table at arena.tw:6:7; rename one of them", schema.ErrDuplicate},
	{"query Q(n: int32, n: int32) { from Unit u select u limit n }",
		"query:1:19: parameter \"n\" of query Q is already declared at query:1:9; use another name", schema.ErrDuplicate},
	{"query Q(n: float32) { from Unit u select u limit n }",
		"query:1:50: limit of query Q must be an int32 or int64 parameter or an integer constant, not parameter n (float32)", schema.ErrType},
	{"query Q() { from Unit u select u limit -1 }",
		"query:1:40: limit -1 of query Q is outside 0..2147483647", schema.ErrValue},
	{"query Q() { from Unit u select u order by 1 }",
		"query:1:43: order by 1 in query Q is a constant, which orders nothing; order by a column, an expression of one or a result name", schema.ErrType},
	{"query Q() { from Unit u select count(), u.Health }",
		"query:1:41: select of query Q mixes rows (Health) and aggregates; group by the row's keys, or aggregate every item", schema.ErrType},
	{"query Q() { from Unit u group by u.Health select u.Gold }",
		"query:1:50: select item u.Gold of query Q is neither a group key nor an aggregate; add it to group by, or aggregate it (min(u.Gold), max(u.Gold), ...)", schema.ErrType},
	{"query Q() { from Unit u where count() > 1 select u }",
		"query:1:31: aggregate count() in where of query Q: aggregates are select items or order keys; filter rows in where, groups by their keys", schema.ErrType},
	{"query Q() { from Unit u select u.Health, u.Health }",
		"query:1:42: select item u.Health of query Q has the result name Health of the item at query:1:32; add as NAME to one of them", schema.ErrDuplicate},
	{"query Q() { from Unit u select u.Health + 1 }",
		"query:1:32: select item u.Health + 1 of query Q needs a result name; add as NAME", schema.ErrMissing},
	{"query Q() { from Unit u select @tick as T }",
		"query:1:32: query Q cannot read @tick: a query reads the tables and its parameters only; pass the value as a parameter", schema.ErrAccess},
	{"query Q() { from Unit u select u after (1) }",
		"query:1:34: after in query Q needs an order by: keyset pagination keeps the rows after a key of the order (order by o.Day, index(o) after (day, ix) limit n)", schema.ErrMissing},
	{"query Q() { from Unit u where has(u, Loot) select u }",
		"query:1:38: has(u, Loot): Loot is a standalone table and u's table Unit is in domain Actors; has tests the tables of its variable's domain (Unit, Hero)", schema.ErrType},
	{"query Q() { from Unit u select sum(u.Alive) }",
		"query:1:36: sum needs a number, not u.Alive (bool)", schema.ErrType},
	{"query Q() { from Unit u select u order by u.Target + 1 }",
		"query:1:52: + needs numbers, not u.Target", schema.ErrType},
	{"query Q() { from Unit u join Hero h on u where has(h, Hero) select u }",
		"query:1:48: has of a joined row is not run by the interpreter yet; declare the query in the .tw file", runq.ErrUnsupported},
	{"query Q() { from Hit e select e.Damage }",
		"query:1:22: a query over an event table is not run by the interpreter yet; declare the query in the .tw file", runq.ErrUnsupported},
	{"query Q(x: int32) { from Unit u select distinct u.Health as H order by H after (x) }",
		"query:1:81: keyset pagination (after) with distinct is not run by the interpreter yet; declare the query in the .tw file", runq.ErrUnsupported},
	{"query Q() { from Unit u where exists(from Loot l where l.Owner == u) select u }",
		"query:1:31: table Loot is not bound in the catalog; bind it (BindTable, BindColumn) before Prepare", runq.ErrCatalog},
	{"query Q() { (from Unit u select u) union (from Loot l select l.Owner) }",
		"query:1:53: table Loot is not bound in the catalog; bind it (BindTable, BindColumn) before Prepare", runq.ErrCatalog},
	{"query Q() { from Loot l select l.Value }",
		"query:1:23: table Loot is not bound in the catalog; bind it (BindTable, BindColumn) before Prepare", runq.ErrCatalog},
}

// TestPrepareRefusesBadQueries: every bad text gives its exact message at
// its position and matches ErrQuery (or ErrUnsupported, ErrCatalog) and
// its sentinel with errors.Is; none panics.
func TestPrepareRefusesBadQueries(t *testing.T) {
	a := newArena(t, 1, 10)
	require.GreaterOrEqual(t, len(badQueries), 30)
	for _, c := range badQueries {
		q, err := runq.Prepare(a.cat, c.text)
		require.Nil(t, q, c.text)
		require.EqualError(t, err, c.msg, c.text)
		require.ErrorIs(t, err, c.kind, c.text)
		var e *runq.Error
		require.True(t, errors.As(err, &e), c.text)
		require.Equal(t, "query", e.Pos.File)
		require.True(t, errors.Is(err, runq.ErrQuery) || errors.Is(err, runq.ErrUnsupported) || errors.Is(err, runq.ErrCatalog), c.text)
	}
}

// TestPrepareRefusesHostileSizes: deep nesting, long operator chains and
// an oversized text are refused with their limits' messages.
func TestPrepareRefusesHostileSizes(t *testing.T) {
	a := newArena(t, 1, 10)
	cases := []struct{ text, msg string }{
		{"query Q() { from Unit u where " + strings.Repeat("(", 500) + "true" + strings.Repeat(")", 500) + " select u }",
			"query:1:94: nesting deeper than 64 brackets or prefix operators; simplify the expression"},
		{"query Q() { from Unit u where " + strings.Repeat("not ", 300) + "true select u }",
			"query:1:287: nesting deeper than 64 brackets or prefix operators; simplify the expression"},
		{"query Q() { from Unit u select u.Health as H" + strings.Repeat(" + 1", 2000) + " }",
			"query:1:46: expression with more than 1024 operators; split the expression (into several select items, or a part kept in a column) or simplify it"},
		{"query Q() { from Unit u select u /* " + strings.Repeat("x", 9000) + " */ }",
			"query:1:1: query text is 9041 bytes, more than the limit of 8192; shorten it"},
	}
	for _, c := range cases {
		_, err := runq.Prepare(a.cat, c.text)
		require.EqualError(t, err, c.msg)
		require.ErrorIs(t, err, runq.ErrQuery)
	}
	_, err := runq.Prepare(a.cat, "query Q() { from Unit u select u.Health + 99999999999999999999999 as H }")
	require.ErrorIs(t, err, schema.ErrValue)
}

// TestPrepareRefusesANilCatalog: a nil catalog is ErrCatalog, not a
// panic.
func TestPrepareRefusesANilCatalog(t *testing.T) {
	q, err := runq.Prepare(nil, "query F() { from Unit u select u }")
	require.Nil(t, q)
	require.ErrorIs(t, err, runq.ErrCatalog)
	require.EqualError(t, err, "runq: the catalog is nil; make one with NewCatalogOf (or NewCatalog and BindColumn) and pass it")
	var e *runq.Error
	require.ErrorAs(t, err, &e)
}

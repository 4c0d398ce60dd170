package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// FuzzParse: Load never panics; it either returns a schema or an
// ErrorList of positioned errors (printing at most MaxErrors, then how many more), each inside the text; and
// whatever parses, Format prints as text that parses to a tree Format
// prints the same (the trivially correct model: the printer and the
// parser agree), and that checks to the same kinds of errors. The seed
// corpus is testdata/fuzz/FuzzParse (run by go test), plus the arena.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{prelude, prelude + "system S(phase: update) { from Shot s set s.X = 1 + }", "",
		prelude + "query Q(n: int32, h: ref Unit) { from Unit u left join Body b on u where u == h or has(u, Body) and not missing(b) select distinct u, u.Health as HP, b.X order by HP desc, X limit n }",
		prelude + "query G() { from Hit e join Unit u on e.Target group by e.Target, u.Health % 2 select e.Target, u.Health % 2 as Odd, count(), sum(e.Damage), min(e.Damage), max(e.Damage), avg(e.Damage) order by count() desc }",
		prelude + "query B() { from Shot s where sum(s.X) > 1 select s set s.X = 1 }",
		prelude + "query C() { from Unit u select count() limit }",
		prelude + "query R(n: int32) { from Unit u where u.Health > 0 select u, row_number() over (partition by u.Health % 3 order by u.Health desc, index(u)) as N, sum(u.Health) over (order by u.Health) as Run order by u.Health limit n }",
		prelude + "query P(h: int32, ix: int32, n: int32) { from Unit u select u, u.Health order by u.Health desc, index(u) after (h, ix) limit n }",
		prelude + "table K(capacity: 8) { Code: int64 unique, Who: ref Unit unique  W: float32 unique }\nquery L(c: int64) { from K k where k.Code == c select k }",
		prelude + "table U(capacity: 8) { A: int32, unique: int32 unique, B: int32 }",
		prelude + "query X() { from Unit u where row_number() over () > 1 select u after (1) }",
		prelude + "index ByHealth on Unit(Health) sorted\nindex Pos on Body(X, Y) grid(cell: 64)\nindex ByTarget on Hit(Target) hash\nquery W(n: int32) { from Unit u using index ByHealth select u order by u.Health limit n }\nquery S() { from Body b using scan where b.X > 0 select b }",
		prelude + "index I on Body(X) grid(cell: -1)\nindex J on Shot(X, TTL) sorted(cell: 2)\nquery Q() { from Unit u using index Pos select u }",
		prelude + "resource M { On: bool = true  N: [4]int32 }\nsystem S(phase: fixed_update, when: M.On and @tick % 3 != 1 or M.N[@tick] > 0 and @dt > W) { from Shot s set s.X = 1 }\nsystem T(phase: update, when: s.X > 0) { from Shot s }",
		prelude + "lifecycle L of Unit(capacity: 4, on: [deleted, created]) { Health }\nlifecycle M of Body(capacity: 2) { }\nlifecycle N of Shot(capacity: 2) { X, TTL Target }"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := schema.Load("f.tw", src)
		kinds := checkErrors(t, src, err)
		require.Equal(t, err == nil, s != nil)

		tree, perr := schema.Parse("f.tw", src)
		if perr != nil {
			return
		}
		out := schema.Format(tree)
		tree2, err2 := schema.Parse("g.tw", out)
		require.NoError(t, err2, "Format printed text that does not parse:\n%s", out)
		require.Equal(t, string(out), string(schema.Format(tree2)), "Format is not stable")
		_, cerr := schema.Check("g.tw", tree2)
		require.Equal(t, kinds, checkErrors(t, out, cerr), "the formatted schema checks differently:\n%s", out)
	})
}

// checkErrors checks the shape of Load's error and returns its kinds.
func checkErrors(t *testing.T, src []byte, err error) []schema.Kind {
	t.Helper()
	if err == nil {
		return nil
	}
	var list schema.ErrorList
	require.True(t, errors.As(err, &list), "not an ErrorList: %v", err)
	require.NotEmpty(t, list)
	text := list.Error()
	printed := min(len(list), schema.MaxErrors)
	if more := len(list) - printed; more > 0 {
		require.Equal(t, printed+1, strings.Count(text, "\n")+1)
		require.True(t, strings.HasSuffix(text, fmt.Sprintf("\n... and %d more error", more)) ||
			strings.HasSuffix(text, fmt.Sprintf("\n... and %d more errors", more)), text)
	} else {
		require.Equal(t, printed, strings.Count(text, "\n")+1)
	}
	lines := bytes.Count(src, []byte("\n")) + 1
	var kinds []schema.Kind
	for _, e := range list {
		require.NotEmpty(t, e.Msg)
		require.NotContains(t, e.Msg, "\n")
		require.GreaterOrEqual(t, e.Pos.Line, 0)
		require.LessOrEqual(t, e.Pos.Line, lines, "%v", e)
		if e.Pos.Line > 0 {
			require.GreaterOrEqual(t, e.Pos.Col, 1, "%v", e)
			require.True(t, strings.HasPrefix(e.Error(), e.Pos.File+":"))
		}
		require.ErrorIs(t, e, e.Unwrap())
		require.NotNil(t, e.Unwrap(), "kind %d has no sentinel", e.Kind)
		kinds = append(kinds, e.Kind)
	}
	return kinds
}

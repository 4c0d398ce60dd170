package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// TestChangeFilters checks what a system's change filters (`from T x
// where changed(x.C) or added(x)`) give the model: the columns and the
// added flag, and a read of each filtered column.
func TestChangeFilters(t *testing.T) {
	s, err := schema.Load("ok.tw", []byte(prelude+
		"system S(phase: update) { from Body b where changed(b.X) or added(b) set b.Y = 1 }"))
	require.NoError(t, err)
	sys := s.Systems[0]
	require.Len(t, sys.Changed, 1)
	assert.Equal(t, "X", sys.Changed[0].Name)
	assert.True(t, sys.Added)
	require.Len(t, sys.Access.Reads, 1, "changed(b.X) reads Body.X")
	assert.Equal(t, "X", sys.Access.Reads[0].Name)
}

// TestChangeFilterErrors checks the exact message (position and fix) and
// kind of each error a change filter can make.
func TestChangeFilterErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"unknown column", schema.ErrUnknown,
			"system S(phase: update) { from Body b where changed(b.Z) set b.X = 1 }",
			"bad.tw:7:55: unknown column \"Z\" in changed(b.Z) (b is a row of table Body); did you mean \"X\"?"},
		{"not the from row", schema.ErrUnknown,
			"system S(phase: update) { from Shot s where changed(b.X) set s.X = 1 }",
			"bad.tw:7:53: changed(b.X) in system S: b is not the from row; a change filter names the from row s"},
		{"event table", schema.ErrType,
			"system S(phase: update) { from Hit h where added(h) }",
			"bad.tw:7:44: added(h) in system S: the system runs over event table Hit; change filters need a table's rows (from TABLE x where changed(x.C))"},
		{"added of a column", schema.ErrType,
			"system S(phase: update) { from Body b where added(b.X) set b.X = 1 }",
			"bad.tw:7:53: added(b.X) in system S: added takes the row, not a column: added(b)"},
		{"changed of a row", schema.ErrType,
			"system S(phase: update) { from Body b where changed(b) set b.X = 1 }",
			"bad.tw:7:45: changed(b) in system S: changed takes a column: changed(b.COLUMN)"},
		{"twice", schema.ErrDuplicate,
			"system S(phase: update) { from Body b where changed(b.X) or changed(b.X) set b.X = 1 }",
			"bad.tw:7:61: changed(b.X) is named twice in system S"},
		{"and between filters", schema.ErrSyntax,
			"system S(phase: update) { from Body b where changed(b.X) and changed(b.Y) set b.Y = 1 }",
			"bad.tw:7:58: unexpected keyword and; expected \"}\"; change filters are joined only by or: a filter selects the chunks " +
				"changed since the system's last run, and two columns changed in one chunk need not have changed in one row, " +
				"so and could not be kept; write where changed(x.A) or changed(x.B) (docs/architecture.md, Change detection)"},
		{"syntax", schema.ErrSyntax,
			"system S(phase: update) { from Body b where moved(b) set b.X = 1 }",
			"bad.tw:7:45: unexpected name moved; expected changed(VAR.COLUMN) or added(VAR)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.Load("bad.tw", []byte(prelude+tc.src))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, tc.kind)
		})
	}
}

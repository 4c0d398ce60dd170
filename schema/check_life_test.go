package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// lifePrelude declares what the lifecycle declarations of the tests name;
// their own text starts on line 4.
const lifePrelude = "table Unit(capacity: 10) { Health: int32  X: float32 }\nstruct V { A: int32 }\ntable S(capacity: 4) { P: V }\n"

// A lifecycle event table names its table, its capacity, the changes it
// records (all four by default, in their order) and the columns it keeps.
func TestLifecycleDeclaration(t *testing.T) {
	s, err := schema.Load("life.tw", []byte(lifePrelude+
		"lifecycle L of Unit(capacity: 4) { X, Health }\nlifecycle M of Unit(capacity: 2, on: [detached, created]) { }"))
	require.NoError(t, err)
	require.Len(t, s.Lifecycles, 2)
	l, m := s.Lifecycles[0], s.Lifecycles[1]
	assert.Equal(t, "L", l.Name)
	assert.Equal(t, "Unit", l.Table.Name)
	assert.Equal(t, 4, l.Capacity)
	assert.Equal(t, schema.LifecycleChanges, l.On)
	assert.Equal(t, []string{"Unit.X", "Unit.Health"}, colNames(l.Columns))
	assert.Equal(t, "life.tw:4:11", l.Pos.String())
	assert.Equal(t, []string{"created", "detached"}, m.On)
	assert.Empty(t, m.Columns)
}

// Each bad lifecycle declaration is refused at its line and column with
// the fix in its message.
func TestLifecycleErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"from in a system", schema.ErrType, "lifecycle L of Unit(capacity: 4) { Health }\nsystem Q(phase: update) { from L l count n }",
			"bad.tw:5:32: from L in system Q: L is a lifecycle event table; from names a table or an event table (playback fills a lifecycle event table; a hand-written system reads it: tickwork.Consume or tickwork.Observe of Tables.L)"},
		{"emit", schema.ErrType, "lifecycle L of Unit(capacity: 4) { Health }\nsystem Q(phase: update) { from Unit u emit L { } }",
			"bad.tw:5:44: emit L: L is a lifecycle event table, not an event table (playback fills a lifecycle event table; a hand-written system reads it: tickwork.Consume or tickwork.Observe of Tables.L)"},
		{"unknown table", schema.ErrUnknown, "lifecycle L of Uni(capacity: 4) { }",
			`bad.tw:4:16: unknown table "Uni" of lifecycle event table L; did you mean "Unit"?`},
		{"not a table", schema.ErrType, "lifecycle L of V(capacity: 4) { }",
			"bad.tw:4:16: V of lifecycle event table L is a struct, not a table: lifecycle events are those of a table's rows"},
		{"no capacity", schema.ErrMissing, "lifecycle L of Unit { }",
			"bad.tw:4:11: lifecycle event table L has no capacity; add (capacity: N), the most events it holds"},
		{"capacity 0", schema.ErrValue, "lifecycle L of Unit(capacity: 0) { }",
			"bad.tw:4:31: option capacity of lifecycle event table L is 0; it must be between 1 and 1073741824"},
		{"unknown change", schema.ErrUnknown, "lifecycle L of Unit(capacity: 4, on: [deleted, delted]) { }",
			`bad.tw:4:48: unknown change "delted" in option on of lifecycle event table L; did you mean "deleted"?`},
		{"change twice", schema.ErrDuplicate, "lifecycle L of Unit(capacity: 4, on: [deleted, deleted]) { }",
			"bad.tw:4:48: change deleted is given twice in option on of lifecycle event table L; keep one"},
		{"on not a list", schema.ErrType, "lifecycle L of Unit(capacity: 4, on: deleted) { }",
			"bad.tw:4:38: option on of lifecycle event table L must be a list of changes, such as [deleted, detached]; the changes are created, attached, deleted and detached"},
		{"unknown option", schema.ErrUnknown, "lifecycle L of Unit(capacity: 4, life: 2) { }",
			`bad.tw:4:34: unknown option "life" of lifecycle event table L; options are capacity, on`},
		{"unknown column", schema.ErrUnknown, "lifecycle L of Unit(capacity: 4) { Healt }",
			`bad.tw:4:36: lifecycle event table L keeps column "Healt", which table Unit does not have; did you mean "Health"?`},
		{"column twice", schema.ErrDuplicate, "lifecycle L of Unit(capacity: 4) { Health Health }",
			"bad.tw:4:43: lifecycle event table L keeps column Health twice; keep one"},
		{"struct column", schema.ErrType, "lifecycle L of S(capacity: 4) { P }",
			"bad.tw:4:33: lifecycle event table L keeps column P, of struct V: a lifecycle event keeps columns of int32, int64, float32, float64, bool or ref only"},
		{"name taken", schema.ErrDuplicate, "lifecycle Unit of Unit(capacity: 4) { }",
			`bad.tw:4:11: lifecycle event table "Unit" is already declared as a table at bad.tw:1:7; rename one of them`},
		{"syntax", schema.ErrSyntax, "lifecycle L Unit(capacity: 4) { }",
			`bad.tw:4:13: unexpected name Unit; expected "of"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.Load("bad.tw", []byte(lifePrelude+c.src))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
			assert.ErrorIs(t, err, c.kind)
		})
	}
}

// Format prints a lifecycle declaration in canonical form, which parses
// back to itself.
func TestLifecycleFormat(t *testing.T) {
	f, err := schema.Parse("life.tw", []byte("lifecycle L of Unit( capacity:4 ,on:[deleted,created]) { Health X }\nlifecycle M of Unit(capacity: 2) {}"))
	require.NoError(t, err)
	want := "lifecycle L of Unit(capacity: 4, on: [deleted, created]) { Health, X }\n\nlifecycle M of Unit(capacity: 2) { }\n"
	assert.Equal(t, want, string(schema.Format(f)))
	g, err := schema.Parse("life.tw", schema.Format(f))
	require.NoError(t, err)
	assert.Equal(t, want, string(schema.Format(g)))
}

package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// TestEmptyNamesMatchErrEmptyName: every empty name, whichever layer
// refuses it, matches ErrEmptyName and its layer's definition sentinel
// (before, only a resource's did), with a message saying what is unnamed.
func TestEmptyNamesMatchErrEmptyName(t *testing.T) {
	run := func(s *tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) {} }
	sys := tickwork.System{Phase: tickwork.Update, Declare: run}
	cases := []struct {
		name  string
		err   func() error
		layer error
		msg   string
	}{
		{"system Validate", sys.Validate, tickwork.ErrSystemDefinition, "systems: system name must not be empty"},
		{"system Add", func() error {
			b := tickwork.NewBuilder()
			b.Add(sys)
			return b.Err()
		}, tickwork.ErrSystemDefinition, "systems: system name must not be empty"},
		{"table", func() error {
			b := tickwork.NewBuilder()
			b.Table(tickwork.TableSpec{Capacity: 8})
			return b.Err()
		}, tickwork.ErrStorageDefinition, "ephemeral: table name must not be empty"},
		{"domain", func() error {
			b := tickwork.NewBuilder()
			b.Domain(tickwork.DomainSpec{Capacity: 8})
			return b.Err()
		}, tickwork.ErrStorageDefinition, "ephemeral: domain name must not be empty"},
		{"column", func() error {
			b := tickwork.NewBuilder()
			tickwork.AddColumn[int32](b, b.Table(tickwork.TableSpec{Name: "T", Capacity: 8}), "")
			return b.Err()
		}, tickwork.ErrStorageDefinition, `ephemeral: table "T": column name must not be empty`},
		{"event table", func() error {
			b := tickwork.NewBuilder()
			tickwork.AddEvents[int32](b, tickwork.EventSpec{Capacity: 8})
			return b.Err()
		}, tickwork.ErrEventsDefinition, "events: event table name must not be empty"},
		{"resource", func() error {
			b := tickwork.NewBuilder()
			tickwork.AddResource(b, "", 0)
			return b.Err()
		}, tickwork.ErrDefinition, `runtime: AddResource "": name must not be empty`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			require.Error(t, err)
			assert.ErrorIs(t, err, tickwork.ErrEmptyName)
			assert.ErrorIs(t, err, tc.layer)
			assert.Equal(t, tc.msg, err.Error())
		})
	}
}

// TestHookKeptPastBuild: a Hook kept after its hook returned refuses Add,
// Order and Substitute with ErrHookDone and changes nothing (before, Add
// said "already sealed" matching no face sentinel, and Order of two real
// systems added a constraint nothing would read, or named a system
// unknown).
func TestHookKeptPastBuild(t *testing.T) {
	var kept *tickwork.Hook
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	for _, name := range []string{"a", "b"} {
		b.System(name, tickwork.Update, func(*tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) {} })
	}
	b.Hook(func(h *tickwork.Hook) error { kept = h; return h.Order("a", "b") })
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	const msg = "scheduler: Hook used after its hook function returned: a Hook is valid only during the hook call (Builder.Hook); " +
		"make its Add, Order and Substitute calls inside the hook function"
	for name, call := range map[string]func() error{
		"Order":      func() error { return kept.Order("b", "a") },
		"Order gone": func() error { return kept.Order("x", "y") },
		"Add": func() error {
			return kept.Add(tickwork.System{Name: "c", Phase: tickwork.Update, Declare: func(*tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) {} }})
		},
		"Substitute": func() error {
			return kept.Substitute("a", func(*tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) {} })
		},
	} {
		err := call()
		assert.ErrorIs(t, err, tickwork.ErrHookDone, name)
		assert.EqualError(t, err, msg, name)
	}
	assert.Equal(t, []string{"a", "b"}, w.Order(tickwork.Update))
	require.NoError(t, w.Frame(0.01))
}

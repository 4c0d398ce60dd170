package systems_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/systems"
)

// joinFixture adds two tag tables (no columns) to the fixture's units
// domain.
func joinFixture(t *testing.T) (*fixture, *ephemeral.Table, *ephemeral.Table) {
	f := newFixture(t)
	stunned, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Stunned", Domain: f.units.Domain()})
	require.NoError(t, err)
	dead, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "Dead", Domain: f.units.Domain()})
	require.NoError(t, err)
	return f, stunned, dead
}

func TestJoinManifest(t *testing.T) {
	f, stunned, dead := joinFixture(t)
	d, err := declare("move", func(s *systems.Decl) {
		systems.NewJoin2(systems.Write(s, f.x), systems.Read(s, f.health),
			ephemeral.With(stunned, f.bodies), ephemeral.Without(dead))
	})
	require.NoError(t, err)
	m := d.Manifest
	assert.Equal(t, []frame.ColumnRef{{Table: f.bodies, Column: "x"}}, m.Writes)
	assert.Equal(t, []frame.ColumnRef{{Table: f.units, Column: "health"}}, m.Reads)
	assert.Equal(t, []*ephemeral.Table{stunned, dead}, m.Presence,
		"With and Without tables are presence reads; the columns' tables (Body, named again in With) are not")
	assert.Equal(t, []*ephemeral.Table{f.units, f.bodies, stunned, dead}, m.Tables())

	tags, err := declare("tags", func(s *systems.Decl) {
		systems.NewJoin(s, ephemeral.With(stunned), ephemeral.Without(dead))
	})
	require.NoError(t, err)
	assert.Equal(t, []*ephemeral.Table{stunned, dead}, tags.Manifest.Presence)
	assert.Empty(t, tags.Manifest.Reads)
	assert.True(t, tags.Manifest.Equal(&frame.Manifest{Presence: []*ephemeral.Table{dead, stunned}}))
	assert.False(t, tags.Manifest.Equal(&frame.Manifest{Presence: []*ephemeral.Table{dead}}), "Equal compares presence")

	var lease ephemeral.Lease
	probe, err := declare("probe", func(s *systems.Decl) { lease = systems.Presence(s, stunned) })
	require.NoError(t, err)
	assert.Equal(t, []*ephemeral.Table{stunned}, probe.Manifest.Presence)
	h, err := f.units.Insert()
	require.NoError(t, err)
	if ephemeral.DebugBuild { // probed outside the system's run (docs/architecture.md, Debug build)
		assert.Panics(t, func() { lease.IsAlive(h) })
	} else {
		assert.False(t, lease.IsAlive(h))
		require.NoError(t, stunned.Attach(h))
		assert.True(t, lease.IsAlive(h), "the lease probes the tag table")
	}
	_, err = declare("nil", func(s *systems.Decl) { systems.Presence(s, nil) })
	assert.ErrorIs(t, err, systems.ErrBadDeclaration)
}

func TestJoinConflicts(t *testing.T) {
	f, stunned, _ := joinFixture(t)
	joinX, err := declare("join", func(s *systems.Decl) {
		systems.NewJoin1(systems.Read(s, f.x), ephemeral.With(stunned))
	})
	require.NoError(t, err)
	writeX, err := declare("writeX", func(s *systems.Decl) { systems.Write(s, f.x) })
	require.NoError(t, err)
	recordTag, err := declare("tagger", func(s *systems.Decl) { systems.Record(s, stunned) })
	require.NoError(t, err)
	tagsOnly, err := declare("tags", func(s *systems.Decl) { systems.NewJoin(s, ephemeral.With(stunned)) })
	require.NoError(t, err)

	assert.Equal(t, []frame.Overlap{{Datum: "Body.x", A: "read", B: "write"}},
		frame.Conflicts(nil, &joinX.Manifest, &writeX.Manifest), "a join's column is covered by the conflict check")
	assert.Empty(t, frame.Conflicts(nil, &joinX.Manifest, &recordTag.Manifest),
		"a presence read conflicts with nothing: attaches land at playback")
	assert.Empty(t, frame.Conflicts(nil, &tagsOnly.Manifest, &tagsOnly.Manifest))
}

func TestJoinDeclarationErrors(t *testing.T) {
	f, stunned, _ := joinFixture(t)
	cases := []struct {
		name     string
		declare  func(s *systems.Decl)
		sentinel error
		msg      string
	}{
		{"tables of two domains", func(s *systems.Decl) {
			systems.NewJoin2(systems.Read(s, f.x), systems.Read(s, f.ttl))
		}, ephemeral.ErrJoinDomains,
			`systems: system "bad": bad declaration: NewJoin2: ephemeral: table "Shot": a join's tables must belong to one domain (table "Shot" is of domain "Shot", table "Body" of domain "units")`},
		{"a With of another domain", func(s *systems.Decl) {
			systems.NewJoin(s, ephemeral.With(stunned, f.shots))
		}, ephemeral.ErrJoinDomains,
			`systems: system "bad": bad declaration: NewJoin: ephemeral: table "Shot": a join's tables must belong to one domain (table "Shot" is of domain "Shot", table "Stunned" of domain "units")`},
		{"required and excluded", func(s *systems.Decl) {
			systems.NewJoin1(systems.Read(s, f.x), ephemeral.Without(f.bodies))
		}, ephemeral.ErrJoinExcluded,
			`systems: system "bad": bad declaration: NewJoin1: ephemeral: table "Body": a join's table is both required and excluded (Without)`},
		{"no table", func(s *systems.Decl) { systems.NewJoin(s) }, ephemeral.ErrJoinEmpty,
			`systems: system "bad": bad declaration: NewJoin: ephemeral: a join needs a column or a With table (add With(table) or a column)`},
		{"a nil column", func(s *systems.Decl) {
			systems.NewJoin2(systems.Read(s, f.x), systems.Read[float32](s, nil))
		}, systems.ErrBadDeclaration, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := declare("bad", tc.declare)
			require.Error(t, err)
			assert.ErrorIs(t, err, systems.ErrDefinition)
			assert.ErrorIs(t, err, tc.sentinel)
			var de *systems.DefinitionError
			require.True(t, errors.As(err, &de))
			if tc.msg != "" {
				assert.Equal(t, tc.msg, err.Error())
			}
		})
	}
}

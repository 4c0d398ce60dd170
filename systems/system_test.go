package systems_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/systems"
)

type fixture struct {
	units, bodies, shots *ephemeral.Table
	health               *ephemeral.Column[int32]
	x, y                 *ephemeral.Column[float32]
	ttl                  *ephemeral.Column[int32]
	hits                 *events.Table[ephemeral.Handle] // NextFrame
	noise                *events.Table[int]              // ThisFrame
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{}
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 64})
	must(err)
	f.units, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d})
	must(err)
	f.bodies, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
	must(err)
	f.shots, err = ephemeral.NewTable(ephemeral.TableSpec{Name: "Shot", Capacity: 64})
	must(err)
	f.health, err = ephemeral.AddColumn[int32](f.units, "health")
	must(err)
	f.x, err = ephemeral.AddColumn[float32](f.bodies, "x")
	must(err)
	f.y, err = ephemeral.AddColumn[float32](f.bodies, "y")
	must(err)
	f.ttl, err = ephemeral.AddColumn[int32](f.shots, "ttl")
	must(err)
	f.hits, err = events.New[ephemeral.Handle](events.Spec{Name: "hits", Capacity: 8})
	must(err)
	f.noise, err = events.New[int](events.Spec{Name: "noise", Capacity: 8, Lifetime: events.ThisFrame})
	must(err)
	return f
}

func noop(*systems.Context) error { return nil }

func TestValidate(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name string
		sys  systems.System
		want error
	}{
		{"ok", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Reads: []systems.ColumnRef{systems.Col(f.x)}}}, nil},
		{"empty name", systems.System{Run: noop}, systems.ErrEmptyName},
		{"no run", systems.System{Name: "a"}, systems.ErrNoRun},
		{"bad phase", systems.System{Name: "a", Phase: 9, Run: noop}, systems.ErrBadPhase},
		{"nil table", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Writes: []systems.ColumnRef{{Column: "x"}}}}, systems.ErrBadManifest},
		{"unknown column", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Reads: []systems.ColumnRef{{Table: f.bodies, Column: "z"}}}}, systems.ErrBadManifest},
		{"nil create", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Creates: []*ephemeral.Table{nil}}}, systems.ErrBadManifest},
		{"nil event", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Emits: []events.Buffer{nil}}}, systems.ErrBadManifest},
		{"typed-nil emit", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Emits: []events.Buffer{f.noise, (*events.Table[int])(nil)}}}, systems.ErrBadManifest},
		{"typed-nil consume", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Consumes: []events.Buffer{(*events.Table[ephemeral.Handle])(nil)}}}, systems.ErrBadManifest},
		{"nil delete", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Deletes: []*ephemeral.Table{f.shots, nil}}}, systems.ErrBadManifest},
		{"Col of nil read", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Reads: []systems.ColumnRef{systems.Col[float32](nil)}}}, systems.ErrBadManifest},
		{"Col of nil write", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(f.x), systems.Col[int32](nil)}}}, systems.ErrBadManifest},
		{"empty resource", systems.System{Name: "a", Run: noop, Manifest: systems.Manifest{Resources: []systems.Resource{{}}}}, systems.ErrBadManifest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.sys.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !errors.Is(err, systems.ErrDefinition) {
				t.Fatalf("Validate() = %v, want errors.Is %v and ErrDefinition", err, tt.want)
			}
			var de *systems.DefinitionError
			if !errors.As(err, &de) || de.System != tt.sys.Name {
				t.Fatalf("Validate() = %#v, want a *DefinitionError naming %q", err, tt.sys.Name)
			}
		})
	}
}

func TestPhaseString(t *testing.T) {
	got := []string{}
	for p := range systems.Phase(systems.NumPhases) {
		got = append(got, p.String())
	}
	want := []string{"FrameStart", "FixedUpdate", "Update", "LateUpdate", "FrameEnd"}
	if !slices.Equal(got, want) {
		t.Fatalf("phases = %v, want %v", got, want)
	}
	if s := systems.Phase(7).String(); s != "Phase(7)" {
		t.Fatalf("Phase(7).String() = %q", s)
	}
}

func TestCol(t *testing.T) {
	f := newFixture(t)
	r := systems.Col(f.x)
	if r.Table != f.bodies || r.Column != "x" || r.String() != "Body.x" {
		t.Fatalf("Col(x) = %+v (%s), want Body.x", r, r)
	}
	if r != (systems.ColumnRef{Table: f.bodies, Column: "x"}) {
		t.Fatal("ColumnRef not comparable by value")
	}
}

// TestColNil: a failed AddColumn returns a nil column; Col gives the zero
// ColumnRef for it, which Validate refuses, instead of panicking.
func TestColNil(t *testing.T) {
	var r systems.ColumnRef
	require.NotPanics(t, func() { r = systems.Col[float64](nil) })
	assert.Equal(t, systems.ColumnRef{}, r)
	assert.Equal(t, "<nil>.", r.String())
	sys := systems.System{Name: "fall", Run: noop, Manifest: systems.Manifest{Writes: []systems.ColumnRef{r}}}
	err := sys.Validate()
	var de *systems.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, systems.ErrBadManifest)
	assert.Equal(t, "fall", de.System)
	assert.Contains(t, de.Detail, "Writes[0]: nil table")
}

// TestValidateTypedNilEvents: what `ev, _ := events.New[int](badSpec)`
// gives is a typed nil; in a manifest it is a *DefinitionError naming the
// entry.
func TestValidateTypedNilEvents(t *testing.T) {
	ev, err := events.New[int](events.Spec{Name: "bad"}) // capacity 0
	require.Error(t, err)
	require.Nil(t, ev)
	sys := systems.System{Name: "hit", Run: noop, Manifest: systems.Manifest{Consumes: []events.Buffer{ev}}}
	err = sys.Validate()
	var de *systems.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, systems.ErrBadManifest)
	assert.Equal(t, `systems: system "hit": bad manifest entry (Consumes[0]: nil event table (check the error of the call that made it))`, err.Error())
}

func TestManifestEqual(t *testing.T) {
	f := newFixture(t)
	a := systems.Manifest{
		Reads:     []systems.ColumnRef{systems.Col(f.x), systems.Col(f.y), systems.Col(f.health)},
		Writes:    []systems.ColumnRef{systems.Col(f.health)},
		Creates:   []*ephemeral.Table{f.shots},
		Emits:     []events.Buffer{f.hits},
		Resources: []systems.Resource{{Name: "rng", Write: true}},
	}
	b := systems.Manifest{ // same sets, other order, repetitions, written column not repeated in Reads
		Reads:     []systems.ColumnRef{systems.Col(f.y), systems.Col(f.x), systems.Col(f.x)},
		Writes:    []systems.ColumnRef{systems.Col(f.health), systems.Col(f.health)},
		Creates:   []*ephemeral.Table{f.shots},
		Emits:     []events.Buffer{f.hits},
		Resources: []systems.Resource{{Name: "rng"}, {Name: "rng", Write: true}},
	}
	if !a.Equal(&b) || !b.Equal(&a) {
		t.Fatal("equal manifests compare unequal")
	}
	for name, change := range map[string]func(m *systems.Manifest){
		"extra read":      func(m *systems.Manifest) { m.Reads = append(m.Reads, systems.Col(f.ttl)) },
		"read not write":  func(m *systems.Manifest) { m.Writes = nil; m.Reads = append(m.Reads, systems.Col(f.health)) },
		"delete":          func(m *systems.Manifest) { m.Deletes = []*ephemeral.Table{f.shots} },
		"consume":         func(m *systems.Manifest) { m.Consumes = []events.Buffer{f.noise} },
		"resource read":   func(m *systems.Manifest) { m.Resources = []systems.Resource{{Name: "rng"}} },
		"no create":       func(m *systems.Manifest) { m.Creates = nil },
		"other emit":      func(m *systems.Manifest) { m.Emits = []events.Buffer{f.noise} },
		"extra resources": func(m *systems.Manifest) { m.Resources = append(m.Resources, systems.Resource{Name: "clock"}) },
	} {
		c := b
		c.Reads = slices.Clone(b.Reads)
		change(&c)
		if a.Equal(&c) || c.Equal(&a) {
			t.Errorf("%s: manifests compare equal", name)
		}
	}
}

func TestConflicts(t *testing.T) {
	f := newFixture(t)
	col := systems.Col[float32]
	tests := []struct {
		name string
		a, b systems.Manifest
		want []string
	}{
		{"read/read", systems.Manifest{Reads: []systems.ColumnRef{col(f.x)}}, systems.Manifest{Reads: []systems.ColumnRef{col(f.x)}}, nil},
		{"write/read", systems.Manifest{Writes: []systems.ColumnRef{col(f.x)}}, systems.Manifest{Reads: []systems.ColumnRef{col(f.x), col(f.y)}},
			[]string{"write/read Body.x"}},
		{"write/write", systems.Manifest{Writes: []systems.ColumnRef{col(f.x), col(f.y)}}, systems.Manifest{Writes: []systems.ColumnRef{col(f.y)}},
			[]string{"write/write Body.y"}},
		{"other columns", systems.Manifest{Writes: []systems.ColumnRef{col(f.x)}}, systems.Manifest{Writes: []systems.ColumnRef{col(f.y)}}, nil},
		{"delete vs domain column", systems.Manifest{Deletes: []*ephemeral.Table{f.units}}, systems.Manifest{Reads: []systems.ColumnRef{col(f.x)}},
			[]string{"delete Unit/read Body.x"}},
		{"column vs create", systems.Manifest{Writes: []systems.ColumnRef{systems.Col(f.ttl)}}, systems.Manifest{Creates: []*ephemeral.Table{f.shots}},
			[]string{"write/create Shot Shot.ttl"}},
		{"create vs create", systems.Manifest{Creates: []*ephemeral.Table{f.units}}, systems.Manifest{Creates: []*ephemeral.Table{f.bodies}},
			[]string{"create Unit/create Body Unit|Body"}},
		{"create other domain", systems.Manifest{Creates: []*ephemeral.Table{f.shots}}, systems.Manifest{Writes: []systems.ColumnRef{col(f.x)}, Deletes: []*ephemeral.Table{f.units}}, nil},
		{"emit/emit", systems.Manifest{Emits: []events.Buffer{f.hits}}, systems.Manifest{Emits: []events.Buffer{f.hits}},
			[]string{"emit/emit event hits"}},
		{"emit vs NextFrame consume", systems.Manifest{Emits: []events.Buffer{f.hits}}, systems.Manifest{Consumes: []events.Buffer{f.hits}}, nil},
		{"emit vs ThisFrame consume", systems.Manifest{Emits: []events.Buffer{f.noise}}, systems.Manifest{Consumes: []events.Buffer{f.noise}},
			[]string{"emit/consume event noise"}},
		{"consume/consume", systems.Manifest{Consumes: []events.Buffer{f.noise}}, systems.Manifest{Consumes: []events.Buffer{f.noise}}, nil},
		{"resource write/read", systems.Manifest{Resources: []systems.Resource{{Name: "clock", Write: true}}}, systems.Manifest{Resources: []systems.Resource{{Name: "clock"}}},
			[]string{"write/read resource clock"}},
		{"resource read/read", systems.Manifest{Resources: []systems.Resource{{Name: "clock"}}}, systems.Manifest{Resources: []systems.Resource{{Name: "clock"}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range systems.Conflicts(nil, &tt.a, &tt.b) {
				got = append(got, o.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Conflicts = %q, want %q", got, tt.want)
			}
		})
	}
}

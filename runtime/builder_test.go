package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

func noop(*systems.Context) {}

// declare is a DeclareFunc that runs accs on the Decl and returns noop.
func declare(accs ...func(s *systems.Decl)) systems.DeclareFunc {
	return func(s *systems.Decl) systems.RunFunc {
		for _, a := range accs {
			a(s)
		}
		return noop
	}
}

// TestIgnoredDeclarationErrors: declarations return no error; after a bad
// table every later call gets a nil and refuses it with an error of its
// own, and Err and Build return the first error, the Table's.
func TestIgnoredDeclarationErrors(t *testing.T) {
	b := runtime.NewBuilder()
	var balls *ephemeral.Table
	var y *ephemeral.Column[float64]
	require.NotPanics(t, func() {
		balls = b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 0})
		y = runtime.AddColumn[float64](b, balls, "Y")
		b.System("fall", systems.FixedUpdate, declare(func(s *systems.Decl) { systems.Write(s, y) }))
	})
	assert.Nil(t, balls)
	assert.Nil(t, y)
	first := b.Err()
	var ede *ephemeral.DefinitionError
	require.ErrorAs(t, first, &ede, "the first error is the Table call's")
	assert.ErrorIs(t, first, ephemeral.ErrZeroCapacity)
	w, err := b.Build()
	assert.Nil(t, w)
	assert.Same(t, first, err)

	// The later errors, on their own builders.
	b = runtime.NewBuilder()
	y = runtime.AddColumn[float64](b, nil, "Y")
	err = b.Err()
	var de *runtime.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, runtime.DefinitionError{Call: "AddColumn", Name: "Y", Err: runtime.ErrNilTable}, *de)
	assert.Equal(t, `runtime: AddColumn "Y": nil table (check the error of the Table call that made it)`, err.Error())

	b = runtime.NewBuilder()
	b.System("fall", systems.FixedUpdate, declare(func(s *systems.Decl) { systems.Write(s, y) }))
	require.NoError(t, b.Err(), "declarations run at Build")
	_, err = b.Build()
	var sde *systems.DefinitionError
	require.ErrorAs(t, err, &sde)
	assert.ErrorIs(t, err, systems.ErrBadDeclaration)
	assert.Equal(t, `systems: system "fall": bad declaration: Write: nil column (the AddColumn that made it failed: its error comes first)`, err.Error())
}

// TestNilInDeclarations: a nil table, event table or resource (what a
// failed declaration returns) fails the system's declaration at Build,
// with the call named; nothing panics.
func TestNilInDeclarations(t *testing.T) {
	var ev *events.Table[int]
	var res *systems.Resource[int]
	for name, tc := range map[string]struct {
		acc  func(s *systems.Decl)
		call string
	}{
		"emit":           {func(s *systems.Decl) { systems.Emit(s, ev) }, "Emit"},
		"emit parallel":  {func(s *systems.Decl) { systems.EmitParallel(s, ev) }, "EmitParallel"},
		"consume":        {func(s *systems.Decl) { systems.Consume(s, ev) }, "Consume"},
		"record":         {func(s *systems.Decl) { systems.Record(s, nil) }, "Record"},
		"read resource":  {func(s *systems.Decl) { systems.ReadResource(s, res) }, "ReadResource"},
		"write resource": {func(s *systems.Decl) { systems.WriteResource(s, res) }, "WriteResource"},
	} {
		t.Run(name, func(t *testing.T) {
			b := runtime.NewBuilder()
			b.System("s", systems.Update, declare(tc.acc))
			var err error
			require.NotPanics(t, func() { _, err = b.Build() })
			require.ErrorIs(t, err, systems.ErrBadDeclaration)
			assert.Contains(t, err.Error(), `system "s": bad declaration: `+tc.call+": nil ")
		})
	}
}

// TestForeignData: a world refuses tables, event tables, resources and
// domains made by another Builder or standalone.
func TestForeignData(t *testing.T) {
	other := runtime.NewBuilder()
	otherTab := other.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 8})
	otherY := runtime.AddColumn[float64](other, otherTab, "Y")
	otherEv := runtime.AddEvents[int](other, events.Spec{Name: "bounce", Capacity: 4})
	otherRes := runtime.AddResource(other, "score", 0)
	otherDom := other.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 8})
	other.System("fall", systems.Update, declare(func(s *systems.Decl) { systems.Write(s, otherY); systems.Emit(s, otherEv) }))
	ow, err := other.Build()
	require.NoError(t, err, "the owner builds")
	defer ow.Close()

	alone, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Alone", Capacity: 8})
	aloneEv, _ := events.New[int](events.Spec{Name: "loose", Capacity: 4})
	aloneRes := systems.NewResource("lonely", 1.5)

	tests := []struct {
		name string
		acc  func(s *systems.Decl)
		want runtime.ForeignError
	}{
		{"write of another world's column", func(s *systems.Decl) { systems.Write(s, otherY) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "table", Name: "Ball"}},
		{"read of another world's column", func(s *systems.Decl) { systems.Read(s, otherY) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "table", Name: "Ball"}},
		{"record in a standalone table", func(s *systems.Decl) { systems.Record(s, alone) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "table", Name: "Alone"}},
		{"emit into another world's events", func(s *systems.Decl) { systems.Emit(s, otherEv) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "event table", Name: "bounce"}},
		{"consume standalone events", func(s *systems.Decl) { systems.Consume(s, aloneEv) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "event table", Name: "loose"}},
		{"another world's resource", func(s *systems.Decl) { systems.WriteResource(s, otherRes) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "resource", Name: "score"}},
		{"a standalone resource", func(s *systems.Decl) { systems.ReadResource(s, aloneRes) },
			runtime.ForeignError{System: "s", Where: "its declaration", Kind: "resource", Name: "lonely"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := runtime.NewBuilder()
			own := b.Table(ephemeral.TableSpec{Name: "Own", Capacity: 8})
			ownY := runtime.AddColumn[float64](b, own, "Y")
			b.System("s", systems.Update, declare(func(s *systems.Decl) { systems.Read(s, ownY) }, tt.acc))
			_, err := b.Build()
			var fe *runtime.ForeignError
			require.ErrorAs(t, err, &fe)
			assert.ErrorIs(t, err, runtime.ErrForeign)
			assert.Equal(t, tt.want, *fe)
		})
	}

	t.Run("added by a hook", func(t *testing.T) {
		b := runtime.NewBuilder()
		b.Table(ephemeral.TableSpec{Name: "Own", Capacity: 8})
		b.Hook(func(h *scheduler.Hook) error {
			return h.Add(systems.System{Name: "late", Phase: systems.Update,
				Declare: declare(func(s *systems.Decl) { systems.Consume(s, otherEv) })})
		})
		_, err := b.Build()
		fe, ok := err.(*runtime.ForeignError)
		require.True(t, ok, "Build = %v (%T), want a *runtime.ForeignError", err, err)
		assert.Equal(t, runtime.ForeignError{System: "late", Where: "its declaration", Kind: "event table", Name: "bounce"}, *fe)
		assert.Equal(t, `runtime: system "late": its declaration names event table "bounce", which was not declared through this Builder; `+
			`worlds share no data: declare it with AddEvents`, err.Error())
	})
	t.Run("column on another world's table", func(t *testing.T) {
		b := runtime.NewBuilder()
		c := runtime.AddColumn[int32](b, otherTab, "Z")
		assert.Nil(t, c)
		var fe *runtime.ForeignError
		require.ErrorAs(t, b.Err(), &fe)
		assert.Equal(t, runtime.ForeignError{Where: `AddColumn "Z"`, Kind: "table", Name: "Ball"}, *fe)
		assert.Equal(t, []string{"Y"}, otherTab.Columns(), "the other world's table is untouched")
	})
	t.Run("table in another world's domain", func(t *testing.T) {
		b := runtime.NewBuilder()
		tab := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: otherDom})
		assert.Nil(t, tab)
		var fe *runtime.ForeignError
		require.ErrorAs(t, b.Err(), &fe)
		assert.Equal(t, runtime.ForeignError{Where: `Table "Unit"`, Kind: "domain", Name: "Actors"}, *fe)
		assert.Empty(t, otherDom.Tables(), "the other world's domain is untouched")
	})
	t.Run("own domain", func(t *testing.T) {
		b := runtime.NewBuilder()
		d := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 8})
		unit := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: d})
		body := b.Table(ephemeral.TableSpec{Name: "Body", Domain: d})
		b.System("spawn", systems.Update, declare(func(s *systems.Decl) { systems.Record(s, unit); systems.Record(s, body) }))
		w, err := b.Build()
		require.NoError(t, err)
		assert.NoError(t, w.Close())
	})
}

// TestDuplicateNames: conflict messages and reports name tables, event
// tables, domains and resources, so a Builder refuses a name twice among
// each kind (the second declaration returns nil and Build the error).
func TestDuplicateNames(t *testing.T) {
	for _, tc := range []struct {
		call, kind string
		declare    func(b *runtime.Builder) any
	}{
		{"Table", "table", func(b *runtime.Builder) any { return b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 8}) }},
		{"AddEvents", "event table", func(b *runtime.Builder) any {
			return runtime.AddEvents[int](b, events.Spec{Name: "Ball", Capacity: 4})
		}},
		{"Domain", "domain", func(b *runtime.Builder) any { return b.Domain(ephemeral.DomainSpec{Name: "Ball", Capacity: 8}) }},
		{"AddResource", "resource", func(b *runtime.Builder) any { return runtime.AddResource(b, "Ball", 1) }},
	} {
		t.Run(tc.call, func(t *testing.T) {
			b := runtime.NewBuilder()
			assert.NotNil(t, tc.declare(b))
			require.NoError(t, b.Err())
			assert.Nil(t, tc.declare(b))
			err := b.Err()
			var de *runtime.DefinitionError
			require.ErrorAs(t, err, &de)
			assert.ErrorIs(t, err, runtime.ErrDuplicateName)
			assert.ErrorIs(t, err, runtime.ErrDefinition)
			assert.Equal(t, runtime.DefinitionError{Call: tc.call, Name: "Ball", Err: runtime.ErrDuplicateName}, *de)
			assert.Equal(t, `runtime: `+tc.call+` "Ball": name already declared on this builder; `+
				tc.kind+` names must be unique among the builder's `+tc.kind+`s, since errors and reports name them`, err.Error())
			_, berr := b.Build()
			assert.Same(t, err, berr)
		})
	}
	b := runtime.NewBuilder()
	d := b.Domain(ephemeral.DomainSpec{Name: "units", Capacity: 8})
	b.Table(ephemeral.TableSpec{Name: "units", Domain: d})
	runtime.AddEvents[int](b, events.Spec{Name: "units", Capacity: 4})
	runtime.AddResource(b, "units", 0)
	assert.NoError(t, b.Err(), "names are unique per kind only")
	runtime.AddResource(b, "", 0)
	assert.ErrorIs(t, b.Err(), runtime.ErrEmptyName)
}

func TestOptionBounds(t *testing.T) {
	for _, n := range []int{1 << 40, scheduler.MaxCommandRecords + 1} {
		var err error
		require.NotPanics(t, func() { _, err = runtime.NewBuilder(runtime.WithCommandRecords(n)).Build() })
		var oe *runtime.OptionError
		require.ErrorAs(t, err, &oe, n)
		assert.Equal(t, "WithCommandRecords", oe.Option)
		assert.Equal(t, "want 1..MaxCommandRecords (16777216) records", oe.Reason)
	}
	w, err := runtime.NewBuilder(runtime.WithCommandRecords(scheduler.MaxCommandRecords)).Build()
	require.NoError(t, err, "the bound itself is accepted")
	require.NoError(t, w.Close())

	var err2 error
	require.NotPanics(t, func() { _, err2 = runtime.NewBuilder(runtime.WithWorkers(2), nil).Build() })
	var oe *runtime.OptionError
	require.ErrorAs(t, err2, &oe)
	assert.ErrorIs(t, err2, runtime.ErrOption)
	assert.Equal(t, "runtime: NewBuilder(opts[1] = nil): want a non-nil Option, such as WithWorkers(4)", err2.Error())

	b := runtime.NewBuilder()
	b.Hook(nil)
	assert.Same(t, scheduler.ErrNilHook, b.Err())
	require.NotPanics(t, func() { _, err2 = b.Build() })
	assert.Same(t, scheduler.ErrNilHook, err2)
	_, err2 = b.Build()
	assert.Same(t, scheduler.ErrNilHook, err2, "the first error stays")

	b = runtime.NewBuilder()
	w, err = b.Build()
	require.NoError(t, err)
	defer w.Close()
	b.Hook(func(*scheduler.Hook) error { return nil })
	assert.Same(t, runtime.ErrBuilt, b.Err())
	_, err = b.Build()
	assert.Same(t, runtime.ErrBuilt, err)
}

// TestReentrantFrameAndClose: a system calling Frame or Close of its own
// world gets an error and nothing happens; the world runs on.
func TestReentrantFrameAndClose(t *testing.T) {
	var w *runtime.World
	var frameErrs, closeErrs []error
	runs := 0
	b := runtime.NewBuilder(runtime.WithWorkers(2))
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 256, ChunkRows: 64})
	x := runtime.AddColumn[int64](b, tab, "x")
	b.System("meddle", systems.Update, func(s *systems.Decl) systems.RunFunc {
		xs := systems.Write(s, x)
		return func(ctx *systems.Context) {
			runs++
			frameErrs = append(frameErrs, w.Frame(0.01))
			closeErrs = append(closeErrs, w.Close())
			systems.Parallel(ctx, tab.Chunks(), xs, func(xs *systems.WriteColumn[int64], _, c int) {
				xs.Column().All()[c*tab.ChunkRows()]++ // needs the pool still open
			})
		}
	})
	var err error
	w, err = b.Build()
	require.NoError(t, err)
	for range 2 {
		require.NotPanics(t, func() { require.NoError(t, w.Frame(0.01)) })
	}
	assert.Equal(t, 2, runs, "the nested Frames ran nothing")
	assert.Equal(t, uint64(2), w.Frames())
	assert.Equal(t, []error{scheduler.ErrReentrant, scheduler.ErrReentrant}, frameErrs)
	assert.Equal(t, []error{runtime.ErrRunning, runtime.ErrRunning}, closeErrs)
	assert.Equal(t, int64(2), x.All()[64])
	require.NoError(t, w.Close())
	err = w.Frame(0.01)
	assert.ErrorIs(t, err, runtime.ErrClosed)
	assert.True(t, runtime.IsFatal(err))
}

// TestZeroBuilder: a Builder not made by NewBuilder records ErrZeroBuilder,
// not a misleading option error; declarations return nil.
func TestZeroBuilder(t *testing.T) {
	for name, b := range map[string]*runtime.Builder{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			assert.Nil(t, b.Domain(ephemeral.DomainSpec{Name: "d", Capacity: 8}))
			assert.Nil(t, b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8}))
			assert.Nil(t, runtime.AddColumn[int32](b, nil, "x"))
			assert.Nil(t, runtime.AddEvents[int](b, events.Spec{Name: "e", Capacity: 4}))
			assert.Nil(t, runtime.AddResource(b, "r", 1))
			b.Add()
			b.Hook(func(*scheduler.Hook) error { return nil })
			assert.Same(t, runtime.ErrZeroBuilder, b.Err())
			w, err := b.Build()
			assert.Nil(t, w)
			assert.Same(t, runtime.ErrZeroBuilder, err)
			assert.NotErrorIs(t, err, runtime.ErrOption)
			assert.Equal(t, "runtime: Builder not made by NewBuilder (a zero Builder{} or a nil *Builder): make it with NewBuilder(opts...)", err.Error())
		})
	}
}

// TestResourcesConflict: typed resources are declared read or written and
// conflict-checked like columns, by identity, with the resource's name in
// the message.
func TestResourcesConflict(t *testing.T) {
	build := func(after bool) error {
		b := runtime.NewBuilder()
		rng := runtime.AddResource(b, "rng", uint64(7))
		cfg := runtime.AddResource(b, "cfg", 2.5)
		b.System("draw", systems.Update, declare(func(s *systems.Decl) { systems.WriteResource(s, rng) }))
		b.System("look", systems.Update, declare(func(s *systems.Decl) { systems.ReadResource(s, rng); systems.ReadResource(s, cfg) }))
		b.System("also", systems.Update, declare(func(s *systems.Decl) { systems.ReadResource(s, cfg) }))
		if after {
			b.Add(systems.System{Name: "later", Phase: systems.Update, After: []string{"look"},
				Declare: declare(func(s *systems.Decl) { systems.WriteResource(s, rng) })})
		}
		w, err := b.Build()
		if err == nil {
			w.Close()
		}
		return err
	}
	err := build(false)
	require.ErrorIs(t, err, scheduler.ErrConflict)
	assert.Equal(t, "scheduler: 1 conflict(s) between unordered systems; order each pair with Before/After:\n"+
		"\tUpdate: \"draw\" (write) and \"look\" (read) both touch resource rng", err.Error())
	err = build(true)
	require.ErrorIs(t, err, scheduler.ErrConflict)
	assert.Contains(t, err.Error(), `"draw" (write) and "later" (write) both touch resource rng`)
}

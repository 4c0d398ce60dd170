package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

func noop(*systems.Context) error { return nil }

// TestIgnoredDeclarationErrors follows the README's pattern (ignore the
// declarations' errors, check Build's) with a bad table: every later call
// gets a nil and refuses it with an error of its own, and Build returns the
// first error, the Table's.
func TestIgnoredDeclarationErrors(t *testing.T) {
	b := runtime.NewBuilder()
	var balls *ephemeral.Table
	var y *ephemeral.Column[float64]
	var yErr, addErr error
	require.NotPanics(t, func() {
		balls, _ = b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 0})
		y, yErr = runtime.AddColumn[float64](b, balls, "Y")
		addErr = b.Add(systems.System{Name: "fall", Phase: systems.FixedUpdate, Run: noop,
			Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(y)}}})
	})
	assert.Nil(t, balls)
	assert.Nil(t, y)

	var de *runtime.DefinitionError
	require.ErrorAs(t, yErr, &de)
	assert.ErrorIs(t, yErr, runtime.ErrDefinition)
	assert.ErrorIs(t, yErr, runtime.ErrNilTable)
	assert.Equal(t, runtime.DefinitionError{Call: "AddColumn", Name: "Y", Err: runtime.ErrNilTable}, *de)
	assert.Equal(t, `runtime: AddColumn "Y": nil table (check the error of the Table call that made it)`, yErr.Error())

	var sde *systems.DefinitionError
	require.ErrorAs(t, addErr, &sde)
	assert.ErrorIs(t, addErr, systems.ErrBadManifest)
	assert.Equal(t, "fall", sde.System)

	w, err := b.Build()
	assert.Nil(t, w)
	var ede *ephemeral.DefinitionError
	require.ErrorAs(t, err, &ede, "Build returns the first error: the Table call's")
	assert.ErrorIs(t, err, ephemeral.ErrDefinition)
	assert.NotErrorIs(t, err, runtime.ErrNilTable)
}

// TestNilEventTablesInManifests: what `ev, _ := runtime.AddEvents[int](b,
// badSpec)` or a bare `var ev *events.Table[int]` gives is refused by Add
// (and so by Build), not run into a nil dereference at every frame
// boundary; so are nil tables.
func TestNilEventTablesInManifests(t *testing.T) {
	var typedNil *events.Table[int]
	for name, m := range map[string]func(tab *ephemeral.Table) systems.Manifest{
		"typed-nil emit":    func(*ephemeral.Table) systems.Manifest { return systems.Manifest{Emits: []events.Buffer{typedNil}} },
		"typed-nil consume": func(*ephemeral.Table) systems.Manifest { return systems.Manifest{Consumes: []events.Buffer{typedNil}} },
		"nil create":        func(*ephemeral.Table) systems.Manifest { return systems.Manifest{Creates: []*ephemeral.Table{nil}} },
		"nil delete": func(tab *ephemeral.Table) systems.Manifest {
			return systems.Manifest{Deletes: []*ephemeral.Table{tab, nil}}
		},
		"nil column table": func(*ephemeral.Table) systems.Manifest {
			return systems.Manifest{Reads: []systems.ColumnRef{{Column: "x"}}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := runtime.NewBuilder()
			tab, err := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
			require.NoError(t, err)
			err = b.Add(systems.System{Name: "s", Phase: systems.Update, Run: noop, Manifest: m(tab)})
			require.ErrorIs(t, err, systems.ErrBadManifest)
			_, berr := b.Build()
			assert.Same(t, err, berr)
		})
	}

	b := runtime.NewBuilder()
	ev, evErr := runtime.AddEvents[int](b, events.Spec{Name: "hits"}) // capacity 0
	require.ErrorIs(t, evErr, events.ErrDefinition)
	require.Nil(t, ev)
	err := b.Add(systems.System{Name: "s", Phase: systems.Update, Run: noop,
		Manifest: systems.Manifest{Emits: []events.Buffer{ev}}})
	require.ErrorIs(t, err, systems.ErrBadManifest)
	_, err = b.Build()
	assert.Same(t, evErr, err, "Build returns the first error: AddEvents'")
}

// TestRecorderNeedsCreatesOrDeletes: a system that declares only writes of
// a table's columns may not create or delete its rows.
func TestRecorderNeedsCreatesOrDeletes(t *testing.T) {
	b := runtime.NewBuilder(runtime.WithWorkers(2))
	tab, _ := b.Table(ephemeral.TableSpec{Name: "Body", Capacity: 64})
	x, _ := runtime.AddColumn[float32](b, tab, "x")
	var recErr, workersErr error
	require.NoError(t, b.Add(systems.System{Name: "sneaky", Phase: systems.Update,
		Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(x)}},
		Run: func(ctx *systems.Context) error {
			if r, err := ctx.Recorder(tab); err == nil {
				commands.Set(r, x, r.Create(), 1)
			} else {
				recErr = err
			}
			_, workersErr = ctx.WorkerRecorders(tab)
			return nil
		}}))
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(0.01))
	assert.Equal(t, 0, tab.Len(), "no row created")
	for _, err := range []error{recErr, workersErr} {
		var ae *systems.AccessError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, systems.AccessError{System: "sneaky", Access: systems.AccessRecorder, What: "Body"}, *ae)
	}
}

// TestForeignData: a world refuses tables, event tables and domains made
// by another Builder or standalone.
func TestForeignData(t *testing.T) {
	other := runtime.NewBuilder()
	otherTab, _ := other.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 8})
	otherY, _ := runtime.AddColumn[float64](other, otherTab, "Y")
	otherEv, _ := runtime.AddEvents[int](other, events.Spec{Name: "bounce", Capacity: 4})
	otherDom, _ := other.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 8})
	require.NoError(t, other.Add(systems.System{Name: "fall", Phase: systems.Update, Run: noop,
		Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(otherY)}, Emits: []events.Buffer{otherEv}}}))
	ow, err := other.Build()
	require.NoError(t, err, "the owner builds")
	defer ow.Close()

	alone, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Alone", Capacity: 8})
	aloneEv, _ := events.New[int](events.Spec{Name: "loose", Capacity: 4})

	tests := []struct {
		name string
		m    func(own *ephemeral.Table, ownY *ephemeral.Column[float64]) systems.Manifest
		want runtime.ForeignError
	}{
		{"write of another world's column", func(_ *ephemeral.Table, ownY *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Reads: []systems.ColumnRef{systems.Col(ownY)}, Writes: []systems.ColumnRef{systems.Col(otherY)}}
		}, runtime.ForeignError{System: "s", Where: "Writes[0]", Kind: "table", Name: "Ball"}},
		{"read of another world's column", func(*ephemeral.Table, *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Reads: []systems.ColumnRef{systems.Col(otherY)}}
		}, runtime.ForeignError{System: "s", Where: "Reads[0]", Kind: "table", Name: "Ball"}},
		{"create in a standalone table", func(own *ephemeral.Table, _ *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Creates: []*ephemeral.Table{own, alone}}
		}, runtime.ForeignError{System: "s", Where: "Creates[1]", Kind: "table", Name: "Alone"}},
		{"delete in another world's table", func(*ephemeral.Table, *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Deletes: []*ephemeral.Table{otherTab}}
		}, runtime.ForeignError{System: "s", Where: "Deletes[0]", Kind: "table", Name: "Ball"}},
		{"emit into another world's events", func(*ephemeral.Table, *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Emits: []events.Buffer{otherEv}}
		}, runtime.ForeignError{System: "s", Where: "Emits[0]", Kind: "event table", Name: "bounce"}},
		{"consume standalone events", func(*ephemeral.Table, *ephemeral.Column[float64]) systems.Manifest {
			return systems.Manifest{Consumes: []events.Buffer{aloneEv}}
		}, runtime.ForeignError{System: "s", Where: "Consumes[0]", Kind: "event table", Name: "loose"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := runtime.NewBuilder()
			own, _ := b.Table(ephemeral.TableSpec{Name: "Own", Capacity: 8})
			ownY, _ := runtime.AddColumn[float64](b, own, "Y")
			err := b.Add(systems.System{Name: "s", Phase: systems.Update, Run: noop, Manifest: tt.m(own, ownY)})
			var fe *runtime.ForeignError
			require.ErrorAs(t, err, &fe)
			assert.ErrorIs(t, err, runtime.ErrForeign)
			assert.Equal(t, tt.want, *fe)
			_, berr := b.Build()
			assert.Same(t, err, berr)
		})
	}

	t.Run("added by a hook", func(t *testing.T) {
		b := runtime.NewBuilder()
		_, _ = b.Table(ephemeral.TableSpec{Name: "Own", Capacity: 8})
		require.NoError(t, b.Hook(func(h *scheduler.Hook) error {
			return h.Add(systems.System{Name: "late", Phase: systems.Update, Run: noop,
				Manifest: systems.Manifest{Consumes: []events.Buffer{otherEv}}})
		}))
		_, err := b.Build()
		fe, ok := err.(*runtime.ForeignError)
		require.True(t, ok, "Build = %v (%T), want a *runtime.ForeignError", err, err)
		assert.Equal(t, runtime.ForeignError{System: "late", Where: "Consumes[0]", Kind: "event table", Name: "bounce"}, *fe)
		assert.Equal(t, `runtime: system "late": Consumes[0] names event table "bounce", which was not declared through this Builder; `+
			`worlds share no data: declare it with runtime.AddEvents`, err.Error())
	})
	t.Run("column on another world's table", func(t *testing.T) {
		b := runtime.NewBuilder()
		c, err := runtime.AddColumn[int32](b, otherTab, "Z")
		assert.Nil(t, c)
		var fe *runtime.ForeignError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, runtime.ForeignError{Where: `AddColumn "Z"`, Kind: "table", Name: "Ball"}, *fe)
		assert.Equal(t, []string{"Y"}, otherTab.Columns(), "the other world's table is untouched")
		_, berr := b.Build()
		assert.Same(t, err, berr)
	})
	t.Run("table in another world's domain", func(t *testing.T) {
		b := runtime.NewBuilder()
		tab, err := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: otherDom})
		assert.Nil(t, tab)
		var fe *runtime.ForeignError
		require.ErrorAs(t, err, &fe)
		assert.Equal(t, runtime.ForeignError{Where: `Table "Unit"`, Kind: "domain", Name: "Actors"}, *fe)
		assert.Empty(t, otherDom.Tables(), "the other world's domain is untouched")
	})
	t.Run("own domain", func(t *testing.T) {
		b := runtime.NewBuilder()
		d, _ := b.Domain(ephemeral.DomainSpec{Name: "Actors", Capacity: 8})
		unit, _ := b.Table(ephemeral.TableSpec{Name: "Unit", Domain: d})
		body, _ := b.Table(ephemeral.TableSpec{Name: "Body", Domain: d})
		require.NoError(t, b.Add(systems.System{Name: "spawn", Phase: systems.Update, Run: noop,
			Manifest: systems.Manifest{Creates: []*ephemeral.Table{unit, body}}}))
		w, err := b.Build()
		require.NoError(t, err)
		assert.NoError(t, w.Close())
	})
}

// TestDuplicateNames: conflict messages and reports name tables and event
// tables, so a Builder refuses a name twice (the second declaration
// returns nil and Build the error).
func TestDuplicateNames(t *testing.T) {
	b := runtime.NewBuilder()
	first, err := b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 8})
	require.NoError(t, err)
	second, err := b.Table(ephemeral.TableSpec{Name: "Ball", Capacity: 16})
	assert.Nil(t, second)
	var de *runtime.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, runtime.ErrDuplicateName)
	assert.ErrorIs(t, err, runtime.ErrDefinition)
	assert.Equal(t, runtime.DefinitionError{Call: "Table", Name: "Ball", Err: runtime.ErrDuplicateName}, *de)
	_, err2 := runtime.AddEvents[int](b, events.Spec{Name: "Ball", Capacity: 4})
	assert.NoError(t, err2, "an event table may share a table's name")
	_, err2 = runtime.AddEvents[int](b, events.Spec{Name: "Ball", Capacity: 4})
	require.ErrorAs(t, err2, &de)
	assert.Equal(t, runtime.DefinitionError{Call: "AddEvents", Name: "Ball", Err: runtime.ErrDuplicateName}, *de)
	_, berr := b.Build()
	assert.Same(t, err, berr)
	assert.NotNil(t, first)
}

func TestOptionBounds(t *testing.T) {
	for _, n := range []int{1 << 40, runtime.MaxCommandRecords + 1} {
		var err error
		require.NotPanics(t, func() { _, err = runtime.NewBuilder(runtime.WithCommandRecords(n)).Build() })
		var oe *runtime.OptionError
		require.ErrorAs(t, err, &oe, n)
		assert.Equal(t, "WithCommandRecords", oe.Option)
		assert.Equal(t, "want 1..MaxCommandRecords (16777216) records", oe.Reason)
	}
	w, err := runtime.NewBuilder(runtime.WithCommandRecords(runtime.MaxCommandRecords)).Build()
	require.NoError(t, err, "the bound itself is accepted")
	require.NoError(t, w.Close())

	var err2 error
	require.NotPanics(t, func() { _, err2 = runtime.NewBuilder(runtime.WithWorkers(2), nil).Build() })
	var oe *runtime.OptionError
	require.ErrorAs(t, err2, &oe)
	assert.ErrorIs(t, err2, runtime.ErrOption)
	assert.Equal(t, "runtime: NewBuilder(opts[1] = nil): want a non-nil Option, such as WithWorkers(4)", err2.Error())

	b := runtime.NewBuilder()
	assert.Same(t, scheduler.ErrNilHook, b.Hook(nil))
	require.NotPanics(t, func() { _, err2 = b.Build() })
	assert.Same(t, scheduler.ErrNilHook, err2)
	assert.Same(t, runtime.ErrBuilt, b.Hook(noopHook))
}

func noopHook(*scheduler.Hook) error { return nil }

// TestReentrantFrameAndClose: a system calling Frame or Close of its own
// world gets an error and nothing happens; the world runs on.
func TestReentrantFrameAndClose(t *testing.T) {
	var w *runtime.World
	var frameErrs, closeErrs []error
	runs := 0
	b := runtime.NewBuilder(runtime.WithWorkers(2))
	tab, _ := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 256, ChunkRows: 64})
	x, _ := runtime.AddColumn[int64](b, tab, "x")
	require.NoError(t, b.Add(systems.System{Name: "meddle", Phase: systems.Update,
		Manifest: systems.Manifest{Writes: []systems.ColumnRef{systems.Col(x)}},
		Run: func(ctx *systems.Context) error {
			runs++
			frameErrs = append(frameErrs, w.Frame(0.01))
			closeErrs = append(closeErrs, w.Close())
			xs, err := systems.Write(ctx, x)
			if err != nil {
				return err
			}
			ctx.RunKernel(tab.Chunks(), func(_, c int) { xs[c*tab.ChunkRows()]++ }) // needs the pool still open
			return nil
		}}))
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
	assert.ErrorIs(t, w.Frame(0.01), runtime.ErrClosed)
}

// TestDuplicateDomainName: domain names are unique among a Builder's
// domains, and each duplicate message says among what names must be unique.
func TestDuplicateDomainName(t *testing.T) {
	b := runtime.NewBuilder()
	first, err := b.Domain(ephemeral.DomainSpec{Name: "units", Capacity: 8})
	require.NoError(t, err)
	_, err = b.Table(ephemeral.TableSpec{Name: "units", Domain: first})
	require.NoError(t, err, "a table may share a domain's name")
	second, err := b.Domain(ephemeral.DomainSpec{Name: "units", Capacity: 16})
	assert.Nil(t, second)
	var de *runtime.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, runtime.ErrDuplicateName)
	assert.ErrorIs(t, err, runtime.ErrDefinition)
	assert.Equal(t, runtime.DefinitionError{Call: "Domain", Name: "units", Err: runtime.ErrDuplicateName}, *de)
	assert.Equal(t, `runtime: Domain "units": name already declared on this builder;`+
		` domain names must be unique among the builder's domains, since errors and reports name them`, err.Error())
	_, berr := b.Build()
	assert.Same(t, err, berr)

	for _, tc := range []struct{ call, kind string }{{"Table", "table"}, {"AddEvents", "event table"}} {
		e := &runtime.DefinitionError{Call: tc.call, Name: "Ball", Err: runtime.ErrDuplicateName}
		assert.Equal(t, `runtime: `+tc.call+` "Ball": name already declared on this builder; `+
			tc.kind+` names must be unique among the builder's `+tc.kind+`s, since errors and reports name them`, e.Error())
	}
}

// TestZeroBuilder: a Builder not made by NewBuilder is refused by every
// method with ErrZeroBuilder, not with a misleading option error.
func TestZeroBuilder(t *testing.T) {
	for name, b := range map[string]*runtime.Builder{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			_, err := b.Domain(ephemeral.DomainSpec{Name: "d", Capacity: 8})
			assert.ErrorIs(t, err, runtime.ErrZeroBuilder)
			tab, err := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 8})
			assert.ErrorIs(t, err, runtime.ErrZeroBuilder)
			assert.Nil(t, tab)
			_, err = runtime.AddColumn[int32](b, nil, "x")
			assert.ErrorIs(t, err, runtime.ErrZeroBuilder)
			_, err = runtime.AddEvents[int](b, events.Spec{Name: "e", Capacity: 4})
			assert.ErrorIs(t, err, runtime.ErrZeroBuilder)
			assert.ErrorIs(t, b.Add(), runtime.ErrZeroBuilder)
			assert.ErrorIs(t, b.Hook(func(*scheduler.Hook) error { return nil }), runtime.ErrZeroBuilder)
			w, err := b.Build()
			assert.Nil(t, w)
			assert.Same(t, runtime.ErrZeroBuilder, err)
			assert.NotErrorIs(t, err, runtime.ErrOption)
			assert.Equal(t, "runtime: Builder not made by NewBuilder: use runtime.NewBuilder(opts...)", err.Error())
		})
	}
}

package systems_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/internal/engine/frame"
	"github.com/tickwork/tickwork/internal/testkit/allockit"
	"github.com/tickwork/tickwork/systems"
)

type fixture struct {
	units, bodies, shots *ephemeral.Table
	health               *ephemeral.Column[int32]
	x, y                 *ephemeral.Column[float32]
	ttl                  *ephemeral.Column[int32]
	hits                 *events.Table[ephemeral.Handle] // NextFrame
	noise                *events.Table[int]              // ThisFrame
	score                *systems.Resource[int]
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{}
	d, err := ephemeral.NewDomain(ephemeral.DomainSpec{Name: "units", Capacity: 256, ChunkRows: 64})
	require.NoError(t, err)
	f.units, _ = ephemeral.NewTable(ephemeral.TableSpec{Name: "Unit", Domain: d})
	f.bodies, _ = ephemeral.NewTable(ephemeral.TableSpec{Name: "Body", Domain: d})
	f.shots, _ = ephemeral.NewTable(ephemeral.TableSpec{Name: "Shot", Capacity: 64})
	f.health, _ = ephemeral.AddColumn[int32](f.units, "health")
	f.x, _ = ephemeral.AddColumn[float32](f.bodies, "x")
	f.y, _ = ephemeral.AddColumn[float32](f.bodies, "y")
	f.ttl, err = ephemeral.AddColumn[int32](f.shots, "ttl")
	require.NoError(t, err)
	f.hits, _ = events.New[ephemeral.Handle](events.Spec{Name: "hits", Capacity: 8})
	f.noise, err = events.New[int](events.Spec{Name: "noise", Capacity: 8, Lifetime: events.ThisFrame})
	require.NoError(t, err)
	f.score = systems.NewResource("score", 0)
	return f
}

func noop(*systems.Context) {}

// declare declares a system of phase Update named name with fn, returning
// the result of systems.Declare.
func declare(name string, fn func(s *systems.Decl)) (frame.Declaration, error) {
	return frame.Declare(systems.System{Name: name, Phase: systems.Update,
		Declare: func(s *systems.Decl) systems.RunFunc { fn(s); return noop }}, nil)
}

// TestManifestDerived: every accessor adds its entry once, a write wins
// over a read of the same column, and the declaration's order constraints
// join the system's.
func TestManifestDerived(t *testing.T) {
	f := newFixture(t)
	d, err := frame.Declare(systems.System{Name: "all", Phase: systems.FixedUpdate, After: []string{"a"},
		Declare: func(s *systems.Decl) systems.RunFunc {
			assert.Equal(t, "all", s.Name())
			assert.Equal(t, systems.FixedUpdate, s.Phase())
			systems.Read(s, f.x)
			systems.Write(s, f.x) // write wins
			systems.Read(s, f.y)
			systems.Read(s, f.y)
			systems.NewQuery2(systems.Write(s, f.health), systems.Read(s, f.health)) // still a write
			systems.Record(s, f.shots)
			systems.NewSpawner1(s, f.ttl) // the same table: once
			systems.Emit(s, f.noise)
			systems.EmitParallel(s, f.noise)
			systems.Consume(s, f.hits)
			systems.ReadResource(s, f.score)
			systems.WriteResource(s, f.score)
			s.After("b")
			s.Before("c")
			return noop
		}}, nil)
	require.NoError(t, err)
	m := d.Manifest
	col := func(c *ephemeral.Column[float32]) frame.ColumnRef {
		return frame.ColumnRef{Table: c.Table(), Column: c.Name()}
	}
	assert.Equal(t, []frame.ColumnRef{col(f.y)}, m.Reads)
	assert.Equal(t, []frame.ColumnRef{col(f.x), {Table: f.units, Column: "health"}}, m.Writes)
	assert.Equal(t, []*ephemeral.Table{f.shots}, m.Records)
	assert.Equal(t, []events.Buffer{f.noise}, m.Emits)
	assert.Equal(t, []events.Buffer{f.hits}, m.Consumes)
	assert.Equal(t, []frame.ResourceUse{{Resource: f.score, Write: true}}, m.Resources)
	assert.Equal(t, []string{"a", "b"}, d.After)
	assert.Equal(t, []string{"c"}, d.Before)
	assert.ElementsMatch(t, []*ephemeral.Table{f.bodies, f.units, f.shots}, m.Tables())

	other, err := declare("other", func(s *systems.Decl) {
		systems.WriteResource(s, f.score)
		systems.Consume(s, f.hits)
		systems.Emit(s, f.noise)
		systems.Record(s, f.shots)
		systems.Write(s, f.health)
		systems.Read(s, f.y)
		systems.Write(s, f.x)
	})
	require.NoError(t, err)
	assert.True(t, m.Equal(&other.Manifest), "the same sets, declared in another order")
	other.Manifest.Reads = nil
	assert.False(t, m.Equal(&other.Manifest))
}

// TestDeclarationErrors: what a declaration refuses, with the call named
// and the fix said.
func TestDeclarationErrors(t *testing.T) {
	f := newFixture(t)
	other, _ := ephemeral.NewTable(ephemeral.TableSpec{Name: "Other", Capacity: 8})
	ox, _ := ephemeral.AddColumn[float32](other, "ox")
	var nilCol *ephemeral.Column[float32]
	var nilEv *events.Table[int]
	cases := []struct {
		name string
		fn   func(s *systems.Decl)
		want string
	}{
		{"nil read", func(s *systems.Decl) { systems.Read(s, nilCol) },
			`systems: system "s": bad declaration: Read: nil column (the AddColumn that made it failed: its error comes first)`},
		{"nil write", func(s *systems.Decl) { systems.Write(s, nilCol) }, "Write: nil column"},
		{"nil record", func(s *systems.Decl) { systems.Record(s, nil) }, "Record: nil table"},
		{"nil emit", func(s *systems.Decl) { systems.Emit(s, nilEv) }, "Emit: nil event table"},
		{"nil consume", func(s *systems.Decl) { systems.Consume(s, nilEv) }, "Consume: nil event table"},
		{"nil resource", func(s *systems.Decl) { systems.WriteResource[int](s, nil) }, "WriteResource: nil resource"},
		{"query over two tables", func(s *systems.Decl) { systems.NewQuery2(systems.Read(s, f.x), systems.Read(s, ox)) },
			`systems: system "s": bad declaration: NewQuery2: ephemeral: table "Other" column "ox": a query's columns must belong to one table (the query's first column is of table "Body")`},
		{"spawner over two tables", func(s *systems.Decl) { systems.NewSpawner2(s, f.x, ox) }, "NewSpawner2: ephemeral: table \"Other\""},
		{"wide spawner over two tables, then Reserve", func(s *systems.Decl) {
			systems.NewSpawner5(s, f.x, f.x, f.x, f.x, ox).Reserve(10) // Reserve of a failed spawner does nothing
		}, "NewSpawner5: ephemeral: table \"Other\" column \"ox\""},
		{"wide spawner with a nil column", func(s *systems.Decl) { systems.NewSpawner8(s, f.x, f.x, f.x, f.x, f.x, f.x, f.x, nilCol) },
			"NewSpawner8: ephemeral: column is nil: pass the *Column returned by AddColumn"},
		{"wide query over two tables", func(s *systems.Decl) {
			r := systems.Read(s, f.x)
			systems.NewQuery8(r, r, r, r, r, r, r, systems.Read(s, ox))
		}, `NewQuery8: ephemeral: table "Other" column "ox": a query's columns must belong to one table`},
		{"first error wins", func(s *systems.Decl) { systems.Read(s, nilCol); systems.Record(s, nil) }, "Read: nil column"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := declare("s", tc.fn)
			var de *systems.DefinitionError
			require.ErrorAs(t, err, &de)
			assert.ErrorIs(t, err, systems.ErrDefinition)
			assert.ErrorIs(t, err, systems.ErrBadDeclaration)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := declare("s", func(s *systems.Decl) { systems.NewQuery2(systems.Read(s, f.x), systems.Read(s, ox)) })
	var ede *ephemeral.DefinitionError
	require.ErrorAs(t, err, &ede, "the lower layer's error is reachable")
	assert.ErrorIs(t, err, ephemeral.ErrQueryTables)

	// An accessor of another declaration.
	var foreign systems.ReadColumn[float32]
	_, err = declare("a", func(s *systems.Decl) { foreign = systems.Read(s, f.y) })
	require.NoError(t, err)
	_, err = declare("b", func(s *systems.Decl) { systems.NewQuery2(systems.Read(s, f.x), foreign) })
	assert.ErrorContains(t, err, `system "b": bad declaration: NewQuery2: an accessor of another system's declaration`)

	// System-level errors.
	for _, tc := range []struct {
		sys  systems.System
		want error
	}{
		{systems.System{Declare: func(*systems.Decl) systems.RunFunc { return noop }}, systems.ErrEmptyName},
		{systems.System{Name: "p", Phase: 9, Declare: func(*systems.Decl) systems.RunFunc { return noop }}, systems.ErrBadPhase},
		{systems.System{Name: "d"}, systems.ErrNoDeclare},
		{systems.System{Name: "r", Declare: func(*systems.Decl) systems.RunFunc { return nil }}, systems.ErrNoRun},
	} {
		_, err := frame.Declare(tc.sys, nil)
		assert.ErrorIs(t, err, tc.want, tc.sys.Name)
		assert.ErrorIs(t, err, systems.ErrDefinition)
	}
	assert.PanicsWithValue(t, "systems: Read with a nil *Decl: call it in a DeclareFunc, with the Decl it was given",
		func() { systems.Read(nil, f.x) })
}

// TestColumnAccessors: reads by handle and row, writes by handle, misses
// for dead handles.
func TestColumnAccessors(t *testing.T) {
	if ephemeral.DebugBuild {
		t.Skip("the debug build refuses accessors outside their system's run (TestDebugBuildRefusesAccessorOutsideRun in the module root)")
	}
	f := newFixture(t)
	h, _ := f.units.Insert()
	dead, _ := f.units.Insert()
	f.units.Delete(dead)
	f.health.Set(h, 7)
	var r systems.ReadColumn[int32]
	var w systems.WriteColumn[int32]
	_, err := declare("s", func(s *systems.Decl) { r = systems.Read(s, f.health); w = systems.Write(s, f.health) })
	require.NoError(t, err)
	v, ok := r.Get(h)
	assert.True(t, ok)
	assert.Equal(t, int32(7), v)
	_, ok = r.Get(dead)
	assert.False(t, ok)
	row, ok := r.Row(h)
	assert.True(t, ok)
	assert.Equal(t, int32(7), r.At(row))
	assert.Same(t, f.health, r.Column())
	assert.True(t, w.Set(h, 9))
	assert.False(t, w.Set(dead, 1))
	*w.Ptr(h) += 1
	assert.Nil(t, w.Ptr(dead))
	v, _ = f.health.Get(h)
	assert.Equal(t, int32(10), v)
}

// bound declares a system with fn and binds it to an Env without a pool
// (one worker), as the scheduler does at seal.
func bound(t *testing.T, fn func(s *systems.Decl)) *frame.Run {
	t.Helper()
	run := &frame.Run{}
	_, err := frame.Declare(systems.System{Name: "s", Phase: systems.Update,
		Declare: func(s *systems.Decl) systems.RunFunc { fn(s); return noop }}, run)
	require.NoError(t, err)
	require.NoError(t, frame.Bind(run, &frame.Env{Playback: commands.NewPlayback(nil)}, 16))
	return run
}

// TestRecorder: a recorder records into the system's serial buffer; a
// worker's recorder into that worker's, keyed by chunk; misuse panics with
// the fix.
func TestRecorder(t *testing.T) {
	f := newFixture(t)
	var rec *systems.Recorder
	var sp systems.Spawner1[int32]
	run := bound(t, func(s *systems.Decl) {
		rec = systems.Record(s, f.shots)
		sp = systems.NewSpawner1(s, f.ttl)
		rec.Reserve(100) // before the buffers exist: applied at bind
		rec.ReserveWorkers(50)
		systems.ReserveValues(rec, f.ttl, 100)
	})
	require.NotNil(t, run.Serial)
	require.Len(t, run.Workers, 1)
	run.Env.Running = run // the recording below stands for the body's, as during Exec (the debug build checks it)
	// The reservations were applied at bind: 100 records and values record
	// without allocating, serially and on the worker.
	assert.Zero(t, allockit.PerOp(allockit.DefaultTries, 5, func() {
		for range 50 {
			systems.Set(rec, f.ttl, sp.Spawn(1), 2)
			rec.Worker(0, 0).Remove(0)
		}
		run.Serial.Reset()
		run.Workers[0].Reset()
	}))
	// Once bound, a body's Reserve within what is reserved allocates
	// nothing (no closure for the bind that is not needed).
	assert.Zero(t, allockit.PerOp(allockit.DefaultTries, 5, func() {
		rec.Reserve(100)
		rec.ReserveWorkers(50)
		systems.ReserveValues(rec, f.ttl, 100)
	}))
	h := sp.Spawn(5)
	rec.Delete(h)
	w := rec.Worker(0, 3)
	w.Create()
	sp.Worker(0, 4).Spawn(6)
	assert.Same(t, f.shots, rec.Table())
	assert.Equal(t, 3, run.Serial.Len(), "create, set, delete")
	assert.Equal(t, 3, run.Workers[0].Len(), "create; create, set")
	st := run.Env.Playback.PlayAll([]*commands.Buffer{run.Serial})
	assert.Equal(t, commands.Stats{Played: 3, Created: 1, Sets: 1, Deleted: 1}, stats(st))
	assert.PanicsWithValue(t, `systems: Recorder.Worker(1, ...) of table "Shot": worker index out of range 0..0; pass the worker index Parallel gave the kernel`,
		func() { rec.Worker(1, 0) })
	assert.Panics(t, func() { w.Worker(0, 0) }, "a worker's recorder has no workers")
}

func stats(s commands.Stats) commands.Stats { s.Err = nil; return s }

func TestConflicts(t *testing.T) {
	f := newFixture(t)
	m := func(fn func(s *systems.Decl)) frame.Manifest {
		d, err := declare("s", fn)
		require.NoError(t, err)
		return d.Manifest
	}
	move := m(func(s *systems.Decl) {
		systems.Write(s, f.x)
		systems.Emit(s, f.hits)
		systems.WriteResource(s, f.score)
	})
	look := m(func(s *systems.Decl) {
		systems.Read(s, f.x)
		systems.Consume(s, f.hits)
		systems.ReadResource(s, f.score)
	})
	kill := m(func(s *systems.Decl) { systems.Record(s, f.units); systems.Read(s, f.health) })
	grow := m(func(s *systems.Decl) { systems.Record(s, f.bodies); systems.Emit(s, f.noise) })
	hear := m(func(s *systems.Decl) { systems.Consume(s, f.noise) })
	emit2 := m(func(s *systems.Decl) { systems.Emit(s, f.hits) })
	for _, tc := range []struct {
		name string
		a, b frame.Manifest
		want []string
	}{
		{"write/read and resources", move, look, []string{"write/read Body.x", "write/read resource score"}},
		{"recorder and reads of its domain", kill, look, nil},
		{"recorder and writes of its domain", kill, move, nil},
		{"two recorders of one domain", kill, grow, []string{"record Unit/record Body Unit|Body"}},
		{"ThisFrame emit and consume", grow, hear, []string{"emit/consume event noise"}},
		{"two emitters", move, emit2, []string{"emit/emit event hits"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, o := range frame.Conflicts(nil, &tc.a, &tc.b) {
				got = append(got, o.String())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

package schema_test

import (
	"go/constant"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

func loadArena(t *testing.T) *schema.Schema {
	t.Helper()
	src, err := os.ReadFile("../arena/arena.tw")
	require.NoError(t, err)
	s, err := schema.Load("arena.tw", src)
	require.NoError(t, err)
	return s
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

func colNames(cs []*schema.Column) []string {
	return names(cs, func(c *schema.Column) string {
		if c.Table != nil {
			return c.Table.Name + "." + c.Name
		}
		return c.Event.Name + "." + c.Name
	})
}

func tableNames(ts []*schema.Table) []string {
	return names(ts, func(t *schema.Table) string { return t.Name })
}

func eventNames(es []*schema.EventTable) []string {
	return names(es, func(e *schema.EventTable) string { return e.Name })
}

// TestArenaDeclarations: the arena schema declares the arena's tables,
// events and constants as the runtime arena does (arena/arena.go).
func TestArenaDeclarations(t *testing.T) {
	s := loadArena(t)
	require.Len(t, s.Domains, 1)
	assert.Equal(t, "Actors", s.Domains[0].Name)
	assert.Equal(t, 100000, s.Domains[0].Capacity)
	assert.Equal(t, []string{"Unit", "Body"}, tableNames(s.Domains[0].Tables))
	assert.Equal(t, []string{"Unit", "Body", "Projectile", "ArenaClock"}, tableNames(s.Tables))
	proj := s.Tables[2]
	assert.Nil(t, proj.Domain)
	assert.Equal(t, 32768, proj.Capacity)
	assert.Equal(t, []string{"Projectile.X", "Projectile.Y", "Projectile.VX", "Projectile.VY", "Projectile.TTL",
		"Projectile.Damage", "Projectile.Target"}, colNames(proj.Columns))
	assert.Equal(t, "ref Body", proj.Columns[6].Type.String())
	assert.Equal(t, "int32", proj.Columns[4].Type.String())
	assert.Equal(t, 100000, s.Tables[1].Capacity, "a member table takes its domain's capacity")
	assert.Equal(t, "int64", s.Tables[3].Columns[0].Type.String())

	require.Len(t, s.Events, 2)
	assert.Equal(t, schema.NextFrame, s.Events[0].Lifetime)
	assert.Equal(t, schema.ThisFrame, s.Events[1].Lifetime)
	assert.Equal(t, []string{"HitEvent.Target", "HitEvent.Damage"}, colNames(s.Events[0].Fields))
	assert.True(t, s.Events[0].Fields[0].Type.Identical(proj.Columns[6].Type), "ref Unit and ref Body name one domain")

	consts := map[string]string{}
	for _, c := range s.Consts {
		consts[c.Name] = c.Type.String() + " " + c.Value.String()
	}
	assert.Equal(t, map[string]string{"W": "float32 2048", "R2": "float32 9", "Health": "int32 3", "TTL": "int32 96"}, consts)
	assert.Equal(t, []string{"ResolveRespawns", "Fire", "PresentationSync", "Respawn"},
		names(s.Externs, func(e *schema.Extern) string { return e.Name }))
}

// TestArenaAccess: each declared system's derived access is the manifest
// of the hand-written system it replaces (arena/arena.go, systems).
func TestArenaAccess(t *testing.T) {
	s := loadArena(t)
	type want struct {
		phase            schema.Phase
		before, after    []string
		reads, writes    []string
		probes, deletes  []string
		emits, consumes  []string
		counters         []string
		dense, dt, alive bool
	}
	wants := map[string]want{
		"ApplyHits": {phase: schema.FrameStart, after: []string{"ResolveRespawns"},
			writes: []string{"Unit.Health"}, probes: []string{"Unit"}, deletes: []string{"Unit"},
			emits: []string{"DeadSlot"}, consumes: []string{"HitEvent"}, counters: []string{"deaths"}},
		"Collision": {phase: schema.FixedUpdate, after: []string{"Fire"}, before: []string{"IntegrateBodies", "IntegrateProjectiles"},
			reads:  []string{"Body.X", "Body.Y", "Projectile.X", "Projectile.Y", "Projectile.TTL", "Projectile.Damage", "Projectile.Target"},
			probes: []string{"Body"}, deletes: []string{"Projectile"}, emits: []string{"HitEvent"},
			counters: []string{"lost", "hits", "expired"}, alive: true},
		"IntegrateBodies": {phase: schema.FixedUpdate,
			writes: []string{"Body.X", "Body.Y", "Body.VX", "Body.VY"}, dense: true, dt: true},
		"IntegrateProjectiles": {phase: schema.FixedUpdate,
			reads: []string{"Projectile.VX", "Projectile.VY"}, writes: []string{"Projectile.X", "Projectile.Y", "Projectile.TTL"},
			dense: true, dt: true},
		"Clock": {phase: schema.Update, writes: []string{"ArenaClock.Tick"}, dense: true},
	}
	require.Len(t, s.Systems, len(wants))
	for _, sys := range s.Systems {
		t.Run(sys.Name, func(t *testing.T) {
			w, ok := wants[sys.Name]
			require.True(t, ok)
			a := sys.Access
			assert.Equal(t, w.phase, sys.Phase)
			assert.Equal(t, w.before, sys.Before)
			assert.Equal(t, w.after, sys.After)
			assert.Equal(t, w.reads, nilIfEmpty(colNames(a.Reads)), "reads")
			assert.Equal(t, w.writes, nilIfEmpty(colNames(a.Writes)), "writes")
			assert.Equal(t, w.probes, nilIfEmpty(tableNames(a.Probes)), "probes")
			assert.Equal(t, w.deletes, nilIfEmpty(tableNames(a.Deletes)), "deletes")
			assert.Equal(t, w.emits, nilIfEmpty(eventNames(a.Emits)), "emits")
			assert.Equal(t, w.consumes, nilIfEmpty(eventNames(a.Consumes)), "consumes")
			assert.Equal(t, w.counters, sys.Counters)
			assert.Equal(t, w.dense, sys.Dense, "dense")
			assert.Equal(t, w.dt, a.DT, "@dt")
			assert.Equal(t, w.alive, a.Handle, "needs the row's handle")
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// constValue loads a schema of constants and returns the named one.
func constValue(t *testing.T, src, name string) *schema.Const {
	t.Helper()
	s, err := schema.Load("c.tw", []byte(src))
	require.NoError(t, err)
	for _, c := range s.Consts {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no constant %s", name)
	return nil
}

// TestConstantFolding: typed float constants round to their type after
// each operation, as the generated code would at run time; untyped ones
// are exact; integer division truncates.
func TestConstantFolding(t *testing.T) {
	f32 := func(c *schema.Const) float32 {
		f, _ := constant.Float64Val(c.Value)
		return float32(f)
	}
	tenth := float32(0.1)
	assert.Equal(t, tenth, f32(constValue(t, "const A: float32 = 0.1", "A")))
	// float32(0.1)*9 rounded to float32 (0.90000004), not 0.9 rounded once.
	want := float32(tenth * 9)
	got := f32(constValue(t, "const A: float32 = 0.1\nconst B: float32 = A * 9", "B"))
	assert.Equal(t, want, got)
	assert.NotEqual(t, float32(0.9), got, "the test must tell one rounding from two")
	// Untyped: 0.1*9 is exactly 0.9, then rounded once.
	assert.Equal(t, float32(0.9), f32(constValue(t, "const C: float32 = 0.1 * 9", "C")))
	assert.Equal(t, "3", constValue(t, "const D: int32 = 7 / 2", "D").Value.String())
	assert.Equal(t, "-3", constValue(t, "const D: int32 = -7 / 2", "D").Value.String())
	assert.Equal(t, "-1", constValue(t, "const D: int32 = -7 % 2", "D").Value.String())
	assert.Equal(t, "4096", constValue(t, "const W: float32 = 2048\nconst W2: float32 = 2 * W", "W2").Value.String())
	assert.Equal(t, "true", constValue(t, "const B: bool = 1 < 2 and not false", "B").Value.String())
	// A constant may name one declared later.
	assert.Equal(t, "11", constValue(t, "const A: int64 = B + 1\nconst B: int64 = 10", "A").Value.String())
}

// TestGuards: the join guard follows match arms and short-circuits.
func TestGuards(t *testing.T) {
	valid := map[string]string{
		"found and":           "match { found(b) and b.X > 0 => { set s.X = b.X } }",
		"after missing arm":   "match { missing(b) => {} b.X > 0 => { set s.X = b.X } else => { set s.X = b.Y } }",
		"not missing":         "match { not missing(b) => { set s.X = b.X } }",
		"missing or":          "match { missing(b) or b.X > 0 => {} else => { set s.X = b.X } }",
		"nested match":        "match { found(b) => { match { b.X > 1 => { set s.X = b.X } } } }",
		"found and in or":     "match { s.X > 0 and found(b) and b.Y > 0 => { set s.X = b.Y } }",
		"ref value unguarded": "match { s.Target == b => { count same } }",
	}
	for name, body := range valid {
		t.Run(name, func(t *testing.T) {
			src := prelude + "system S(phase: update) { from Shot s join Body b on s.Target " + body + " }"
			_, err := schema.Load("g.tw", []byte(src))
			assert.NoError(t, err)
		})
	}
}

// TestEventSystemWritesJoin: a system over events may write a joined
// row; its access then writes that column.
func TestEventSystemWritesJoin(t *testing.T) {
	s, err := schema.Load("e.tw", []byte(prelude+`system S(phase: frame_start) {
	from Hit h
	join Unit u on h.Target
	match { found(u) => { set u.Health -= h.Damage } }
}`))
	require.NoError(t, err)
	sys := s.Systems[0]
	assert.Equal(t, []string{"Unit.Health"}, colNames(sys.Access.Writes))
	assert.Empty(t, sys.Access.Reads)
	assert.Equal(t, []string{"Hit"}, eventNames(sys.Access.Consumes))
	assert.False(t, sys.Dense)
}

// TestUntypedDT: @dt takes the float type of its context.
func TestUntypedDT(t *testing.T) {
	s, err := schema.Load("dt.tw", []byte(prelude+`table F(capacity: 8) { A: float64  B: float32 }
system S(phase: update) {
	from F f
	set f.A += @dt * 2, f.B = f.B * @dt
	match { @dt > 0 => { set f.B = -@dt } }
}`))
	require.NoError(t, err)
	set := s.Systems[0].Body[0].(*schema.SetStmt)
	assert.Equal(t, "float64", set.Assigns[0].Value.Type().String())
	assert.Equal(t, "float32", set.Assigns[1].Value.Type().String())
	m := s.Systems[0].Body[1].(*schema.MatchStmt)
	cmp := m.Arms[0].Cond.(*schema.Binary)
	assert.Equal(t, "float64", cmp.X.Type().String(), "an untyped comparison defaults to float64")
}

// TestWhenAccess: a system's when condition is checked apart from its
// body: its reads (a resource, @tick, @dt) are in WhenAccess, not in the
// body's Access, and the body's reads are not in it.
func TestWhenAccess(t *testing.T) {
	s, err := schema.Load("when.tw", []byte(prelude+`resource Match { On: bool = true  Round: int32 = 0 }
resource Speed { K: float32 = 1 }
system S(phase: update, when: Match.On and @tick % 2 == 0 or @dt > 0.5) {
	from Shot s
	set s.X = s.X * Speed.K
}
system T(phase: update) { from Shot s set s.TTL -= 1 }`))
	require.NoError(t, err)
	y := s.Systems[0]
	require.NotNil(t, y.When)
	assert.Equal(t, "bool", y.When.Type().String())
	assert.Equal(t, "Match.On and @tick % 2 == 0 or @dt > 0.5", y.WhenSource)
	require.Len(t, y.WhenAccess.Resources, 1)
	assert.Equal(t, "Match", y.WhenAccess.Resources[0].Name)
	assert.True(t, y.WhenAccess.Tick)
	assert.True(t, y.WhenAccess.DT)
	assert.Empty(t, y.WhenAccess.Reads)
	require.Len(t, y.Access.Resources, 1)
	assert.Equal(t, "Speed", y.Access.Resources[0].Name)
	assert.False(t, y.Access.Tick)
	assert.Nil(t, s.Systems[1].When)
}

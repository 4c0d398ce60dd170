//go:build tickwork_debug

package tickwork_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// debugWorld is a world of one Unit table (hp float32, armor int32) with
// 100 units, the systems add registers, and a last system "after" that
// counts its runs.
func debugWorld(t *testing.T, add func(b *tickwork.Builder, hp *tickwork.Column[float32], armor *tickwork.Column[int32], rng *tickwork.Resource[uint64])) (*tickwork.World, *int) {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(2))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 4096, ChunkRows: 256})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	armor := tickwork.AddColumn[int32](b, units, "armor")
	rng := tickwork.AddResource(b, "rng", uint64(7))
	add(b, hp, armor, rng)
	runs := new(int)
	b.System("after", tickwork.LateUpdate, func(*tickwork.Decl) tickwork.RunFunc {
		return func(*tickwork.Context) { *runs++ }
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close() })
	q := tickwork.HostQuery2(hp, armor)
	for i := range 100 {
		_, err := q.Insert(float32(i), int32(i))
		require.NoError(t, err)
	}
	return w, runs
}

// TestDebugBuildNamesUndeclaredWrite: a system that writes memory it took
// from a read accessor (ReadColumn.All, a read column's query pointer, a
// read resource's pointer, from its body or from a Parallel kernel) fails
// the frame with an *UndeclaredWriteError naming it and the column or
// resource; the systems after it do not run. Systems that only read, or
// that declared the write, pass.
func TestDebugBuildNamesUndeclaredWrite(t *testing.T) {
	cases := []struct {
		name     string
		system   func(hp *tickwork.Column[float32], armor *tickwork.Column[int32], rng *tickwork.Resource[uint64]) tickwork.DeclareFunc
		column   string
		resource string
	}{
		{"ReadColumn.All", func(hp *tickwork.Column[float32], _ *tickwork.Column[int32], _ *tickwork.Resource[uint64]) tickwork.DeclareFunc {
			return func(s *tickwork.Decl) tickwork.RunFunc {
				r := tickwork.Read(s, hp)
				return func(*tickwork.Context) { r.All()[3] = -1 }
			}
		}, "Unit.hp", ""},
		{"query pointer of a read column", func(_ *tickwork.Column[float32], armor *tickwork.Column[int32], _ *tickwork.Resource[uint64]) tickwork.DeclareFunc {
			return func(s *tickwork.Decl) tickwork.RunFunc {
				q := tickwork.NewQuery1(tickwork.Read(s, armor))
				return func(*tickwork.Context) {
					for r := range q.All() {
						*r.Get() += 1
					}
				}
			}
		}, "Unit.armor", ""},
		{"Parallel kernel through All", func(hp *tickwork.Column[float32], _ *tickwork.Column[int32], _ *tickwork.Resource[uint64]) tickwork.DeclareFunc {
			return func(s *tickwork.Decl) tickwork.RunFunc {
				r := tickwork.Read(s, hp)
				return func(ctx *tickwork.Context) {
					tickwork.Parallel(ctx, hp.Table().Chunks(), r, func(r *tickwork.ReadColumn[float32], _, chunk int) {
						if chunk == 0 {
							r.All()[0] = 42
						}
					})
				}
			}
		}, "Unit.hp", ""},
		{"read resource", func(_ *tickwork.Column[float32], _ *tickwork.Column[int32], rng *tickwork.Resource[uint64]) tickwork.DeclareFunc {
			return func(s *tickwork.Decl) tickwork.RunFunc {
				p := tickwork.ReadResource(s, rng)
				return func(*tickwork.Context) { *p = *p*6364136223846793005 + 1 }
			}
		}, "", "rng"},
		{"read slice resource's elements", nil, "", "path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, runs := debugWorld(t, func(b *tickwork.Builder, hp *tickwork.Column[float32], armor *tickwork.Column[int32], rng *tickwork.Resource[uint64]) {
				if tc.system != nil {
					b.System("cheat", tickwork.Update, tc.system(hp, armor, rng))
					return
				}
				path := tickwork.AddSliceResource(b, "path", []int32{1, 2, 3}, 0, 8)
				b.System("cheat", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
					p := tickwork.ReadResource(s, path)
					return func(*tickwork.Context) { (*p)[1] = 7 } // the header is unchanged: the elements' sum sees it
				})
			})
			err := w.Frame(1.0 / 60)
			require.Error(t, err)
			assert.ErrorIs(t, err, tickwork.ErrUndeclaredWrite)
			assert.ErrorIs(t, err, tickwork.ErrSystem)
			var uw *tickwork.UndeclaredWriteError
			require.ErrorAs(t, err, &uw)
			assert.Equal(t, tickwork.UndeclaredWriteError{System: "cheat", Column: tc.column, Resource: tc.resource}, *uw)
			var se *tickwork.SystemError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "cheat", se.System)
			assert.Contains(t, err.Error(), `system "cheat" changed`)
			assert.Equal(t, 0, *runs, "the systems after the failing one do not run")
		})
	}
}

// TestDebugBuildPassesDeclaredAccess: reads that do not write, and writes
// declared with Write and WriteResource, run frames without an error, and
// the debug build changes no result.
func TestDebugBuildPassesDeclaredAccess(t *testing.T) {
	var sum float32
	w, runs := debugWorld(t, func(b *tickwork.Builder, hp *tickwork.Column[float32], armor *tickwork.Column[int32], rng *tickwork.Resource[uint64]) {
		b.System("heal", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
			q := tickwork.NewQuery2(tickwork.Write(s, hp), tickwork.Read(s, armor))
			p := tickwork.WriteResource(s, rng)
			return func(*tickwork.Context) {
				for r := range q.All() {
					h, a := r.Get()
					*h += float32(*a)
				}
				*p++
			}
		})
		b.System("look", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
			r := tickwork.Read(s, hp)
			p := tickwork.ReadResource(s, rng)
			return func(*tickwork.Context) {
				sum = 0
				for _, v := range r.All()[:100] {
					sum += v
				}
				_ = *p
			}
		})
	})
	for range 3 {
		require.NoError(t, w.Frame(1.0/60))
	}
	assert.Equal(t, 3, *runs)
	assert.Equal(t, float32(4*4950), sum) // 4950 at start, plus 4950 a frame
}

// TestDebugBuildPoisonsFreedRows: a deleted row's values read the poison
// pattern (NaN, -1) in every column of its table; a new row in the slot
// reads zero.
func TestDebugBuildPoisonsFreedRows(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	armor := tickwork.AddColumn[int32](b, units, "armor")
	alive := tickwork.AddColumn[bool](b, units, "alive")
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	q := tickwork.HostQuery3(hp, armor, alive)
	h, err := q.Insert(5, 6, true)
	require.NoError(t, err)
	require.True(t, units.Delete(h))
	row := h.Index()
	assert.True(t, math.IsNaN(float64(hp.All()[row])), "hp of a freed row: %v", hp.All()[row])
	assert.Equal(t, int32(-1), armor.All()[row])
	assert.False(t, alive.All()[row], "bools stay valid (false)")
	h2, err := q.Insert(0, 0, false)
	require.NoError(t, err)
	require.Equal(t, row, h2.Index(), "the slot is reused")
	assert.Equal(t, float32(0), hp.All()[row])
	assert.Equal(t, int32(0), armor.All()[row])
}

// TestDebugBuildRefusesAccessorOutsideRun: an accessor used by the host
// between frames panics with the fix; a lease probed with a handle of
// another domain panics, naming both tags.
func TestDebugBuildRefusesAccessorOutsideRun(t *testing.T) {
	var acc tickwork.ReadColumn[float32]
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	other := b.Table(tickwork.TableSpec{Name: "Other", Capacity: 64})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	b.System("look", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		acc = tickwork.Read(s, hp)
		return func(*tickwork.Context) {}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err := units.Insert()
	require.NoError(t, err)
	g, err := other.Insert()
	require.NoError(t, err)
	assert.PanicsWithValue(t, `systems: Get on an accessor of column "Unit.hp" of system "look" outside that system's run `+
		`(the host between frames, another system, or a kernel still running after the body returned): use an accessor only `+
		`in the body of the system that declared it and in the kernels that body runs; between frames the host reads the column itself (tickwork_debug check)`,
		func() { acc.Get(h) })
	assert.PanicsWithValue(t, `ephemeral: a Lease of table "Unit" (domain "Unit", tag `+tagOf(h)+`) probed with handle `+g.String()+
		` of another domain (tag `+tagOf(g)+`): a handle names rows only in the tables of the domain that issued it; `+
		`probe a table of the handle's own domain (tickwork_debug check)`,
		func() { units.Lease().Row(g) })
	_, ok := units.Lease().Row(h)
	assert.True(t, ok)
}

func tagOf(h tickwork.Handle) string { return strconv.Itoa(int(h.Tag())) }

// TestDebugBuildRefusesSerialAccessorsOutsideRun: a system's recorder,
// emitter, consumer and the lease of its accessor, kept and used by the host
// between frames, panic naming the system; in the system's body they
// work.
func TestDebugBuildRefusesSerialAccessorsOutsideRun(t *testing.T) {
	var (
		rec   *tickwork.Recorder
		emit  *tickwork.Emitter[int32]
		lease tickwork.Lease
		cons  *tickwork.Consumer[int32]
	)
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	hp := tickwork.AddColumn[float32](b, units, "hp")
	noise := tickwork.AddEvents[int32](b, tickwork.EventSpec{Name: "Noise", Capacity: 8, Lifetime: tickwork.ThisFrame, MayGoUnread: true})
	b.System("hear", tickwork.LateUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		cons = tickwork.Consume(s, noise)
		return func(*tickwork.Context) { cons.Read() }
	})
	b.System("spawn", tickwork.Update, func(s *tickwork.Decl) tickwork.RunFunc {
		rec = tickwork.Record(s, units)
		emit = tickwork.Emit(s, noise)
		lease = tickwork.Read(s, hp).Lease()
		return func(*tickwork.Context) {
			rec.Create()
			emit.Emit(1)
			lease.Row(0)
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, 1, units.Len())
	h, err := units.Insert()
	require.NoError(t, err)
	assert.PanicsWithValue(t, `systems: the Recorder of table "Unit" of system "spawn" used outside that system's run `+
		`(the host between frames, another system, or a goroutine the body left running): use it only in that system's body; `+
		`between frames the host changes tables and event tables itself (tickwork_debug check)`, func() { rec.Create() })
	assert.Panics(t, func() { emit.Emit(2) })
	assert.Panics(t, func() { cons.Read() })
	assert.PanicsWithValue(t, `ephemeral: a Lease of table "Unit" from an accessor of system "spawn" probed outside that system's run `+
		`(kept by the host, another system, or a goroutine the body left running): probe through a system's lease only in its body `+
		`and the kernels it runs; between frames take the table's own (Table.Lease) (tickwork_debug check)`, func() { lease.Row(h) })
	_, ok := units.Lease().Row(h)
	assert.True(t, ok, "the table's own lease is the host's")
}

// TestDebugBuildNamesPoisonedHandle: a handle read from a freed row (a
// Handle column's poison) probed through a lease panics saying so.
func TestDebugBuildNamesPoisonedHandle(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	units := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 64})
	target := tickwork.AddColumn[tickwork.Handle](b, units, "target")
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	q := tickwork.HostQuery1(target)
	a, err := q.Insert(0)
	require.NoError(t, err)
	h, err := q.Insert(a)
	require.NoError(t, err)
	require.True(t, units.Delete(h))
	stale := target.All()[h.Index()] // a use after free
	assert.PanicsWithValue(t, `ephemeral: a Lease of table "Unit" probed with a handle read from a freed row (every byte PoisonByte): `+
		`the row was deleted before this read; read handles only from live rows, or keep the value before the delete (tickwork_debug check)`,
		func() { units.Lease().Row(stale) })
}

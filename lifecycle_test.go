package tickwork_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/internal/workerpolicy"
)

// unitLast is what a Unit's delete and detach events keep of its row.
type unitLast struct {
	HP int32
	X  float32
}

// corpseLast keeps a Corpse's HP, through a tag naming the column.
type corpseLast struct {
	Health int32 `tickwork:"HP"`
}

// flock is a world whose FixedUpdate kernel, in parallel over the chunks
// of table Unit, spawns, deletes, marks (attach to the tag table Marked),
// unmarks (remove) and moves units to table Corpse, whose rows a serial
// Update system deletes: every change of every kind, recorded by three
// lifecycle event tables and logged by their observers.
type flock struct {
	w                 *tickwork.World
	unit, corpse      *tickwork.Table
	hp                *tickwork.Column[int32]
	x                 *tickwork.Column[float32]
	units             *tickwork.Events[tickwork.LifecycleEvent[unitLast]]
	marks             *tickwork.Events[tickwork.LifecycleEvent[struct{}]]
	corpses           *tickwork.Events[tickwork.LifecycleEvent[corpseLast]]
	log               []string // every event observed, "table change index:generation values"
	counts            map[tickwork.LifecycleChange]int
	logging, counting bool
	events            int // every event observed
}

// flockKernel is the kernel's state (passed by value to Parallel).
type flockKernel struct {
	q         tickwork.Query2[int32, float32]
	sp        tickwork.Spawner2[int32, float32]
	rec, dead *tickwork.Recorder
	mark      *tickwork.Recorder
	marked    tickwork.Lease
}

func (k *flockKernel) chunk(w, c int) {
	rec, dead, mark, sp := k.rec.Worker(w, c), k.dead.Worker(w, c), k.mark.Worker(w, c), k.sp.Worker(w, c)
	for r, h := range k.q.Chunk(c) {
		hp, x := r.Get()
		*hp--
		*x += 0.5
		switch {
		case *hp <= 0:
			tickwork.Move(h, rec, dead)
			sp.Spawn(int32(h.Index()%29)+2, float32(c))
		case *hp%11 == 0:
			rec.Delete(h)
			sp.Spawn(int32(h.Index()%17)+3, float32(c))
		case *hp%5 == 0 && !k.marked.IsAlive(h):
			mark.Attach(h)
		case *hp%3 == 0 && k.marked.IsAlive(h):
			mark.Remove(h)
		}
	}
}

func newFlock(t testing.TB, workers int) *flock {
	b := tickwork.NewBuilder(tickwork.WithWorkers(workers), tickwork.WithFixedStep(0.01))
	dom := b.Domain(tickwork.DomainSpec{Name: "Flock", Capacity: 1024, ChunkRows: 64})
	s := &flock{counts: map[tickwork.LifecycleChange]int{}}
	s.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: dom})
	s.hp = tickwork.AddColumn[int32](b, s.unit, "HP")
	s.x = tickwork.AddColumn[float32](b, s.unit, "X")
	marked := b.Table(tickwork.TableSpec{Name: "Marked", Domain: dom})
	s.corpse = b.Table(tickwork.TableSpec{Name: "Corpse", Domain: dom})
	tickwork.AddColumn[int32](b, s.corpse, "HP")
	s.units = tickwork.Lifecycle[unitLast](b, s.unit, tickwork.LifecycleSpec{Name: "UnitLife", Capacity: 4096})
	s.marks = tickwork.Lifecycle[struct{}](b, marked, tickwork.LifecycleSpec{Name: "MarkLife", Capacity: 4096})
	s.corpses = tickwork.Lifecycle[corpseLast](b, s.corpse, tickwork.LifecycleSpec{Name: "CorpseLife", Capacity: 4096,
		On: tickwork.Attached | tickwork.Deleted})
	b.System("flock", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		k := flockKernel{
			q:      tickwork.NewQuery2(tickwork.Write(d, s.hp), tickwork.Write(d, s.x)),
			sp:     tickwork.NewSpawner2(d, s.hp, s.x),
			rec:    tickwork.Record(d, s.unit),
			dead:   tickwork.Record(d, s.corpse),
			mark:   tickwork.Record(d, marked),
			marked: tickwork.Presence(d, marked),
		}
		return func(ctx *tickwork.Context) { tickwork.Parallel(ctx, s.unit.Chunks(), k, (*flockKernel).chunk) }
	})
	b.System("bury", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		rec := tickwork.Record(d, s.corpse)
		return func(*tickwork.Context) {
			for row := range s.corpse.Chunks() * s.corpse.ChunkRows() {
				if h, ok := s.corpse.HandleAt(row); ok {
					rec.Delete(h)
				}
			}
		}
	})
	observe(b, s, "Unit", s.units, func(v unitLast) string { return fmt.Sprint(v.HP, v.X) })
	observe(b, s, "Marked", s.marks, func(struct{}) string { return "" })
	observe(b, s, "Corpse", s.corpses, func(v corpseLast) string { return fmt.Sprint(v.Health) })
	q := tickwork.HostQuery2(s.hp, s.x)
	require.NoError(t, q.InsertN(500, func(h tickwork.Handle, hp *int32, x *float32) {
		*hp, *x = int32(h.Index()%23)+1, float32(h.Index())
	}))
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	s.w = w
	s.logging, s.counting = true, true
	return s
}

func observe[V any](b *tickwork.Builder, s *flock, table string, ev *tickwork.Events[tickwork.LifecycleEvent[V]], row func(V) string) {
	tickwork.Observe(b, ev, func(e *tickwork.LifecycleEvent[V]) {
		s.events++
		if s.counting {
			s.counts[e.Change]++
		}
		if s.logging {
			s.log = append(s.log, fmt.Sprint(table, " ", e.Change, " ", e.Handle.Index(), ":", e.Handle.Generation(), " ", row(e.Row)))
		}
	})
}

// The lifecycle events of a parallel kernel's creates, deletes, attaches,
// detaches and moves come out in the same order, with the same handles
// and row values, at 1, 2, 4 and 8 workers, with the pool's normal split
// and with the chunks dealt out, reversed or shuffled (internal/chunkorder).
func TestLifecycleOrderDeterministic(t *testing.T) {
	var want []string
	for _, o := range append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...) {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%v/workers=%d", o, workers), func(t *testing.T) {
				restore := chunkorder.Set(o)
				unforce := workerpolicy.Force()
				s := newFlock(t, workers)
				unforce()
				restore()
				for range 40 {
					require.NoError(t, s.w.Frame(0.02))
				}
				for _, c := range []tickwork.LifecycleChange{tickwork.Created, tickwork.Attached, tickwork.Deleted, tickwork.Detached} {
					require.Positive(t, s.counts[c], "some %v events", c)
				}
				if want == nil {
					t.Logf("%d events: %v", len(s.log), s.counts)
					want = s.log
					return
				}
				require.Equal(t, len(want), len(s.log), "event count")
				for i := range want {
					if want[i] != s.log[i] {
						t.Fatalf("event %d: got %q, want %q (the normal split at 1 worker)", i, s.log[i], want[i])
					}
				}
			})
		}
	}
}

// Every row that joins a table is one Created or Attached event and every
// row that leaves it one Deleted or Detached: the events of a table
// account for its length.
func TestLifecycleCountsFollowLen(t *testing.T) {
	s := newFlock(t, 2)
	n := s.unit.Len()
	for range 30 {
		require.NoError(t, s.w.Frame(0.02))
	}
	require.NoError(t, s.w.Frame(0)) // the last frame's events, read the frame after
	units := 0
	for _, l := range s.log {
		switch {
		case strings.HasPrefix(l, "Unit create"), strings.HasPrefix(l, "Unit attach"):
			units++
		case strings.HasPrefix(l, "Unit delete"), strings.HasPrefix(l, "Unit detach"):
			units--
		}
	}
	assert.Equal(t, s.unit.Len()-n, units)
}

// script is a world of two Update systems, "first" and "second" after it,
// that record what the frame's step says (each system calls step with its
// own recorders, the other system's nil); the lifecycle events of Unit,
// Marked and Corpse are collected per table.
type script struct {
	w                    *tickwork.World
	unit, marked, corpse *tickwork.Table
	step                 func(frame uint64, first, second *scriptRecs)
	got                  map[string][]string
}

type scriptRecs struct {
	unit, marked, corpse *tickwork.Recorder
	hp                   *tickwork.Column[int32]
}

func newScript(t *testing.T, step func(frame uint64, first, second *scriptRecs)) *script {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	dom := b.Domain(tickwork.DomainSpec{Name: "D", Capacity: 64})
	s := &script{step: step, got: map[string][]string{}}
	s.unit = b.Table(tickwork.TableSpec{Name: "Unit", Domain: dom})
	hp := tickwork.AddColumn[int32](b, s.unit, "HP")
	tickwork.AddColumn[float32](b, s.unit, "X")
	s.marked = b.Table(tickwork.TableSpec{Name: "Marked", Domain: dom})
	s.corpse = b.Table(tickwork.TableSpec{Name: "Corpse", Domain: dom})
	tickwork.AddColumn[int32](b, s.corpse, "HP")
	units := tickwork.Lifecycle[unitLast](b, s.unit, tickwork.LifecycleSpec{Name: "UnitLife", Capacity: 64})
	marks := tickwork.Lifecycle[struct{}](b, s.marked, tickwork.LifecycleSpec{Name: "MarkLife", Capacity: 64})
	corpses := tickwork.Lifecycle[corpseLast](b, s.corpse, tickwork.LifecycleSpec{Name: "CorpseLife", Capacity: 64})
	recs := map[string]*scriptRecs{}
	for _, name := range []string{"first", "second"} {
		b.System(name, tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
			r := &scriptRecs{unit: tickwork.Record(d, s.unit), marked: tickwork.Record(d, s.marked),
				corpse: tickwork.Record(d, s.corpse), hp: hp}
			recs[name] = r
			if name == "second" {
				d.After("first")
			}
			return func(ctx *tickwork.Context) {
				// Each system records through its own recorders only (the
				// debug build refuses another system's): the other is nil.
				if name == "first" {
					s.step(ctx.Frame(), recs["first"], nil)
				} else {
					s.step(ctx.Frame(), nil, recs["second"])
				}
			}
		})
	}
	collect := func(table string, e tickwork.LifecycleChange, h tickwork.Handle, row string) {
		s.got[table] = append(s.got[table], fmt.Sprint(e, " ", h.Index(), ":", h.Generation(), row))
	}
	tickwork.Observe(b, units, func(e *tickwork.LifecycleEvent[unitLast]) {
		collect("Unit", e.Change, e.Handle, fmt.Sprint(" ", e.Row.HP))
	})
	tickwork.Observe(b, marks, func(e *tickwork.LifecycleEvent[struct{}]) { collect("Marked", e.Change, e.Handle, "") })
	tickwork.Observe(b, corpses, func(e *tickwork.LifecycleEvent[corpseLast]) {
		collect("Corpse", e.Change, e.Handle, fmt.Sprint(" ", e.Row.Health))
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	s.w = w
	return s
}

// Lifecycle events follow playback order exactly: the systems' buffers
// in sealed order, each in record order, one event per row per change,
// with the real handles of provisional ones; a row created and deleted in
// one playback gives both events, the delete carrying the values its
// deferred writes set; a move is a detach from one table and an attach to
// the other, a delete one event per table the entity had a row in.
func TestLifecyclePlaybackOrder(t *testing.T) {
	var p1, p2, p3 tickwork.Handle // provisional
	var h2 tickwork.Handle         // real, resolved between frames
	s := newScript(t, func(frame uint64, first, second *scriptRecs) {
		switch {
		case frame == 0 && first != nil:
			p1 = first.unit.Create()
			tickwork.Set(first.unit, first.hp, p1, 7)
			p2 = first.unit.Create()
			tickwork.Set(first.unit, first.hp, p2, 9)
			first.marked.Attach(p2)
			first.unit.Delete(p1) // created and deleted in one playback
		case frame == 0:
			p3 = second.unit.Create()
		case frame == 1 && first != nil:
			tickwork.Move(h2, first.unit, first.corpse)
		case frame == 1:
			second.marked.Remove(h2)
		case frame == 2 && first != nil:
			first.corpse.Delete(h2) // its Corpse row, the HP the move carried
		}
	})
	require.NoError(t, s.w.Frame(0.01))
	r1, ok := s.w.Resolve(p1)
	require.True(t, ok)
	h2, ok = s.w.Resolve(p2)
	require.True(t, ok)
	r3, ok := s.w.Resolve(p3)
	require.True(t, ok)
	assert.False(t, s.unit.IsAlive(r1), "created then deleted")
	for range 3 {
		require.NoError(t, s.w.Frame(0.01))
	}
	hs := func(h tickwork.Handle) string { return fmt.Sprint(h.Index(), ":", h.Generation()) }
	assert.Equal(t, []string{
		"create " + hs(r1) + " 0",
		"create " + hs(h2) + " 0",
		"delete " + hs(r1) + " 7",
		"create " + hs(r3) + " 0",
		"detach " + hs(h2) + " 9",
	}, s.got["Unit"])
	assert.Equal(t, r1.Index(), r3.Index(), "second's create takes the slot first's delete freed")
	assert.Equal(t, []string{"attach " + hs(h2), "detach " + hs(h2)}, s.got["Marked"])
	assert.Equal(t, []string{"attach " + hs(h2) + " 0", "delete " + hs(h2) + " 9"}, s.got["Corpse"])
}

// A frame of the flock, its lifecycle events and their observers
// allocates nothing in steady state.
func TestLifecycleAllocatesNothing(t *testing.T) {
	s := newFlock(t, 2)
	s.logging, s.counting = false, false
	for range 20 {
		require.NoError(t, s.w.Frame(0.02))
	}
	n := s.events
	assert.Zero(t, testing.AllocsPerRun(100, func() { require.NoError(t, s.w.Frame(0.02)) }))
	assert.Greater(t, s.events-n, 10000, "the frames made events")
}

// A full lifecycle table refuses the event, counts it in Dropped and the
// frame's EventsDropped, and the frame returns an *OverflowError; the
// rows are made all the same. Structural changes of the host between
// frames make no events.
func TestLifecycleOverflowAndHost(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 16})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	ev := tickwork.Lifecycle[struct{ Y float64 }](b, balls, tickwork.LifecycleSpec{Name: "BallLife", Capacity: 2, On: tickwork.Created})
	spawn := 0
	b.System("spawn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(d, y)
		return func(*tickwork.Context) {
			for range spawn {
				sp.Spawn(1)
			}
		}
	})
	_, err := tickwork.HostQuery1(y).Insert(5)
	require.NoError(t, err)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	h, err := tickwork.HostQuery1(y).Insert(6)
	require.NoError(t, err)
	require.True(t, balls.Delete(h))

	require.NoError(t, w.Frame(0.01))
	assert.Zero(t, ev.Len()+ev.Pending(), "the host's inserts and delete made no events")

	spawn = 3
	err = w.Frame(0.01)
	var oe *tickwork.OverflowError
	require.ErrorAs(t, err, &oe)
	assert.ErrorIs(t, err, tickwork.ErrOverflow)
	assert.Equal(t, "BallLife", oe.Table)
	assert.Equal(t, int64(1), w.Report().EventsDropped)
	assert.Equal(t, 4, balls.Len(), "every create played")
	require.Len(t, ev.Read(), 2)
	assert.Equal(t, tickwork.Created, ev.Read()[0].Change)
}

// A row struct whose fields do not pair with the table's columns, by
// name (or tag) and type, fails the declaration naming the field and
// listing the columns.
func TestLifecycleRowCopyErrors(t *testing.T) {
	cases := []struct {
		name    string
		declare func(b *tickwork.Builder, t *tickwork.Table)
		want    string
	}{
		{"no such column", func(b *tickwork.Builder, t *tickwork.Table) {
			tickwork.Lifecycle[struct{ Mana int32 }](b, t, tickwork.LifecycleSpec{Name: "L", Capacity: 4})
		}, `column "Mana"`},
		{"other type", func(b *tickwork.Builder, t *tickwork.Table) {
			tickwork.Lifecycle[struct{ HP float32 }](b, t, tickwork.LifecycleSpec{Name: "L", Capacity: 4})
		}, "of type float32; the table's columns: HP int32, X float32"},
		{"tag names no column", func(b *tickwork.Builder, t *tickwork.Table) {
			tickwork.Lifecycle[struct {
				H int32 `tickwork:"Health"`
			}](b, t, tickwork.LifecycleSpec{Name: "L", Capacity: 4})
		}, `column "Health"`},
		{"not a struct", func(b *tickwork.Builder, t *tickwork.Table) {
			tickwork.Lifecycle[int32](b, t, tickwork.LifecycleSpec{Name: "L", Capacity: 4})
		}, "got int32, want a struct"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := tickwork.NewBuilder(tickwork.WithWorkers(1))
			u := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 8})
			tickwork.AddColumn[int32](b, u, "HP")
			tickwork.AddColumn[float32](b, u, "X")
			c.declare(b, u)
			_, err := b.Build()
			require.ErrorIs(t, err, tickwork.ErrRowCopy)
			assert.ErrorIs(t, err, tickwork.ErrStorageDefinition)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), `table "Unit"`)
		})
	}

	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	assert.Nil(t, tickwork.Lifecycle[struct{}](b, nil, tickwork.LifecycleSpec{Name: "L", Capacity: 4}))
	_, err := b.Build()
	assert.ErrorIs(t, err, tickwork.ErrNilTable)

	b = tickwork.NewBuilder(tickwork.WithWorkers(1))
	u := b.Table(tickwork.TableSpec{Name: "Unit", Capacity: 8})
	assert.Nil(t, tickwork.Lifecycle[struct{}](b, u, tickwork.LifecycleSpec{Name: "L", Capacity: 0}))
	_, err = b.Build()
	assert.ErrorIs(t, err, tickwork.ErrCapacityRange)
}

func TestLifecycleChangeString(t *testing.T) {
	assert.Equal(t, "create", tickwork.Created.String())
	assert.Equal(t, "detach", tickwork.Detached.String())
	assert.Equal(t, "create|delete", (tickwork.Created | tickwork.Deleted).String())
	assert.Equal(t, "none", tickwork.LifecycleChange(0).String())
	assert.Equal(t, "attach|LifecycleChange(16)", (tickwork.Attached | 16).String())
}

// A snapshot holds a lifecycle table's events as any event table's, and
// a restore makes no event of its own: the frame after a restore reads
// the events the snapshot held, exactly as the world it was taken from.
func TestLifecycleSnapshot(t *testing.T) {
	s := newFlock(t, 1)
	for range 5 {
		require.NoError(t, s.w.Frame(0.02))
	}
	snap, err := s.w.Snapshot(nil)
	require.NoError(t, err)
	s.log = s.log[:0]
	require.NoError(t, s.w.Frame(0.02))
	want := append([]string(nil), s.log...)
	require.NotEmpty(t, want)

	require.NoError(t, s.w.Restore(snap))
	s.log = s.log[:0]
	require.NoError(t, s.w.Frame(0.02))
	assert.Equal(t, want, s.log)
}

// A FixedUpdate consumer reads at each tick the changes of the playbacks
// since its last tick, by the delivery rule: a create played after tick k
// is read at tick k+1, within the frame or in the next one.
func TestLifecycleFixedUpdateConsumer(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithFixedStep(0.01))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 64})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	life := tickwork.Lifecycle[struct{}](b, balls, tickwork.LifecycleSpec{Name: "BallLife", Capacity: 64})
	b.System("spawn", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(d, y)
		return func(ctx *tickwork.Context) { sp.Spawn(float64(ctx.Tick())) }
	})
	var got []string
	b.System("read", tickwork.FixedUpdate, func(d *tickwork.Decl) tickwork.RunFunc {
		in := tickwork.Consume(d, life)
		d.After("spawn")
		return func(ctx *tickwork.Context) {
			got = append(got, fmt.Sprint(ctx.Tick(), ":", len(in.Read())))
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	require.NoError(t, w.Frame(0.03)) // 3 ticks
	require.NoError(t, w.Frame(0.01)) // 1 tick
	assert.Equal(t, []string{"0:0", "1:1", "2:1", "3:1"}, got)
}

// Records that change nothing make no event: a create that does not fit,
// and the records naming its provisional handle. A Remove of an entity's
// last row is its row's Detached event; the entity, deleted at the end of
// the playback for having no row, makes no Deleted one.
func TestLifecycleFailedCreateAndLastRemove(t *testing.T) {
	var full tickwork.Handle
	var s *script
	s = newScript(t, func(frame uint64, first, second *scriptRecs) {
		if first == nil {
			return
		}
		switch frame {
		case 0:
			for range 64 {
				first.unit.Create()
			}
			full = first.unit.Create() // the 65th: past the domain's capacity
			first.marked.Attach(full)
			first.unit.Delete(full)
		case 2: // after frame 1 read frame 0's 64 events: the table holds 64
			h, _ := s.unit.HandleAt(3)
			first.unit.Remove(h) // its only row
		}
	})
	err := s.w.Frame(0.01)
	require.ErrorIs(t, err, tickwork.ErrCapacity)
	for range 3 {
		require.NoError(t, s.w.Frame(0.01))
	}
	units := s.got["Unit"]
	require.Len(t, units, 65)
	for _, e := range units[:64] {
		assert.True(t, strings.HasPrefix(e, "create "), e)
	}
	assert.Equal(t, "detach 3:1 0", units[64])
	assert.Empty(t, s.got["Marked"], "the failed create's attach made nothing")
	assert.Equal(t, 63, s.unit.Len())
}

// A FrameStart consumer pairs the provisional handle of the last frame's
// Update create with its Created event: the handle still resolves there.
func TestLifecyclePairProvisional(t *testing.T) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 8})
	tickwork.AddColumn[float64](b, balls, "Y")
	life := tickwork.Lifecycle[struct{}](b, balls, tickwork.LifecycleSpec{Name: "BallLife", Capacity: 8, On: tickwork.Created})
	var prov tickwork.Handle
	b.System("make", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		rec := tickwork.Record(d, balls)
		return func(ctx *tickwork.Context) {
			if ctx.Frame() == 1 {
				prov = rec.Create()
			}
		}
	})
	paired := 0
	b.System("pair", tickwork.FrameStart, func(d *tickwork.Decl) tickwork.RunFunc {
		in := tickwork.Consume(d, life)
		return func(ctx *tickwork.Context) {
			for _, e := range in.Read() {
				if h, ok := ctx.Resolve(prov); ok && h == e.Handle {
					paired++
				}
			}
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	for range 4 {
		require.NoError(t, w.Frame(0.01))
	}
	assert.Equal(t, 1, paired)
}

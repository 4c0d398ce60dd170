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
	counts            map[tickwork.Change]int
	logging, counting bool
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
	s := &flock{counts: map[tickwork.Change]int{}}
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
				if h, ok := s.corpse.HandleAt(row); ok && row%2 == 0 {
					rec.Delete(h)
				}
			}
		}
	})
	observe(b, s, "Unit", s.units, func(v unitLast) string { return fmt.Sprint(v.HP, v.X) })
	observe(b, s, "Marked", s.marks, func(struct{}) string { return "" })
	observe(b, s, "Corpse", s.corpses, func(v corpseLast) string { return fmt.Sprint(v.Health) })
	q := tickwork.HostQuery2(s.hp, s.x)
	require.NoError(t, q.InsertN(700, func(h tickwork.Handle, hp *int32, x *float32) {
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
				for _, c := range []tickwork.Change{tickwork.Created, tickwork.Attached, tickwork.Deleted, tickwork.Detached} {
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

package tickwork_test

import (
	"testing"

	"github.com/tickwork/tickwork"
)

// churnRows is how many rows the churn world creates, and deletes, a frame.
const churnRows = 1024

// churnWorld is a world whose one system deletes every row of table A and
// spawns churnRows new ones (two columns set) each frame: 2 048 row
// changes a frame through playback. life declares the lifecycle event
// tables (nil: none); it returns how many events the observers saw.
func churnWorld(b *testing.B, life func(bl *tickwork.Builder, a, tag *tickwork.Table, seen *int)) (*tickwork.World, *int) {
	bl := tickwork.NewBuilder(tickwork.WithWorkers(1), tickwork.WithCommandRecords(4*churnRows))
	dom := bl.Domain(tickwork.DomainSpec{Name: "D", Capacity: 4 * churnRows})
	a := bl.Table(tickwork.TableSpec{Name: "A", Domain: dom})
	hp := tickwork.AddColumn[int32](bl, a, "HP")
	x := tickwork.AddColumn[float32](bl, a, "X")
	tag := bl.Table(tickwork.TableSpec{Name: "Tag", Domain: dom})
	seen := new(int)
	if life != nil {
		life(bl, a, tag, seen)
	}
	bl.System("churn", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner2(d, hp, x)
		q := tickwork.NewQuery1(tickwork.Read(d, hp))
		rec := tickwork.Record(d, a)
		return func(*tickwork.Context) {
			for _, h := range q.All() {
				rec.Delete(h)
			}
			for i := range churnRows {
				sp.Spawn(int32(i), float32(i))
			}
		}
	})
	w, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = w.Close() })
	return w, seen
}

func runChurn(b *testing.B, w *tickwork.World) {
	for range 8 {
		if err := w.Frame(0.01); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Frame(0.01); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(2*churnRows), "ns/change")
}

// BenchmarkLifecyclePlayback: a frame of 2 048 row changes through
// playback with no lifecycle event table (plain, the baseline), with one
// on another table of the domain (other: the churned table pays only its
// length tests) and with one on the churned table, every change recorded
// with its two columns and read by an observer (tickwork).
func BenchmarkLifecyclePlayback(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		w, _ := churnWorld(b, nil)
		runChurn(b, w)
	})
	b.Run("other", func(b *testing.B) {
		w, _ := churnWorld(b, func(bl *tickwork.Builder, _, tag *tickwork.Table, seen *int) {
			ev := tickwork.Lifecycle[struct{}](bl, tag, tickwork.LifecycleSpec{Name: "TagLife", Capacity: 16})
			tickwork.Observe(bl, ev, func(*tickwork.LifecycleEvent[struct{}]) { *seen++ })
		})
		runChurn(b, w)
	})
	b.Run("tickwork", func(b *testing.B) {
		w, seen := churnWorld(b, func(bl *tickwork.Builder, a, _ *tickwork.Table, seen *int) {
			ev := tickwork.Lifecycle[unitLast](bl, a, tickwork.LifecycleSpec{Name: "ALife", Capacity: 4 * churnRows})
			tickwork.Observe(bl, ev, func(*tickwork.LifecycleEvent[unitLast]) { *seen++ })
		})
		runChurn(b, w)
		if *seen == 0 {
			b.Fatal("no lifecycle event observed")
		}
	})
}

package sqlite_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/journal"
	"github.com/tickwork/tickwork/stores/sqlite"
	"github.com/tickwork/tickwork/stores/storetest"
)

// benchWorld is a world whose only system reads an input table of
// capacity 8192 per frame.
func benchWorld(b *testing.B) (*tickwork.World, *journal.Inputs[storetest.Spawn]) {
	bld := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame))
	in := journal.AddInputs[storetest.Spawn](bld, journal.InputSpec{Name: "spawn", Capacity: 8192, Backlog: 1 << 17})
	var n int64
	tickwork.Observe(bld, in.Events(), func(*journal.Input[storetest.Spawn]) { n++ })
	w, err := bld.Build()
	require.NoError(b, err)
	b.Cleanup(func() { _ = w.Close() })
	return w, in
}

// framing runs j's frames on a goroutine of its own until stop is
// closed (the host's loop, as fast as the commit ring lets it).
func framing(j *journal.Journal, stop chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := j.Frame(1.0 / 60); err != nil && !errors.Is(err, journal.ErrBacklog) {
				panic(err)
			}
			time.Sleep(200 * time.Microsecond)
		}
	})
	return &wg
}

// BenchmarkDurableInputs: durable inputs per second with 8 concurrent
// producers. tickwork: the journal over SQLite, each producer sending
// and waiting for durability every 512 inputs (group commit: one
// transaction per batch); tickwork_append: each producer waits for each
// input (Append); percommit: one SQLite transaction per input, the
// naive store. One op is one input.
func BenchmarkDurableInputs(b *testing.B) {
	const producers = 8
	b.Run("tickwork", func(b *testing.B) { benchJournal(b, producers, 512) })
	b.Run("tickwork_append", func(b *testing.B) { benchJournal(b, producers, 1) })
	b.Run("percommit", func(b *testing.B) {
		db := naiveDB(b)
		var mu sync.Mutex
		var next atomic.Int64
		b.ReportAllocs()
		b.ResetTimer()
		t0 := time.Now()
		runProducers(b.N, producers, func(int) {
			mu.Lock()
			defer mu.Unlock()
			tx, err := db.Begin()
			if err != nil {
				panic(err)
			}
			if _, err := tx.Exec(`INSERT INTO record (pos, data) VALUES (?, ?)`, next.Add(1), []byte("12345678901")); err != nil {
				panic(err)
			}
			if err := tx.Commit(); err != nil {
				panic(err)
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "inputs/s")
	})
}

func benchJournal(b *testing.B, producers, window int) {
	w, in := benchWorld(b)
	s, err := sqlite.Open(filepath.Join(b.TempDir(), "j.db"))
	require.NoError(b, err)
	j, err := journal.Open(w, s, journal.Options{CheckpointEvery: -1}, in)
	require.NoError(b, err)
	stop := make(chan struct{})
	wg := framing(j, stop)
	b.ReportAllocs()
	b.ResetTimer()
	t0 := time.Now()
	var last [64]journal.Position
	runProducers(b.N, producers, func(g int) {
		p, err := in.Send(storetest.Spawn{X: 1, N: 2})
		if err != nil {
			panic(err)
		}
		last[g] = p
		if window == 1 || p%journal.Position(window) == 0 {
			if err := j.Wait(p); err != nil {
				panic(err)
			}
		}
	}, func(g int) {
		if last[g] != 0 {
			if err := j.Wait(last[g]); err != nil {
				panic(err)
			}
		}
	})
	el := time.Since(t0)
	b.StopTimer()
	st := j.Stats()
	b.ReportMetric(float64(b.N)/el.Seconds(), "inputs/s")
	if st.Commits > 0 {
		b.ReportMetric(float64(st.Records)/float64(st.Commits), "records/commit")
	}
	close(stop)
	wg.Wait()
	require.NoError(b, j.Close())
}

// runProducers calls each(g) n times in all from producers goroutines
// (g their index), then end(g) on each (optional).
func runProducers(n, producers int, each func(g int), end ...func(g int)) {
	var wg sync.WaitGroup
	var left atomic.Int64
	left.Store(int64(n))
	for g := range producers {
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				each(g)
			}
			for _, e := range end {
				e(g)
			}
		})
	}
	wg.Wait()
}

func naiveDB(b *testing.B) *sql.DB {
	path := filepath.Join(b.TempDir(), "naive.db")
	s, err := sqlite.Open(path) // makes the file and its tables, WAL
	require.NoError(b, err)
	require.NoError(b, s.Close())
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)")
	require.NoError(b, err)
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { _ = db.Close() })
	return db
}

// BenchmarkJobCycle is the shape of the published job engine's figure:
// enqueue N jobs (inputs) durably, then drain them (a frame takes them);
// one op is one job, so ns/op is the one-job cycle. tickwork: the
// journal over SQLite (the N inputs are one commit, the frame's mark the
// next); percommit: one transaction per enqueue and one per dequeue
// (delete), as the published engine does.
func BenchmarkJobCycle(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("N=%d/tickwork", n), func(b *testing.B) { benchCycle(b, n, sqlite.SyncFull) })
		b.Run(fmt.Sprintf("N=%d/tickwork_syncprocess", n), func(b *testing.B) { benchCycle(b, n, sqlite.SyncProcess) })
		b.Run(fmt.Sprintf("N=%d/percommit", n), func(b *testing.B) { percommitCycle(b, n) })
	}
}

// benchCycle: Send n inputs, wait for the last to be durable, run the
// frame that takes them.
func benchCycle(b *testing.B, n int, sync sqlite.Sync) {
	w, in := benchWorld(b)
	s, err := sqlite.OpenWith(filepath.Join(b.TempDir(), "j.db"), sqlite.Options{Sync: sync})
	require.NoError(b, err)
	j, err := journal.Open(w, s, journal.Options{CheckpointEvery: -1}, in)
	require.NoError(b, err)
	defer j.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); {
		if i%n == 0 && i > 0 {
			// Drain: the frame takes the jobs durable so far.
			if err := j.Frame(1.0 / 60); err != nil {
				b.Fatal(err)
			}
		}
		p, err := in.Send(storetest.Spawn{N: 1})
		if err != nil {
			b.Fatal(err)
		}
		i++
		if i%n == 0 {
			if err := j.Wait(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// percommitCycle: n inserts, each its own transaction, then n deletes,
// each its own transaction.
func percommitCycle(b *testing.B, n int) {
	db := naiveDB(b)
	var pos int64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		pos++
		if _, err := db.Exec(`INSERT INTO record (pos, data) VALUES (?, ?)`, pos, []byte("12345678901")); err != nil {
			b.Fatal(err)
		}
		if (i+1)%n == 0 {
			for k := pos - int64(n) + 1; k <= pos; k++ {
				if _, err := db.Exec(`DELETE FROM record WHERE pos = ?`, k); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkFrameWithJournal: the frame's time with the journal on
// (tickwork: journal.Frame over SQLite, a producer goroutine sending 16
// inputs a millisecond, a checkpoint every 60 frames, its snapshot on the
// frame's goroutine; tickwork_nocheckpoint: no checkpoint) and off (nojournal: the host emits 16 inputs, then
// World.Frame), frames 1 ms apart (the pause not timed). One op is one
// frame; p50_us and p99_us are of the timed frames.
func BenchmarkFrameWithJournal(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { benchJournalFrames(b, 60) })
	b.Run("tickwork_nocheckpoint", func(b *testing.B) { benchJournalFrames(b, -1) })
	b.Run("nojournal", func(b *testing.B) {
		w := storetest.NewWorld(b)
		frameTimes(b, func() error {
			for range 16 {
				if err := w.Inputs.Events().Emit(journal.Input[storetest.Spawn]{Value: storetest.Spawn{X: 1}}); err != nil {
					return err
				}
			}
			return w.World.Frame(1.0 / 60)
		})
	})
}

func benchJournalFrames(b *testing.B, checkpointEvery int) {
	{
		w := storetest.NewWorld(b)
		s, err := sqlite.Open(filepath.Join(b.TempDir(), "j.db"))
		require.NoError(b, err)
		j, err := journal.Open(w.World, s, journal.Options{CheckpointEvery: checkpointEvery}, w.Inputs)
		require.NoError(b, err)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 16 {
					if _, err := w.Inputs.Send(storetest.Spawn{X: 1, N: 0}); err != nil {
						return
					}
				}
				time.Sleep(time.Millisecond)
			}
		})
		frameTimes(b, func() error { return j.Frame(1.0 / 60) })
		close(stop)
		require.NoError(b, j.Close())
		wg.Wait()
	}
}

func frameTimes(b *testing.B, frame func() error) {
	times := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		if err := frame(); err != nil && !errors.Is(err, journal.ErrBacklog) {
			b.Fatal(err)
		}
		if len(times) < cap(times) {
			times = append(times, time.Since(t0))
		}
		time.Sleep(time.Millisecond)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50_us")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99_us")
}

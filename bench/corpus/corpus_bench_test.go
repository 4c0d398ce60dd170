package corpus

import (
	"errors"
	"flag"
	goruntime "runtime"
	"sync"
	"testing"

	"github.com/tickwork/tickwork/runq"
)

// sizeFlag picks the benchmark's data: "full" (Full) or "small" (Small).
var sizeFlag = flag.String("corpus.size", "full", "BenchmarkCorpus data: full (100 000 units, 50 000 players) or small")

// benchData is the benchmark's data and databases, built once.
var benchData = sync.OnceValues(func() (*benchSet, error) {
	sz := Full()
	if *sizeFlag == "small" {
		sz = Small()
	}
	d, err := New(sz)
	if err != nil {
		return nil, err
	}
	db, err := OpenDB(d, Cases())
	if err != nil {
		return nil, err
	}
	return &benchSet{d, db}, nil
})

type benchSet struct {
	d  *Data
	db *DB
}

// BenchmarkCorpus runs every case up to seven ways at the Full size (flag
// -corpus.size=small: Small): generated (skipped while the case has no
// generated query; on an index-served case, the query over its index),
// parallel (the generated query on its parallel lane, skipped where it
// has none), runq (the case's Info.TW prepared once at run time by
// package runq, Case.Runq; skipped where runq refuses it), scan (an index-served case's query `using scan`, skipped on
// the others), hand, sqlite (DB.Scan) and sqlite_index (DB.Index,
// the indexes made before timing). One op is one call with its full
// result read: SQLite's rows scanned into the case's row type. B/op and
// allocs/op are reported; cmd/corpustable prints the table.
func BenchmarkCorpus(b *testing.B) {
	set, err := benchData()
	if err != nil {
		b.Fatal(err)
	}
	d, db := set.d, set.db
	for _, c := range Cases() {
		b.Run(c.Info().Name, func(b *testing.B) {
			scan, index := prepared(b, db, c)
			b.Run("generated", func(b *testing.B) {
				run := c.Generated(d)
				if run == nil {
					b.Skip("no generated query yet")
				}
				benchRun(b, run)
			})
			b.Run("parallel", func(b *testing.B) {
				run := c.Parallel(d)
				if run == nil {
					b.Skip("no parallel lane")
				}
				benchRun(b, run)
			})
			b.Run("scan", func(b *testing.B) {
				run := c.Scan(d)
				if run == nil {
					b.Skip("not an index-served case, or its scan not declared yet")
				}
				benchRun(b, run)
			})
			b.Run("runq", func(b *testing.B) {
				run, err := c.Runq(d)
				if errors.Is(err, runq.ErrUnsupported) {
					b.Skipf("runq refuses it: %v", err)
				}
				if err != nil {
					b.Fatal(err)
				}
				benchRun(b, run)
			})
			b.Run("hand", func(b *testing.B) { benchRun(b, c.Hand(d)) })
			b.Run("sqlite", func(b *testing.B) { benchSQL(b, c.SQL(d, scan)) })
			b.Run("sqlite_index", func(b *testing.B) { benchSQL(b, c.SQL(d, index)) })
		})
	}
}

// settle collects the garbage of the ways run before (SQLite's), so that
// no collection it owes runs during this way's timing: the ways run in a
// fixed order, and without it the first way after a case's SQLite runs
// shared the CPU with its GC workers.
func settle() { goruntime.GC() }

func benchRun(b *testing.B, run func() int) {
	run() // grow the buffers
	settle()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		n = run()
	}
	b.ReportMetric(float64(n), "rows")
}

func benchSQL(b *testing.B, run func() (int, error)) {
	if _, err := run(); err != nil {
		b.Fatal(err)
	}
	settle()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		var err error
		if n, err = run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "rows")
}

package commands_test

import (
	"testing"

	"github.com/tickwork/tickwork/commands"
	"github.com/tickwork/tickwork/ephemeral"
)

// The benchmarks move benchRows rows per operation (b.N counts whole passes
// of benchRows rows) and report ns/row. Each has a `tickwork` sub-benchmark
// (record into command buffers, then play back into an ephemeral table with
// one int64 column) and a `map` baseline: a Go map[uint64]int64 made with
// capacity benchRows. Set-up (filling or emptying the table or map for the
// next pass) runs with the timer stopped, and one untimed pass warms up the
// buffers first, so B/op shows the steady state.
const benchRows = 5_000_000

// pass runs warm, then per b.Loop iteration reset (untimed) and run (timed).
func pass(b *testing.B, reset, run func()) {
	reset()
	run() // warm-up: buffers grow to their steady-state size
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		reset()
		b.StartTimer()
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
}

// benchWorld is a table of benchRows rows, its playback, and one buffer.
type benchWorld struct {
	world
	p   *commands.Playback
	buf *commands.Buffer
	hs  []ephemeral.Handle // handles of the rows after fill
}

func newBenchWorld(b *testing.B) *benchWorld {
	p := commands.NewPlayback(nil)
	return &benchWorld{world: newWorld(b, benchRows, 0), p: p, buf: newBuffer(b, p, 0),
		hs: make([]ephemeral.Handle, benchRows)}
}

// empty deletes every row and forgets resolutions.
func (w *benchWorld) empty() {
	for row := 0; row < w.units.Cap(); row++ {
		if h, ok := w.units.HandleAt(row); ok {
			w.units.Delete(h)
		}
	}
	w.p.Release()
}

// fill empties the table, then inserts benchRows rows with values 0..n-1.
func (w *benchWorld) fill() {
	w.empty()
	if err := w.units.InsertN(w.hs); err != nil {
		panic(err)
	}
	for i, h := range w.hs {
		w.value.Set(h, int64(i))
	}
}

// insertTickwork records a create with its initial value per row, playing
// the buffer every per rows (per = benchRows: one batched buffer).
func insertTickwork(b *testing.B, per int) {
	w := newBenchWorld(b)
	pass(b, w.empty, func() {
		rec := w.buf.Recorder(w.units)
		set := commands.NewSetter(rec, w.value)
		for i := 0; i < benchRows; {
			for end := min(i+per, benchRows); i < end; i++ {
				set.Set(rec.Create(), int64(i))
			}
			if st := w.p.PlayAll([]*commands.Buffer{w.buf}); st.Err != nil {
				b.Fatal(st.Err)
			}
		}
	})
	if w.units.Len() != benchRows {
		b.Fatalf("%d rows, want %d", w.units.Len(), benchRows)
	}
}

func insertMap(b *testing.B) {
	m := make(map[uint64]int64, benchRows)
	pass(b, func() { clear(m) }, func() {
		for i := 0; i < benchRows; i++ {
			m[uint64(i)] = int64(i)
		}
	})
	if len(m) != benchRows {
		b.Fatalf("%d entries, want %d", len(m), benchRows)
	}
}

// BenchmarkInsertBatched: 5 000 000 creates (Create + Set of the initial
// value) through one buffer, played once.
func BenchmarkInsertBatched(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { insertTickwork(b, benchRows) })
	b.Run("map", insertMap)
}

// BenchmarkInsertBuffers10: the same through buffers of 10 creates (20
// records) each, every buffer played on its own.
func BenchmarkInsertBuffers10(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { insertTickwork(b, 10) })
	b.Run("map", insertMap)
}

// BenchmarkInsertPerRow: one create per playback.
func BenchmarkInsertPerRow(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { insertTickwork(b, 1) })
	b.Run("map", insertMap)
}

// BenchmarkUpdate: 5 000 000 deferred writes to existing rows through one
// buffer (map: overwrite existing keys).
func BenchmarkUpdate(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) {
		w := newBenchWorld(b)
		w.fill()
		v := int64(0)
		pass(b, func() {}, func() {
			v++
			rec := w.buf.Recorder(w.units)
			set := commands.NewSetter(rec, w.value)
			for _, h := range w.hs {
				set.Set(h, v)
			}
			if st := w.p.PlayAll([]*commands.Buffer{w.buf}); st.Sets != benchRows {
				b.Fatalf("%d sets, want %d", st.Sets, benchRows)
			}
		})
	})
	b.Run("map", func(b *testing.B) {
		m := make(map[uint64]int64, benchRows)
		for i := 0; i < benchRows; i++ {
			m[uint64(i)] = int64(i)
		}
		v := int64(0)
		pass(b, func() {}, func() {
			v++
			for i := 0; i < benchRows; i++ {
				m[uint64(i)] = v
			}
		})
	})
}

// deleteTickwork deletes every row, playing the buffer every per rows.
func deleteTickwork(b *testing.B, per int) {
	w := newBenchWorld(b)
	pass(b, w.fill, func() {
		rec := w.buf.Recorder(w.units)
		for i := 0; i < benchRows; {
			for end := min(i+per, benchRows); i < end; i++ {
				rec.Delete(w.hs[i])
			}
			w.p.PlayAll([]*commands.Buffer{w.buf})
		}
	})
	if w.units.Len() != 0 {
		b.Fatalf("%d rows left, want 0", w.units.Len())
	}
}

func deleteMap(b *testing.B) {
	m := make(map[uint64]int64, benchRows)
	pass(b, func() {
		for i := 0; i < benchRows; i++ {
			m[uint64(i)] = int64(i)
		}
	}, func() {
		for i := 0; i < benchRows; i++ {
			delete(m, uint64(i))
		}
	})
	if len(m) != 0 {
		b.Fatalf("%d entries left, want 0", len(m))
	}
}

// BenchmarkDeleteBatched: 5 000 000 deletes through one buffer.
func BenchmarkDeleteBatched(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { deleteTickwork(b, benchRows) })
	b.Run("map", deleteMap)
}

// BenchmarkDeletePerRow: one delete per playback.
func BenchmarkDeletePerRow(b *testing.B) {
	b.Run("tickwork", func(b *testing.B) { deleteTickwork(b, 1) })
	b.Run("map", deleteMap)
}

package ephemeral_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tickwork/tickwork/ephemeral"
)

// Benchmarks compare each operation with a baseline in the same run: a Go
// map keyed by an int id, made with its final size (make(map[int]body, n)),
// or a plain slice. Every sub-benchmark reports ns/row, the figure quoted in
// docs/benchmarks.md; set-up (tables, maps, handles) is outside the timed
// region. Run:
//
//	go test -run '^$' -bench . -benchmem ./ephemeral/
//
// The body of each `for b.Loop()` is one call to a function holding the
// measured loop. Since Go 1.26 the compiler keeps alive the result of every
// assignment written inside a b.Loop body, nested loops included, which
// pins an accumulator such as `sum += v` to memory; inside a called
// function the loop compiles as it would in a kernel.

const (
	lookupRows = 50_000    // BenchmarkLookup, BenchmarkIterate, BenchmarkIterateSlice, BenchmarkProbeDesign
	bulkRows   = 5_000_000 // BenchmarkInsert, BenchmarkUpdate, BenchmarkDelete
)

var (
	sinkF float32
	sinkI int
)

// reportPerRow adds an ns/row metric: the time of one b.Loop iteration
// divided by the rows it handles.
func reportPerRow(b *testing.B, rows int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
}

// benchTable is a standalone table of n rows with one body column.
func benchTable(b *testing.B, name string, n int) (*ephemeral.Table, *ephemeral.Column[body]) {
	b.Helper()
	t, err := ephemeral.NewTable(ephemeral.TableSpec{Name: name, Capacity: n})
	if err != nil {
		b.Fatal(err)
	}
	col, err := ephemeral.AddColumn[body](t, "body")
	if err != nil {
		b.Fatal(err)
	}
	return t, col
}

// filledTable is benchTable with every row inserted and row i holding
// body{X: i}; it returns the handles in insertion order.
func filledTable(b *testing.B, name string, n int) (*ephemeral.Table, *ephemeral.Column[body], []ephemeral.Handle) {
	b.Helper()
	t, col := benchTable(b, name, n)
	hs := make([]ephemeral.Handle, n)
	if err := t.InsertN(hs); err != nil {
		b.Fatal(err)
	}
	for i, h := range hs {
		col.Set(h, body{X: float32(i), Y: 1})
	}
	return t, col, hs
}

func filledMap(n int) map[int]body {
	m := make(map[int]body, n)
	for i := 0; i < n; i++ {
		m[i] = body{X: float32(i), Y: 1}
	}
	return m
}

// BenchmarkLookup reads one field of 50 000 rows by handle, in a shuffled
// order, against a map lookup by id in the same order.
func BenchmarkLookup(b *testing.B) {
	n := lookupRows
	perm := rand.New(rand.NewPCG(1, 1)).Perm(n)
	shuffled := func(hs []ephemeral.Handle) []ephemeral.Handle {
		probes := make([]ephemeral.Handle, n)
		for i, p := range perm {
			probes[i] = hs[p]
		}
		return probes
	}

	b.Run("tickwork", func(b *testing.B) {
		t, col, hs := filledTable(b, "lookup", n)
		probes := shuffled(hs)
		b.ReportAllocs()
		for b.Loop() {
			sinkF += lookupLease(t, col, probes)
		}
		reportPerRow(b, n)
	})
	b.Run("tickwork-get", func(b *testing.B) {
		_, col, hs := filledTable(b, "lookup", n)
		probes := shuffled(hs)
		b.ReportAllocs()
		for b.Loop() {
			sinkF += lookupGet(col, probes)
		}
		reportPerRow(b, n)
	})
	b.Run("map", func(b *testing.B) {
		m := filledMap(n)
		b.ReportAllocs()
		for b.Loop() {
			sinkF += lookupMap(m, perm)
		}
		reportPerRow(b, n)
	})
}

// lookupLease is a system's probe loop: one lease per run, then a compare
// and an index per handle.
func lookupLease(t *ephemeral.Table, col *ephemeral.Column[body], probes []ephemeral.Handle) float32 {
	lease, all := t.Lease(), col.All()
	var sum float32
	for _, h := range probes {
		if row, ok := lease.Row(h); ok {
			sum += all[row].X
		}
	}
	return sum
}

func lookupGet(col *ephemeral.Column[body], probes []ephemeral.Handle) float32 {
	var sum float32
	for _, h := range probes {
		if v, ok := col.Get(h); ok {
			sum += v.X
		}
	}
	return sum
}

func lookupMap(m map[int]body, ids []int) float32 {
	var sum float32
	for _, id := range ids {
		if v, ok := m[id]; ok {
			sum += v.X
		}
	}
	return sum
}

// BenchmarkIterateSlice sums one float32 column over 50 000 live rows:
// chunk by chunk, run by run (EachRun), over the column's spans; against a
// plain []float32 loop.
func BenchmarkIterateSlice(b *testing.B) {
	n := lookupRows
	floatTable := func(b *testing.B, capacity int) (*ephemeral.Table, *ephemeral.Column[float32], []ephemeral.Handle) {
		t, err := ephemeral.NewTable(ephemeral.TableSpec{Name: "iterate", Capacity: capacity})
		if err != nil {
			b.Fatal(err)
		}
		x, err := ephemeral.AddColumn[float32](t, "x")
		if err != nil {
			b.Fatal(err)
		}
		hs := make([]ephemeral.Handle, capacity)
		if err := t.InsertN(hs); err != nil {
			b.Fatal(err)
		}
		for i, h := range hs {
			x.Set(h, float32(i%100))
		}
		return t, x, hs
	}

	b.Run("tickwork", func(b *testing.B) {
		t, x, _ := floatTable(b, n) // 12 full chunks and one of 848 rows
		b.ReportAllocs()
		for b.Loop() {
			sinkF += sumLive(t, x)
		}
		reportPerRow(b, n)
	})
	b.Run("tickwork-holes", func(b *testing.B) {
		// 57 142 rows of which 7 142, at random, deleted: 50 000 live rows
		// in runs of 8 on average.
		t, x, hs := floatTable(b, n+n/7)
		rand.New(rand.NewPCG(2, 2)).Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
		t.DeleteN(hs[:len(hs)-n])
		if t.Len() != n {
			b.Fatalf("Len = %d, want %d", t.Len(), n)
		}
		b.ReportAllocs()
		for b.Loop() {
			sinkF += sumLive(t, x)
		}
		reportPerRow(b, n)
	})
	b.Run("slice", func(b *testing.B) {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(i % 100)
		}
		b.ReportAllocs()
		for b.Loop() {
			sinkF += sumSlice(xs)
		}
		reportPerRow(b, n)
	})
}

// sumLive is a kernel: it sums column x over the live rows of t, chunk by
// chunk and run by run.
func sumLive(t *ephemeral.Table, x *ephemeral.Column[float32]) float32 {
	var sum float32
	for c := 0; c < t.Chunks(); c++ {
		xs := x.Span(c)
		ephemeral.EachRun(t.Enabled(c), func(lo, hi int) {
			var s float32 // local: sum, shared with the closure, lives in memory
			for _, v := range xs[lo:hi] {
				s += v
			}
			sum += s
		})
	}
	return sum
}

func sumSlice(xs []float32) float32 {
	var sum float32
	for _, v := range xs {
		sum += v
	}
	return sum
}

// BenchmarkInsert inserts 5 000 000 rows, each with a value, into an empty
// table (tickwork: InsertN, then the values through Column.All;
// tickwork-single: Insert and a write per row) and into an empty map made
// with room for them. Emptying the table or clearing the map between
// iterations is not timed; a first, untimed, round touches all the memory.
func BenchmarkInsert(b *testing.B) {
	n := bulkRows
	b.Run("tickwork", func(b *testing.B) {
		t, col, hs := filledTable(b, "insert", n)
		t.DeleteN(hs)
		b.ReportAllocs()
		for b.Loop() {
			if err := insertBatch(t, col, hs); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			t.DeleteN(hs)
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
	b.Run("tickwork-single", func(b *testing.B) {
		t, col, hs := filledTable(b, "insert", n)
		t.DeleteN(hs)
		b.ReportAllocs()
		for b.Loop() {
			if err := insertSingle(t, col, hs); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			t.DeleteN(hs)
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
	b.Run("map", func(b *testing.B) {
		m := filledMap(n)
		clear(m)
		b.ReportAllocs()
		for b.Loop() {
			insertMap(m, n)
			b.StopTimer()
			clear(m)
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
}

func insertBatch(t *ephemeral.Table, col *ephemeral.Column[body], hs []ephemeral.Handle) error {
	if err := t.InsertN(hs); err != nil {
		return err
	}
	all := col.All()
	for i, h := range hs {
		all[h.Index()] = body{X: float32(i), Y: 1}
	}
	return nil
}

func insertSingle(t *ephemeral.Table, col *ephemeral.Column[body], hs []ephemeral.Handle) error {
	all := col.All()
	for i := range hs {
		h, err := t.Insert()
		if err != nil {
			return err
		}
		all[h.Index()] = body{X: float32(i), Y: 1}
		hs[i] = h
	}
	return nil
}

func insertMap(m map[int]body, n int) {
	for i := 0; i < n; i++ {
		m[i] = body{X: float32(i), Y: 1}
	}
}

// BenchmarkUpdate writes a new value to each of 5 000 000 live rows (with
// Column.Set, or through a lease and Column.All) and to each of 5 000 000
// map entries.
func BenchmarkUpdate(b *testing.B) {
	n := bulkRows
	b.Run("tickwork", func(b *testing.B) {
		_, col, hs := filledTable(b, "update", n)
		b.ReportAllocs()
		for b.Loop() {
			sinkI += updateSet(col, hs)
		}
		reportPerRow(b, n)
	})
	b.Run("tickwork-lease", func(b *testing.B) {
		t, col, hs := filledTable(b, "update", n)
		b.ReportAllocs()
		for b.Loop() {
			sinkI += updateLease(t, col, hs)
		}
		reportPerRow(b, n)
	})
	b.Run("map", func(b *testing.B) {
		m := filledMap(n)
		b.ReportAllocs()
		for b.Loop() {
			updateMap(m, n)
		}
		reportPerRow(b, n)
	})
}

func updateSet(col *ephemeral.Column[body], hs []ephemeral.Handle) int {
	n := 0
	for i, h := range hs {
		if col.Set(h, body{X: float32(i), Y: 2}) {
			n++
		}
	}
	return n
}

func updateLease(t *ephemeral.Table, col *ephemeral.Column[body], hs []ephemeral.Handle) int {
	lease, all := t.Lease(), col.All()
	n := 0
	for i, h := range hs {
		if row, ok := lease.Row(h); ok {
			all[row] = body{X: float32(i), Y: 2}
			n++
		}
	}
	return n
}

func updateMap(m map[int]body, n int) {
	for i := 0; i < n; i++ {
		m[i] = body{X: float32(i), Y: 2}
	}
}

// BenchmarkDelete deletes 5 000 000 live rows (tickwork: DeleteN;
// tickwork-single: Delete per handle) and 5 000 000 map entries. Filling
// the table or map again between iterations is not timed.
func BenchmarkDelete(b *testing.B) {
	n := bulkRows
	b.Run("tickwork", func(b *testing.B) {
		t, _, hs := filledTable(b, "delete", n)
		b.ReportAllocs()
		for b.Loop() {
			if got := t.DeleteN(hs); got != n {
				b.Fatalf("DeleteN = %d, want %d", got, n)
			}
			b.StopTimer()
			if err := t.InsertN(hs); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
	b.Run("tickwork-single", func(b *testing.B) {
		t, _, hs := filledTable(b, "delete", n)
		b.ReportAllocs()
		for b.Loop() {
			if got := deleteSingle(t, hs); got != n {
				b.Fatalf("deleted %d, want %d", got, n)
			}
			b.StopTimer()
			if err := t.InsertN(hs); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
	b.Run("map", func(b *testing.B) {
		m := filledMap(n)
		b.ReportAllocs()
		for b.Loop() {
			deleteMap(m, n)
			b.StopTimer()
			if len(m) != 0 {
				b.Fatalf("len = %d after deleting all", len(m))
			}
			insertMap(m, n)
			b.StartTimer()
		}
		reportPerRow(b, n)
	})
}

func deleteSingle(t *ephemeral.Table, hs []ephemeral.Handle) int {
	n := 0
	for _, h := range hs {
		if t.Delete(h) {
			n++
		}
	}
	return n
}

func deleteMap(m map[int]body, n int) {
	for i := 0; i < n; i++ {
		delete(m, i)
	}
}

// BenchmarkChurn deletes a random live row and inserts a new one, 100 000
// times per iteration, in a table of 1 000 000 live rows out of 1 048 576
// (tickwork) and in a map of 1 000 000 entries keyed by a fresh id.
func BenchmarkChurn(b *testing.B) {
	const capacity, live, churn = 1 << 20, 1_000_000, 100_000
	rng := rand.New(rand.NewPCG(8, 8))
	victims := make([]int, churn)
	for i := range victims {
		victims[i] = rng.IntN(live)
	}
	b.Run("tickwork", func(b *testing.B) {
		t, col, hs := filledTable(b, "churn", capacity)
		rng.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
		t.DeleteN(hs[live:])
		hs = hs[:live]
		b.ReportAllocs()
		for b.Loop() {
			if err := churnTable(t, col, hs, victims); err != nil {
				b.Fatal(err)
			}
		}
		reportPerRow(b, churn)
	})
	b.Run("map", func(b *testing.B) {
		m := make(map[int]body, live)
		ids := make([]int, live)
		for i := range ids {
			ids[i] = i
			m[i] = body{X: float32(i), Y: 1}
		}
		next := live
		b.ReportAllocs()
		for b.Loop() {
			next = churnMap(m, ids, victims, next)
		}
		reportPerRow(b, churn)
	})
}

// churnTable deletes hs[v] and inserts a row in its place for each v of victims.
func churnTable(t *ephemeral.Table, col *ephemeral.Column[body], hs []ephemeral.Handle, victims []int) error {
	all := col.All()
	for k, v := range victims {
		t.Delete(hs[v])
		h, err := t.Insert()
		if err != nil {
			return err
		}
		all[h.Index()] = body{X: float32(k), Y: 1}
		hs[v] = h
	}
	return nil
}

func churnMap(m map[int]body, ids, victims []int, next int) int {
	for k, v := range victims {
		delete(m, ids[v])
		m[next] = body{X: float32(k), Y: 1}
		ids[v] = next
		next++
	}
	return next
}

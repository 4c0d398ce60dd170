package events

import (
	"testing"
)

// BenchmarkEmitSwap emits 4096 events, reads them the next frame, and ends
// the frame: one frame of a NextFrame table, read by the host (tickwork:
// Table.Read of a table without readers) or by one consumer (reader: a
// PerFrame Reader, Read then Done, as a world does). The baseline appends
// to and ranges over two preallocated slices swapped by hand.
func BenchmarkEmitSwap(b *testing.B) {
	const n = 4096
	b.Run("reader", func(b *testing.B) {
		tab, _ := New[hit](Spec{Name: "hits", Capacity: n})
		r := tab.NewReader(PerFrame)
		var sum int64
		b.ReportAllocs()
		for b.Loop() {
			for _, h := range r.Read() {
				sum += int64(h.Damage)
			}
			r.Done()
			for i := 0; i < n; i++ {
				_ = tab.Emit(hit{uint64(i), int32(i)})
			}
			tab.endFrame()
			tab.beginFrame()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
	})
	b.Run("tickwork", func(b *testing.B) {
		tab, _ := New[hit](Spec{Name: "hits", Capacity: n})
		var sum int64
		b.ReportAllocs()
		for b.Loop() {
			for _, h := range tab.Read() {
				sum += int64(h.Damage)
			}
			for i := 0; i < n; i++ {
				_ = tab.Emit(hit{uint64(i), int32(i)})
			}
			tab.endFrame()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
	})
	b.Run("slice", func(b *testing.B) {
		front, back := make([]hit, 0, n), make([]hit, 0, n)
		var sum int64
		b.ReportAllocs()
		for b.Loop() {
			for _, h := range front {
				sum += int64(h.Damage)
			}
			for i := 0; i < n; i++ {
				back = append(back, hit{uint64(i), int32(i)})
			}
			front, back = back, front[:0]
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
	})
}

// BenchmarkParallelMerge: 4 workers each stage 1024 events in 16 keyed
// segments (run sequentially here, to time staging and merge alone).
func BenchmarkParallelMerge(b *testing.B) {
	const workers, chunks, perChunk = 4, 64, 256
	tab, _ := New[hit](Spec{Name: "hits", Capacity: chunks * perChunk})
	p := mustParallel(b, tab, workers)
	b.ReportAllocs()
	for b.Loop() {
		for w := 0; w < workers; w++ {
			s := p.Worker(w)
			for c := w; c < chunks; c += workers {
				s.Begin(c)
				for i := 0; i < perChunk; i++ {
					_ = s.Emit(hit{uint64(c), int32(i)})
				}
			}
		}
		p.Merge()
		tab.endFrame()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks*perChunk), "ns/event")
}

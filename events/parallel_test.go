package events

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/internal/testkit/chunkdrive"
)

// hit is a typical event: a target handle and an amount.
type hit struct {
	Target uint64
	Damage int32
}

const (
	sourceRows = 1000
	chunkRows  = 64
	chunks     = (sourceRows + chunkRows - 1) / chunkRows // 16
)

// runKernel emits, for every source row v with v%3 != 0, a hit{v, 2v} from a
// kernel of `workers` workers shared out by drive (Begin(chunk) per chunk),
// and merges. It returns the merge's dropped count.
func runKernel(t *testing.T, p *Parallel[hit], drive chunkdrive.Driver, workers int) int {
	t.Helper()
	drive.Run(t, workers, chunks, func(w, c int) {
		s := p.Worker(w)
		s.Begin(c)
		for v := c * chunkRows; v < min((c+1)*chunkRows, sourceRows); v++ {
			if v%3 != 0 {
				if err := s.Emit(hit{uint64(v), int32(2 * v)}); err != nil && !errors.Is(err, ErrOverflow) {
					t.Errorf("Emit: %v", err)
				}
			}
		}
	})
	return p.Merge()
}

func TestParallelDeterministic(t *testing.T) {
	var want []hit
	for v := 0; v < sourceRows; v++ {
		if v%3 != 0 {
			want = append(want, hit{uint64(v), int32(2 * v)})
		}
	}
	for _, drive := range chunkdrive.All() {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%s/workers=%d", drive.Name, workers), func(t *testing.T) {
				tab, err := New[hit](Spec{Name: "hits", Capacity: sourceRows})
				if err != nil {
					t.Fatal(err)
				}
				p := mustParallel(t, tab, workers)
				for frame := 0; frame < 3; frame++ {
					if d := runKernel(t, p, drive, workers); d != 0 {
						t.Fatalf("frame %d: Merge dropped %d, want 0", frame, d)
					}
					tab.endFrame()
					if got := tab.Read(); !slices.Equal(got, want) {
						t.Fatalf("frame %d: merged %d events, want the %d of the sequential order", frame, len(got), len(want))
					}
				}
			})
		}
	}
}

// TestParallelOverflowDeterministic: with more events than capacity, the
// kept events (a prefix in key order) and the dropped count do not depend on
// the worker count, and the table's earlier events are kept.
func TestParallelOverflowDeterministic(t *testing.T) {
	const capacity = 300
	var want []hit
	want = append(want, hit{Target: 1 << 40}) // emitted sequentially first
	emitted := 0
	for v := 0; v < sourceRows; v++ {
		if v%3 != 0 {
			emitted++
			if len(want) < capacity {
				want = append(want, hit{uint64(v), int32(2 * v)})
			}
		}
	}
	wantDropped := emitted - (capacity - 1)
	for _, drive := range chunkdrive.All() {
		for _, workers := range []int{1, 2, 4, 8} {
			t.Run(fmt.Sprintf("%s/workers=%d", drive.Name, workers), func(t *testing.T) {
				tab, err := New[hit](Spec{Name: "hits", Capacity: capacity})
				if err != nil {
					t.Fatal(err)
				}
				p := mustParallel(t, tab, workers)
				if err := tab.Emit(hit{Target: 1 << 40}); err != nil {
					t.Fatal(err)
				}
				if got := runKernel(t, p, drive, workers); got != wantDropped {
					t.Errorf("Merge() = %d dropped, want %d", got, wantDropped)
				}
				if got := tab.takeDropped(); got != int64(wantDropped) {
					t.Errorf("TakeDropped() = %d, want %d", got, wantDropped)
				}
				tab.endFrame()
				if got := tab.Read(); !slices.Equal(got, want) {
					t.Errorf("kept %d events, want the first %d in key order", len(got), len(want))
				}
			})
		}
	}
}

// TestMergeKeyOrder: segments are merged by key whatever the order workers
// began them in; equal keys keep worker order; events before any Begin have
// key 0.
func TestMergeKeyOrder(t *testing.T) {
	tab, _ := New[string](Spec{Name: "log", Capacity: 16, Lifetime: ThisFrame})
	p := mustParallel(t, tab, 2)
	w0, w1 := p.Worker(0), p.Worker(1)
	_ = w1.Emit("w1 key0 (no Begin)")
	w0.Begin(5)
	_ = w0.Emit("w0 key5")
	w0.Begin(2)
	_ = w0.Emit("w0 key2 a")
	_ = w0.Emit("w0 key2 b")
	w1.Begin(9) // empty segment, replaced by the next Begin
	w1.Begin(2)
	_ = w1.Emit("w1 key2")
	w0.Begin(0)
	_ = w0.Emit("w0 key0")
	if d := p.Merge(); d != 0 {
		t.Fatalf("Merge() = %d, want 0", d)
	}
	want := []string{"w0 key0", "w1 key0 (no Begin)", "w0 key2 a", "w0 key2 b", "w1 key2", "w0 key5"}
	if got := tab.Read(); !slices.Equal(got, want) {
		t.Errorf("Read() = %q\nwant %q", got, want)
	}
	// Workers were reset: a second merge adds nothing.
	if d := p.Merge(); d != 0 || tab.Len() != len(want) {
		t.Errorf("second Merge() = %d, Len = %d, want 0, %d", d, tab.Len(), len(want))
	}
}

func TestWorkerStagingOverflow(t *testing.T) {
	tab, _ := New[int](Spec{Name: "n", Capacity: 2})
	p := mustParallel(t, tab, 1)
	s := p.Worker(0)
	_ = s.Emit(1)
	_ = s.Emit(2)
	if err := s.Emit(3); !errors.Is(err, ErrOverflow) {
		t.Fatalf("third Emit = %v, want ErrOverflow", err)
	}
	if len(s.buf) != 2 {
		t.Errorf("len(buf) = %d, want 2", len(s.buf))
	}
	if d := p.Merge(); d != 1 {
		t.Errorf("Merge() = %d, want 1", d)
	}
	tab.endFrame()
	if got := tab.Read(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("Read() = %v, want [1 2]", got)
	}
}

func TestParallelPanicsOnZeroWorkers(t *testing.T) {
	tab, _ := New[int](Spec{Name: "n", Capacity: 2})
	defer func() {
		if r := recover(); r == nil {
			t.Error("Parallel(0) did not panic")
		}
	}()
	tab.Parallel(0)
}

// TestReadWhileEmitting: a NextFrame table may be read by one system while
// another emits (run with -race).
func TestReadWhileEmitting(t *testing.T) {
	tab, _ := New[int](Spec{Name: "n", Capacity: 1000})
	p := mustParallel(t, tab, 2)
	for v := 0; v < 100; v++ {
		_ = tab.Emit(v)
	}
	tab.endFrame()
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for r := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				for _, v := range tab.Read() {
					sums[r] += v
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := 0; v < 400; v++ {
			_ = tab.Emit(v)
		}
		for w := 0; w < 2; w++ {
			p.Worker(w).Begin(w)
			_ = p.Worker(w).Emit(-1)
		}
		p.Merge()
	}()
	wg.Wait()
	for r, s := range sums {
		if s != 50*4950 {
			t.Errorf("reader %d summed %d, want %d", r, s, 50*4950)
		}
	}
	tab.endFrame()
	if tab.Len() != 402 {
		t.Errorf("Len() = %d, want 402", tab.Len())
	}
}

// TestParallelWorkerPanicsOnBadIndex: a worker index outside
// 0..workers-1 is a kernel bug, reported with how to fix it.
func TestParallelWorkerPanicsOnBadIndex(t *testing.T) {
	tab, err := New[int](Spec{Name: "n", Capacity: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := mustParallel(t, tab, 2)
	assert.Same(t, p.Worker(1), p.Worker(1))
	for _, w := range []int{5, 2, -1} {
		want := fmt.Sprintf("events: Parallel.Worker(%d) of table \"n\": worker index out of range 0..1;"+
			" pass the kernel's worker index, and make the Parallel with Table.Parallel(n) for n >= the pool's workers", w)
		assert.PanicsWithValue(t, want, func() { p.Worker(w) }, "w=%d", w)
	}
}

// mustParallel is tab.Parallel(workers), failing tb on its error.
func mustParallel[T any](tb testing.TB, tab *Table[T], workers int) *Parallel[T] {
	tb.Helper()
	p, err := tab.Parallel(workers)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

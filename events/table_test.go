package events

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		spec Spec
		want error
	}{
		{"empty name", Spec{Capacity: 1}, errEmptyName},
		{"zero capacity", Spec{Name: "hits"}, ErrCapacityRange},
		{"negative capacity", Spec{Name: "hits", Capacity: -3}, ErrCapacityRange},
		{"huge capacity", Spec{Name: "hits", Capacity: MaxCapacity + 1}, ErrCapacityRange},
		{"bad lifetime", Spec{Name: "hits", Capacity: 1, Lifetime: 7}, ErrLifetime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := New[int](tt.spec)
			if tab != nil {
				t.Errorf("New(%+v) table = %v, want nil", tt.spec, tab)
			}
			if !errors.Is(err, ErrDefinition) || !errors.Is(err, tt.want) {
				t.Fatalf("New(%+v) error = %v, want errors.Is %v and %v", tt.spec, err, ErrDefinition, tt.want)
			}
			var de *DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("New(%+v) error %T is not a *DefinitionError", tt.spec, err)
			}
			if got := err.Error(); got[:8] != "events: " {
				t.Errorf("error %q lacks the events: prefix", got)
			}
		})
	}
}

func TestLifetimeString(t *testing.T) {
	for l, want := range map[Lifetime]string{NextFrame: "NextFrame", ThisFrame: "ThisFrame", 9: "Lifetime(9)"} {
		if got := l.String(); got != want {
			t.Errorf("Lifetime(%d).String() = %q, want %q", uint8(l), got, want)
		}
	}
}

func mustNew[T any](t testing.TB, spec Spec) *Table[T] {
	t.Helper()
	tab, err := New[T](spec)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestNextFrame: events emitted in frame t are read exactly once, in frame
// t+1, and are gone in t+2.
func TestNextFrame(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "hits", Capacity: 8})
	seen := map[int]int{}      // event -> frame it was read in
	emitted := map[int]int{}   // event -> frame it was emitted in
	readCount := map[int]int{} // event -> times read
	for frame := 0; frame < 6; frame++ {
		// A reader system runs before the emitter in the frame.
		for _, v := range tab.Read() {
			seen[v] = frame
			readCount[v]++
		}
		if got, want := tab.Len(), len(tab.Read()); got != want {
			t.Errorf("frame %d: Len() = %d, want %d", frame, got, want)
		}
		for k := 0; k < 3; k++ {
			v := frame*10 + k
			if err := tab.Emit(v); err != nil {
				t.Fatalf("frame %d: Emit(%d) = %v", frame, v, err)
			}
			emitted[v] = frame
		}
		if got := tab.Pending(); got != 3 {
			t.Errorf("frame %d: Pending() = %d, want 3", frame, got)
		}
		// A reader after the emitter in the same frame still sees only the
		// previous frame's events.
		for _, v := range tab.Read() {
			if emitted[v] != frame-1 {
				t.Errorf("frame %d: read event %d emitted in frame %d", frame, v, emitted[v])
			}
			readCount[v]++
		}
		tab.endFrame()
	}
	for v, f := range emitted {
		if f == 5 {
			continue // its frame t+1 has not run
		}
		if seen[v] != f+1 {
			t.Errorf("event %d emitted in frame %d was read in frame %d, want %d", v, f, seen[v], f+1)
		}
		if readCount[v] != 2 { // two readers in frame t+1, none in t+2
			t.Errorf("event %d read %d times, want 2 (two readers of frame t+1)", v, readCount[v])
		}
	}
	if got, want := tab.Read(), []int{50, 51, 52}; !slices.Equal(got, want) {
		t.Errorf("after last boundary Read() = %v, want %v", got, want)
	}
	tab.endFrame()
	if got := tab.Read(); len(got) != 0 {
		t.Errorf("frame t+2: Read() = %v, want empty", got)
	}
}

func TestThisFrame(t *testing.T) {
	tab := mustNew[int](t, Spec{Name: "dead", Capacity: 4, Lifetime: ThisFrame})
	if got := tab.Read(); len(got) != 0 {
		t.Fatalf("new table Read() = %v, want empty", got)
	}
	_ = tab.Emit(1)
	before := tab.Read() // a system after the first emit
	_ = tab.Emit(2)
	if got, want := tab.Read(), []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("same frame Read() = %v, want %v", got, want)
	}
	if got, want := before, []int{1}; !slices.Equal(got, want) {
		t.Errorf("earlier Read() slice = %v, want %v (unchanged by later emits)", got, want)
	}
	if tab.Pending() != 0 || tab.Len() != 2 {
		t.Errorf("Pending, Len = %d, %d, want 0, 2", tab.Pending(), tab.Len())
	}
	tab.endFrame()
	if got := tab.Read(); len(got) != 0 {
		t.Errorf("after EndFrame Read() = %v, want empty", got)
	}
	_ = tab.Emit(3)
	if got, want := tab.Read(), []int{3}; !slices.Equal(got, want) {
		t.Errorf("next frame Read() = %v, want %v", got, want)
	}
}

func TestOverflow(t *testing.T) {
	for _, life := range []Lifetime{NextFrame, ThisFrame} {
		t.Run(life.String(), func(t *testing.T) {
			tab := mustNew[int](t, Spec{Name: "hits", Capacity: 3, Lifetime: life})
			var errs int
			for v := 1; v <= 5; v++ {
				err := tab.Emit(v)
				if v <= 3 && err != nil {
					t.Fatalf("Emit(%d) = %v, want nil", v, err)
				}
				if v > 3 {
					if !errors.Is(err, ErrOverflow) {
						t.Fatalf("Emit(%d) = %v, want ErrOverflow", v, err)
					}
					var oe *OverflowError
					if !errors.As(err, &oe) || oe.Table != "hits" || oe.Capacity != 3 {
						t.Fatalf("Emit(%d) error = %#v, want *OverflowError{hits, 3}", v, err)
					}
					errs++
				}
			}
			if errs != 2 || tab.Dropped() != 2 {
				t.Errorf("overflow errors, Dropped() = %d, %d, want 2, 2", errs, tab.Dropped())
			}
			if life == NextFrame {
				tab.endFrame()
			}
			if got, want := tab.Read(), []int{1, 2, 3}; !slices.Equal(got, want) {
				t.Errorf("Read() = %v, want %v (earlier events intact)", got, want)
			}
			if got := tab.takeDropped(); got != 2 {
				t.Errorf("TakeDropped() = %d, want 2", got)
			}
			if got := tab.Dropped(); got != 0 {
				t.Errorf("Dropped() after TakeDropped = %d, want 0", got)
			}
		})
	}
}

// TestPointerEventsRetired: events holding pointers are zeroed when retired,
// so the tables keep nothing alive.
func TestPointerEventsRetired(t *testing.T) {
	type ev struct {
		name *string
		n    int
	}
	tab := mustNew[ev](t, Spec{Name: "named", Capacity: 2})
	if !tab.pointers {
		t.Fatal("pointers = false for a struct holding *string")
	}
	s := "x"
	_ = tab.Emit(ev{&s, 1})
	tab.endFrame()
	tab.endFrame() // the event is retired
	for i, e := range tab.buf {
		if e.name != nil {
			t.Errorf("buf[%d] still points at %q", i, *e.name)
		}
	}
	if hasPointers(reflect.TypeFor[struct {
		a [4]float32
		h uint64
	}]()) {
		t.Error("hasPointers = true for a pointer-free struct")
	}
}

func TestBufferInterface(t *testing.T) {
	a := mustNew[int](t, Spec{Name: "a", Capacity: 1})
	b := mustNew[float32](t, Spec{Name: "b", Capacity: 2, Lifetime: ThisFrame})
	bufs := []Buffer{a, b}
	_ = a.Emit(1)
	_ = a.Emit(2)
	_ = b.Emit(1)
	for _, buf := range bufs {
		buf.plumbing().EndFrame()
	}
	if got := bufs[0].Len(); got != 1 {
		t.Errorf("a.Len() = %d, want 1", got)
	}
	if got := bufs[1].Len(); got != 0 {
		t.Errorf("b.Len() = %d, want 0", got)
	}
	if got := bufs[0].plumbing().TakeDropped(); got != 1 {
		t.Errorf("a.takeDropped() = %d, want 1", got)
	}
	if bufs[1].Name() != "b" || bufs[1].Lifetime() != ThisFrame || bufs[1].Cap() != 2 {
		t.Errorf("b: Name, Lifetime, Cap = %q, %v, %d", bufs[1].Name(), bufs[1].Lifetime(), bufs[1].Cap())
	}
}

func TestEmitSwapAllocs(t *testing.T) {
	tab := mustNew[uint64](t, Spec{Name: "hits", Capacity: 256})
	pa, err := tab.Parallel(4)
	if err != nil {
		t.Fatal(err)
	}
	this := mustNew[uint64](t, Spec{Name: "dead", Capacity: 64, Lifetime: ThisFrame})
	var sum uint64
	cycle := func() {
		for i := 0; i < 300; i++ { // 44 overflow
			_ = tab.Emit(uint64(i))
			_ = this.Emit(uint64(i))
		}
		for _, v := range tab.Read() {
			sum += v
		}
		tab.endFrame()
		this.endFrame()
		tab.takeDropped()
	}
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("emit/read/swap cycle: %v allocs, want 0", n)
	}
	par := func() {
		for w := 0; w < len(pa.workers); w++ {
			s := pa.Worker(w)
			for c := w; c < 40; c += len(pa.workers) {
				s.Begin(c)
				_ = s.Emit(uint64(c))
				_ = s.Emit(uint64(c + 1))
			}
		}
		pa.Merge()
		tab.endFrame()
	}
	par() // warm-up: mark slices grow
	if n := testing.AllocsPerRun(100, par); n != 0 {
		t.Errorf("parallel emit/merge/swap cycle: %v allocs, want 0", n)
	}
}

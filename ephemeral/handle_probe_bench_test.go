package ephemeral_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tickwork/tickwork/ephemeral"
)

// BenchmarkProbeDesign backs the design note "a handle's index names its
// row's slot directly" (docs/architecture.md, Storage). It compares three
// ways of finding a row from a handle after the same history of inserts
// and deletes:
//
//   - direct: ephemeral itself. The handle's index is the row: a probe
//     loads the slot's generation and, independently, the row.
//   - page: an indirection page. The handle's index names a page entry
//     holding the row; rows never move but are handed out from a free list,
//     so after churn a handle's row is anywhere. A probe loads the
//     generation and the page entry, then the row.
//   - dense: a swap-remove dense layout (sparse set). The handle's index
//     names a sparse entry holding the row in a packed array; a delete
//     moves the last row into the hole. Probes are as page's.
//
// page and dense are minimal emulations (no enabled bitmaps, no domain,
// one column, slots reused LIFO), so their figures flatter them against
// direct, which runs the real code.
func BenchmarkProbeDesign(b *testing.B) {
	for _, size := range []struct {
		name           string
		capacity, live int
		ordered        bool
	}{
		{"probe", 65_536, lookupRows, false},
		{"probe-ordered", 65_536, lookupRows, true},
		{"probe-1M", 1 << 20, 1_000_000, false},
	} {
		f := newProbeFixture(b, size.capacity, size.live)
		probes := slices.Clone(f.live)
		if size.ordered {
			slices.SortFunc(probes, func(x, y ephemeral.Handle) int { return int(x.Index()) - int(y.Index()) })
		} else {
			rand.New(rand.NewPCG(5, 5)).Shuffle(len(probes), func(i, j int) { probes[i], probes[j] = probes[j], probes[i] })
		}
		b.Run(size.name+"/direct", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkF += lookupLease(f.table, f.col, probes)
			}
			reportPerRow(b, len(probes))
		})
		b.Run(size.name+"/page", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkF += f.page.lookup(probes)
			}
			reportPerRow(b, len(probes))
		})
		b.Run(size.name+"/dense", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkF += f.dense.lookup(probes)
			}
			reportPerRow(b, len(probes))
		})
	}

	// Iteration: direct walks chunks and runs of live rows; dense walks a
	// packed slice (page iterates as direct does: its rows have holes too).
	f := newProbeFixture(b, 65_536, lookupRows)
	b.Run("iterate/direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkF += sumLiveX(f.table, f.col)
		}
		reportPerRow(b, lookupRows)
	})
	b.Run("iterate/dense", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkF += f.dense.sumX()
		}
		reportPerRow(b, lookupRows)
	})

	// Churn: delete a random live entity and create one, 50 000 times.
	const churn = lookupRows
	victims := make([]int, churn)
	rng := rand.New(rand.NewPCG(6, 6))
	for i := range victims {
		victims[i] = rng.IntN(lookupRows)
	}
	b.Run("churn/direct", func(b *testing.B) {
		f := newProbeFixture(b, 65_536, lookupRows)
		b.ReportAllocs()
		for b.Loop() {
			if err := churnTable(f.table, f.col, f.live, victims); err != nil {
				b.Fatal(err)
			}
		}
		reportPerRow(b, churn)
	})
	b.Run("churn/page", func(b *testing.B) {
		f := newProbeFixture(b, 65_536, lookupRows)
		b.ReportAllocs()
		for b.Loop() {
			f.page.churn(f.live, victims)
		}
		reportPerRow(b, churn)
	})
	b.Run("churn/dense", func(b *testing.B) {
		f := newProbeFixture(b, 65_536, lookupRows)
		b.ReportAllocs()
		for b.Loop() {
			f.dense.churn(f.live, victims)
		}
		reportPerRow(b, churn)
	})
}

// sumLiveX sums field X of a body column over the live rows of t.
func sumLiveX(t *ephemeral.Table, col *ephemeral.Column[body]) float32 {
	var sum float32
	for c := 0; c < t.Chunks(); c++ {
		span := col.Span(c)
		ephemeral.EachRun(t.Enabled(c), func(lo, hi int) {
			var s float32
			for i := range span[lo:hi] {
				s += span[lo+i].X
			}
			sum += s
		})
	}
	return sum
}

// hi is h's high word, its tag and generation: what the emulations store
// and compare per slot, as a table does (docs/architecture.md, "Handle
// layout").
func hi(h ephemeral.Handle) uint32 { return uint32(h >> 32) }

// pageStore emulates an indirection page: slot -> page entry -> row.
type pageStore struct {
	gens []uint32 // by slot: tag and generation of the live entity, 0 when none
	page []int32  // by slot: the entity's row
	free []int32  // free rows, taken from the end
	data []body   // by row
}

func newPageStore(capacity int) *pageStore {
	s := &pageStore{
		gens: make([]uint32, capacity),
		page: make([]int32, capacity),
		free: make([]int32, capacity),
		data: make([]body, capacity),
	}
	for i := range s.free {
		s.free[i] = int32(capacity - 1 - i)
	}
	return s
}

func (s *pageStore) row(h ephemeral.Handle) (int, bool) {
	i := h.Index()
	if uint64(i) < uint64(len(s.gens)) && s.gens[i] == hi(h) && hi(h) != 0 {
		return int(s.page[i]), true
	}
	return 0, false
}

func (s *pageStore) lookup(probes []ephemeral.Handle) float32 {
	var sum float32
	for _, h := range probes {
		if row, ok := s.row(h); ok {
			sum += s.data[row].X
		}
	}
	return sum
}

// churn deletes hs[v] and creates an entity in its place for each v of
// victims, reusing the slot with the next live generation.
func (s *pageStore) churn(hs []ephemeral.Handle, victims []int) {
	for k, v := range victims {
		h := hs[v]
		s.delete(h)
		h += 2 << 32 // the next live generation, same tag
		s.insert(h, body{X: float32(k), Y: 1})
		hs[v] = h
	}
}

func (s *pageStore) insert(h ephemeral.Handle, v body) {
	row := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	s.gens[h.Index()] = hi(h)
	s.page[h.Index()] = row
	s.data[row] = v
}

func (s *pageStore) delete(h ephemeral.Handle) {
	if _, ok := s.row(h); !ok {
		return
	}
	s.gens[h.Index()] = 0
	s.free = append(s.free, s.page[h.Index()])
}

// denseStore emulates a swap-remove dense layout: slot -> sparse entry ->
// row of a packed array.
type denseStore struct {
	gens   []uint32 // by slot: tag and generation of the live entity, 0 when none
	sparse []int32  // by slot: the entity's row
	owner  []uint32 // by row: the slot that owns it
	data   []body   // by row; rows [0, n) are live
	n      int
}

func newDenseStore(capacity int) *denseStore {
	return &denseStore{
		gens:   make([]uint32, capacity),
		sparse: make([]int32, capacity),
		owner:  make([]uint32, capacity),
		data:   make([]body, capacity),
	}
}

func (s *denseStore) row(h ephemeral.Handle) (int, bool) {
	i := h.Index()
	if uint64(i) < uint64(len(s.gens)) && s.gens[i] == hi(h) && hi(h) != 0 {
		return int(s.sparse[i]), true
	}
	return 0, false
}

func (s *denseStore) lookup(probes []ephemeral.Handle) float32 {
	var sum float32
	for _, h := range probes {
		if row, ok := s.row(h); ok {
			sum += s.data[row].X
		}
	}
	return sum
}

func (s *denseStore) sumX() float32 {
	var sum float32
	for i := range s.data[:s.n] {
		sum += s.data[i].X
	}
	return sum
}

// churn is pageStore.churn for the dense layout.
func (s *denseStore) churn(hs []ephemeral.Handle, victims []int) {
	for k, v := range victims {
		h := hs[v]
		s.delete(h)
		h += 2 << 32 // the next live generation, same tag
		s.insert(h, body{X: float32(k), Y: 1})
		hs[v] = h
	}
}

func (s *denseStore) insert(h ephemeral.Handle, v body) {
	row := s.n
	s.n++
	s.gens[h.Index()] = hi(h)
	s.sparse[h.Index()] = int32(row)
	s.owner[row] = h.Index()
	s.data[row] = v
}

func (s *denseStore) delete(h ephemeral.Handle) {
	row, ok := s.row(h)
	if !ok {
		return
	}
	last := s.n - 1
	s.data[row] = s.data[last]
	s.owner[row] = s.owner[last]
	s.sparse[s.owner[row]] = int32(row)
	s.gens[h.Index()] = 0
	s.n--
}

// probeFixture holds the three layouts after one history: fill to
// capacity, delete down to live rows at random, then as many random
// delete-and-insert pairs as live rows.
type probeFixture struct {
	table *ephemeral.Table
	col   *ephemeral.Column[body]
	page  *pageStore
	dense *denseStore
	live  []ephemeral.Handle // live handles, in no particular order
}

func newProbeFixture(b *testing.B, capacity, live int) *probeFixture {
	b.Helper()
	t, col := benchTable(b, "probe", capacity)
	f := &probeFixture{table: t, col: col, page: newPageStore(capacity), dense: newDenseStore(capacity)}
	insert := func(v int) ephemeral.Handle {
		h, err := t.Insert()
		if err != nil {
			b.Fatal(err)
		}
		val := body{X: float32(v % 1000)}
		col.Set(h, val)
		f.page.insert(h, val)
		f.dense.insert(h, val)
		return h
	}
	del := func(h ephemeral.Handle) {
		if !t.Delete(h) {
			b.Fatalf("Delete(%v) = false", h)
		}
		f.page.delete(h)
		f.dense.delete(h)
	}
	for i := 0; i < capacity; i++ {
		f.live = append(f.live, insert(i))
	}
	rng := rand.New(rand.NewPCG(uint64(capacity), uint64(live)))
	rng.Shuffle(len(f.live), func(i, j int) { f.live[i], f.live[j] = f.live[j], f.live[i] })
	for _, h := range f.live[live:] {
		del(h)
	}
	f.live = f.live[:live]
	for k := 0; k < live; k++ {
		v := rng.IntN(live)
		del(f.live[v])
		f.live[v] = insert(k)
	}
	// The three layouts must agree before they are compared.
	for _, h := range f.live {
		rp, _ := f.page.row(h)
		rd, _ := f.dense.row(h)
		got, _ := col.Get(h)
		if f.page.data[rp] != got || f.dense.data[rd] != got {
			panic(fmt.Sprintf("layouts disagree on %v", h))
		}
	}
	if t.Len() != live || f.dense.n != live || len(f.page.free) != capacity-live {
		b.Fatalf("live rows: table %d, dense %d, page %d; want %d", t.Len(), f.dense.n, capacity-len(f.page.free), live)
	}
	return f
}

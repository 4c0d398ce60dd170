package index

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// allocated returns the bytes that make allocates, measured: the heap's
// growth in TotalAlloc across one call (large slices are rounded up to
// whole pages, so the measure is at least the count and at most a page
// per slice above it).
func allocated(make func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	make()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Each kind's Bytes is what its New allocates: never below the measure
// less the header's few words, never far above (a page per slice).
func TestBytesMatchAllocations(t *testing.T) {
	const n = 100_000
	var keep any
	for _, c := range []struct {
		name   string
		bytes  int64
		slices int
		make   func()
	}{
		{"hash int32", HashBytes[int32](n), 12, func() { keep, _ = NewHash[int32](n) }},
		{"hash struct", HashBytes[struct{ A, B int64 }](n), 12, func() { keep, _ = NewHash[struct{ A, B int64 }](n) }},
		{"unique uint64", UniqueBytes[uint64](n), 12, func() { keep, _ = NewUnique[uint64](n) }},
		{"sorted int32", SortedBytes[int32](n), 7, func() { keep, _ = NewSorted[int32](n) }},
		{"sorted float64", SortedBytes[float64](n), 7, func() { keep, _ = NewSorted[float64](n) }},
		{"grid", GridBytes(n), 10, func() { keep, _ = NewGrid(n, 64) }},
	} {
		got := int64(allocated(c.make))
		require.NotNil(t, keep)
		require.GreaterOrEqual(t, got, c.bytes, "%s: allocated less than counted", c.name)
		require.LessOrEqual(t, got, c.bytes+int64(c.slices)*8192+512, "%s: allocated %d, counted %d", c.name, got, c.bytes)
	}
	require.Zero(t, HashBytes[int32](0))
	require.Zero(t, GridBytes(-1))
}

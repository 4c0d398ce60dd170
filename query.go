package tickwork

import "math"

// Helpers of the generated declared queries (schema/codegen; the rules:
// docs/schema.md, Query results), for generated code: each is small
// enough to inline into a query's row loop. Safe for concurrent use.

// QueryParallelChunks is the fewest used chunks of its from table for
// which a declared query attached to a world (its Parallel method) runs
// its scan on the world's kernel workers (World.RunChunks): below it, the
// hand-off costs more than the scan saves. The lane's rule:
// docs/schema.md, Queries ("Parallel lane").
const QueryParallelChunks = 16

// QueryFloatKey32 is the key a query orders, groups and deduplicates a
// float32 by: keys compare as the total order -Inf < ... < -0 == +0 < ...
// < +Inf < NaN, with -0 and +0 one key and every NaN one key (the
// greatest).
func QueryFloatKey32(x float32) uint32 {
	switch {
	case x != x:
		return math.MaxUint32
	case x == 0:
		return 1 << 31
	}
	b := math.Float32bits(x)
	if b>>31 != 0 {
		return ^b
	}
	return b | 1<<31
}

// QueryFloatKey64 is QueryFloatKey32 for a float64.
func QueryFloatKey64(x float64) uint64 {
	switch {
	case x != x:
		return math.MaxUint64
	case x == 0:
		return 1 << 63
	}
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// QueryHandleKey is the key a query orders and groups a ref by: the entity
// index, then the generation (two handles of one slot are two keys).
func QueryHandleKey(h Handle) uint64 { return uint64(h.Index())<<32 | uint64(h.Generation()) }

// QueryBoolKey is the key a query orders a bool by: false before true.
func QueryBoolKey(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// QueryHandle is the handle of live row row of t (a query's from row);
// the zero handle for a row that is not live.
func QueryHandle(t *Table, row int) Handle {
	h, _ := t.HandleAt(row)
	return h
}

// QueryBound is the most rows a query with limit n returns from a source of
// at most capacity rows: n clamped to 0..capacity (a negative limit gives
// no rows).
func QueryBound(n int64, capacity int) int {
	switch {
	case n <= 0:
		return 0
	case n < int64(capacity):
		return int(n)
	}
	return capacity
}

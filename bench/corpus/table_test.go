package corpus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
BenchmarkCorpus/count_units/hand-2         	42123892	        15.58 ns/op	         1.000 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/count_units/sqlite-2       	   10000	     54192 ns/op	         1.000 rows	     488 B/op	      16 allocs/op
BenchmarkCorpus/count_units/sqlite_index-2 	    5575	     43015 ns/op	         1.000 rows	     488 B/op	      16 allocs/op
BenchmarkCorpus/count_units/hand-2         	42123892	        17.58 ns/op	         1.000 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/count_units/hand-2         	42123892	        16.00 ns/op	         1.000 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/count_units/generated
    corpus_bench_test.go:50: no generated query yet
PASS
`

func TestParseAndTable(t *testing.T) {
	rs, err := ParseResults(strings.NewReader(sample))
	require.NoError(t, err)
	require.Len(t, rs, 5)
	assert.Equal(t, Result{Case: "count_units", Way: "sqlite", NsPerOp: 54192, BytesPerOp: 488, AllocsPerOp: 16, Rows: 1}, rs[1])
	sums := Summarize(rs)
	require.Len(t, sums, 1)
	s := sums[0]
	assert.Equal(t, "aggregate", s.Family)
	assert.Equal(t, 16.0, s.Ns["hand"], "the median of 15.58, 17.58, 16")
	assert.Equal(t, 3, s.Runs)
	assert.InDelta(t, 54192.0/16, s.Ratio("sqlite"), 1e-9)
	assert.Zero(t, s.Ratio("generated"))
	var b strings.Builder
	require.NoError(t, WriteTable(&b, sums))
	assert.Contains(t, b.String(), "count_units")
	assert.Contains(t, b.String(), "3387×")
}

// TestTableGeneratedColumns: the generated query's B/op, SQLite's scan
// over the generated query and the parallel lane over the serial one.
func TestTableGeneratedColumns(t *testing.T) {
	const in = `BenchmarkCorpus/low_health_units/generated-2 	100	200 ns/op	5 rows	0 B/op	0 allocs/op
BenchmarkCorpus/low_health_units/parallel-2  	100	100 ns/op	5 rows	0 B/op	0 allocs/op
BenchmarkCorpus/low_health_units/hand-2      	100	250 ns/op	5 rows	0 B/op	0 allocs/op
BenchmarkCorpus/low_health_units/sqlite-2    	100	30000 ns/op	5 rows	64 B/op	2 allocs/op
`
	rs, err := ParseResults(strings.NewReader(in))
	require.NoError(t, err)
	sums := Summarize(rs)
	require.Len(t, sums, 1)
	assert.Equal(t, 0.0, sums[0].GenBytes)
	assert.InDelta(t, 150.0, sums[0].RatioTo("sqlite", "generated"), 1e-9)
	assert.InDelta(t, 0.5, sums[0].RatioTo("parallel", "generated"), 1e-9)
	var b strings.Builder
	require.NoError(t, WriteTable(&b, sums))
	assert.Contains(t, b.String(), "150×")
	assert.Contains(t, b.String(), "0.50×")
	assert.Contains(t, b.String(), "0.80×", "generated/hand")
}

func TestParseBadLine(t *testing.T) {
	_, err := ParseResults(strings.NewReader("BenchmarkCorpus/x/hand-2 12 zz ns/op\n"))
	require.ErrorIs(t, err, ErrBadLine)
	_, err = ParseResults(strings.NewReader("BenchmarkCorpus/x-2 12 3 ns/op\n"))
	require.ErrorIs(t, err, ErrBadLine)
}

// TestIndexTable: an index-served case's per-round ratios (round k: the
// k-th run of each way), its target marks and the geometric mean; a case
// without an index is left out.
func TestIndexTable(t *testing.T) {
	const in = `BenchmarkCorpus/ix_top_scores/generated-2 	100	100 ns/op	20 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_top_scores/scan-2      	100	5000 ns/op	20 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_top_scores/sqlite_index-2	100	2000 ns/op	20 rows	900 B/op	40 allocs/op
BenchmarkCorpus/ix_stores_near/generated-2	100	1000 ns/op	180 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_stores_near/scan-2     	100	50000 ns/op	180 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_stores_near/sqlite_index-2	100	500000 ns/op	180 rows	900 B/op	40 allocs/op
BenchmarkCorpus/count_units/generated-2   	100	5 ns/op	1 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_top_scores/generated-2 	100	200 ns/op	20 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_top_scores/scan-2      	100	6000 ns/op	20 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_top_scores/sqlite_index-2	100	3000 ns/op	20 rows	900 B/op	40 allocs/op
BenchmarkCorpus/ix_stores_near/generated-2	100	1000 ns/op	180 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_stores_near/scan-2     	100	50000 ns/op	180 rows	0 B/op	0 allocs/op
BenchmarkCorpus/ix_stores_near/sqlite_index-2	100	500000 ns/op	180 rows	900 B/op	40 allocs/op
`
	rs, err := ParseResults(strings.NewReader(in))
	require.NoError(t, err)
	sums := Summarize(rs)
	var top Summary
	for _, s := range sums {
		if s.Case == "ix_top_scores" {
			top = s
		}
	}
	require.Equal(t, "PlayersByScore", top.Index)
	med, lo, hi := top.RoundRatios("scan", "generated")
	assert.Equal(t, []float64{40, 30, 50}, []float64{med, lo, hi}, "rounds 5000/100 and 6000/200")
	var b strings.Builder
	require.NoError(t, WriteIndexTable(&b, sums))
	out := b.String()
	assert.NotContains(t, out, "count_units")
	assert.Contains(t, out, "17.50× (15.00–20.00) !", "sqlite_index/indexed below 30×")
	assert.Contains(t, out, "40.00× (30.00–50.00)", "scan/indexed")
	assert.NotContains(t, out, "(30.00–50.00) !", "40× meets the scan's 10×: no mark")
	assert.Contains(t, out, "500× (500–500)", "ix_stores_near")
	// sqrt(17.5 * 500) = 93.5; sqrt(40 * 50) = 44.7
	assert.Contains(t, out, "sqlite_index/indexed 93.54× over 2 cases")
	assert.Contains(t, out, "scan/indexed 44.72× over 2")
}

// TestRunqTable: the runq table gives each case that ran runq its ratios
// over the rounds, marks a worst round past a target and bytes past the
// point lookup's 0 B, counts the cases that meet each target and lists
// the refused ones.
func TestRunqTable(t *testing.T) {
	const in = `BenchmarkCorpus/veterans_of_region/generated-2	100	1000 ns/op	28 rows	0 B/op	0 allocs/op
BenchmarkCorpus/veterans_of_region/runq-2	100	2000 ns/op	28 rows	0 B/op	0 allocs/op
BenchmarkCorpus/veterans_of_region/sqlite-2	100	40000 ns/op	28 rows	1368 B/op	102 allocs/op
BenchmarkCorpus/product_by_handle/generated-2	100	5 ns/op	1 rows	0 B/op	0 allocs/op
BenchmarkCorpus/product_by_handle/runq-2	100	16 ns/op	1 rows	8 B/op	1 allocs/op
BenchmarkCorpus/product_by_handle/sqlite-2	100	2000 ns/op	1 rows	664 B/op	22 allocs/op
BenchmarkCorpus/hit_totals_by_target/generated-2	100	30 ns/op	5 rows	0 B/op	0 allocs/op
BenchmarkCorpus/hit_totals_by_target/sqlite-2	100	5000 ns/op	5 rows	488 B/op	16 allocs/op
BenchmarkCorpus/veterans_of_region/generated-2	100	1000 ns/op	28 rows	0 B/op	0 allocs/op
BenchmarkCorpus/veterans_of_region/runq-2	100	4000 ns/op	28 rows	0 B/op	0 allocs/op
BenchmarkCorpus/veterans_of_region/sqlite-2	100	40000 ns/op	28 rows	1368 B/op	102 allocs/op
`
	rs, err := ParseResults(strings.NewReader(in))
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, WriteRunqTable(&b, Summarize(rs)))
	out := b.String()
	assert.Contains(t, out, "3.00× (2.00–4.00) !", "veterans: runq/generated past 3× in its second round")
	assert.Contains(t, out, "15.00× (10.00–20.00)", "veterans: sqlite/runq")
	assert.Contains(t, out, "3.20× (3.20–3.20) !", "product_by_handle: runq/generated")
	assert.Contains(t, out, "8 !", "a point lookup's bytes past 0")
	assert.Contains(t, out, "2 cases ran runq: 2 at least 5× faster than sqlite, 0 within 3× of generated, 1 within their bytes")
	assert.Contains(t, out, "refused: hit_totals_by_target")
}

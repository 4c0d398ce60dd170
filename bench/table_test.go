package bench_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/bench"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/tickwork/tickwork/bench
BenchmarkArena/units=10000/tickwork-w1-2         	      20	    930366 ns/op	    227728 p50-ns/frame	   5509555 p99-ns/frame	       0 B/op	       0 allocs/op
BenchmarkArena/units=10000/tickwork-w2-2         	      20	    380015 ns/op	    288969 p50-ns/frame	    716913 p99-ns/frame	      56 B/op	       0 allocs/op
BenchmarkArena/units=10000/soa-2                 	      20	    205546 ns/op	    200000 p50-ns/frame	    336819 p99-ns/frame	       0 B/op	       0 allocs/op
BenchmarkArena/units=10000/ark-2                 	      20	    373715 ns/op	    300000 p50-ns/frame	   2439190 p99-ns/frame	       0 B/op	       0 allocs/op
BenchmarkArena/units=10000/ark-2                 	      20	    373715 ns/op	    500000 p50-ns/frame	   2439190 p99-ns/frame	       0 B/op	       0 allocs/op
BenchmarkArena/units=10000/ark-2                 	      20	    373715 ns/op	    400000 p50-ns/frame	   2439190 p99-ns/frame	       0 B/op	       0 allocs/op
BenchmarkOther-2   	 100	 5 ns/op
PASS
`

func TestParseResults(t *testing.T) {
	res, err := bench.ParseResults(strings.NewReader(sample))
	require.NoError(t, err)
	require.Len(t, res, 6)
	assert.Equal(t, bench.Result{Units: 10000, Impl: "tickwork-w2", NsPerOp: 380015, P50: 288969, P99: 716913, BytesPerOp: 56, AllocsPerOp: 0}, res[1])
	assert.Equal(t, "soa", res[2].Impl)
	assert.Equal(t, "ark", res[5].Impl)
	assert.Equal(t, 400000.0, res[5].P50)
}

func TestParseResultsWithoutProcsSuffixOrMetrics(t *testing.T) {
	res, err := bench.ParseResults(strings.NewReader("BenchmarkArena/units=5/tickwork-w1   3   10 ns/op\nBenchmarkArena/units=5\n"))
	require.NoError(t, err)
	require.Len(t, res, 1)
	assert.Equal(t, bench.Result{Units: 5, Impl: "tickwork-w1", NsPerOp: 10, BytesPerOp: -1, AllocsPerOp: -1}, res[0])
}

func TestParseResultsBadLine(t *testing.T) {
	for _, line := range []string{
		"BenchmarkArena/units=x/soa 1 2 ns/op",
		"BenchmarkArena/soa 1 2 ns/op",
		"BenchmarkArena/units=10/soa many 2 ns/op",
		"BenchmarkArena/units=10/soa 1 fast ns/op",
		"BenchmarkArena/units=10/soa 1 2",
		"BenchmarkArena/units=10/soa 1 2 B/op",
	} {
		_, err := bench.ParseResults(strings.NewReader("PASS\n" + line + "\n"))
		require.ErrorIs(t, err, bench.ErrBadLine, line)
		var le *bench.LineError
		require.True(t, errors.As(err, &le), line)
		assert.Equal(t, 2, le.Line, line)
		assert.Equal(t, line, le.Text)
	}
}

func TestWriteTable(t *testing.T) {
	res, err := bench.ParseResults(strings.NewReader(sample))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, bench.WriteTable(&out, res))
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	require.Len(t, lines, 5, out.String())
	assert.Equal(t, []string{"units", "impl", "p50", "µs", "p99", "µs", "mean", "µs", "B/frame", "allocs/frame", "p50/soa", "runs", "p50", "range", "µs"}, strings.Fields(lines[0]))
	assert.Equal(t, []string{"10000", "tickwork-w2", "289.0", "716.9", "380.0", "56", "0", "1.44", "1", "289.0–289.0"}, strings.Fields(lines[2]))
	assert.Equal(t, []string{"10000", "soa", "200.0", "336.8", "205.5", "0", "0", "1.00", "1", "200.0–200.0"}, strings.Fields(lines[3]))
	// Three ark runs: the median p50 (400 µs), over soa's 200 µs, and the range.
	assert.Equal(t, []string{"10000", "ark", "400.0", "2439.2", "373.7", "0", "0", "2.00", "3", "300.0–500.0"}, strings.Fields(lines[4]))
}

func TestWriteTableWithoutBaseline(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, bench.WriteTable(&out, []bench.Result{{Units: 1, Impl: "ark", NsPerOp: 2000, P50: 1000, BytesPerOp: -1, AllocsPerOp: -1}}))
	assert.Equal(t, []string{"1", "ark", "1.0", "0.0", "2.0", "-", "-", "-", "1", "1.0–1.0"}, strings.Fields(strings.Split(out.String(), "\n")[1]))
}

package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseReport(t *testing.T) {
	b := []byte(`{"digest_match": true, "impls": [
		{"name": "runtime-w1", "frame_p50_us": 500, "frame_p99_us": 900, "digest": "ab"},
		{"name": "runtime-w2", "frame_p50_us": 400, "frame_p99_us": 1000, "digest": "ab"},
		{"name": "soa", "frame_p50_us": 450, "frame_p99_us": 800, "digest": "ab"}]}`)
	p50, p99, d, err := parseReport(b)
	require.NoError(t, err)
	assert.Equal(t, []float64{500, 400}, p50)
	assert.Equal(t, []float64{900, 1000}, p99)
	assert.Equal(t, []string{"ab", "ab"}, d)

	_, _, _, err = parseReport([]byte(`{"digest_match": false, "impls": []}`))
	assert.ErrorContains(t, err, "digests differ")
	_, _, _, err = parseReport([]byte(`{"digest_match": true, "impls": [{"name": "soa"}]}`))
	assert.ErrorContains(t, err, "no runtime entry")
	_, _, _, err = parseReport([]byte(`not json`))
	assert.Error(t, err)
}

func TestSummarize(t *testing.T) {
	all := []figures{
		{p50: [2]float64{500, 400}, p99: [2]float64{900, 1000}}, // 1.25, 0.9
		{p50: [2]float64{600, 300}, p99: [2]float64{1000, 500}}, // 2, 2
		{p50: [2]float64{400, 500}, p99: [2]float64{800, 400}},  // 0.8, 2
	}
	s := summarize(all)
	assert.Equal(t, [2]float64{500, 400}, s.p50)
	assert.Equal(t, [2]float64{900, 500}, s.p99)
	assert.InDelta(t, 1.25, s.r50, 1e-12)
	assert.InDelta(t, 2.0, s.r99, 1e-12)
	assert.InDelta(t, 0.8, s.min50, 1e-12)
	assert.InDelta(t, 2.0, s.max50, 1e-12)
	assert.InDelta(t, 0.9, s.min99, 1e-12)
	assert.Equal(t, 1, s.slower50)
	assert.Equal(t, 1, s.slower99)
	assert.Equal(t, 2.5, median([]float64{1, 2, 3, 4}))
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-units", "10, 20", "-busy", "-mode", "pair"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, []int{10, 20}, o.units)
	assert.True(t, o.busy)
	assert.Equal(t, "pair", o.mode)
	assert.Equal(t, 7, o.runs)
	for _, bad := range [][]string{{"-runs", "0"}, {"-mode", "both"}, {"-units", "x"}, {"-units", "0"}, {"extra"}} {
		_, err := parseFlags(bad, io.Discard)
		assert.Error(t, err, "%v", bad)
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/bench"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	in := "BenchmarkArena/units=10/soa-2  5  100 ns/op  90 p50-ns/frame\nBenchmarkArena/units=10/ark-2  5  300 ns/op  180 p50-ns/frame\nok\n"
	require.NoError(t, run(strings.NewReader(in), &out))
	assert.Contains(t, out.String(), "p50/soa")
	assert.Equal(t, "2.00", strings.Fields(strings.Split(out.String(), "\n")[2])[7])
}

func TestRunErrors(t *testing.T) {
	var out bytes.Buffer
	assert.ErrorIs(t, run(strings.NewReader("PASS\n"), &out), errNoResults)
	assert.ErrorIs(t, run(strings.NewReader("BenchmarkArena/units=1/soa 1 x ns/op\n"), &out), bench.ErrBadLine)
	assert.Empty(t, out.String())
}

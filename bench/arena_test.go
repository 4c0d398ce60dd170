package bench_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/bench"
)

func TestImpls(t *testing.T) {
	names := func(impls []bench.Impl) []string {
		var n []string
		for _, i := range impls {
			n = append(n, i.Name)
		}
		return n
	}
	assert.Equal(t, []string{"tickwork-w1", "soa", "ark"}, names(bench.Impls(1)))
	impls := bench.Impls(4)
	assert.Equal(t, []string{"tickwork-w1", "tickwork-w4", "soa", "ark"}, names(impls))
	assert.Equal(t, 4, impls[1].Workers)
	// Every implementation builds and names itself; the runtime and the
	// baseline under their own names.
	want := []string{"runtime", "runtime", "soa", "ark"}
	for i, impl := range impls {
		s, err := impl.New(rules.Config{Units: 100, Shots: 8, Seed: 1, Workers: impl.Workers})
		require.NoError(t, err, impl.Name)
		assert.Equal(t, want[i], s.Name())
		require.NoError(t, s.Frame())
		require.NoError(t, s.Close())
	}
	_, err := impls[3].New(rules.Config{})
	assert.ErrorIs(t, err, rules.ErrBadConfig)
}

func TestFrameTimesQuantile(t *testing.T) {
	f := bench.NewFrameTimes(4)
	assert.Zero(t, f.Quantile(0.5), "empty")
	for _, d := range []time.Duration{40, 10, 30, 20, 99} { // 99 is beyond the capacity
		f.Add(d)
	}
	assert.Equal(t, 4, f.Len())
	assert.Equal(t, time.Duration(20), f.Quantile(0.5))
	assert.Equal(t, time.Duration(40), f.Quantile(0.99))
	assert.Equal(t, time.Duration(10), f.Quantile(0))
	assert.Equal(t, time.Duration(10), f.Quantile(-1))
	assert.Equal(t, time.Duration(40), f.Quantile(2))
	assert.Equal(t, time.Duration(30), f.Quantile(0.51))
}

func TestFrameTimesAddAllocatesNothing(t *testing.T) {
	f := bench.NewFrameTimes(1 << 10)
	assert.Zero(t, testing.AllocsPerRun(2000, func() { f.Add(time.Microsecond) }))
	assert.Equal(t, 1<<10, f.Len())
	f0 := bench.NewFrameTimes(0) // taken as capacity 1
	f0.Add(5)
	f0.Add(6)
	assert.Equal(t, 1, f0.Len())
	assert.Equal(t, time.Duration(5), f0.Quantile(0.5))
}

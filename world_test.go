package tickwork_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// World.Report is the scheduler's report as the face's own types, every
// figure copied; after the first call it allocates nothing.
func TestWorldReport(t *testing.T) {
	var counter tickwork.Counter
	w := buildWorld(t, func(b *tickwork.Builder) {
		b.Add(tickwork.System{Name: "Count", Phase: tickwork.FixedUpdate, Lane: "scalar",
			Declare: func(d *tickwork.Decl) tickwork.RunFunc {
				counter = d.Counter("ticks")
				return func(*tickwork.Context) { counter.Add(2) }
			}})
	})
	assert.Nil(t, w.Report())
	require.NoError(t, w.Frame(2.0/60))
	r := w.Report()
	require.NotNil(t, r)
	assert.Equal(t, uint64(0), r.Frame)
	assert.Equal(t, 2, r.FixedTicks)
	require.Len(t, r.Systems, 1)
	s := r.System("Count")
	require.NotNil(t, s)
	assert.Equal(t, tickwork.SystemReport{Name: "Count", Phase: tickwork.FixedUpdate, Lane: "scalar", Runs: 2,
		Last: s.Last, Total: s.Total, P50: s.P50, P99: s.P99, Mean: s.Mean, Window: 2,
		Counters: []tickwork.CounterReport{{Name: "ticks", Value: 4}}}, *s)
	v, ok := r.Counter("Count", "ticks")
	assert.True(t, ok)
	assert.Equal(t, int64(4), v)
	assert.Equal(t, int64(4), counter.Total())
	assert.True(t, strings.HasPrefix(r.String(), "frame 0: "), r.String())
	assert.Zero(t, testing.AllocsPerRun(10, func() {
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		_ = w.Report()
	}))
	assert.Equal(t, int64(2), w.Report().Systems[0].Counters[0].Value)
}

func buildWorld(t *testing.T, declare func(b *tickwork.Builder)) *tickwork.World {
	t.Helper()
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	declare(b)
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

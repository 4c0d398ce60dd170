package scheduler_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
	"github.com/tickwork/tickwork/scheduler"
	"github.com/tickwork/tickwork/systems"
)

// TestReportWorkers: SystemReport.Workers is the most workers a system's
// kernel runs were given in the frame: the policy's count for a run of
// enough chunks, 1 for one kept on the system's goroutine (5 chunks under
// the default grain of 3), 0 for a system that ran no kernel, and the
// most of several runs.
func TestReportWorkers(t *testing.T) {
	pool, err := kernels.NewPool(2)
	require.NoError(t, err)
	t.Cleanup(func() { _ = pool.Close() })
	pol := kernels.Policy{Grain: 3, Max: 2, Fixed: true} // Fixed: the noop kernels are not run inline for being cheap
	pool.SetPolicy(pol)
	noop := func(int, int) {}
	s := seal(t, scheduler.Config{Pool: pool},
		body("narrow", systems.Update, func(ctx *systems.Context) { kernel(ctx, 5, noop) }),
		body("wide", systems.Update, func(ctx *systems.Context) { kernel(ctx, 12, noop) }),
		body("both", systems.Update, func(ctx *systems.Context) {
			kernel(ctx, 5, noop)
			kernel(ctx, 12, noop)
			kernel(ctx, 1, noop)
		}),
		body("serial", systems.Update, func(*systems.Context) {}),
	)
	for range 3 {
		require.NoError(t, s.Frame(0.01))
		r := s.Report()
		assert.Equal(t, 2, r.System("wide").Workers)
		assert.Equal(t, 1, r.System("narrow").Workers, "5 chunks, grain 3: one worker")
		assert.Equal(t, 2, r.System("both").Workers, "the most of its runs")
		assert.Equal(t, 0, r.System("serial").Workers, "no kernel")
	}
	pool.Run(12, noop) // a host's Run between frames is not the first system's
	require.NoError(t, s.Frame(0.01))
	assert.Equal(t, 1, s.Report().System("narrow").Workers)
}

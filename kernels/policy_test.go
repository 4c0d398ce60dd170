package kernels_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/kernels"
)

func TestPolicyWorkers(t *testing.T) {
	cases := []struct {
		name                   string
		pol                    kernels.Policy
		chunks, workers, procs int
		want                   int
	}{
		{"default, small run stays on one worker", kernels.DefaultPolicy, kernels.DefaultGrain*2 - 1, 8, 8, 1},
		{"default, grain per worker", kernels.DefaultPolicy, kernels.DefaultGrain * 3, 8, 8, 3},
		{"default, capped by GOMAXPROCS", kernels.DefaultPolicy, 100, 8, 2, 2},
		{"default, capped by the pool", kernels.DefaultPolicy, 100, 3, 8, 3},
		{"default, one chunk", kernels.DefaultPolicy, 1, 8, 8, 1},
		{"no chunks", kernels.DefaultPolicy, 0, 8, 8, 1},
		{"grain 1", kernels.Policy{Grain: 1}, 5, 8, 8, 5},
		{"grain 4", kernels.Policy{Grain: 4}, 25, 8, 8, 6},
		{"negative grain is the default", kernels.Policy{Grain: -3}, kernels.DefaultGrain * 2, 8, 8, 2},
		{"max above GOMAXPROCS", kernels.Policy{Grain: 1, Max: 6}, 100, 8, 2, 6},
		{"max below", kernels.Policy{Grain: 1, Max: 1}, 100, 8, 8, 1},
		{"all workers", kernels.AllWorkers, 3, 16, 1, 3},
		{"all workers, many chunks", kernels.AllWorkers, 100, 16, 1, 16},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.pol.Workers(tc.chunks, tc.workers, tc.procs))
		})
	}
}

// TestRunFollowsPolicy: Run uses at most Active(policy, chunks) workers,
// 0..n-1, and the default policy keeps a run too small for two workers on
// the caller's goroutine alone.
func TestRunFollowsPolicy(t *testing.T) {
	p, err := kernels.NewPool(4)
	require.NoError(t, err)
	defer p.Close()
	assert.Equal(t, kernels.DefaultPolicy, p.Policy())
	procs := runtime.GOMAXPROCS(0)
	for _, pol := range []kernels.Policy{kernels.DefaultPolicy, {Grain: 1}, {Grain: 3, Max: 4}, kernels.AllWorkers} {
		for _, chunks := range []int{1, 2, 3, 7, 16} {
			t.Run(fmt.Sprintf("%+v/chunks=%d", pol, chunks), func(t *testing.T) {
				n := p.Active(pol, chunks)
				require.Equal(t, pol.Workers(chunks, 4, procs), n)
				owner := make([]int, chunks)
				p.RunPolicy(pol, chunks, func(w, c int) { owner[c] = w })
				for c, w := range owner {
					assert.True(t, w < n, "chunk %d ran on worker %d of %d", c, w, n)
				}
				p.SetPolicy(pol)
				clear(owner)
				p.Run(chunks, func(w, c int) { owner[c] = w + 1 })
				for c, w := range owner {
					assert.True(t, w >= 1 && w <= n, "Run under SetPolicy: chunk %d on worker %d", c, w-1)
				}
			})
		}
	}
}

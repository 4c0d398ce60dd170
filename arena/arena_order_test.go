package arena_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/internal/chunkorder"
	"github.com/tickwork/tickwork/internal/workerpolicy"
)

// TestDigestUnderChunkOrders: the runtime arena's digest and counters equal
// the baseline's at 1..16 workers with the pool's normal split, and at 2, 3
// and 16 workers with chunks dealt out to workers reversed or shuffled
// (internal/chunkorder), so they do not depend on which worker ran which
// chunk. Every Run uses every worker (internal/workerpolicy), however few
// the chunks, so that every worker's recorders and event segments fill.
// (The arena's rules do not depend on the order of hits or of projectile
// deletes either: a unit dies once whatever the order of its
// hits, and respawn sorts the dead slots. So this digest stays the same
// even without the merges' key sort; the runtime's and the packages'
// determinism tests are the ones that catch a missing sort.)
func TestDigestUnderChunkOrders(t *testing.T) {
	cases := []struct {
		name   string
		cfg    rules.Config
		frames int
	}{
		{"1000x100", rules.Config{Units: 1000, Shots: 64, Seed: 42}, 100},
		{"200x120-dense", rules.Config{Units: 200, Shots: 128, Seed: 3}, 120},
	}
	orders := append([]chunkorder.Order{chunkorder.Span()}, chunkorder.Alternatives()...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, err := soa.New(tc.cfg)
			require.NoError(t, err)
			want, wantC := run(t, base, tc.frames)
			require.NotZero(t, wantC.Hits, "the case exercises hits")
			for _, o := range orders {
				counts := []int{2, 3, 16}
				if o.IsSpan() {
					counts = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
				}
				for _, workers := range counts {
					for _, lane := range availableLanes() {
						t.Run(fmt.Sprintf("%v/workers=%d/%s", o, workers, lane), func(t *testing.T) {
							cfg := tc.cfg
							cfg.Workers, cfg.Lane = workers, lane
							restore := chunkorder.Set(o)
							unforce := workerpolicy.Force()
							sim, err := arena.New(cfg) // its world's pool takes the order and the policy
							unforce()
							restore()
							require.NoError(t, err)
							defer sim.Close()
							got, gotC := run(t, sim, tc.frames)
							assert.Equal(t, wantC, gotC, "counters")
							assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(got), "digest")
						})
					}
				}
			}
		})
	}
}

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sums are counters of the frame reports, added up over frames.
type sums struct{ became, faded int64 }

// runFull builds the whole game (every step) and runs frames frames,
// adding up the counters of watch and Fade in each frame's report.
func runFull(t *testing.T, n, workers, frames int) (*game, sums) {
	t.Helper()
	g := newFullGame(n, workers, 1)
	require.NoError(t, g.build())
	var s sums
	for range frames {
		require.NoError(t, g.run(1))
		r := g.w.Report()
		became, ok := r.Counter("watch", "became")
		require.True(t, ok)
		faded, ok := r.Counter("Fade", "faded")
		require.True(t, ok)
		s.became, s.faded = s.became+became, s.faded+faded
	}
	return g, s
}

// TestSameDigestForWorkers: the whole game on 1, 2 and 4 workers ends in
// one digest (the golden value: the rows and positions after 900 frames)
// and the same counts.
func TestSameDigestForWorkers(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		g, s := runFull(t, 2000, workers, 900)
		assert.Equal(t, uint64(0xd7c09966a7d07bcc), g.digest(), "workers %d", workers)
		assert.Equal(t, births*life, g.walkers.Len(), "workers %d: the walkers born in the last life ticks", workers)
		assert.Equal(t, sums{became: 1352, faded: 1313}, s, "workers %d", workers)
		assert.Equal(t, 39, g.puffs.Puff.Table.Len(), "workers %d", workers)
		require.NoError(t, g.w.Close())
	}
}

// TestTallyCountsEveryEventInItsFrame: Crowded is a ThisFrame table, so
// tally (Update) counts in each frame exactly the events watch emitted in
// that frame's ticks: after any frame the score equals the sum of watch's
// per-frame counter, and puff spawned one puff per event (each still
// live or counted by the declared Fade).
func TestTallyCountsEveryEventInItsFrame(t *testing.T) {
	g, s := runFull(t, 2000, 2, 120)
	defer g.w.Close()
	assert.Greater(t, s.became, int64(100))
	assert.Equal(t, s.became, int64(g.score.Get().Crowded))
	assert.Greater(t, s.faded, int64(0))
	assert.Equal(t, s.became, s.faded+int64(g.puffs.Puff.Table.Len()), "a puff per event, each live or faded")
}

// TestFrameAllocatesNothing: after warm-up (past the set-up walkers'
// expiry at tick 600) a frame of the whole game allocates nothing, in
// objects (AllocsPerRun) and in bytes (the frame report's count, summed
// over the measured frames).
func TestFrameAllocatesNothing(t *testing.T) {
	g, _ := runFull(t, 2000, 2, 700)
	defer g.w.Close()
	var bytes uint64
	allocs := testing.AllocsPerRun(100, func() {
		require.NoError(t, g.w.Frame(1.0/60))
		bytes += g.w.Report().AllocBytes
	})
	assert.Zero(t, allocs)
	assert.Zero(t, bytes)
}

package main

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// digest hashes every live particle's row and position bits, in row order.
func digest(t *testing.T, s *sim) uint64 {
	t.Helper()
	q := tickwork.HostQuery1(s.pos)
	require.NoError(t, q.Err())
	h := fnv.New64a()
	var buf [12]byte
	for r, p := range q.All() {
		v := r.Get()
		x, y, row := math.Float32bits(v.X), math.Float32bits(v.Y), p.Index()
		for i, w := range []uint32{row, x, y} {
			buf[4*i], buf[4*i+1], buf[4*i+2], buf[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		h.Write(buf[:])
	}
	return h.Sum64()
}

// TestCountsBalance: every tick bears 50 particles; the live count is the
// initial ones plus the born minus the expired; the Expired events are
// counted in the next frame, every one exactly once, so after one more
// frame without a tick the counted equal the expired.
func TestCountsBalance(t *testing.T) {
	s, err := run(2, 600, 42)
	require.NoError(t, err)
	defer s.w.Close()
	c := *s.counts.Get()
	ticks := int(s.w.Time().Ticks)
	assert.Equal(t, 605, ticks, "600 jittered frames and a hitch capped at 8 ticks")
	assert.Equal(t, born*ticks, c.Born)
	assert.Equal(t, initial+c.Born-c.Expired, s.pos.Table().Len())
	assert.Greater(t, c.Expired, initial, "the initial particles and the first newborns expired")
	last := s.w.Report().FixedTicks
	assert.Equal(t, c.Expired-born*last, s.counted, "what the last frame's ticks expired is counted next frame")
	require.NoError(t, s.w.Frame(0))
	c = *s.counts.Get()
	assert.Equal(t, c.Expired, s.counted, "every expiry counted once")
	assert.Zero(t, s.w.Report().EventsDropped)
}

// TestSameDigestForWorkers: 1, 2 and 4 kernel workers end in the same
// positions, rows and counts.
func TestSameDigestForWorkers(t *testing.T) {
	var want uint64
	var wantCounts Counts
	for _, workers := range []int{1, 2, 4} {
		s, err := run(workers, 600, 7)
		require.NoError(t, err)
		got, c := digest(t, s), *s.counts.Get()
		require.NoError(t, s.w.Close())
		if workers == 1 {
			want, wantCounts = got, c
			// The golden values, from the program before issue 20's short forms.
			assert.Equal(t, uint64(0x14a8965b747a888c), got)
			assert.Equal(t, Counts{Born: 30350, Expired: 30350}, c)
			assert.Equal(t, 30300, s.counted)
			continue
		}
		assert.Equal(t, want, got, "workers %d: positions", workers)
		assert.Equal(t, wantCounts, c, "workers %d: counts", workers)
	}
	assert.NotZero(t, want)
}

// TestFrameAllocatesNothing: after warm-up a frame allocates nothing, in
// objects (AllocsPerRun) and in bytes (the frame report's count, summed
// over the measured frames).
func TestFrameAllocatesNothing(t *testing.T) {
	s, err := run(2, 200, 3)
	require.NoError(t, err)
	defer s.w.Close()
	var bytes uint64
	allocs := testing.AllocsPerRun(100, func() {
		require.NoError(t, s.w.Frame(1.0/60))
		bytes += s.w.Report().AllocBytes
	})
	assert.Zero(t, allocs)
	assert.Zero(t, bytes)
}

package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// digest hashes every live boid's row, position and velocity bits in row
// order, then the counts.
func digest(t *testing.T, f *flock) string {
	t.Helper()
	q := tickwork.HostQuery4(f.t.Boid.X, f.t.Boid.Y, f.t.Boid.VX, f.t.Boid.VY)
	require.NoError(t, q.Err())
	h := fnv.New64a()
	var buf [20]byte
	for r, b := range q.All() {
		x, y, vx, vy := r.Get()
		for i, w := range []uint32{b.Index(), math.Float32bits(*x), math.Float32bits(*y), math.Float32bits(*vx), math.Float32bits(*vy)} {
			buf[4*i], buf[4*i+1], buf[4*i+2], buf[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		h.Write(buf[:])
	}
	c := f.counts.Get()
	fmt.Fprint(h, struct{ Born, Expired, Near int }{c.Born, c.Expired, f.near}) // the bytes of the counts before Near moved to the host
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestSameDigestForWorkers: 1, 2 and 4 kernel workers end in the same
// boids, bit for bit, and the same counts; the golden value pins the
// program's rules (a change of any constant, order or rounding moves it).
func TestSameDigestForWorkers(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		f, err := run(2048, workers, 240, 7)
		require.NoError(t, err)
		c := *f.counts.Get()
		assert.Equal(t, Counts{Born: 1920, Expired: 829}, c, "workers %d", workers)
		assert.Equal(t, 7865, f.near, "workers %d", workers)
		assert.Equal(t, "f2c3352a0e75433a", digest(t, f), "workers %d", workers)
		assert.Equal(t, 2048+c.Born-c.Expired, f.t.Boid.Table.Len())
		require.NoError(t, f.w.Close())
	}
}

// TestNearEventsCountedOnce: every Near event the steering emits is
// counted once, in the frame after its tick (lifetime next_frame).
func TestNearEventsCountedOnce(t *testing.T) {
	f, err := run(4096, 2, 120, 3)
	require.NoError(t, err)
	defer f.w.Close()
	before := f.near
	require.Greater(t, before, 0, "a dense flock has near misses")
	require.NoError(t, f.w.Frame(0)) // no tick: only last frame's events are counted
	assert.GreaterOrEqual(t, f.near, before)
	require.NoError(t, f.w.Frame(0))
	after := f.near
	require.NoError(t, f.w.Frame(0))
	assert.Equal(t, after, f.near, "nothing counted twice")
	assert.Zero(t, f.w.Report().EventsDropped)
}

// TestFrameAllocatesNothing: after warm-up a frame allocates nothing, in
// objects (AllocsPerRun) and in bytes (the frame report's count).
func TestFrameAllocatesNothing(t *testing.T) {
	for _, workers := range []int{1, 2} {
		f, err := run(4096, workers, 120, 5)
		require.NoError(t, err)
		var bytes uint64
		allocs := testing.AllocsPerRun(100, func() {
			require.NoError(t, f.w.Frame(1.0/60))
			bytes += f.w.Report().AllocBytes
		})
		assert.Zero(t, allocs, "workers %d", workers)
		assert.Zero(t, bytes, "workers %d", workers)
		require.NoError(t, f.w.Close())
	}
}

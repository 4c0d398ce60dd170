package arena_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

func newSim(t testing.TB, cfg rules.Config) *arena.Sim {
	t.Helper()
	s, err := arena.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestSaveLoadDigest: a Sim restored from another Sim's snapshot after K
// frames and run M more frames ends in the digest of the uninterrupted
// run of K+M frames, which is the baseline's; the respawns awaiting
// resolution (provisional handles) and the random stream come back with
// the snapshot. A Sim of another seed refuses it, naming the seed.
func TestSaveLoadDigest(t *testing.T) {
	cfg := rules.Config{Units: 3000, Shots: 256, Seed: 5}
	const k, m = 90, 60
	base, err := soa.New(cfg)
	require.NoError(t, err)
	want, _ := run(t, base, k+m)
	for _, workers := range []int{1, 2, 4} {
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			cfg := cfg
			cfg.Workers = workers
			a := newSim(t, cfg)
			run(t, a, k)
			save, err := a.Snapshot(nil)
			require.NoError(t, err)
			require.Positive(t, a.Counters().Deaths, "units died, so respawns are pending")
			straight, _ := run(t, a, m)
			assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(straight))

			other := cfg
			other.Seed = 999 // another run's configuration: refused naming the seed
			o := newSim(t, other)
			err = o.Restore(save)
			var oc *arena.OtherConfigError
			require.ErrorAs(t, err, &oc)
			assert.ErrorIs(t, err, tickwork.ErrHostConfig)
			assert.Equal(t, "arena: saved with seed 5, this run has seed 999", oc.Error())
			assert.Zero(t, o.Frames(), "refused: the Sim is as it was")

			b := newSim(t, cfg)
			require.NoError(t, b.Restore(save))
			assert.Equal(t, int64(k), b.Frames())
			got, _ := run(t, b, m)
			assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(got))

			cfg.Workers = 5 - workers // 4, 3, 1: a save loads on any worker count
			c := newSim(t, cfg)
			require.NoError(t, c.Restore(save))
			got, _ = run(t, c, m)
			assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(got), "saved at %d workers, loaded at %d", workers, cfg.Workers)
		})
	}
}

// TestSyncTestRollback is the SyncTest of rollback libraries at 2 000
// units: every frame, roll back 8 frames and re-simulate them, checking
// each re-simulated frame's snapshot checksum against the one the frame
// had the first time; the run ends in the digest of a straight run, for 1,
// 2 and 4 workers.
func TestSyncTestRollback(t *testing.T) {
	cfg := rules.Config{Units: 2000, Shots: 256, Seed: 11}
	const frames, back = 60, 8
	base, err := soa.New(cfg)
	require.NoError(t, err)
	want, _ := run(t, base, frames)
	for _, workers := range []int{1, 2, 4} {
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			cfg := cfg
			cfg.Workers = workers
			s := newSim(t, cfg)
			ring, err := tickwork.NewRollback(s.World(), back+1)
			require.NoError(t, err)
			require.NoError(t, ring.Save())
			compared := 0
			for f := 0; f < frames; f++ {
				require.NoError(t, s.Frame())
				require.NoError(t, ring.Save())
				if f+1 < back {
					continue
				}
				require.NoError(t, ring.Rewind(back))
				for k := 0; k < back; k++ {
					require.NoError(t, s.Frame())
					first, ok := ring.Checksum(uint64(s.Frames()))
					require.True(t, ok)
					require.NoError(t, ring.Save())
					again, _ := ring.Checksum(uint64(s.Frames()))
					require.Equal(t, first, again, "frame %d re-simulated", s.Frames())
					compared++
				}
			}
			assert.Equal(t, (frames-back+1)*back, compared)
			assert.Equal(t, rules.FormatDigest(want), rules.FormatDigest(s.Digest()))
		})
	}
}

// TestSnapshotEveryFrameAllocates0: a frame with a snapshot taken before it
// (into a buffer that has grown), and a rollback ring saving every frame
// and rewinding 2 frames, allocate nothing.
func TestSnapshotEveryFrameAllocates0(t *testing.T) {
	s := newSim(t, rules.Config{Units: 2000, Shots: 256, Seed: 3, Workers: 1})
	run(t, s, 30)
	buf, err := s.Snapshot(nil)
	require.NoError(t, err)
	buf = make([]byte, 0, 2*len(buf))
	allocs := testing.AllocsPerRun(40, func() {
		if buf, err = s.Snapshot(buf[:0]); err != nil {
			panic(err)
		}
		if err := s.Frame(); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs, "snapshot + frame")
	assert.Zero(t, s.World().Report().AllocBytes)

	ring, err := tickwork.NewRollback(s.World(), 3)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, ring.Save())
		require.NoError(t, s.Frame())
	}
	allocs = testing.AllocsPerRun(20, func() {
		if err := ring.Save(); err != nil {
			panic(err)
		}
		if err := s.Frame(); err != nil {
			panic(err)
		}
		if err := ring.Rewind(2); err != nil {
			panic(err)
		}
		for range 2 {
			if err := s.Frame(); err != nil {
				panic(err)
			}
			if err := ring.Save(); err != nil {
				panic(err)
			}
		}
	})
	assert.Zero(t, allocs, "save, frame, rewind 2, re-simulate")
}

// TestStreamIsTheRulesStream: the stream resource draws what rules.NewRand
// draws, and a zero stream decoded from a stream's bytes draws on from
// the same place.
func TestStreamIsTheRulesStream(t *testing.T) {
	assert.Equal(t, arena.StreamDraws(42, 10), arena.DrawsOf(rules.NewRand(42), 10))
	a, b := arena.StreamCopyDraws(42, 7, 10)
	assert.Equal(t, a, b)
}

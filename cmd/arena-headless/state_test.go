package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// TestSaveLoadContinues: -save after the measured frames, then -load and M
// more frames, ends in the digest of the uninterrupted run of the same
// length, which is the baseline's (it catches up with the snapshot's
// frames as extra warm-up), for 1 and 2 workers.
func TestSaveLoadContinues(t *testing.T) {
	cfg := rules.Config{Units: 1000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed}
	want := soaDigest(t, cfg, 10+40+30)
	for _, w := range []string{"1", "2"} {
		t.Run("workers="+w, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "arena.snap")
			code, _, errOut := runArgs("-units", "1000", "-warmup", "10", "-frames", "40", "-workers", w, "-impl", "runtime", "-save", file)
			require.Equal(t, 0, code, errOut)
			other := map[string]string{"1": "2", "2": "1"}[w] // a save loads on any worker count
			code, out, errOut := runArgs("-units", "1000", "-warmup", "0", "-frames", "30", "-workers", other, "-load", file, "-json")
			require.Equal(t, 0, code, errOut)
			var rep report
			require.NoError(t, json.Unmarshal([]byte(out), &rep))
			require.Len(t, rep.Impls, 2)
			assert.True(t, rep.DigestMatch)
			for _, ir := range rep.Impls {
				assert.Equal(t, want, ir.Digest, ir.Name)
			}
			code, out, errOut = runArgs("-units", "1000", "-warmup", "10", "-frames", "70", "-workers", w, "-impl", "runtime")
			require.Equal(t, 0, code, errOut)
			assert.Contains(t, out, "digest    "+want+" after 80 frames", "the uninterrupted run")
		})
	}
}

// TestRollbackFlag: -rollback 8 runs the SyncTest at 1, 2 and 4 workers,
// compares every re-simulated frame and ends in the baseline's digest;
// the JSON report carries its costs.
func TestRollbackFlag(t *testing.T) {
	code, out, errOut := runArgs("-units", "2000", "-warmup", "5", "-frames", "20", "-workers", "1,2,4", "-rollback", "8", "-json")
	require.Equal(t, 0, code, errOut)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.True(t, rep.DigestMatch)
	n := 0
	for _, ir := range rep.Impls {
		if ir.Rollback == nil {
			continue
		}
		n++
		assert.Equal(t, 8, ir.Rollback.Frames)
		assert.Equal(t, (20-7)*8, ir.Rollback.Compared, ir.Name)
		assert.Greater(t, ir.Rollback.SnapshotBytes, 100_000)
		assert.Positive(t, ir.Rollback.RestoreMeanUS)
	}
	assert.Equal(t, 3, n, "one SyncTest per worker count")

	// Alone, so that no other world's goroutines count in the process's
	// allocation figures: a rollback of 8 frames every frame allocates
	// nothing.
	code, out, errOut = runArgs("-units", "2000", "-warmup", "5", "-frames", "20", "-workers", "1", "-impl", "runtime", "-rollback", "8", "-json")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.NotNil(t, rep.Impls[0].Rollback)
	// The figure is the process's (runtime.MemStats), which a one-off
	// allocation elsewhere in the process can move by a byte or two per
	// frame; one allocation per frame would be at least 16 B/frame. The
	// frame path's exact zero is TestSnapshotEveryFrameAllocates0 (arena).
	assert.Less(t, rep.Impls[0].AllocBytesPerFrame, 16.0)
}

// TestSyncTestDetectsDesync: a re-simulation that diverges (a host write
// after the rollback that the first run did not have) is reported as a
// desync naming the frame.
func TestSyncTestDetectsDesync(t *testing.T) {
	sim, err := arena.New(rules.Config{Units: 500, Shots: 64, Seed: 3})
	require.NoError(t, err)
	defer sim.Close()
	st, err := newSyncTest(sim, 4)
	require.NoError(t, err)
	for range 6 {
		require.NoError(t, sim.Frame())
		require.NoError(t, st.afterFrame())
	}
	unit := sim.World().Tables()[0] // Unit: deleting one is a divergence the first run did not have
	st.perturb = func() {
		h, ok := unit.HandleAt(7)
		require.True(t, ok)
		require.True(t, unit.Delete(h))
	}
	require.NoError(t, sim.Frame())
	err = st.afterFrame()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "rollback desync: frame")
}

func TestStateFlagErrors(t *testing.T) {
	garbage := filepath.Join(t.TempDir(), "garbage")
	require.NoError(t, os.WriteFile(garbage, []byte("not a snapshot at all, but long enough for a header"), 0o644))
	other := filepath.Join(t.TempDir(), "other.snap")
	code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-workers", "1", "-save", other)
	require.Equal(t, 0, code, errOut)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-rollback", "65"}, 2, "-rollback must be between 0 and " + strconv.Itoa(maxRollback)},
		{[]string{"-impl", "soa", "-rollback", "2"}, 2, "need the runtime"},
		{[]string{"-load", filepath.Join(t.TempDir(), "missing")}, 1, "-load"},
		{[]string{"-load", garbage}, 1, "snapshot corrupted"},
		{[]string{"-load", other, "-workers", "1"}, 1, "saved with -units 500, this run has -units 1000"}, // another world, whose host configuration says why
	}
	for _, tc := range cases {
		t.Run(tc.args[1], func(t *testing.T) {
			code, _, errOut := runArgs(append([]string{"-units", "1000", "-warmup", "0", "-frames", "2"}, tc.args...)...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Contains(t, errOut, tc.msg)
		})
	}
}

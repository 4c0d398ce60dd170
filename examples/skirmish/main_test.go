package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// golden is what run prints for 16 frames of seed 7: the strike's runs and
// skips (paused in frames 4 and 5), the medic's reads of the changed rows,
// the fallen read from the lifecycle events a frame after their delete, and
// the subscriptions' deltas.
const golden = `frame 0: strike ran 1, skipped 0; 32 units; medic saw 32, 0 alerts; fallen [0 0], overkill [0 0]
  team 0 strength 0 -> 1506 (0 -> 16 units)
  team 1 strength 0 -> 1459 (0 -> 16 units)
  rank 0: row 1, team 1, HP 100
  rank 1: row 2, team 0, HP 100
  rank 2: row 3, team 1, HP 100
frame 1: strike ran 1, skipped 0; 32 units; medic saw 39, 1 alerts; fallen [0 0], overkill [0 0]
  team 0 strength 1506 -> 1351 (16 -> 16 units)
  team 1 strength 1459 -> 1362 (16 -> 16 units)
  wounded 0 -> 1
frame 2: strike ran 1, skipped 0; 32 units; medic saw 47, 3 alerts; fallen [0 0], overkill [0 0]
  team 0 strength 1351 -> 1294 (16 -> 16 units)
  team 1 strength 1362 -> 1172 (16 -> 16 units)
  wounded 1 -> 3
  rank 0: row 2, team 0, HP 100
  rank 1: row 3, team 1, HP 100
  rank 2: row 5, team 1, HP 100
frame 3: strike ran 1, skipped 0; 32 units; medic saw 54, 4 alerts; fallen [0 0], overkill [0 0]
  team 0 strength 1294 -> 1086 (16 -> 16 units)
  team 1 strength 1172 -> 1152 (16 -> 16 units)
  wounded 3 -> 4
frame 4: strike ran 0, skipped 1; 32 units; medic saw 54, 4 alerts; fallen [0 0], overkill [0 0]
frame 5: strike ran 0, skipped 1; 32 units; medic saw 54, 4 alerts; fallen [0 0], overkill [0 0]
frame 6: strike ran 1, skipped 0; 30 units; medic saw 59, 5 alerts; fallen [0 0], overkill [0 0]
  team 0 strength 1086 -> 978 (16 -> 15 units)
  team 1 strength 1152 -> 962 (16 -> 15 units)
  wounded 4 -> 5
frame 7: strike ran 1, skipped 0; 29 units; medic saw 65, 9 alerts; fallen [1 1], overkill [12 7]
  team 0 strength 978 -> 815 (15 -> 15 units)
  team 1 strength 962 -> 871 (15 -> 14 units)
  wounded 5 -> 7
frame 8: strike ran 1, skipped 0; 26 units; medic saw 70, 11 alerts; fallen [1 2], overkill [12 11]
  team 0 strength 815 -> 737 (15 -> 13 units)
  team 1 strength 871 -> 781 (14 -> 13 units)
frame 9: strike ran 1, skipped 0; 24 units; medic saw 72, 13 alerts; fallen [3 3], overkill [36 38]
  team 1 strength 781 -> 674 (13 -> 11 units)
frame 10: strike ran 1, skipped 0; 23 units; medic saw 74, 13 alerts; fallen [3 5], overkill [36 80]
  team 0 strength 737 -> 705 (13 -> 12 units)
  team 1 strength 674 -> 641 (11 -> 11 units)
  wounded 7 -> 6
frame 11: strike ran 1, skipped 0; 20 units; medic saw 77, 13 alerts; fallen [4 5], overkill [52 80]
  team 0 strength 705 -> 530 (12 -> 10 units)
  team 1 strength 641 -> 581 (11 -> 10 units)
  wounded 6 -> 5
  rank 2: row 19, team 1, HP 100
frame 12: strike ran 1, skipped 0; 16 units; medic saw 78, 13 alerts; fallen [6 6], overkill [65 98]
  team 0 strength 530 -> 422 (10 -> 7 units)
  team 1 strength 581 -> 559 (10 -> 9 units)
  wounded 5 -> 3
  rank 0: row 3, team 1, HP 100
  rank 1: row 19, team 1, HP 100
  rank 2: row 20, team 0, HP 100
frame 13: strike ran 1, skipped 0; 15 units; medic saw 81, 14 alerts; fallen [9 7], overkill [86 115]
  team 0 strength 422 -> 363 (7 -> 6 units)
  team 1 strength 559 -> 526 (9 -> 9 units)
  rank 0: row 19, team 1, HP 100
  rank 1: row 20, team 0, HP 100
  rank 2: row 2, team 0, HP 82
frame 14: strike ran 1, skipped 0; 15 units; medic saw 85, 16 alerts; fallen [10 7], overkill [109 115]
  team 0 strength 363 -> 296 (6 -> 6 units)
  team 1 strength 526 -> 479 (9 -> 9 units)
  wounded 3 -> 4
frame 15: strike ran 1, skipped 0; 14 units; medic saw 89, 18 alerts; fallen [10 7], overkill [109 115]
  team 0 strength 296 -> 276 (6 -> 6 units)
  team 1 strength 479 -> 391 (9 -> 8 units)
  wounded 4 -> 5
`

// TestPrintedDeltas: a fixed seed prints the same frames, skips, changed
// rows, fallen units and subscription deltas, in the normal build and in
// the checking debug build (go test -tags tickwork_debug), where the
// checks (undeclared writes, poisoned freed rows, misused accessors) find
// nothing to report.
func TestPrintedDeltas(t *testing.T) {
	var out bytes.Buffer
	s, err := run(&out, 16, 7)
	require.NoError(t, err)
	defer s.w.Close()
	assert.Equal(t, golden, out.String(), "debug build %v", tickwork.DebugBuild)
}

// TestSkipsAndCounts: the strike's run condition skips exactly the paused
// frames; the medic reads each row a strike hit once (a unit hit twice in
// a tick is one row), plus every unit in its first run; every unit that
// left the table is read from the lifecycle events once, a frame later.
func TestSkipsAndCounts(t *testing.T) {
	s, err := newSkirmish(7)
	require.NoError(t, err)
	defer s.w.Close()
	hp := s.hp
	seen, skips := 0, 0
	for f := range 16 {
		s.match.Get().On = !paused(f)
		before := snapshotHP(s.units, hp)
		require.NoError(t, s.w.Frame(1.0/30))
		for row, v := range snapshotHP(s.units, hp) { // a live row whose HP moved was hit and stamped
			if b := before[row]; f == 0 || b != v {
				seen++ // the first run sees every unit: a row made live counts as changed
			}
		}
		r := s.w.Report().System("strike")
		skips += r.Skips
		if paused(f) {
			assert.Equal(t, 0, r.Runs, "frame %d", f)
			assert.Equal(t, 1, r.Skips, "frame %d", f)
		} else {
			assert.Equal(t, 1, r.Runs, "frame %d", f)
			assert.Equal(t, 0, r.Skips, "frame %d", f)
		}
		assert.Equal(t, seen, s.tally.Get().Seen, "frame %d: the medic reads each hit row once", f)
	}
	assert.Equal(t, 2, skips)
	s.match.Get().On = false
	require.NoError(t, s.w.Frame(1.0/30)) // the obituary reads the last frame's deletes
	c := s.tally.Get()
	assert.Equal(t, units-s.units.Len(), c.Fallen[0]+c.Fallen[1])
}

// snapshotHP maps each live row of units to its HP.
func snapshotHP(units *tickwork.Table, hp *tickwork.Column[int32]) map[int]int32 {
	m := map[int]int32{}
	for row := range units.Cap() {
		if h, ok := units.HandleAt(row); ok {
			v, _ := hp.Get(h)
			m[row] = v
		}
	}
	return m
}

// TestSubscriptionsMatchTheTable: after every frame, each subscription's
// result equals the one recomputed by a scan of the table.
func TestSubscriptionsMatchTheTable(t *testing.T) {
	s, err := newSkirmish(11)
	require.NoError(t, err)
	defer s.w.Close()
	team, hp := s.team, s.hp
	for f := range 20 {
		s.match.Get().On = !paused(f)
		require.NoError(t, s.w.Frame(1.0/30))
		s.strength.Read()
		s.hurt.Read()
		s.top.Read()
		var sums [2]int64
		var rows [2]int
		hurt := 0
		var all []tickwork.Ranked[Unit, int32]
		for row := range s.units.Cap() {
			h, ok := s.units.HandleAt(row)
			if !ok {
				continue
			}
			tm, _ := team.Get(h)
			v, _ := hp.Get(h)
			sums[tm] += int64(v)
			rows[tm]++
			if v < wounded {
				hurt++
			}
			all = append(all, tickwork.Ranked[Unit, int32]{Handle: h, Row: row, Key: v, Value: Unit{Team: tm, HP: v}})
		}
		for k := range int32(2) {
			g, ok := s.strength.Group(k)
			require.True(t, ok, "frame %d team %d", f, k)
			assert.Equal(t, sums[k], g.Sum, "frame %d team %d", f, k)
			assert.Equal(t, rows[k], g.Rows, "frame %d team %d", f, k)
		}
		assert.Equal(t, hurt, s.hurt.Count(), "frame %d", f)
		slices.SortStableFunc(all, func(a, b tickwork.Ranked[Unit, int32]) int { return int(b.Key - a.Key) }) // ties in row order
		var want, got []string
		for i, r := range all[:min(3, len(all))] {
			r.Rank = i
			want = append(want, strings.TrimSpace(rankLine(r)))
		}
		for _, r := range s.top.Top() {
			got = append(got, strings.TrimSpace(rankLine(r)))
		}
		assert.Equal(t, want, got, "frame %d", f)
	}
}

// TestFrameAllocatesNothing: after warm-up a frame, with its conditions,
// change reads, lifecycle events and subscription syncs, allocates
// nothing.
func TestFrameAllocatesNothing(t *testing.T) {
	s, err := newSkirmish(7)
	require.NoError(t, err)
	defer s.w.Close()
	for range 4 {
		require.NoError(t, s.w.Frame(1.0/30))
	}
	f := 0
	allocs := testing.AllocsPerRun(100, func() {
		s.match.Get().On = f%3 != 0
		f++
		require.NoError(t, s.w.Frame(1.0/30))
		s.strength.Read()
		s.hurt.Read()
		s.top.Read()
	})
	assert.Zero(t, allocs)
}

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
)

// maxRollback bounds -rollback: ggrs's prediction windows are 8 frames;
// 64 leaves room and keeps the ring (64 snapshots) within memory at the
// largest rosters.
const maxRollback = 64

// stateOpts are the flags of snapshots: -rollback, -save, -load.
type stateOpts struct {
	rollback int    // frames rolled back and re-simulated every measured frame; 0: none
	save     string // file written after the measured frames ("" none)
	load     string // file the runtime starts from ("" none)
}

// syncTest is the SyncTest of rollback libraries on one runtime Sim: after
// every measured frame it saves a snapshot, rolls back n frames and
// re-simulates them, comparing each re-simulated frame's snapshot checksum
// with the one the frame had the first time.
type syncTest struct {
	sim  *arena.Sim
	ring *tickwork.Rollback
	n    int

	saves, restores, resims    int
	saveNs, restoreNs, resimNs int64
	compared                   int
	bytes                      int    // the snapshot's size
	perturb                    func() // test hook: runs after each rollback, before the re-simulation
}

// newSyncTest makes the ring (n+1 snapshots) and saves the first.
func newSyncTest(sim *arena.Sim, n int) (*syncTest, error) {
	ring, err := tickwork.NewRollback(sim.World(), n+1)
	if err != nil {
		return nil, err
	}
	st := &syncTest{sim: sim, ring: ring, n: n}
	return st, st.save()
}

func (st *syncTest) save() error {
	t0 := time.Now()
	err := st.ring.Save()
	st.saveNs += int64(time.Since(t0))
	st.saves++
	return err
}

// afterFrame runs the test after a straight frame: save, roll back n
// frames (once n frames are held), re-simulate them and compare.
func (st *syncTest) afterFrame() error {
	if err := st.save(); err != nil {
		return err
	}
	if st.ring.Len() <= st.n {
		return nil
	}
	t0 := time.Now()
	err := st.ring.Rewind(st.n)
	st.restoreNs += int64(time.Since(t0))
	st.restores++
	if err != nil {
		return err
	}
	if st.perturb != nil {
		st.perturb()
	}
	for range st.n {
		t0 := time.Now()
		err := st.sim.Frame()
		st.resimNs += int64(time.Since(t0))
		st.resims++
		if err != nil {
			return fmt.Errorf("re-simulated frame %d: %w", st.sim.Frames(), err)
		}
		f := uint64(st.sim.Frames())
		first, ok := st.ring.Checksum(f)
		if !ok {
			return fmt.Errorf("rollback ring lost frame %d's first snapshot before its re-simulation", f)
		}
		if err := st.save(); err != nil {
			return err
		}
		again, _ := st.ring.Checksum(f) // held: save just wrote it
		if again != first {
			return fmt.Errorf("rollback desync: frame %d re-simulated %d frames back has snapshot checksum %08x, %08x the first time",
				f, st.n, again, first)
		}
		st.compared++
	}
	return nil
}

// rollbackReport is the -json "rollback" object: the SyncTest's costs.
type rollbackReport struct {
	Frames          int     `json:"frames"`
	Compared        int     `json:"compared"`
	SnapshotBytes   int     `json:"snapshot_bytes"`
	SnapshotMeanUS  float64 `json:"snapshot_mean_us"`
	RestoreMeanUS   float64 `json:"restore_mean_us"`
	ResimFrameUS    float64 `json:"resim_frame_mean_us"`
	PerFrameTotalUS float64 `json:"per_frame_total_us"`
}

// finish records the snapshot's size, before the Sim closes.
func (st *syncTest) finish() {
	b, _ := st.sim.Snapshot(nil)
	st.bytes = len(b)
}

func (st *syncTest) report() *rollbackReport {
	mean := func(ns int64, n int) float64 {
		if n == 0 {
			return 0
		}
		return round3(float64(ns) / float64(n) / 1e3)
	}
	frames := max(1, st.restores)
	return &rollbackReport{
		Frames: st.n, Compared: st.compared, SnapshotBytes: st.bytes,
		SnapshotMeanUS: mean(st.saveNs, st.saves), RestoreMeanUS: mean(st.restoreNs, st.restores),
		ResimFrameUS:    mean(st.resimNs, st.resims),
		PerFrameTotalUS: round3(float64(st.saveNs+st.restoreNs+st.resimNs) / float64(frames) / 1e3),
	}
}

// loadInto restores the -load file into sim, a runtime Sim
// (tickwork.LoadFile: the header is checked before the payload is read).
// A save of another configuration (arena.SavedConfig: the rules version,
// -units, -shots, -seed) is refused naming the flag and both values.
func loadInto(sim *arena.Sim, path string) error {
	err := tickwork.LoadFile(sim.World(), path)
	if err == nil {
		return nil
	}
	switch oc := sim.OtherConfig(err); {
	case oc == nil:
		return fmt.Errorf("-load: %w", err)
	case oc.Param == "rules":
		return fmt.Errorf("-load %s: saved with arena rules %s, this build runs rules %s", path, oc.Saved, oc.Run)
	case oc.Param == "host configuration":
		return fmt.Errorf("-load %s: saved by another program (its host configuration is %s): %w", path, oc.Saved, err)
	default:
		return fmt.Errorf("-load %s: saved with -%s %s, this run has -%s %s", path, oc.Param, oc.Saved, oc.Param, oc.Run)
	}
}

// saveFrom writes sim's snapshot to the -save file (tickwork.SaveFile:
// the previous file stays whole until the new one replaces it).
func saveFrom(sim *arena.Sim, path string) error {
	if err := tickwork.SaveFile(sim.World(), path); err != nil {
		return fmt.Errorf("-save: %w", err)
	}
	return nil
}

// checkPaths checks, before any frame runs, that the -load file can be
// opened and that the -save file can be written: its directory exists
// and takes a new file (one is created and removed), and it is not a
// directory.
func checkPaths(st stateOpts) error {
	if st.load != "" {
		f, err := os.Open(st.load)
		if err != nil {
			return fmt.Errorf("-load: %w", err)
		}
		fi, err := f.Stat()
		_ = f.Close() // opened only to check it can be
		if err == nil && fi.IsDir() {
			err = fmt.Errorf("%s is a directory", st.load)
		}
		if err != nil {
			return fmt.Errorf("-load: %w", err)
		}
	}
	if st.save != "" {
		if fi, err := os.Stat(st.save); err == nil && fi.IsDir() {
			return fmt.Errorf("-save: %s is a directory", st.save)
		}
		dir := filepath.Dir(st.save)
		f, err := os.CreateTemp(dir, ".arena-headless-check-*")
		if err != nil {
			return fmt.Errorf("-save: the directory %s does not take a new file: %w", dir, err)
		}
		name := f.Name()
		if err := errors.Join(f.Close(), os.Remove(name)); err != nil {
			return fmt.Errorf("-save: %w", err)
		}
	}
	return nil
}

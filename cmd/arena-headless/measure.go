package main

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// reporter is an implementation with a frame report (the runtime's):
// arena-headless sums its systems' counters over every frame.
type reporter interface{ World() *tickwork.World }

// reportCounter is one system counter of the frame report, summed over
// every frame run (warm-up included).
type reportCounter struct {
	System string `json:"system"`
	Name   string `json:"name"`
	Total  int64  `json:"total"`
}

// result is everything measured for one implementation. All storage that the
// measured frames touch is allocated before they run.
type result struct {
	name    string
	workers int // the config's Workers
	sim     rules.Sim

	frameNanos []int64 // wall time of each measured frame, in run order
	measured   int     // frames recorded in frameNanos

	sysNames []string           // system names, in the Sim's order
	sysLanes []string           // their lanes ("" when not stated), as at preparation
	sysNanos []int64            // summed wall time per system over the measured frames
	sysWork  []int              // the most workers per system's kernels in a measured frame (SystemTime.Workers)
	scratch  []rules.SystemTime // reused buffer for Sim.SystemTimes
	before   runtime.MemStats   // reused by runBlock
	after    runtime.MemStats   // reused by runBlock
	alloc    uint64             // bytes allocated during measured blocks
	gc       uint32             // GC cycles completed during measured blocks

	// The frame report's counters, in report order, summed after every
	// frame: laid out after the first frame, then only added to.
	reportCounters []reportCounter
	sync           *syncTest      // -rollback: the SyncTest of a runtime Sim, else nil
	loaded         int64          // frames the Sim started from (-load; the baseline runs them as extra warm-up)
	atLoad         rules.Counters // a runtime Sim's counters as loaded (-load): what no frame report of this run shows

	// Filled after the last frame.
	queries  []queryReport // -queries, a runtime Sim's
	texts    []textReport  // -query, a runtime Sim's
	frames   int64
	counters rules.Counters
	digest   uint64
}

// measure builds every configuration of runs, runs its warm-up, then runs
// the measured frames in blocks of blockFrames, alternating between the
// configurations, and finally takes each one's digest. It closes the Sims.
//
// With st.load, every runtime Sim starts from the loaded snapshot and the
// baseline runs the snapshot's frames as extra warm-up, so that the digests
// stay comparable; with st.rollback, every runtime Sim runs the SyncTest
// after each measured frame (not timed as the frame); with st.save, the
// first runtime Sim's snapshot is written after the measured frames; with
// queries, every runtime Sim runs the arena's declared queries then
// (runQueries), and with texts it prepares and runs each run-time query
// text (runTexts).
func measure(runs []runSpec, warmup, frames int, st stateOpts, queries bool, texts []string) (results []*result, err error) {
	defer func() {
		for _, r := range results {
			if cerr := r.sim.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("%s: close: %w", r.name, cerr)
			}
		}
	}()
	var loaded int64 // frames of the -load snapshot, once a runtime Sim took it
	for _, spec := range runs {
		sim, err := factories[spec.impl](spec.cfg)
		if err != nil {
			return results, fmt.Errorf("building %s: %w", spec.name, err)
		}
		r := &result{name: spec.name, workers: spec.cfg.Workers, sim: sim, frameNanos: make([]int64, frames)}
		results = append(results, r)
		extra := 0
		if as, ok := sim.(*arena.Sim); ok && st.load != "" {
			if err := loadInto(as, st.load); err != nil {
				return results, fmt.Errorf("%s: %w", spec.name, err)
			}
			r.loaded = as.Frames()
			r.atLoad = as.Counters()
			loaded = r.loaded
		} else if st.load != "" {
			extra = int(loaded) // the baseline catches up with the snapshot
			r.loaded = loaded
		}
		for i := range warmup + extra {
			if err := sim.Frame(); err != nil {
				return results, fmt.Errorf("%s: warm-up frame %d: %w", spec.name, i, err)
			}
			r.addCounters()
		}
		r.prepareSystems()
		if as, ok := sim.(*arena.Sim); ok && st.rollback > 0 {
			if r.sync, err = newSyncTest(as, st.rollback); err != nil {
				return results, fmt.Errorf("%s: -rollback: %w", spec.name, err)
			}
		}
	}
	for done := 0; done < frames; done += blockFrames {
		n := min(blockFrames, frames-done)
		for _, r := range results {
			if err := r.runBlock(n); err != nil {
				return results, err
			}
		}
	}
	if st.save != "" {
		for _, r := range results {
			if as, ok := r.sim.(*arena.Sim); ok {
				if err := saveFrom(as, st.save); err != nil {
					return results, fmt.Errorf("%s: %w", r.name, err)
				}
				break
			}
		}
	}
	for _, r := range results {
		if as, ok := r.sim.(*arena.Sim); ok && queries {
			r.queries = runQueries(as)
		}
		if as, ok := r.sim.(*arena.Sim); ok && len(texts) > 0 {
			if r.texts, err = runTexts(as, texts); err != nil {
				return results, fmt.Errorf("%s: %w", r.name, err)
			}
		}
		if r.sync != nil {
			r.sync.finish()
		}
		r.frames = r.sim.Frames()
		r.counters = r.sim.Counters()
		r.digest = rules.Digest(r.sim.Presentation(), r.frames, r.counters, r.sim.ProjectileChecksum())
	}
	return results, nil
}

// prepareSystems sizes the per-system storage from the systems the Sim
// reports now, so that the measured frames do not allocate for it.
func (r *result) prepareSystems() {
	r.scratch = r.sim.SystemTimes(make([]rules.SystemTime, 0, 64))
	for _, st := range r.scratch {
		r.sysNames = append(r.sysNames, st.Name)
		r.sysLanes = append(r.sysLanes, st.Lane)
	}
	r.sysNanos = make([]int64, len(r.sysNames))
	r.sysWork = make([]int, len(r.sysNames))
}

// runBlock runs and records n measured frames. It reads the memory
// statistics only before and after the block: ReadMemStats stops the world.
func (r *result) runBlock(n int) error {
	runtime.ReadMemStats(&r.before)
	for range n {
		start := time.Now()
		err := r.sim.Frame()
		elapsed := time.Since(start)
		if err != nil {
			return fmt.Errorf("%s: frame %d: %w", r.name, r.sim.Frames(), err)
		}
		r.frameNanos[r.measured] = int64(elapsed)
		r.measured++
		if r.sync != nil {
			if err := r.sync.afterFrame(); err != nil {
				return fmt.Errorf("%s: frame %d: %w", r.name, r.sim.Frames(), err)
			}
		}
		r.scratch = r.sim.SystemTimes(r.scratch[:0])
		r.addSystems(r.scratch)
		r.addCounters()
	}
	runtime.ReadMemStats(&r.after)
	r.alloc += r.after.TotalAlloc - r.before.TotalAlloc
	r.gc += r.after.NumGC - r.before.NumGC
	return nil
}

// addCounters adds the last frame's report counters to the sums (nothing
// for an implementation without a frame report). The first call lays them
// out (it allocates); the report's systems and counters never change
// after Build, so later calls walk the same order and allocate nothing.
func (r *result) addCounters() {
	w, ok := r.sim.(reporter)
	if !ok {
		return
	}
	rep := w.World().Report()
	if rep == nil {
		return
	}
	first := r.reportCounters == nil
	if first {
		r.reportCounters = []reportCounter{}
	}
	k := 0
	for i := range rep.Systems {
		for _, c := range rep.Systems[i].Counters {
			if first {
				r.reportCounters = append(r.reportCounters, reportCounter{System: rep.Systems[i].Name, Name: c.Name})
			}
			r.reportCounters[k].Total += c.Value
			k++
		}
	}
}

// addSystems adds one frame's system times to the sums. When the Sim reports
// the systems in the order seen at preparation (the contract of
// Sim.SystemTimes) this is one pass; otherwise it matches by name, adding
// names it has not seen.
func (r *result) addSystems(sts []rules.SystemTime) {
	if len(sts) == len(r.sysNames) {
		same := true
		for i := range sts {
			if sts[i].Name != r.sysNames[i] {
				same = false
				break
			}
		}
		if same {
			for i := range sts {
				r.sysNanos[i] += sts[i].Nanos
				r.sysWork[i] = max(r.sysWork[i], sts[i].Workers)
			}
			return
		}
	}
	for _, st := range sts {
		i := slices.Index(r.sysNames, st.Name)
		if i < 0 {
			r.sysNames = append(r.sysNames, st.Name)
			r.sysLanes = append(r.sysLanes, st.Lane)
			r.sysNanos = append(r.sysNanos, 0)
			r.sysWork = append(r.sysWork, 0)
			i = len(r.sysNames) - 1
		}
		r.sysNanos[i] += st.Nanos
		r.sysWork[i] = max(r.sysWork[i], st.Workers)
	}
}

// frameStats are a result's frame times, in µs.
type frameStats struct {
	p50, p99, mean float64
}

// stats returns the nearest-rank p50 and p99 and the mean of the measured
// frame times, in µs.
func (r *result) stats() frameStats {
	ns := slices.Clone(r.frameNanos[:r.measured])
	if len(ns) == 0 {
		return frameStats{}
	}
	slices.Sort(ns)
	var sum int64
	for _, v := range ns {
		sum += v
	}
	return frameStats{
		p50:  micros(percentile(ns, 50)),
		p99:  micros(percentile(ns, 99)),
		mean: float64(sum) / float64(len(ns)) / 1e3,
	}
}

// percentile returns the nearest-rank p-th percentile of sorted, non-empty ns.
func percentile(ns []int64, p int) int64 {
	rank := (p*len(ns) + 99) / 100 // ceil(p/100 * n), 1-based
	return ns[max(rank, 1)-1]
}

func micros(ns int64) float64 { return float64(ns) / 1e3 }

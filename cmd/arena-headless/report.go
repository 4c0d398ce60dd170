package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/klauspost/cpuid/v2"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// report is the -json object of arena rules v1 ("What arena-headless prints
// with -json"); the field order is the spec's.
type report struct {
	Units        int          `json:"units"`
	ShotsPerTick int          `json:"shots_per_tick"`
	Seed         uint64       `json:"seed"`
	Warmup       int          `json:"warmup"`
	Frames       int          `json:"frames"`
	Workers      int          `json:"workers"`
	Impls        []implReport `json:"impls"`
	// DigestMatch is true when every implementation that ran has the same
	// digest (so true when only one ran).
	DigestMatch bool `json:"digest_match"`
	// RatioP50 is runtime's frame p50 over soa's when both ran, else 0
	// (with several worker counts, the runtime's at the first count).
	RatioP50 float64 `json:"ratio_p50"`
	// WorkerCounts and SpeedupsP50 exist only when -workers lists several
	// counts (they follow the spec's keys): the counts, and the runtime's
	// frame p50 speed-up at each count over the first count.
	WorkerCounts []int          `json:"worker_counts,omitempty"`
	SpeedupsP50  []speedupEntry `json:"speedups_p50,omitempty"`
}

// speedupEntry is the runtime's frame p50 at the first worker count over
// its p50 at Workers: above 1 when Workers is faster.
type speedupEntry struct {
	Workers int     `json:"workers"`
	Speedup float64 `json:"speedup"`
}

// implReport is one implementation's entry of report.Impls.
type implReport struct {
	Name               string         `json:"name"`
	FrameP50US         float64        `json:"frame_p50_us"`
	FrameP99US         float64        `json:"frame_p99_us"`
	FrameMeanUS        float64        `json:"frame_mean_us"`
	AllocBytesPerFrame float64        `json:"alloc_bytes_per_frame"`
	GCCycles           uint32         `json:"gc_cycles"`
	Systems            []systemReport `json:"systems"`
	Digest             string         `json:"digest"`
	Counters           rules.Counters `json:"counters"`
	// ReportCounters are the frame report's system counters summed over
	// every frame (the runtime only); CounterMismatches lists those that
	// differ from Counters (see counterOf), empty when all agree.
	ReportCounters    []reportCounter `json:"report_counters,omitempty"`
	CounterMismatches []string        `json:"counter_mismatches,omitempty"`
	// Rollback is the SyncTest's costs with -rollback (runtime only).
	Rollback *rollbackReport `json:"rollback,omitempty"`
	// Queries are the declared queries' figures and rows with -queries
	// (runtime only).
	Queries []queryReport `json:"queries,omitempty"`
	// QueryTexts are the -query texts' plans, times and rows (runtime
	// only).
	QueryTexts []textReport `json:"query_texts,omitempty"`
}

// counterOf maps a frame report counter (SYSTEM/NAME) to the rules
// counter it must sum to over every frame.
var counterOf = map[string]func(rules.Counters) int64{
	"Fire/shots":        func(c rules.Counters) int64 { return c.ShotsFired },
	"Collision/hits":    func(c rules.Counters) int64 { return c.Hits },
	"Collision/lost":    func(c rules.Counters) int64 { return c.Lost },
	"Collision/expired": func(c rules.Counters) int64 { return c.Expired },
	"ApplyHits/deaths":  func(c rules.Counters) int64 { return c.Deaths },
}

// counterMismatches compares the summed report counters with the rules
// counters less those the run started from (atLoad, after -load): one
// message per counter of counterOf that is missing or differs. None when
// rc is empty (an implementation without a report).
func counterMismatches(rc []reportCounter, c, atLoad rules.Counters) []string {
	if len(rc) == 0 {
		return nil
	}
	var out []string
	for _, key := range slices.Sorted(maps.Keys(counterOf)) {
		want := counterOf[key](c) - counterOf[key](atLoad)
		i := slices.IndexFunc(rc, func(r reportCounter) bool { return r.System+"/"+r.Name == key })
		switch {
		case i < 0:
			out = append(out, fmt.Sprintf("%s missing from the frame report (counters say %d)", key, want))
		case rc[i].Total != want:
			out = append(out, fmt.Sprintf("%s sums to %d over the frame reports, counters say %d since the start", key, rc[i].Total, want))
		}
	}
	return out
}

// systemReport is one system's mean wall time per measured frame, the
// lane its kernels ran when the implementation says (omitted otherwise),
// and the most workers its kernels were given in a measured frame (0,
// omitted, when not stated or none ran on the pool).
type systemReport struct {
	Name    string  `json:"name"`
	MeanUS  float64 `json:"mean_us"`
	Lane    string  `json:"lane,omitempty"`
	Workers int     `json:"workers,omitempty"`
}

// newReport summarizes the results.
func newReport(o options, results []*result) report {
	rep := report{
		Units: o.units, ShotsPerTick: o.shots, Seed: o.seed,
		Warmup: o.warmup, Frames: o.frames, Workers: o.workers[0],
		DigestMatch: true,
	}
	p50 := map[string]float64{} // by implementation: the first entry of each
	var runtimeP50 []float64    // the runtime's, by worker count
	for _, r := range results {
		st := r.stats()
		impl, _, _ := strings.Cut(r.name, "-w")
		if _, ok := p50[impl]; !ok {
			p50[impl] = st.p50
		}
		if impl == "runtime" {
			runtimeP50 = append(runtimeP50, st.p50)
		}
		ir := implReport{
			Name:              r.name,
			FrameP50US:        round3(st.p50),
			FrameP99US:        round3(st.p99),
			FrameMeanUS:       round3(st.mean),
			GCCycles:          r.gc,
			Systems:           []systemReport{},
			Digest:            rules.FormatDigest(r.digest),
			Counters:          r.counters,
			ReportCounters:    r.reportCounters,
			CounterMismatches: counterMismatches(r.reportCounters, r.counters, r.atLoad),
		}
		if r.measured > 0 {
			ir.AllocBytesPerFrame = round3(float64(r.alloc) / float64(r.measured))
			for i, name := range r.sysNames {
				ir.Systems = append(ir.Systems, systemReport{
					Name: name, MeanUS: round3(float64(r.sysNanos[i]) / float64(r.measured) / 1e3), Lane: r.sysLanes[i],
					Workers: r.sysWork[i],
				})
			}
		}
		if r.sync != nil {
			ir.Rollback = r.sync.report()
		}
		ir.Queries = r.queries
		ir.QueryTexts = r.texts
		rep.Impls = append(rep.Impls, ir)
		if r.digest != results[0].digest {
			rep.DigestMatch = false
		}
	}
	rt, okR := p50["runtime"]
	soa, okS := p50["soa"]
	if okR && okS && soa > 0 {
		rep.RatioP50 = round3(rt / soa)
	}
	if len(o.workers) > 1 && len(runtimeP50) == len(o.workers) {
		rep.WorkerCounts = o.workers
		for i, n := range o.workers {
			sp := 0.0
			if runtimeP50[i] > 0 {
				sp = round3(runtimeP50[0] / runtimeP50[i])
			}
			rep.SpeedupsP50 = append(rep.SpeedupsP50, speedupEntry{Workers: n, Speedup: sp})
		}
	}
	return rep
}

// round3 rounds to three decimals (ns resolution for µs values).
func round3(v float64) float64 { return math.Round(v*1e3) / 1e3 }

// writeJSON writes rep as one JSON object and a newline.
func writeJSON(w io.Writer, rep report) error {
	return json.NewEncoder(w).Encode(rep)
}

// writeHuman writes the human report: host, then each implementation, then
// the comparison.
func writeHuman(w io.Writer, rep report, results []*result) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "arena-headless\tarena rules v1\n")
	fmt.Fprintf(tw, "go\t%s %s/%s, GOMAXPROCS %d, NumCPU %d\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.NumCPU())
	fmt.Fprintf(tw, "cpu\t%s\n", cpuLine())
	fmt.Fprintf(tw, "features\t%s\n", keyFeatures())
	fmt.Fprintf(tw, "\t%s\n", strings.Join(cpuid.CPU.FeatureSet(), " "))
	fmt.Fprintf(tw, "lanes\t%s\n", laneLine())
	workers := strconv.Itoa(rep.Workers)
	if len(rep.WorkerCounts) > 1 {
		workers = fmt.Sprint(rep.WorkerCounts)
	}
	fmt.Fprintf(tw, "config\tunits %d, shots/tick %d, seed %d, warm-up %d, measured %d frames, workers %s\n",
		rep.Units, rep.ShotsPerTick, rep.Seed, rep.Warmup, rep.Frames, workers)
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, ir := range rep.Impls {
		fmt.Fprintf(w, "\n== %s ==\n", ir.Name)
		fmt.Fprintf(w, "frame     p50 %.1f µs, p99 %.1f µs, mean %.1f µs over %d measured frames\n",
			ir.FrameP50US, ir.FrameP99US, ir.FrameMeanUS, results[i].measured)
		fmt.Fprintf(w, "systems   %-22s %10s  %-7s %s\n", "name", "mean µs", "lane", "workers")
		for _, s := range ir.Systems {
			lane := s.Lane
			if lane == "" {
				lane = "-"
			}
			wk := "-"
			if s.Workers > 0 {
				wk = strconv.Itoa(s.Workers)
			}
			fmt.Fprintf(w, "          %-22s %10.1f  %-7s %s\n", s.Name, s.MeanUS, lane, wk)
		}
		c := ir.Counters
		fmt.Fprintf(w, "alloc     %.1f B/frame, %d GC cycles during measured frames\n",
			ir.AllocBytesPerFrame, ir.GCCycles)
		fmt.Fprintf(w, "counters  shots_fired %d, hits %d, deaths %d, lost %d, expired %d, live_projectiles %d\n",
			c.ShotsFired, c.Hits, c.Deaths, c.Lost, c.Expired, c.LiveProjectiles)
		inv := "holds"
		if c.ShotsFired != c.Hits+c.Lost+c.Expired+c.LiveProjectiles {
			inv = "BROKEN"
		}
		fmt.Fprintf(w, "invariant shots_fired == hits + lost + expired + live_projectiles: %s\n", inv)
		if len(ir.ReportCounters) > 0 {
			var parts []string
			for _, rc := range ir.ReportCounters {
				parts = append(parts, rc.System+" "+rc.Name+" "+strconv.FormatInt(rc.Total, 10))
			}
			agree := "equal to the counters"
			if len(ir.CounterMismatches) > 0 {
				agree = "DIFFER from the counters: " + strings.Join(ir.CounterMismatches, "; ")
			}
			fmt.Fprintf(w, "report    counters summed over every frame's report: %s; %s\n", strings.Join(parts, ", "), agree)
		}
		fmt.Fprintf(w, "digest    %s after %d frames\n", ir.Digest, results[i].frames)
		if rb := ir.Rollback; rb != nil {
			fmt.Fprintf(w, "rollback  %d frames back every frame: %d re-simulated frames match their first checksum\n", rb.Frames, rb.Compared)
			fmt.Fprintf(w, "          snapshot %d B: save %.1f µs, restore %.1f µs, re-simulated frame %.1f µs; %.1f µs per measured frame\n",
				rb.SnapshotBytes, rb.SnapshotMeanUS, rb.RestoreMeanUS, rb.ResimFrameUS, rb.PerFrameTotalUS)
		}
		if len(ir.Queries) > 0 {
			writeQueries(w, ir.Queries)
		}
		if len(ir.QueryTexts) > 0 {
			writeTexts(w, ir.QueryTexts)
		}
	}
	fmt.Fprintln(w)
	switch {
	case len(rep.Impls) < 2:
		fmt.Fprintf(w, "digests   one implementation, nothing to compare\n")
	case rep.DigestMatch:
		fmt.Fprintf(w, "digests   match\n")
	default:
		fmt.Fprintf(w, "digests   DIFFER\n")
	}
	if rep.RatioP50 != 0 {
		fmt.Fprintf(w, "p50 ratio runtime/soa %.3f\n", rep.RatioP50)
	}
	for _, sp := range rep.SpeedupsP50[min(1, len(rep.SpeedupsP50)):] {
		fmt.Fprintf(w, "speed-up  runtime p50, %d workers over %d: %.3f×\n", sp.Workers, rep.WorkerCounts[0], sp.Speedup)
	}
	return nil
}

// cpuLine describes the CPU: brand, cores and x86-64 level.
func cpuLine() string {
	c := &cpuid.CPU
	brand := c.BrandName
	if brand == "" {
		brand = "unknown CPU"
	}
	s := fmt.Sprintf("%s (%d physical cores, %d logical, %d threads/core)",
		brand, c.PhysicalCores, c.LogicalCores, c.ThreadsPerCore)
	if lvl := c.X64Level(); lvl > 0 {
		s += fmt.Sprintf(", x86-64-v%d", lvl)
	}
	return s
}

// laneLine lists the lanes this build and CPU run and the default one.
func laneLine() string {
	var have []string
	for _, l := range []tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512} {
		if l.Available() {
			have = append(have, l.String())
		}
	}
	s := "available " + strings.Join(have, " ") + ", default " + tickwork.BestLane().String()
	if tickwork.BestLane() == tickwork.LaneScalar {
		s += " (SIMD lanes need GOEXPERIMENT=simd on amd64 with AVX2)"
	}
	return s
}

// keyFeatures says whether the features that matter to float kernels are
// present.
func keyFeatures() string {
	var parts []string
	for _, f := range []struct {
		name string
		id   cpuid.FeatureID
	}{
		{"AVX2", cpuid.AVX2}, {"AVX512F", cpuid.AVX512F}, {"FMA3", cpuid.FMA3},
		{"ASIMD", cpuid.ASIMD}, {"SVE", cpuid.SVE},
	} {
		if runtime.GOARCH == "amd64" && (f.id == cpuid.ASIMD || f.id == cpuid.SVE) {
			continue
		}
		if runtime.GOARCH == "arm64" && f.id != cpuid.ASIMD && f.id != cpuid.SVE {
			continue
		}
		yes := "no"
		if cpuid.CPU.Supports(f.id) {
			yes = "yes"
		}
		parts = append(parts, f.name+" "+yes)
	}
	return strings.Join(parts, ", ")
}

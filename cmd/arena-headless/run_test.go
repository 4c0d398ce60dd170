package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
	"github.com/tickwork/tickwork/kernels"
)

// runArgs runs the command and returns its exit status and output.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// withFactories replaces the factory map for the duration of the test.
func withFactories(t *testing.T, fs map[string]func(rules.Config) (rules.Sim, error)) {
	t.Helper()
	saved := factories
	factories = fs
	t.Cleanup(func() { factories = saved })
}

// soaDigest runs the baseline directly for warmup+frames frames.
func soaDigest(t *testing.T, cfg rules.Config, frames int) string {
	t.Helper()
	s, err := soa.New(cfg)
	require.NoError(t, err)
	for range frames {
		require.NoError(t, s.Frame())
	}
	return rules.FormatDigest(rules.Digest(s.Presentation(), s.Frames(), s.Counters(), s.ProjectileChecksum()))
}

var smallArgs = []string{"-units", "1000", "-frames", "60", "-warmup", "10"}

func TestRunSoA(t *testing.T) {
	code, out, errOut := runArgs(append(smallArgs, "-impl", "soa")...)
	require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)
	want := soaDigest(t, rules.Config{Units: 1000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed}, 70)
	assert.Contains(t, out, "digest    "+want+" after 70 frames")
	assert.Contains(t, out, "== soa ==")
	assert.Contains(t, out, "GOMAXPROCS")
	if runtime.GOARCH == "amd64" {
		assert.Contains(t, out, "AVX2 ")
		assert.Contains(t, out, "AVX512F ")
		assert.Contains(t, out, "FMA3 ")
	}
	for _, sys := range []string{"ResolveRespawns", "Collision", "Respawn"} {
		assert.Contains(t, out, sys)
	}
	assert.Contains(t, out, ": holds")
	assert.Empty(t, errOut)
}

func TestRunJSON(t *testing.T) {
	code, out, errOut := runArgs(append(smallArgs, "-impl", "soa", "-json", "-seed", "7", "-shots", "64")...)
	require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)

	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "output:\n%s", out)
	assert.Equal(t, 1000, rep.Units)
	assert.Equal(t, 64, rep.ShotsPerTick)
	assert.Equal(t, uint64(7), rep.Seed)
	assert.Equal(t, 10, rep.Warmup)
	assert.Equal(t, 60, rep.Frames)
	assert.Equal(t, defaultWorkers(), rep.Workers, "GOMAXPROCS by default")
	assert.Nil(t, rep.WorkerCounts, "one count: no comparison keys")
	assert.True(t, rep.DigestMatch)
	assert.Zero(t, rep.RatioP50, "ratio_p50 with one implementation")
	require.Len(t, rep.Impls, 1)
	im := rep.Impls[0]
	assert.Equal(t, "soa", im.Name)
	assert.Equal(t, soaDigest(t, rules.Config{Units: 1000, Shots: 64, Seed: 7}, 70), im.Digest)
	assert.Positive(t, im.FrameP50US)
	assert.GreaterOrEqual(t, im.FrameP99US, im.FrameP50US)
	assert.Positive(t, im.FrameMeanUS)
	assert.Len(t, im.Systems, 9)
	assert.Positive(t, im.Counters.ShotsFired)

	// Every key of the spec's object is present, in the spec's order.
	var raw map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	for _, k := range []string{"units", "shots_per_tick", "seed", "warmup", "frames", "workers", "impls", "digest_match", "ratio_p50"} {
		assert.Contains(t, raw, k)
	}
	impls, ok := raw["impls"].([]any)
	require.True(t, ok, "impls is %T", raw["impls"])
	require.Len(t, impls, 1)
	imRaw := impls[0].(map[string]any)
	for _, k := range []string{"name", "frame_p50_us", "frame_p99_us", "frame_mean_us", "alloc_bytes_per_frame", "gc_cycles", "systems", "digest", "counters"} {
		assert.Contains(t, imRaw, k)
	}
	sys := imRaw["systems"].([]any)[0].(map[string]any)
	assert.Contains(t, sys, "name")
	assert.Contains(t, sys, "mean_us")
	counters := imRaw["counters"].(map[string]any)
	for _, k := range []string{"shots_fired", "hits", "deaths", "lost", "expired", "live_projectiles"} {
		assert.Contains(t, counters, k)
	}
	keyOrder := regexp.MustCompile(`^\{"units":.*,"shots_per_tick":.*,"seed":.*,"warmup":.*,"frames":.*,"workers":.*,"impls":\[\{"name":.*,"frame_p50_us":.*,"frame_p99_us":.*,"frame_mean_us":.*,"alloc_bytes_per_frame":.*,"gc_cycles":.*,"systems":.*,"digest":.*,"counters":\{"shots_fired":.*,"hits":.*,"deaths":.*,"lost":.*,"expired":.*,"live_projectiles":.*\}\}\],"digest_match":.*,"ratio_p50":.*\}\n$`)
	assert.Regexp(t, keyOrder, out)
}

func TestRunBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"zero units", []string{"-units", "0"}, "-units must be between 1 and 16777216, got 0"},
		{"negative units", []string{"-units", "-3"}, "-units must be between 1 and 16777216, got -3"},
		{"units 2e9", []string{"-impl", "soa", "-units", "2000000000"}, "-units must be between 1 and 16777216, got 2000000000"},
		{"negative shots", []string{"-shots", "-1"}, "-shots must be between 0 and 65536, got -1"},
		{"shots MaxInt64", []string{"-impl", "soa", "-shots", "9223372036854775807", "-units", "100"},
			"-shots must be between 0 and 65536, got 9223372036854775807"},
		{"shots past MaxShots", []string{"-impl", "soa", "-shots", "65537"}, "-shots must be between 0 and 65536, got 65537"},
		{"zero frames", []string{"-frames", "0"}, "-frames must be between 1 and 10000000, got 0"},
		{"frames 2e9", []string{"-impl", "soa", "-frames", "2000000000"}, "-frames must be between 1 and 10000000, got 2000000000"},
		{"negative warmup", []string{"-warmup", "-1"}, "-warmup must be between 0 and 10000000, got -1"},
		{"warmup 2e9", []string{"-impl", "soa", "-warmup", "2000000000"}, "-warmup must be between 0 and 10000000, got 2000000000"},
		{"zero workers", []string{"-workers", "0"}, "-workers must be between 1 and 256, got 0"},
		{"workers past MaxWorkers", []string{"-impl", "soa", "-workers", "257"}, "-workers must be between 1 and 256, got 257"},
		{"workers list with zero", []string{"-workers", "1,0"}, "-workers must be between 1 and 256, got 0"},
		{"workers list not a number", []string{"-workers", "1,x"}, `want a count or a comma-separated list of counts, such as 1,2: "x"`},
		{"workers list twice", []string{"-workers", "2,1,2"}, "count 2 given twice"},
		{"unknown impl", []string{"-impl", "ecs"}, `unknown -impl "ecs"`},
		{"unknown lane", []string{"-lane", "neon"}, `-lane: lanes: unknown lane "neon"`},
		{"unknown flag", []string{"-bogus"}, "flag provided but not defined: -bogus"},
		{"not a number", []string{"-units", "many"}, `invalid value "many" for flag -units`},
		{"negative seed", []string{"-seed", "-1"}, `invalid value "-1" for flag -seed`},
		{"positional", []string{"soa"}, `unexpected argument "soa"`},
		{"runtime missing", []string{"-impl", "runtime"}, "runtime implementation not available"},
		{"both, runtime missing", []string{"-impl", "both"}, "runtime implementation not available"},
		{"default impl, runtime missing", nil, "runtime implementation not available"},
	}
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){"soa": newSoA})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runArgs(tt.args...)
			assert.Equal(t, 2, code, "exit status")
			assert.Contains(t, errOut, tt.want)
			assert.Empty(t, out)
		})
	}
}

func TestRunHelp(t *testing.T) {
	code, out, errOut := runArgs("-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "usage: arena-headless")
	assert.Contains(t, errOut, "-impl")
	for _, want := range []string{
		"(1..16777216)", "(0..65536)", "(1..10000000)", "(0..10000000)",
		"(1..256; the baseline ignores it)", "GOMAXPROCS by default", "such as 1,2",
		`"digest_match" is true because`, "nothing was compared",
	} {
		assert.Contains(t, errOut, want)
	}
}

// TestWorkersBoundMatchesKernels: rules restates kernels.MaxWorkers, as it
// imports no other tickwork package; the two must agree, or -workers would
// accept counts the runtime's pool refuses.
func TestWorkersBoundMatchesKernels(t *testing.T) {
	assert.Equal(t, kernels.MaxWorkers, rules.MaxWorkers)
}

// TestRunMaxWorkers runs the real runtime at the largest -workers the flag
// accepts: the pool takes it, so the run succeeds.
func TestRunMaxWorkers(t *testing.T) {
	code, _, errOut := runArgs("-impl", "runtime", "-units", "500", "-shots", "16", "-warmup", "0", "-frames", "3",
		"-workers", strconv.Itoa(rules.MaxWorkers), "-json")
	assert.Equal(t, 0, code, "stderr:\n%s", errOut)
}

// fakeSim is a scripted Sim: every frame logs its name; its presentation and
// counters are fixed.
type fakeSim struct {
	name     string
	frames   int64
	pres     []rules.Slot
	counters rules.Counters
	log      *[]string
	closed   bool
}

func (f *fakeSim) Name() string { return f.name }
func (f *fakeSim) Frame() error {
	f.frames++
	if f.log != nil {
		*f.log = append(*f.log, f.name)
	}
	return nil
}
func (f *fakeSim) Frames() int64                       { return f.frames }
func (f *fakeSim) Counters() rules.Counters            { return f.counters }
func (f *fakeSim) Presentation() []rules.Slot          { return f.pres }
func (f *fakeSim) Projectiles(dst []float32) []float32 { return dst }
func (f *fakeSim) ProjectileChecksum() uint64          { return 0 }
func (f *fakeSim) Close() error                        { f.closed = true; return nil }
func (f *fakeSim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	return append(dst, rules.SystemTime{Name: "Only", Nanos: 1000})
}

func fakeFactory(f *fakeSim) func(rules.Config) (rules.Sim, error) {
	return func(rules.Config) (rules.Sim, error) { return f, nil }
}

func TestRunDigestsDiffer(t *testing.T) {
	a := &fakeSim{name: "runtime", pres: []rules.Slot{{X: 1, Y: 1, Alive: 1}}}
	b := &fakeSim{name: "soa", pres: []rules.Slot{{X: 2, Y: 1, Alive: 1}}}
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){"runtime": fakeFactory(a), "soa": fakeFactory(b)})
	code, out, errOut := runArgs("-units", "1", "-frames", "5", "-warmup", "1")
	assert.Equal(t, 1, code, "exit status; stderr:\n%s", errOut)
	assert.Contains(t, errOut, "digests differ")
	assert.Contains(t, out, "digests   DIFFER")
	assert.True(t, a.closed && b.closed, "both Sims closed")

	code, out, _ = runArgs("-units", "1", "-frames", "5", "-json")
	assert.Equal(t, 1, code)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.False(t, rep.DigestMatch)
}

func TestRunInvariantBroken(t *testing.T) {
	bad := &fakeSim{name: "soa", pres: []rules.Slot{{Alive: 0}}, counters: rules.Counters{ShotsFired: 5, Hits: 1}}
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){"soa": fakeFactory(bad)})
	code, out, errOut := runArgs("-units", "1", "-frames", "3", "-impl", "soa")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "soa breaks the counter invariant")
	assert.Contains(t, out, "BROKEN")
}

// renamed reports a Sim under another name.
type renamed struct {
	rules.Sim
	name string
}

func (r renamed) Name() string { return r.name }

func TestRunBothMatch(t *testing.T) {
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){
		"soa": newSoA,
		"runtime": func(cfg rules.Config) (rules.Sim, error) {
			s, err := soa.New(cfg)
			return renamed{s, "runtime"}, err
		},
	})
	code, out, errOut := runArgs(append(smallArgs, "-json")...)
	require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Impls, 2)
	assert.Equal(t, "runtime", rep.Impls[0].Name)
	assert.Equal(t, "soa", rep.Impls[1].Name)
	assert.True(t, rep.DigestMatch)
	assert.Equal(t, rep.Impls[0].Digest, rep.Impls[1].Digest)
	assert.Positive(t, rep.RatioP50)

	code, out, errOut = runArgs(smallArgs...)
	require.Equal(t, 0, code, "stderr:\n%s", errOut)
	assert.Contains(t, out, "digests   match")
	assert.Contains(t, out, "p50 ratio runtime/soa")
}

func TestRunAlternatesBlocks(t *testing.T) {
	var log []string
	a := &fakeSim{name: "runtime", pres: []rules.Slot{{Alive: 0}}, log: &log}
	b := &fakeSim{name: "soa", pres: []rules.Slot{{Alive: 0}}, log: &log}
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){"runtime": fakeFactory(a), "soa": fakeFactory(b)})
	code, _, errOut := runArgs("-units", "1", "-warmup", "3", "-frames", "150")
	require.Equal(t, 0, code, "stderr:\n%s", errOut)

	// Compress the log into runs: name x count.
	var runs []string
	for i := 0; i < len(log); {
		j := i
		for j < len(log) && log[j] == log[i] {
			j++
		}
		runs = append(runs, log[i]+"x"+strconv.Itoa(j-i))
		i = j
	}
	assert.Equal(t, "runtimex3 soax3 runtimex60 soax60 runtimex60 soax60 runtimex30 soax30", strings.Join(runs, " "))
}

// TestRunWorkersList: -workers 1,2 builds the runtime once per count, with
// that count, runs their blocks in turn with the baseline's, and reports
// each count's speed-up over the first.
func TestRunWorkersList(t *testing.T) {
	var log []string
	var built []int
	runtimeFake := func(cfg rules.Config) (rules.Sim, error) {
		built = append(built, cfg.Workers)
		return &fakeSim{name: "runtime" + strconv.Itoa(cfg.Workers), pres: []rules.Slot{{Alive: 0}}, log: &log}, nil
	}
	b := &fakeSim{name: "soa", pres: []rules.Slot{{Alive: 0}}, log: &log}
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){"runtime": runtimeFake, "soa": fakeFactory(b)})
	code, out, errOut := runArgs("-units", "1", "-warmup", "2", "-frames", "70", "-workers", "1,2", "-json")
	require.Equal(t, 0, code, "stderr:\n%s", errOut)
	assert.Equal(t, []int{1, 2}, built)
	var runs []string
	for i := 0; i < len(log); {
		j := i
		for j < len(log) && log[j] == log[i] {
			j++
		}
		runs = append(runs, log[i]+"x"+strconv.Itoa(j-i))
		i = j
	}
	assert.Equal(t, "runtime1x2 runtime2x2 soax2 runtime1x60 runtime2x60 soax60 runtime1x10 runtime2x10 soax10", strings.Join(runs, " "))
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Impls, 3)
	assert.Equal(t, []string{"runtime-w1", "runtime-w2", "soa"}, []string{rep.Impls[0].Name, rep.Impls[1].Name, rep.Impls[2].Name})
	assert.Equal(t, 1, rep.Workers)
	assert.Equal(t, []int{1, 2}, rep.WorkerCounts)
	require.Len(t, rep.SpeedupsP50, 2)
	assert.Equal(t, speedupEntry{Workers: 1, Speedup: 1}, rep.SpeedupsP50[0])
	want := round3(rep.Impls[0].FrameP50US / rep.Impls[1].FrameP50US)
	assert.Equal(t, want, rep.SpeedupsP50[1].Speedup)
	assert.Equal(t, round3(rep.Impls[0].FrameP50US/rep.Impls[2].FrameP50US), rep.RatioP50, "ratio_p50 uses the first count")
	assert.Contains(t, out, `"ratio_p50":`)

	log = nil
	code, out, errOut = runArgs("-units", "1", "-warmup", "0", "-frames", "5", "-workers", "1,2", "-impl", "runtime")
	require.Equal(t, 0, code, "stderr:\n%s", errOut)
	assert.Contains(t, out, "workers [1 2]")
	assert.Contains(t, out, "== runtime-w2 ==")
	assert.Regexp(t, `speed-up  runtime p50, 2 workers over 1: [0-9.]+×`, out)
}

// TestRunBothReal runs the real runtime arena against the real baseline, as
// the default command does, on a small configuration.
func TestRunBothReal(t *testing.T) {
	for _, workers := range []string{"1", "2"} {
		code, out, errOut := runArgs("-units", "2000", "-shots", "128", "-warmup", "30", "-frames", "130", "-workers", workers, "-json")
		require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)
		var rep report
		require.NoError(t, json.Unmarshal([]byte(out), &rep), "output:\n%s", out)
		require.Len(t, rep.Impls, 2)
		assert.Equal(t, "runtime", rep.Impls[0].Name)
		assert.Equal(t, "soa", rep.Impls[1].Name)
		want := soaDigest(t, rules.Config{Units: 2000, Shots: 128, Seed: 42}, 160)
		assert.Equal(t, want, rep.Impls[0].Digest, "workers %s", workers)
		assert.Equal(t, want, rep.Impls[1].Digest)
		assert.Equal(t, rep.Impls[1].Counters, rep.Impls[0].Counters)
		assert.True(t, rep.DigestMatch)
		assert.Positive(t, rep.RatioP50)
		assert.Len(t, rep.Impls[0].Systems, 9)
		// The runtime's frame reports, summed over every frame, give the
		// baseline's counters; the baseline has no frame report.
		c := rep.Impls[1].Counters
		assert.Equal(t, []reportCounter{{"ApplyHits", "deaths", c.Deaths}, {"Fire", "shots", c.ShotsFired},
			{"Collision", "lost", c.Lost}, {"Collision", "hits", c.Hits}, {"Collision", "expired", c.Expired}}, rep.Impls[0].ReportCounters)
		assert.Empty(t, rep.Impls[0].CounterMismatches)
		assert.Empty(t, rep.Impls[1].ReportCounters)
	}
}

// TestCounterMismatches: each counter the frame reports sum to otherwise
// than the rules' counters (less those it started from), or that is
// missing, is one message; none for an implementation without a frame
// report.
func TestCounterMismatches(t *testing.T) {
	c := rules.Counters{ShotsFired: 10, Hits: 2, Deaths: 1, Lost: 3, Expired: 4, LiveProjectiles: 1}
	good := []reportCounter{{"ApplyHits", "deaths", 1}, {"Fire", "shots", 10}, {"Collision", "lost", 3}, {"Collision", "hits", 2}, {"Collision", "expired", 4}}
	none := rules.Counters{}
	assert.Empty(t, counterMismatches(good, c, none))
	assert.Empty(t, counterMismatches(nil, c, none))
	loaded := rules.Counters{ShotsFired: 5, Hits: 1, Deaths: 1, Lost: 2, Expired: 4}
	assert.Equal(t, []string{
		"ApplyHits/deaths sums to 1 over the frame reports, counters say 0 since the start",
		"Collision/expired sums to 4 over the frame reports, counters say 0 since the start",
		"Collision/hits sums to 2 over the frame reports, counters say 1 since the start",
		"Collision/lost sums to 3 over the frame reports, counters say 1 since the start",
		"Fire/shots sums to 10 over the frame reports, counters say 5 since the start",
	}, counterMismatches(good, c, loaded))
	bad := []reportCounter{{"ApplyHits", "deaths", 1}, {"Fire", "shots", 9}, {"Collision", "lost", 3}, {"Collision", "hits", 2}}
	assert.Equal(t, []string{
		"Collision/expired missing from the frame report (counters say 4)",
		"Fire/shots sums to 9 over the frame reports, counters say 10 since the start",
	}, counterMismatches(bad, c, none))
}

// TestRunLanes runs the real runtime in every lane this build and CPU run
// (and asks for the others): each run's JSON says the lane of the two
// streaming systems and has the baseline's digest; a lane that cannot run
// here is a usage error.
func TestRunLanes(t *testing.T) {
	want := soaDigest(t, rules.Config{Units: 1000, Shots: 64, Seed: 42}, 70)
	for _, l := range []tickwork.Lane{tickwork.LaneScalar, tickwork.LaneAVX2, tickwork.LaneAVX512} {
		t.Run(l.String(), func(t *testing.T) {
			code, out, errOut := runArgs(append(smallArgs, "-shots", "64", "-impl", "runtime", "-lane", l.String(), "-json")...)
			if !l.Available() {
				assert.Equal(t, 2, code, "exit status")
				assert.Contains(t, errOut, "-lane: lanes: lane not available: "+l.String())
				return
			}
			require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)
			var rep report
			require.NoError(t, json.Unmarshal([]byte(out), &rep), "output:\n%s", out)
			require.Len(t, rep.Impls, 1)
			assert.Equal(t, want, rep.Impls[0].Digest)
			got := map[string]string{}
			for _, s := range rep.Impls[0].Systems {
				got[s.Name] = s.Lane
			}
			assert.Equal(t, l.String(), got["IntegrateBodies"])
			assert.Equal(t, l.String(), got["IntegrateProjectiles"])
			assert.Equal(t, l.String(), got["Collision"], "its scan hook runs the lane (arena/collision_simd.go)")
			assert.Empty(t, got["Fire"], "a system that does not say has no lane")
		})
	}
	code, out, _ := runArgs(append(smallArgs, "-impl", "runtime")...)
	require.Equal(t, 0, code)
	assert.Regexp(t, `IntegrateBodies +[0-9.]+  `+tickwork.BestLane().String()+` +([0-9]+|-)\n`, out)
	assert.Regexp(t, `Fire +[0-9.]+  - +-\n`, out, "no lane, no kernel on the pool")
	assert.Contains(t, out, "lanes           available scalar")
	// -lane ignores case, as tickwork.ParseLane does; the report names the
	// lane as Lane.String prints it.
	code, out, errOut := runArgs(append(smallArgs, "-impl", "runtime", "-lane", "SCALAR")...)
	require.Equal(t, 0, code, "exit status; stderr:\n%s", errOut)
	assert.Regexp(t, `IntegrateBodies +[0-9.]+  scalar +([0-9]+|-)\n`, out)
}

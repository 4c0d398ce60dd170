package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// countBuilds replaces the runtime's factory with one that counts the Sims
// it builds, for the duration of the test.
func countBuilds(t *testing.T) *int {
	n := new(int)
	withFactories(t, map[string]func(rules.Config) (rules.Sim, error){
		"runtime": func(cfg rules.Config) (rules.Sim, error) { *n++; return newRuntime(cfg) },
		"soa":     newSoA,
	})
	return n
}

// TestSavePathCheckedFirst: a -save file that cannot be written (its
// directory is missing, or it is a directory) exits 1 naming -save before
// any Sim is built, so before any frame runs.
func TestSavePathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	for name, path := range map[string]string{
		"missing directory": filepath.Join(dir, "no", "such", "arena.snap"),
		"a directory":       dir,
	} {
		t.Run(name, func(t *testing.T) {
			builds := countBuilds(t)
			code, out, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-save", path)
			assert.Equal(t, 1, code, errOut)
			assert.Contains(t, errOut, "arena-headless: -save: ")
			assert.Zero(t, *builds, "Sims built before the refusal")
			assert.Empty(t, out, "no report")
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "the check leaves no file behind")

	path := filepath.Join(dir, "arena.snap") // a good path: the check's file is gone, the save is there
	code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-save", path)
	require.Equal(t, 0, code, errOut)
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "arena.snap", entries[0].Name())
}

// TestEmptyPathFlags: -load "" and -save "" given explicitly exit 2 with
// a message, instead of being ignored.
func TestEmptyPathFlags(t *testing.T) {
	for _, flagName := range []string{"-load", "-save"} {
		t.Run(flagName, func(t *testing.T) {
			code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", flagName, "")
			assert.Equal(t, 2, code, errOut)
			assert.Contains(t, errOut, "arena-headless: "+flagName+" needs a file name, got an empty one")
		})
	}
}

// TestRollbackNeedsFrames: a SyncTest that would compare nothing (fewer
// measured frames than -rollback) exits 2 saying so; -frames equal to
// -rollback compares one rollback's frames.
func TestRollbackNeedsFrames(t *testing.T) {
	code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-rollback", "8")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "-rollback 8 compares nothing in 2 measured frames")
	assert.Contains(t, errOut, "give -frames 8 or more")

	code, out, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "8", "-impl", "runtime", "-rollback", "8", "-json")
	require.Equal(t, 0, code, errOut)
	var rep report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.NotNil(t, rep.Impls[0].Rollback)
	assert.Equal(t, 8, rep.Impls[0].Rollback.Compared)
}

// TestLoadHugeSparse: -load of a 100 GB sparse file, all zeros or opening
// with a good header whose payload length says the file's size, exits 1
// naming the problem, having allocated less than 64 MB.
func TestLoadHugeSparse(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.snap")
	code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-workers", "1", "-save", good)
	require.Equal(t, 0, code, errOut)
	f, err := os.Open(good)
	require.NoError(t, err)
	head := make([]byte, 40)
	_, err = io.ReadFull(f, head)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	const size = 100 << 30
	for _, withHead := range []bool{false, true} {
		name, msg := "zeros", "not a Tickwork snapshot"
		if withHead {
			name, msg = "good header", "a file of "+strconv.Itoa(size)+" bytes, past the "
		}
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name+".snap")
			f, err := os.Create(p)
			require.NoError(t, err)
			if withHead {
				h := append([]byte(nil), head...)
				binary.LittleEndian.PutUint64(h[24:], size-40)
				_, err = f.Write(h)
				require.NoError(t, err)
			}
			require.NoError(t, f.Truncate(size))
			require.NoError(t, f.Close())
			defer os.Remove(p)
			var m0, m1 goruntime.MemStats
			goruntime.ReadMemStats(&m0)
			code, _, errOut := runArgs("-units", "500", "-warmup", "0", "-frames", "2", "-impl", "runtime", "-workers", "1", "-load", p)
			goruntime.ReadMemStats(&m1)
			assert.Equal(t, 1, code, errOut)
			assert.Contains(t, errOut, "-load: tickwork: load "+p+": runtime: snapshot corrupted (header): "+msg)
			assert.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(64<<20), "bytes allocated by the run")
		})
	}
}

// killEnv names the -save file a child of TestSaveSurvivesKill writes.
const killEnv = "ARENA_HEADLESS_KILL_TARGET"

// killArgs is the run a child of TestSaveSurvivesKill repeats.
func killArgs(target string) []string {
	return []string{"-units", "1000", "-warmup", "0", "-frames", "1", "-impl", "runtime", "-workers", "1", "-save", target}
}

// TestSaveSurvivesKill: a child process runs arena-headless -save in a
// loop; the test kills it (SIGKILL on Unix) at a seeded random delay after
// its first save, 100 times. After every kill the -save file restores into
// a Sim of the same configuration: a kill during a save leaves the
// previous save whole.
func TestSaveSurvivesKill(t *testing.T) {
	if target := os.Getenv(killEnv); target != "" {
		for {
			if code := run(killArgs(target), io.Discard, os.Stderr); code != 0 {
				os.Exit(code)
			}
			os.Stdout.Write([]byte{'.'})
		}
	}
	if goruntime.GOOS == "js" || goruntime.GOOS == "wasip1" {
		t.Skip("no child processes")
	}
	const kills = 100
	target := filepath.Join(t.TempDir(), "arena.snap")
	code, _, errOut := runArgs(killArgs(target)...)
	require.Equal(t, 0, code, errOut)
	sim, err := arena.New(rules.Config{Units: 1000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: 1})
	require.NoError(t, err)
	defer sim.Close()
	r := rand.New(rand.NewPCG(2026, 1919))
	start := time.Now()
	saves, midSave := 0, 0
	for k := range kills {
		require.Less(t, time.Since(start), 45*time.Second, "after %d kills", k)
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveSurvivesKill$")
		cmd.Env = append(os.Environ(), killEnv+"="+target)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		br := bufio.NewReader(out)
		_, err = br.ReadByte() // the child's first run is done
		require.NoError(t, err, "kill %d: the child saved nothing", k)
		time.Sleep(time.Duration(r.IntN(10_000)) * time.Microsecond)
		require.NoError(t, cmd.Process.Kill())
		n, _ := io.Copy(io.Discard, br)
		_ = cmd.Wait() // killed: the error says so
		saves += 1 + int(n)
		b, err := os.ReadFile(target)
		require.NoError(t, err, "kill %d", k)
		require.NoError(t, sim.Restore(b), "kill %d: the save after the kill", k)
		entries, err := os.ReadDir(filepath.Dir(target))
		require.NoError(t, err)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".arena.snap.tmp") {
				midSave++
			}
			if e.Name() != "arena.snap" {
				require.NoError(t, os.Remove(filepath.Join(filepath.Dir(target), e.Name())))
			}
		}
	}
	t.Logf("%d kills in %v: %d runs completed, %d kills left a temporary file (killed mid-save)",
		kills, time.Since(start).Round(time.Millisecond), saves, midSave)
	require.Positive(t, midSave, "no kill landed inside a save: the test proves nothing")
}

// TestLoadOtherConfig: a save made with -shots 255 (the same declarations
// as -shots 256), another -seed or other -units is refused by a run of
// another configuration with exit 1 and a message naming the flag and
// both values, before any measured frame; a run of the same configuration
// at another worker count loads it.
func TestLoadOtherConfig(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "s255.snap")
	base := []string{"-warmup", "0", "-frames", "2", "-impl", "runtime", "-workers", "1"}
	code, _, errOut := runArgs(append([]string{"-units", "500", "-shots", "255", "-seed", "3", "-save", save}, base...)...)
	require.Equal(t, 0, code, errOut)
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-units", "500", "-shots", "256", "-seed", "3"}, "-load " + save + ": saved with -shots 255, this run has -shots 256"},
		{[]string{"-units", "500", "-shots", "255", "-seed", "4"}, "-load " + save + ": saved with -seed 3, this run has -seed 4"},
		{[]string{"-units", "600", "-shots", "255", "-seed", "3"}, "-load " + save + ": saved with -units 500, this run has -units 600"},
	} {
		code, out, errOut := runArgs(append(append(tc.flags, "-load", save), base...)...)
		assert.Equal(t, 1, code, errOut)
		assert.Contains(t, errOut, tc.want)
		assert.Empty(t, out, "no report")
	}
	code, _, errOut = runArgs("-units", "500", "-shots", "255", "-seed", "3", "-load", save, "-warmup", "0", "-frames", "2", "-impl", "runtime", "-workers", "2")
	assert.Equal(t, 0, code, errOut)
}

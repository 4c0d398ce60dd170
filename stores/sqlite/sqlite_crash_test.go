package sqlite_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/journal"
	"github.com/tickwork/tickwork/stores/sqlite"
	"github.com/tickwork/tickwork/stores/storetest"
)

// The crash test's child process: the environment names its journal
// file, frame count and seed.
const (
	envChild  = "TICKWORK_CRASH_CHILD"
	envFrames = "TICKWORK_CRASH_FRAMES"
	envSeed   = "TICKWORK_CRASH_SEED"
	// envTrials sets the number of seeded trials (make test: 50).
	envTrials   = "TICKWORK_CRASH_TRIALS"
	envRef      = "TICKWORK_CRASH_REFERENCE"
	crashFrames = 300
	kills       = 3 // SIGKILLs per trial before the run that finishes
)

// TestCrashChild is the child of TestCrashRecoversTheUninterruptedDigest:
// it opens (recovering) the journal, runs a seeded producer on another
// goroutine (bursts of spawns, printing "ack <position>" once each is
// durable) and frames until the world has run the frame count, 1 ms
// apart, checkpointing every 5 frames, then prints "digest <crc>". Not
// run alone.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(envChild)
	if path == "" {
		t.Skip("the crash test's child; run TestCrashRecoversTheUninterruptedDigest")
	}
	frames, _ := strconv.ParseUint(os.Getenv(envFrames), 10, 64)
	seed, _ := strconv.ParseUint(os.Getenv(envSeed), 10, 64)
	s, err := sqlite.Open(path)
	require.NoError(t, err)
	w := storetest.NewWorld(t)
	j, err := journal.Open(w.World, s, journal.Options{CheckpointEvery: 5}, w.Inputs)
	require.NoError(t, err)
	acks := make(chan journal.Position, 1<<16)
	go func() {
		rng := rand.New(rand.NewPCG(seed, w.World.Frames()))
		for {
			burst := 1 + rng.IntN(16)
			for range burst {
				p, err := w.Inputs.Append(storetest.Spawn{X: float32(rng.IntN(1000)), N: int32(rng.IntN(4))})
				if err != nil {
					close(acks)
					return
				}
				acks <- p
			}
			time.Sleep(time.Duration(rng.IntN(500)) * time.Microsecond)
		}
	}()
	go func() {
		for p := range acks {
			fmt.Fprintf(os.Stdout, "ack %d\n", p)
		}
	}()
	for w.World.Frames() < frames {
		err := j.Frame(1.0 / 60)
		if errors.Is(err, journal.ErrBacklog) {
			time.Sleep(100 * time.Microsecond)
			continue
		}
		require.NoError(t, err)
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, j.Close())
	for range acks {
	}
	fmt.Fprintf(os.Stdout, "digest %08x frames %d\n", storetest.Digest(t, w.World), w.World.Frames())
}

// TestCrashRecoversTheUninterruptedDigest kills a journalled world with
// SIGKILL at random moments (during appends, checkpoints and frames:
// the child does all three all the time), 3 times per seeded trial, then
// lets it finish; the final digest must be that of a fresh world fed,
// frame by frame, the inputs the journal assigned to each frame, and
// every acknowledged input must be in the journal, in exactly one
// frame's range or still waiting. 10 trials; TICKWORK_CRASH_TRIALS sets
// the count (make test: 50).
func TestCrashRecoversTheUninterruptedDigest(t *testing.T) {
	if os.Getenv(envChild) != "" || os.Getenv(envRef) != "" {
		t.Skip("in a child")
	}
	trials := 10
	if n, err := strconv.Atoi(os.Getenv(envTrials)); err == nil && n > 0 {
		trials = n
	} else if testing.Short() {
		trials = 3
	}
	killed := 0
	for seed := range uint64(trials) {
		killed += crashTrial(t, seed)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d trials, %d SIGKILLs that hit a running child, all recovered to the uninterrupted digest", trials, killed)
}

// crashTrial runs one seeded trial and returns how many kills hit a
// running child.
func crashTrial(t *testing.T, seed uint64) int {
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(seed, 77))
	var acked []journal.Position
	hits := 0
	final := ""
	for attempt := 0; final == ""; attempt++ {
		require.Less(t, attempt, kills+3, "seed %d: the child never finished", seed)
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), envChild+"="+path,
			envFrames+"="+strconv.Itoa(crashFrames), fmt.Sprintf("%s=%d", envSeed, seed*100+uint64(attempt)))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Start())
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		var err error
		if attempt < kills {
			select {
			case err = <-waited:
			case <-time.After(time.Duration(20+rng.IntN(300)) * time.Millisecond):
				_ = cmd.Process.Signal(syscall.SIGKILL)
				err = <-waited
				hits++
			}
		} else {
			select {
			case err = <-waited:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("seed %d: the child hung: %s", seed, stderr.String())
			}
		}
		for _, line := range strings.Split(stdout.String(), "\n") {
			if p, ok := strings.CutPrefix(line, "ack "); ok {
				n, perr := strconv.ParseUint(p, 10, 64)
				require.NoError(t, perr)
				acked = append(acked, journal.Position(n))
			}
			if d, ok := strings.CutPrefix(line, "digest "); ok {
				final = d
			}
		}
		if err != nil && final == "" && attempt >= kills {
			t.Fatalf("seed %d: the child failed: %v\n%s\n%s", seed, err, stdout.String(), stderr.String())
		}
	}
	require.NoError(t, os.WriteFile(path+".acked", []byte(fmt.Sprint(acked)), 0o644))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashReference$", "-test.count=1")
	cmd.Env = append(os.Environ(), envRef+"="+path)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "seed %d: the reference run: %s", seed, out)
	_, want, ok := strings.Cut(string(out), "digest ")
	require.True(t, ok, "the reference run printed no digest: %s", out)
	want, _, _ = strings.Cut(want, "\n")
	assert.Equal(t, want, final, "seed %d: the resumed run's digest, the uninterrupted run's", seed)
	return hits
}

// TestCrashReference is the uninterrupted run of a crash trial, in a
// process of its own (so that its world's handle tags are those of the
// child's, the first world of its process): it checks the journal
// (referenceDigest) and prints the digest. Not run alone.
func TestCrashReference(t *testing.T) {
	path := os.Getenv(envRef)
	if path == "" {
		t.Skip("the crash test's reference run; run TestCrashRecoversTheUninterruptedDigest")
	}
	b, err := os.ReadFile(path + ".acked")
	require.NoError(t, err)
	var acked []journal.Position
	for _, f := range strings.Fields(strings.Trim(string(b), "[]")) {
		n, err := strconv.ParseUint(f, 10, 64)
		require.NoError(t, err)
		acked = append(acked, journal.Position(n))
	}
	d := referenceDigest(t, path, acked)
	fmt.Printf("digest %08x frames %d\n", d, crashFrames)
}

// referenceDigest reads the journal at path, checks it (one mark per
// frame 0..crashFrames-1, in order; every acknowledged position an input
// record) and returns the digest of a fresh world run without the
// journal, fed each frame's inputs by hand.
func referenceDigest(t *testing.T, path string, acked []journal.Position) uint32 {
	s, err := sqlite.Open(path)
	require.NoError(t, err)
	defer s.Close()
	inputs := map[journal.Position]storetest.Spawn{}
	type mark struct {
		frame uint64
		dt    float64
		upTo  journal.Position
	}
	var marks []mark
	require.NoError(t, s.Read(0, func(p journal.Position, r []byte) error {
		switch r[0] {
		case 1:
			require.Len(t, r, 11)
			inputs[p] = storetest.Spawn{
				X: math.Float32frombits(binary.LittleEndian.Uint32(r[3:])),
				N: int32(binary.LittleEndian.Uint32(r[7:])),
			}
		case 2:
			marks = append(marks, mark{binary.LittleEndian.Uint64(r[1:]),
				math.Float64frombits(binary.LittleEndian.Uint64(r[9:])), journal.Position(binary.LittleEndian.Uint64(r[17:]))})
		default:
			t.Fatalf("record %d of kind %d", p, r[0])
		}
		return nil
	}))
	for _, p := range acked {
		_, ok := inputs[p]
		require.True(t, ok, "acknowledged input %d not in the journal", p)
	}
	require.Equal(t, crashFrames, len(marks), "one mark per frame")
	w := storetest.NewWorld(t)
	var prev journal.Position
	for i, m := range marks {
		require.EqualValues(t, i, m.frame, "marks in frame order")
		require.GreaterOrEqual(t, m.upTo, prev)
		for p := prev + 1; p <= m.upTo; p++ {
			if v, ok := inputs[p]; ok {
				require.NoError(t, w.Inputs.Events().Emit(journal.Input[storetest.Spawn]{Frame: m.frame, Position: p, Value: v}))
			}
		}
		prev = m.upTo
		require.NoError(t, w.World.Frame(m.dt))

	}
	return storetest.Digest(t, w.World)
}

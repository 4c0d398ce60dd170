package atomicfile

import (
	"bufio"
	"crypto/sha256"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// crashEnv names the target a child of TestWriteFileSurvivesKill writes.
const crashEnv = "ATOMICFILE_CRASH_TARGET"

// crashVersions are the two contents the child alternates, 1 MiB each,
// so that a write takes long enough to be killed in the middle.
func crashVersions() [2][]byte {
	var v [2][]byte
	for i := range v {
		v[i] = make([]byte, 1<<20)
		_, _ = rand.NewChaCha8([32]byte{byte(i)}).Read(v[i]) // never fails
	}
	return v
}

// TestWriteFileSurvivesKill runs a child process that writes the target
// in a loop, alternating two versions, and kills it (SIGKILL on Unix) at a
// seeded random delay once it has written once, 100 times: after every
// kill the target is one of the two versions, whole.
func TestWriteFileSurvivesKill(t *testing.T) {
	if target := os.Getenv(crashEnv); target != "" {
		crashChild(target)
		return
	}
	if goruntime.GOOS == "js" || goruntime.GOOS == "wasip1" {
		t.Skip("no child processes")
	}
	const kills = 100
	v := crashVersions()
	sums := map[[32]byte]int{sha256.Sum256(v[0]): 0, sha256.Sum256(v[1]): 1}
	dir := t.TempDir()
	target := filepath.Join(dir, "save.bin")
	require.NoError(t, WriteFile(target, v[0], 0o644))
	r := rand.New(rand.NewPCG(2026, 19))
	start := time.Now()
	var saves, midWrite int
	seen := [2]int{}
	for k := range kills {
		require.Less(t, time.Since(start), time.Duration(killBudget), "after %d kills", k)
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileSurvivesKill$")
		cmd.Env = append(os.Environ(), crashEnv+"="+target)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		br := bufio.NewReader(out)
		_, err = br.ReadByte() // the child's first write is done
		require.NoError(t, err, "the child wrote nothing")
		time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond)
		require.NoError(t, cmd.Process.Kill())
		n, _ := io.Copy(io.Discard, br)
		_ = cmd.Wait() // killed: the error says so
		saves += 1 + int(n)

		got, err := os.ReadFile(target)
		require.NoError(t, err, "kill %d", k)
		which, ok := sums[sha256.Sum256(got)]
		require.True(t, ok, "kill %d: the target (%d bytes) is neither version", k, len(got))
		seen[which]++
		for _, name := range entries(t, dir) {
			if strings.HasPrefix(name, ".save.bin.tmp") {
				midWrite++
				require.NoError(t, os.Remove(filepath.Join(dir, name)))
			}
		}
	}
	t.Logf("%d kills in %v: %d writes completed, %d kills left a temporary file (killed mid-write), versions seen %v",
		kills, time.Since(start).Round(time.Millisecond), saves, midWrite, seen)
	require.Positive(t, midWrite, "no kill landed inside a write: the test proves nothing")
}

// crashChild writes target in a loop until killed, a byte on stdout after
// each write.
func crashChild(target string) {
	v := crashVersions()
	for i := 1; ; i++ {
		if err := WriteFile(target, v[i%2], 0o644); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(3)
		}
		os.Stdout.Write([]byte{'.'})
	}
}

package tickwork_test

import (
	"bufio"
	"encoding/binary"
	"io"
	"io/fs"
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

	"github.com/tickwork/tickwork"
)

// saveWorld builds a small world whose snapshot is about 1 MiB: a ball
// table of 64K rows with a float64 column, a ball spawned per tick whose
// value counts the spawns (a resource, so that a restore brings it back).
func saveWorld(t testing.TB) *tickwork.World {
	b := tickwork.NewBuilder(tickwork.WithPacing(tickwork.OneTickPerFrame), tickwork.WithWorkers(1))
	balls := b.Table(tickwork.TableSpec{Name: "Ball", Capacity: 1 << 16})
	y := tickwork.AddColumn[float64](b, balls, "Y")
	spawned := tickwork.AddResource(b, "spawned", 0.0)
	b.System("spawn", tickwork.FixedUpdate, func(s *tickwork.Decl) tickwork.RunFunc {
		sp := tickwork.NewSpawner1(s, y)
		n := tickwork.WriteResource(s, spawned)
		return func(*tickwork.Context) { *n++; sp.Spawn(*n) }
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func frames(t testing.TB, w *tickwork.World, n int) {
	t.Helper()
	for range n {
		require.NoError(t, w.Frame(1.0/60))
	}
}

// TestSaveFileLoadFile: a save loads into the world that wrote it and
// into another world declared alike, which then continue alike; a second
// save replaces the first.
func TestSaveFileLoadFile(t *testing.T) {
	w := saveWorld(t)
	path := filepath.Join(t.TempDir(), "save.bin")
	frames(t, w, 5)
	require.NoError(t, tickwork.SaveFile(w, path))
	frames(t, w, 5)
	require.NoError(t, tickwork.SaveFile(w, path))
	want, err := w.Snapshot(nil)
	require.NoError(t, err)
	frames(t, w, 3)
	require.NoError(t, tickwork.LoadFile(w, path))
	assert.Equal(t, uint64(10), w.Frames())

	other := saveWorld(t)
	require.NoError(t, tickwork.LoadFile(other, path))
	got, err := other.Snapshot(nil)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the other world holds the saved state")
	frames(t, w, 4)
	frames(t, other, 4)
	a, _ := w.Snapshot(nil)
	b, _ := other.Snapshot(nil)
	assert.Equal(t, a, b, "both continue alike")
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
}

// TestLoadFileRefuses: every bad file is refused with a *FileError naming
// the path and a typed cause, and the world is as it was.
func TestLoadFileRefuses(t *testing.T) {
	w := saveWorld(t)
	frames(t, w, 3)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	require.NoError(t, tickwork.SaveFile(w, good))
	save, err := os.ReadFile(good)
	require.NoError(t, err)
	frames(t, w, 2)
	before, err := w.Snapshot(nil)
	require.NoError(t, err)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	rewrite := func(at int, v uint64, width int) []byte {
		b := append([]byte(nil), save...)
		if width == 4 {
			binary.LittleEndian.PutUint32(b[at:], uint32(v))
		} else {
			binary.LittleEndian.PutUint64(b[at:], v)
		}
		return b
	}
	otherWorld := func() string {
		b := tickwork.NewBuilder()
		tickwork.AddColumn[int32](b, b.Table(tickwork.TableSpec{Name: "Other", Capacity: 64}), "X")
		o, err := b.Build()
		require.NoError(t, err)
		defer o.Close()
		p := filepath.Join(dir, "other.bin")
		require.NoError(t, tickwork.SaveFile(o, p))
		return p
	}()
	cases := []struct {
		name, path string
		want       error
		msg        string
	}{
		{"missing", filepath.Join(dir, "missing.bin"), fs.ErrNotExist, "no such file"},
		{"directory", dir, tickwork.ErrCorrupt, "not a regular file"},
		{"empty", write("empty.bin", nil), tickwork.ErrTruncated, "0 bytes, shorter than the header"},
		{"short", write("short.bin", save[:20]), tickwork.ErrTruncated, "20 bytes"},
		{"garbage", write("garbage.bin", []byte(strings.Repeat("not a snapshot ", 10))), tickwork.ErrCorrupt, "not a Tickwork snapshot"},
		{"version", write("version.bin", rewrite(8, 1, 4)), tickwork.ErrVersion, "version 1"},
		{"payload past the file", write("long.bin", rewrite(24, 1<<40, 8)), tickwork.ErrTruncated,
			"payload length 1099511627776, the file holds " + strconv.Itoa(len(save)-40)},
		{"payload short of the file", write("trail.bin", append(append([]byte(nil), save...), 1, 2, 3)), tickwork.ErrCorrupt,
			"the file holds 3 bytes more"},
		{"truncated", write("cut.bin", rewrite(24, uint64(len(save)-41), 8)[:len(save)-1]), tickwork.ErrCorrupt, "runs past the payload"},
		{"bit flip", write("flip.bin", func() []byte { b := append([]byte(nil), save...); b[len(b)/2] ^= 1; return b }()), tickwork.ErrCorrupt, "checksum"},
		{"another world", otherWorld, tickwork.ErrOtherWorld, "fingerprint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tickwork.LoadFile(w, tc.path)
			var fe *tickwork.FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, "load", fe.Op)
			assert.Equal(t, tc.path, fe.Path)
			assert.ErrorIs(t, err, tc.want)
			assert.Contains(t, err.Error(), tc.msg)
			assert.Contains(t, err.Error(), "tickwork: load "+tc.path+": ")
			after, err := w.Snapshot(nil)
			require.NoError(t, err)
			assert.Equal(t, before, after, "the world is as it was")
		})
	}
}

// TestSaveFileRefuses: a save into a missing directory or over a directory
// names the path and reaches the os error; a closed world saves and loads
// nothing.
func TestSaveFileRefuses(t *testing.T) {
	w := saveWorld(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "save.bin")
	err := tickwork.SaveFile(w, missing)
	var fe *tickwork.FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "save", fe.Op)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), "tickwork: save "+missing+": ")
	assert.Equal(t, "create temporary file", fe.Step)
	err = tickwork.SaveFile(w, dir)
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "check target", fe.Step)
	assert.ErrorIs(t, err, tickwork.ErrNotRegularFile)
	assert.Contains(t, err.Error(), "tickwork: save "+dir+": check target: a directory")

	good := filepath.Join(dir, "good.bin")
	require.NoError(t, tickwork.SaveFile(w, good))
	require.NoError(t, w.Close())
	assert.ErrorIs(t, tickwork.SaveFile(w, good), tickwork.ErrClosed)
	assert.ErrorIs(t, tickwork.LoadFile(w, good), tickwork.ErrClosed)
	assert.ErrorIs(t, tickwork.LoadFile(nil, good), tickwork.ErrZeroWorld)
}

// TestLoadFileHugeSparse: sparse files of 1 GB and 100 GB, all zeros or
// opening with a good header whose payload length says the file's size,
// are refused before their payload is read: the process allocates less
// than 64 MB for each.
func TestLoadFileHugeSparse(t *testing.T) {
	w := saveWorld(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	require.NoError(t, tickwork.SaveFile(w, good))
	head := make([]byte, 40)
	f, err := os.Open(good)
	require.NoError(t, err)
	_, err = io.ReadFull(f, head)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	for _, size := range []int64{1 << 30, 100 << 30} {
		for _, withHead := range []bool{false, true} {
			name := strconv.FormatInt(size>>30, 10) + "GiB"
			want, msg := tickwork.ErrCorrupt, "not a Tickwork snapshot"
			if withHead {
				name += " with header"
				msg = "a file of " + strconv.FormatInt(size, 10) + " bytes, past the "
			}
			t.Run(name, func(t *testing.T) {
				p := filepath.Join(dir, name)
				f, err := os.Create(p)
				require.NoError(t, err)
				if withHead {
					h := append([]byte(nil), head...)
					binary.LittleEndian.PutUint64(h[24:], uint64(size-40))
					_, err = f.Write(h)
					require.NoError(t, err)
				}
				require.NoError(t, f.Truncate(size))
				require.NoError(t, f.Close())
				defer os.Remove(p)
				var m0, m1 goruntime.MemStats
				goruntime.ReadMemStats(&m0)
				err = tickwork.LoadFile(w, p)
				goruntime.ReadMemStats(&m1)
				assert.ErrorIs(t, err, want)
				assert.Contains(t, err.Error(), msg)
				t.Logf("LoadFile of %d bytes: %v; %d bytes allocated", size, err, m1.TotalAlloc-m0.TotalAlloc)
				assert.Less(t, m1.TotalAlloc-m0.TotalAlloc, uint64(64<<20), "bytes allocated by LoadFile")
				assert.Less(t, int64(m1.HeapAlloc)-int64(m0.HeapAlloc), int64(64<<20), "heap growth")
			})
		}
	}
}

// crashEnv names the save file a child of TestSaveFileSurvivesKill loads
// and saves.
const crashEnv = "TICKWORK_SAVEFILE_CRASH_TARGET"

// TestSaveFileSurvivesKill: a child process loads the save, then runs a
// frame and saves in a loop; the test kills it (SIGKILL on Unix) at a
// seeded random delay after its first save, 100 times. After every kill
// the save loads (LoadFile, so Restore's checks pass) and holds a frame
// count no smaller than the last kill's: each child resumed from it.
func TestSaveFileSurvivesKill(t *testing.T) {
	if target := os.Getenv(crashEnv); target != "" {
		saveChild(t, target)
		return
	}
	if goruntime.GOOS == "js" || goruntime.GOOS == "wasip1" {
		t.Skip("no child processes")
	}
	if raceEnabled {
		t.Skip("under the race detector a kill lands in the child's frame, never in its save (make unit runs this test)")
	}
	const kills = 100
	w := saveWorld(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "save.bin")
	require.NoError(t, tickwork.SaveFile(w, target))
	r := rand.New(rand.NewPCG(2026, 19))
	start := time.Now()
	var last uint64
	var saves, midWrite int
	for k := range kills {
		require.Less(t, time.Since(start), 45*time.Second, "after %d kills", k)
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveFileSurvivesKill$")
		cmd.Env = append(os.Environ(), crashEnv+"="+target)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		br := bufio.NewReader(out)
		_, err = br.ReadByte() // the child's first save is done
		require.NoError(t, err, "kill %d: the child saved nothing", k)
		time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond)
		require.NoError(t, cmd.Process.Kill())
		n, _ := io.Copy(io.Discard, br)
		_ = cmd.Wait() // killed: the error says so
		saves += 1 + int(n)

		require.NoError(t, tickwork.LoadFile(w, target), "kill %d", k)
		require.GreaterOrEqual(t, w.Frames(), last+1, "kill %d: the save holds the child's first save at least", k)
		last = w.Frames()
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if e.Name() != "save.bin" {
				midWrite++
				require.NoError(t, os.Remove(filepath.Join(dir, e.Name())))
			}
		}
	}
	t.Logf("%d kills in %v: %d saves completed, %d kills left a temporary file (killed mid-save), last save at frame %d",
		kills, time.Since(start).Round(time.Millisecond), saves, midWrite, last)
	require.Positive(t, midWrite, "no kill landed inside a save: the test proves nothing")
}

// saveChild loads target, then runs a frame and saves it in a loop until
// killed, a byte on stdout after each save.
func saveChild(t *testing.T, target string) {
	w := saveWorld(t)
	if err := tickwork.LoadFile(w, target); err != nil {
		os.Stderr.WriteString("child: " + err.Error() + "\n")
		os.Exit(3)
	}
	for {
		if err := w.Frame(1.0 / 60); err != nil {
			os.Stderr.WriteString("child: " + err.Error() + "\n")
			os.Exit(3)
		}
		if err := tickwork.SaveFile(w, target); err != nil {
			os.Stderr.WriteString("child: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Stdout.Write([]byte{'.'})
	}
}

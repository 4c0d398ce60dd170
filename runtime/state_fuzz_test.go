package runtime_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/tickwork/tickwork/runtime"
)

// FuzzRestore: Restore of any input, random or a mutated snapshot (with its
// checksum and fingerprint fixed up when fix is set, so that the state
// checks rather than the checksum meet the mutation), never panics and
// either refuses it, leaving the world exactly as it was (a snapshot before
// and after is the same), or accepts it, after which the world runs frames
// without a panic and snapshots again. The seed corpus (testdata/fuzz) and
// the seeds added here run in every `go test`; `make fuzz` fuzzes it with
// -fuzzminimizetime 10x (Go's default minimises the first new input for
// 60 s, the whole slot) and prints the executions per second.
func FuzzRestore(f *testing.F) {
	s := newStWorld(f, 1)
	s.run(f, 20)
	good := s.snap(f)
	f.Add(good, false)
	f.Add(good, true)
	f.Add(good[:len(good)/3], true)
	f.Add([]byte("TICKSNAP"), false)
	f.Add(bytes.Repeat([]byte{0xa5}, 600), true)
	s.run(f, 9)
	f.Add(s.snap(f), true)
	fp := s.w.Fingerprint()
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		try := func(src []byte) {
			before, err := s.w.Snapshot(nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.w.Restore(src); err != nil {
				after, _ := s.w.Snapshot(nil)
				if !bytes.Equal(before, after) {
					t.Fatalf("refused restore (%v) changed the world", err)
				}
				return
			}
			for range 3 {
				_ = s.w.Frame(0.013) // may fail (a restored state may hold odd handles), must not panic
			}
			if _, err := s.w.Snapshot(nil); err != nil {
				t.Fatalf("snapshot after an accepted restore: %v", err)
			}
			if err := s.w.Restore(good); err != nil {
				t.Fatal(err)
			}
		}
		try(data)
		if fix && len(data) >= runtime.SnapshotHeader {
			b := append([]byte(nil), data...)
			copy(b[:8], "TICKSNAP")
			binary.LittleEndian.PutUint32(b[8:], runtime.SnapshotVersion)
			binary.LittleEndian.PutUint64(b[16:], fp)
			binary.LittleEndian.PutUint64(b[24:], uint64(len(b)-runtime.SnapshotHeader))
			runtime.FixChecksum(b)
			try(b)
		}
	})
}

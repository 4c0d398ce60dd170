package runtime_test

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
)

// goldenAfter10 is the checksum of the snapshot taken 10 frames after
// restoring testdata/fuzz/FuzzRestore/snapshot-frame-33 (made on
// linux/amd64; format version 2: the version 1 file with an empty host
// section inserted first).
const goldenAfter10 uint32 = 0xab13f1df

// goldenAfter10Debug is that checksum in the checking debug build, whose
// snapshots hold the poison of the rows freed in those 10 frames
// (ephemeral.PoisonByte; docs/architecture.md, Debug build).
const goldenAfter10Debug uint32 = 0x3dab2654

// TestGoldenSnapshot: a snapshot taken on linux/amd64 restores here, and
// 10 more frames end in the snapshot it ended in there, byte for byte (its
// checksum): the format, the tags it brings and the frames after a restore
// are the same on every 64-bit little-endian machine (make arm64 runs it
// under qemu).
func TestGoldenSnapshot(t *testing.T) {
	raw, err := os.ReadFile("testdata/fuzz/FuzzRestore/snapshot-frame-33")
	require.NoError(t, err)
	lines := strings.Split(string(raw), "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	src, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	require.NoError(t, err)
	s := newStWorld(t, 1)
	require.NoError(t, s.w.Restore([]byte(src)))
	assert.Equal(t, uint64(33), s.w.Frames())
	s.run(t, 10)
	snap := s.snap(t)
	want := goldenAfter10
	if ephemeral.DebugBuild {
		want = goldenAfter10Debug
	}
	assert.Equal(t, want, binary.LittleEndian.Uint32(snap[12:]), "%#x", binary.LittleEndian.Uint32(snap[12:]))
}

package runtime

import (
	"encoding/binary"
	"hash/crc32"
)

// FixChecksum recomputes the CRC-32C of a snapshot in place, so that a test
// can hand Restore a mutated state that only the state checks refuse.
func FixChecksum(b []byte) {
	crc := crc32.Update(crc32.Update(0, castagnoli, b[SnapshotHeader:]), castagnoli, b[16:SnapshotHeader])
	binary.LittleEndian.PutUint32(b[12:], crc)
}

package runtime

import "encoding/binary"

// FixChecksum recomputes the checksum of a snapshot in place, so that a test
// can hand Restore a mutated state that only the state checks refuse.
func FixChecksum(b []byte) { binary.LittleEndian.PutUint32(b[12:], checksum(b)) }

// LayPos is declared here, in package runtime, and again in runtime_test
// (TestFingerprintLayout): two types of one name and shape in two packages.
type LayPos struct {
	X, Y float32
	N    int32
}

// ErrSpecBudget is the sentinel of a spec that names its own budget
// (errors.go).
var ErrSpecBudget = errSpecBudget

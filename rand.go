package tickwork

import "math/rand/v2"

// Rand is a seeded random stream a snapshot holds: math/rand/v2's Rand
// over a PCG source of its own, with the PCG's state (16 bytes; 20 with
// its header) as its codec (encoding.BinaryAppender and
// BinaryUnmarshaler), so a resource of type *Rand is saved, restored and
// rolled back with the world (docs/state.md, what a snapshot holds). A
// *rand.Rand resource is not: it holds a pointer and no codec, and
// Snapshot refuses it with ErrUnsupported.
//
// Draw from it in systems that declare it (WriteResource: a draw changes
// its state), one system at a time; like math/rand/v2's Rand it is not
// safe for concurrent use, so a kernel's workers must not share it.
type Rand struct {
	*rand.Rand
	pcg rand.PCG
}

// NewRand returns a stream seeded as rand.NewPCG(seed1, seed2): the same
// draws as rand.New(rand.NewPCG(seed1, seed2)). Allocates once.
func NewRand(seed1, seed2 uint64) *Rand {
	r := &Rand{pcg: *rand.NewPCG(seed1, seed2)}
	r.Rand = rand.New(&r.pcg)
	return r
}

// AppendBinary appends the stream's state (encoding.BinaryAppender).
func (r *Rand) AppendBinary(b []byte) ([]byte, error) { return r.pcg.AppendBinary(b) }

// UnmarshalBinary sets the stream's state (encoding.BinaryUnmarshaler):
// the draws that follow are those that followed AppendBinary. Errors are
// the PCG's, for bytes that are not its state. A zero Rand gets its
// source first.
func (r *Rand) UnmarshalBinary(b []byte) error {
	if r.Rand == nil {
		r.Rand = rand.New(&r.pcg)
	}
	return r.pcg.UnmarshalBinary(b)
}

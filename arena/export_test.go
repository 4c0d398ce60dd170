package arena

import "math/rand/v2"

// StreamDraws returns n draws (Uint64) of a new stream of seed.
func StreamDraws(seed uint64, n int) []uint64 {
	s := newStream(seed)
	return DrawsOf(s.Rand, n)
}

// StreamCopyDraws draws skip values from a stream of seed, copies it into
// a zero stream through its codec, and returns n further draws of each.
func StreamCopyDraws(seed uint64, skip, n int) (a, b []uint64) {
	s := newStream(seed)
	DrawsOf(s.Rand, skip)
	bin, err := s.AppendBinary(nil)
	if err != nil {
		panic(err)
	}
	var z stream
	if err := z.UnmarshalBinary(bin); err != nil {
		panic(err)
	}
	return DrawsOf(s.Rand, n), DrawsOf(z.Rand, n)
}

// DrawsOf returns n draws (Uint64) of r.
func DrawsOf(r *rand.Rand, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.Uint64()
	}
	return out
}

package arena

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
)

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

// requireSamePresentation requires a and b equal slot for slot, bit for
// bit: the debug build poisons freed rows (X and Y NaN, which == would
// call unequal to itself; docs/architecture.md, Debug build).
func requireSamePresentation(t testing.TB, a, b []rules.Slot, msg ...any) {
	t.Helper()
	require.Len(t, b, len(a), msg...)
	for i := range a {
		x, y := a[i], b[i]
		if math.Float32bits(x.X) != math.Float32bits(y.X) || math.Float32bits(x.Y) != math.Float32bits(y.Y) || x.Health != y.Health || x.Alive != y.Alive {
			require.Failf(t, "presentations differ", "slot %d: %+v against %+v %v", i, x, y, fmt.Sprint(msg...))
		}
	}
}

// RequireSamePresentation is requireSamePresentation, for package arena_test.
var RequireSamePresentation = requireSamePresentation

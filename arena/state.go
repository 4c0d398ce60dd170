package arena

import (
	"math/rand/v2"

	"github.com/tickwork/tickwork/arena/rules"
)

// stream is the arena's random stream resource (arena rules v1, "Random
// numbers"): the generator rules.NewRand makes, with its PCG source kept
// so that a snapshot holds the stream's state. Its codec is the PCG's
// (encoding.BinaryAppender and BinaryUnmarshaler of math/rand/v2's PCG,
// 20 bytes); the generator itself keeps no state of its own.
type stream struct {
	*rand.Rand
	pcg *rand.PCG
}

// newStream is rules.NewRand(seed) with its source kept.
func newStream(seed uint64) stream {
	pcg := rand.NewPCG(seed, rules.PCGStream)
	return stream{Rand: rand.New(pcg), pcg: pcg}
}

// AppendBinary appends the PCG's state (encoding.BinaryAppender).
func (s *stream) AppendBinary(b []byte) ([]byte, error) { return s.pcg.AppendBinary(b) }

// UnmarshalBinary sets the PCG's state (encoding.BinaryUnmarshaler); a
// zero stream gets a source of its own first.
func (s *stream) UnmarshalBinary(b []byte) error {
	if s.pcg == nil {
		s.pcg = new(rand.PCG)
		s.Rand = rand.New(s.pcg)
	}
	return s.pcg.UnmarshalBinary(b)
}

// Snapshot appends the Sim's state, its world's snapshot, to dst
// (tickwork.World.Snapshot; docs/state.md): every table, the event tables,
// the respawns awaiting resolution, the random stream, the presentation
// buffer, the counters and the clock. It allocates nothing once dst has
// room. Between frames only.
func (s *Sim) Snapshot(dst []byte) ([]byte, error) { return s.world.Snapshot(dst) }

// Restore makes the Sim hold a state Snapshot took from a Sim of the same
// Config's units and shots (any workers, seed or lane: the state holds the
// stream): the next frames are those that followed the snapshot. It
// returns World.Restore's typed errors and then changes nothing. The Sim
// holds no handle outside the world, so nothing else is read again.
func (s *Sim) Restore(src []byte) error {
	return s.world.Restore(src)
}

// Digest is the digest of the Sim's state (rules.Digest over the
// presentation, the frames run, the counters and the projectile checksum).
func (s *Sim) Digest() uint64 {
	return rules.Digest(s.Presentation(), s.Frames(), s.Counters(), s.ProjectileChecksum())
}

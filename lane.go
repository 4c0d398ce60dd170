package tickwork

import "github.com/tickwork/tickwork/lanes"

// Lane is the instruction set a kernel runs on; every lane computes
// bit-for-bit what LaneScalar computes, only the speed differs. Generated
// systems with a SIMD variant take one (docs/schema.md, SIMD variants).
type Lane = lanes.Lane

// The lanes, narrowest first.
const (
	LaneScalar = lanes.Scalar // plain Go: the only lane without GOEXPERIMENT=simd or AVX2
	LaneAVX2   = lanes.AVX2   // 8 float32 lanes per instruction
	LaneAVX512 = lanes.AVX512 // 16 float32 lanes per instruction
)

// BestLane returns the widest lane this build and CPU run. Safe for
// concurrent use.
func BestLane() Lane { return lanes.Best() }

// SelectLane returns want when this build and CPU run it, else LaneScalar
// and an error matching ErrLaneUnavailable (ErrUnknownLane for a value
// that is no lane). Call it at set-up.
func SelectLane(want Lane) (Lane, error) { return lanes.Select(want) }

package tickwork

import "github.com/tickwork/tickwork/lanes"

// Lane is the instruction set a kernel runs on: [lanes.Lane]. Generated
// systems with a SIMD variant take one (docs/schema.md, SIMD variants).
type Lane = lanes.Lane

// The lanes, narrowest first: [lanes.Scalar], [lanes.AVX2] and
// [lanes.AVX512].
const (
	LaneScalar = lanes.Scalar
	LaneAVX2   = lanes.AVX2
	LaneAVX512 = lanes.AVX512
)

// BestLane returns the widest lane this build and CPU run: [lanes.Best].
func BestLane() Lane { return lanes.Best() }

// SelectLane returns want when this build and CPU run it, else
// LaneScalar and an error matching lanes.ErrUnavailable or
// lanes.ErrUnknownLane: [lanes.Select].
func SelectLane(want Lane) (Lane, error) { return lanes.Select(want) }

package tickwork

import "github.com/tickwork/tickwork/lanes"

// Lane is the instruction set a kernel runs on: LaneScalar (the zero
// value), LaneAVX2 or LaneAVX512. Every lane computes bit for bit what
// LaneScalar computes, only the speed differs (the rule: package lanes,
// "Bit identity"). Generated systems with a SIMD variant take one
// (docs/schema.md, SIMD variants; their Systems.SetLane); the frame report
// names the lane each system ran (SystemReport.Lane, Lane.String's name).
//
// Get one from BestLane (what a generated system runs unless told), from a
// name with ParseLane (a flag or a config file), or as a constant; check a
// forced one with SelectLane. A Lane is a value: safe to copy and to use
// from any goroutine.
type Lane uint8

// The lanes, narrowest first. Their values are the engine's (package
// lanes), so the face converts for free.
const (
	LaneScalar Lane = Lane(lanes.Scalar) // plain Go: the only lane without GOEXPERIMENT=simd on amd64, or on a CPU without AVX2
	LaneAVX2   Lane = Lane(lanes.AVX2)   // 8 float32 lanes per instruction
	LaneAVX512 Lane = Lane(lanes.AVX512) // 16 float32 lanes per instruction (AVX-512 F, CD, BW, DQ and VL)
)

// String returns the lane's name: "scalar", "avx2" or "avx512", the names
// ParseLane accepts; "Lane(n)" for a value that is no lane.
func (l Lane) String() string { return lanes.Lane(l).String() }

// Available reports whether this build and this CPU run lane l: LaneScalar
// always; LaneAVX2 and LaneAVX512 only in a GOEXPERIMENT=simd build on
// amd64 whose CPU (and OS) support the instructions; false for a value
// that is no lane. SelectLane says why not. Safe for concurrent use.
func (l Lane) Available() bool { return lanes.Available(lanes.Lane(l)) }

// ParseLane returns the lane named s: "scalar", "avx2" or "avx512", in any
// ASCII case ("AVX2" too), what Lane.String prints and arena-headless's
// -lane flag and arena's rules.Config.Lane accept. Another name returns
// LaneScalar and an error matching ErrUnknownLane (errors.Is) that quotes
// s and lists the names. It does not check that the lane runs here: pass
// the result to SelectLane. Pure; safe from any goroutine.
func ParseLane(s string) (Lane, error) {
	l, err := lanes.Parse(s)
	return Lane(l), err
}

// BestLane returns the widest lane this build and CPU run (LaneScalar when
// no SIMD lane is available): what generated systems run unless told
// otherwise. Safe for concurrent use.
func BestLane() Lane { return Lane(lanes.Best()) }

// SelectLane returns want when this build and CPU run it, else LaneScalar
// and an error matching ErrLaneUnavailable that says why (no
// GOEXPERIMENT=simd, or the CPU lacks the instructions), or ErrUnknownLane
// for a value that is no lane. Call it at set-up, when a user forces a
// lane. Safe for concurrent use.
func SelectLane(want Lane) (Lane, error) {
	l, err := lanes.Select(lanes.Lane(want))
	return Lane(l), err
}

package lanes

import (
	"errors"
	"strconv"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// Lane names the instruction set a kernel runs on. The zero value is Scalar.
// Every lane computes bit-for-bit what Scalar computes (see the package doc,
// "Bit identity"); only the speed differs.
type Lane uint8

// The lanes, narrowest first.
const (
	// Scalar is plain Go, one element at a time: the oracle of every other
	// lane, and the only lane of a build without GOEXPERIMENT=simd or on a
	// CPU without AVX2.
	Scalar Lane = iota
	// AVX2 runs 8 float32 lanes per instruction (simd/archsimd Float32x8).
	AVX2
	// AVX512 runs 16 float32 lanes per instruction (simd/archsimd
	// Float32x16).
	AVX512

	numLanes
)

var laneNames = [numLanes]string{"scalar", "avx2", "avx512"}

// ErrUnknownLane: Parse was given a name that is not a lane's. Returned
// wrapped with the name; match it with errors.Is.
var ErrUnknownLane = errors.New("lanes: unknown lane")

// ErrUnavailable: Select was asked for a lane that this build or this CPU
// cannot run. Returned wrapped with the lane's name; match it with
// errors.Is.
var ErrUnavailable = errors.New("lanes: lane not available")

// String returns the lane's name: "scalar", "avx2" or "avx512"
// (Lane(n) for any other value).
func (l Lane) String() string {
	if l < numLanes {
		return laneNames[l]
	}
	return "Lane(" + strconv.Itoa(int(l)) + ")"
}

// Parse returns the lane named s ("scalar", "avx2" or "avx512", in any
// ASCII case: "AVX2" too), or Scalar and an error matching ErrUnknownLane.
// It does not check availability (see Select). Pure; safe from any
// goroutine.
func Parse(s string) (Lane, error) {
	for l, name := range laneNames {
		if strings.EqualFold(s, name) {
			return Lane(l), nil
		}
	}
	return Scalar, &laneError{err: ErrUnknownLane, name: s}
}

// Available reports whether this build and this CPU run lane l: Scalar
// always; AVX2 and AVX512 only in a GOEXPERIMENT=simd build on amd64 whose
// CPU (and OS) support the instructions, as github.com/klauspost/cpuid/v2
// reports them. Safe for concurrent use.
func Available(l Lane) bool {
	switch l {
	case Scalar:
		return true
	case AVX2:
		return built && cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2)
	case AVX512:
		return built && cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512CD, cpuid.AVX512BW, cpuid.AVX512DQ, cpuid.AVX512VL)
	}
	return false
}

// Best returns the widest available lane: what a world picks at build
// unless told otherwise. Safe for concurrent use.
func Best() Lane {
	for l := numLanes - 1; l > Scalar; l-- {
		if Available(l) {
			return l
		}
	}
	return Scalar
}

// Select returns want when it is available, or Scalar and an error matching
// ErrUnavailable (errors.Is; unknown values match ErrUnknownLane). Call it at
// set-up, when a user forces a lane.
func Select(want Lane) (Lane, error) {
	if want >= numLanes {
		return Scalar, &laneError{err: ErrUnknownLane, name: want.String()}
	}
	if !Available(want) {
		return Scalar, &laneError{err: ErrUnavailable, name: want.String()}
	}
	return want, nil
}

// laneError is the error of Parse and Select.
type laneError struct {
	err  error
	name string
}

func (e *laneError) Error() string {
	if errors.Is(e.err, ErrUnknownLane) {
		return e.err.Error() + " " + strconv.Quote(e.name) + " (want scalar, avx2 or avx512)"
	}
	why := "this build has no SIMD lanes: build with GOEXPERIMENT=simd on amd64"
	if built {
		why = "this CPU lacks its instructions"
	}
	return e.err.Error() + ": " + e.name + ": " + why
}

func (e *laneError) Unwrap() error { return e.err }

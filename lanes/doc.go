// Package lanes holds the streaming kernels of the runtime in several
// lanes — instruction sets — that give the same bits: plain functions over
// column spans ([]float32, []int32), so a system's chunk kernel calls them
// on ephemeral.Column.Span slices. No simd/archsimd type appears in its API.
//
//   - [Lane]: [Scalar], [AVX2] (8 float32 per instruction), [AVX512] (16);
//     [Lane.String], [Parse].
//   - Choosing: [Best] (the widest lane this build and CPU run), [Available],
//     [Select] (a forced lane, checked).
//   - Kernels: [MoveBounce] (move by v·dt, bounce off the walls of [0, w]²),
//     [Advance] (move by v·dt, age a tick counter), [Slots] (pack columns
//     and an alive bitmap into 16-byte presentation records).
//
// # Builds
//
// The SIMD lanes exist only in a build with GOEXPERIMENT=simd on amd64
// (Go 1.26's experimental simd/archsimd): files under
// `//go:build goexperiment.simd && amd64`. Every other build, and a CPU
// without the instructions (github.com/klauspost/cpuid/v2 decides, OS
// support included), has Scalar alone. A kernel given a lane that is not
// Available runs Scalar, which gives the same result. AVX512 is compiled
// and selected when the CPU has AVX-512 F, CD, BW, DQ and VL, and checked by
// the same tests as AVX2 on such a CPU; on a CPU without them its tests
// skip and say so (go test -v). Slots has no 16-wide kernel: in lane AVX512
// it runs the AVX2 one.
//
// # Bit identity
//
// Every lane gives, for every input, the bits of the Scalar lane, which is
// the kernel's doc written as Go. This is the one home of the rule; the
// kernels' comments refer to it. It holds because:
//
//   - every operation rounds once, as written: a product and the sum it
//     feeds are two instructions (never a fused multiply-add, which rounds
//     once for both), and the scalar oracle puts each product in an
//     explicit float32 conversion, which stops Go from fusing it into an
//     FMA (it may on arm64 and GOAMD64=v3);
//   - the bounce is a blend on the masks of ordered compares: p < 0 and
//     p > w are false for NaN, as Go's < and > are, the walls themselves do
//     not bounce, and the 0 wall wins when both hold, as the scalar
//     if / else if does;
//   - negation flips the sign bit, as Go's unary minus does: a zero
//     velocity that bounces becomes -0, not the +0 that 0 - v gives;
//   - Slots only moves bits (loads, interleaves, stores; the alive bit is
//     a mask of the bitmap's byte, clamped to 0 or 1);
//   - a SIMD kernel covers whole vectors only and the scalar oracle does
//     the tail, so nothing is loaded or stored past len(x) (a chunk's span
//     ends where the next chunk's begins).
//
// NaN payloads follow the float32 instructions: lane against lane they
// match bit for bit (the tests check it), against a float64 model only as
// NaN. The tests (lanes_test.go) compare every available lane with the
// Scalar lane and with an independent float64 model, over steps whose
// products round (where an FMA shows), the edges above, and every tail
// length; a guard-page test crashes on any read past the end.
//
// # Allocation and concurrency
//
// The kernels allocate nothing and may run concurrently on disjoint
// slices. Available, Best and Select only read the CPU's features.
//
// # Errors
//
// [Parse] and [Select] return errors matching [ErrUnknownLane] or
// [ErrUnavailable] under errors.Is. A kernel given slices shorter than
// len(x) panics (programmer misuse).
package lanes

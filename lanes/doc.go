// Package lanes names the lanes — instruction sets — a kernel may run in
// and picks the one a world runs: the engine's lane selection. It holds no
// kernel. The kernels with lanes are the generator's SIMD variants
// (docs/schema.md, SIMD variants) and package arena's presentation kernel;
// a host reaches this package through the face (tickwork.Lane,
// tickwork.ParseLane, tickwork.BestLane, tickwork.SelectLane).
//
//   - [Lane]: [Scalar], [AVX2] (8 float32 per instruction), [AVX512] (16);
//     [Lane.String], [Parse].
//   - Choosing: [Best] (the widest lane this build and CPU run), [Available],
//     [Select] (a forced lane, checked).
//
// # Builds
//
// The SIMD lanes exist only in a build with GOEXPERIMENT=simd on amd64
// (Go 1.26's experimental simd/archsimd): a kernel's SIMD forms sit in
// files under `//go:build goexperiment.simd && amd64`. Every other build,
// and a CPU without the instructions (github.com/klauspost/cpuid/v2
// decides, OS support included), has Scalar alone. AVX512 is selected when
// the CPU has AVX-512 F, CD, BW, DQ and VL. A kernel with no 16-wide form
// runs its 8-wide one in lane AVX512.
//
// # Bit identity
//
// A kernel gives, in every lane and for every input, the bits of its
// Scalar form, which is its doc written as Go. This is the one home of the
// rule; the kernels' comments refer to it. A SIMD form keeps it when:
//
//   - every operation rounds once, as written: a product and the sum it
//     feeds are two instructions (Mul, then Add; never a fused
//     multiply-add, which rounds once for both), and a scalar form whose
//     products could round puts each in an explicit float32 conversion,
//     which stops Go from fusing it into an FMA (it may on arm64 and
//     GOAMD64=v3);
//   - a branch is a blend on the masks of ordered compares, false for NaN
//     as Go's < and > are, the first true condition winning as the scalar
//     if / else if does;
//   - negation flips the sign bit, as Go's unary minus does: -(+0) is -0,
//     not the +0 that 0 - v gives;
//   - it covers whole vectors only and the Scalar form does the tail, so
//     nothing is loaded or stored past a span's end (a chunk's span ends
//     where the next chunk's begins).
//
// NaN payloads follow the float32 instructions: an operation on one NaN
// keeps its payload in every lane; an addition or product of two NaNs of
// different payloads may keep either, whichever operand order the
// compiler picks, so bit identity holds for NaNs of one payload
// (docs/schema.md, SIMD variants, is the rule's home). Each kernel's tests compare every available lane with
// its Scalar form, bit for bit, over the edges above and every tail length
// (schema/codegen/internal/simdkit for the generated variants; package
// arena for its own kernels).
//
// # Concurrency
//
// Available, Best and Select only read the CPU's features: safe for
// concurrent use.
//
// # Errors
//
// [Parse] and [Select] return errors matching [ErrUnknownLane] or
// [ErrUnavailable] under errors.Is.
package lanes

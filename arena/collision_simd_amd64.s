//go:build goexperiment.simd

#include "textflag.h"

// Collision's scans (collision_simd.go states their contract): 64 rows a
// call, in two passes. The load pass, the same in both lanes, takes each
// live row in turn and loads its target's word, X and Y (the index's
// element, or element 0 when the index is out of range: the vector pass
// masks that row) into three 64-element buffers on the stack, 0, 256 and
// 512 bytes up. Scalar loads, not gathers: on the AMD Zen 4 this was
// measured on, a 16-element gather costs more than 16 loads
// (docs/benchmarks.md, Collision). The vector pass then tests 16 (AVX-512)
// or 8 (AVX2) rows an instruction.

// LOADPASS fills the buffers at SP for the live bits in DI: SI the rows'
// handles, R11, R12, R13 the words, X and Y, AX their length n >= 1; it
// clobbers CX, DX, R8, R9, R10 and DI.
#define LOADPASS \
	XORQ R8, R8 \
	TESTQ DI, DI \
	JZ loaded \
load: \
	BSFQ DI, CX \
	MOVL (SI)(CX*8), DX \
	CMPQ DX, AX \
	CMOVQCC R8, DX \
	MOVL (R11)(DX*4), R9 \
	MOVL R9, 0(SP)(CX*4) \
	MOVL (R12)(DX*4), R9 \
	MOVL R9, 256(SP)(CX*4) \
	MOVL (R13)(DX*4), R9 \
	MOVL R9, 512(SP)(CX*4) \
	LEAQ -1(DI), R10 \
	ANDQ R10, DI \
	JNZ load \
loaded:

// func collide64(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64
//
// The AVX-512 scan. Vector pass: SI, R8, R9, R10 walk the rows' Target,
// X, Y and TTL, DI the buffers; Z20 holds n, Z21 r2, Z22 zero; BX the live
// bits of the step's rows and above, DX collects the marks, CX is the
// step's first bit.
TEXT ·collide64(SB), 0, $768-88
	MOVQ tgt+0(FP), SI
	MOVQ words+32(FP), R11
	MOVQ bx+40(FP), R12
	MOVQ by+48(FP), R13
	MOVQ n+56(FP), AX
	MOVQ live+72(FP), DI
	LOADPASS

	MOVQ px+8(FP), R8
	MOVQ py+16(FP), R9
	MOVQ ttl+24(FP), R10
	MOVQ SP, DI
	VPBROADCASTD AX, Z20
	VBROADCASTSS r2+64(FP), Z21
	VPXORD Z22, Z22, Z22
	MOVQ live+72(FP), BX
	XORQ DX, DX
	XORQ CX, CX

step16:
	// The 16 handles: their low words are the indexes (Z2), their high
	// words the tag and generation a live row stores (Z4).
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VPMOVQD Z0, Y2
	VPMOVQD Z1, Y3
	VINSERTI32X8 $1, Y3, Z2, Z2
	VPSRLQ $32, Z0, Z0
	VPSRLQ $32, Z1, Z1
	VPMOVQD Z0, Y4
	VPMOVQD Z1, Y5
	VINSERTI32X8 $1, Y5, Z4, Z4

	// Found (K3), Lease.Find's test: live, index < n, words[index] ==
	// word, word != 0.
	KMOVW BX, K1
	VPCMPUD $1, Z20, Z2, K1, K1
	VPCMPEQD (DI), Z4, K1, K3
	VPTESTMD Z4, Z4, K3, K3

	// (bx-px)*(bx-px) + (by-py)*(by-py) <= r2, each operation rounding
	// once (no fused multiply-add), ordered: false for NaN (K6).
	VMOVUPS 256(DI), Z7
	VMOVUPS 512(DI), Z8
	VSUBPS (R8), Z7, Z7
	VSUBPS (R9), Z8, Z8
	VMULPS Z7, Z7, Z7
	VMULPS Z8, Z8, Z8
	VADDPS Z8, Z7, Z7
	VCMPPS $2, Z21, Z7, K6

	// TTL <= 0 (K7).
	VMOVDQU32 (R10), Z9
	VPCMPD $2, Z22, Z9, K7

	// Marked: live, and missing, or in radius, or expired.
	KNOTW K3, K3
	KORW K6, K3, K3
	KORW K7, K3, K3
	KMOVW K3, AX
	ANDQ BX, AX
	SHLQ CX, AX
	ORQ AX, DX
	SHRQ $16, BX

	ADDQ $128, SI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $64, DI
	ADDQ $16, CX
	CMPQ CX, $64
	JLT step16

	MOVQ DX, ret+80(FP)
	VZEROUPPER
	RET

// The bit of each of 8 rows, for collide64x8's live mask.
DATA rowBits<>+0(SB)/4, $1
DATA rowBits<>+4(SB)/4, $2
DATA rowBits<>+8(SB)/4, $4
DATA rowBits<>+12(SB)/4, $8
DATA rowBits<>+16(SB)/4, $16
DATA rowBits<>+20(SB)/4, $32
DATA rowBits<>+24(SB)/4, $64
DATA rowBits<>+28(SB)/4, $128
GLOBL rowBits<>(SB), RODATA|NOPTR, $32

// func collide64x8(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64
//
// The AVX2 scan: collide64's vector pass 8 rows a step, masks in vectors
// (all ones for a true lane). Y14 holds n with its sign bit flipped, Y15
// r2, Y13 the row bits, Y12 the sign bit.
TEXT ·collide64x8(SB), 0, $768-88
	MOVQ tgt+0(FP), SI
	MOVQ words+32(FP), R11
	MOVQ bx+40(FP), R12
	MOVQ by+48(FP), R13
	MOVQ n+56(FP), AX
	MOVQ live+72(FP), DI
	LOADPASS

	MOVQ px+8(FP), R8
	MOVQ py+16(FP), R9
	MOVQ ttl+24(FP), R10
	MOVQ SP, DI
	MOVQ live+72(FP), BX
	VMOVDQU rowBits<>(SB), Y13
	MOVL $0x80000000, DX
	MOVQ DX, X12
	VPBROADCASTD X12, Y12
	MOVQ AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y12, Y14, Y14
	VBROADCASTSS r2+64(FP), Y15
	XORQ DX, DX
	XORQ CX, CX

step8:
	// Indexes (Y2) and words (Y4) of the 8 handles: the even and the odd
	// 32-bit halves, in row order.
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VPERMQ $0xD8, Y2, Y2
	VSHUFPS $0xDD, Y1, Y0, Y4
	VPERMQ $0xD8, Y4, Y4

	// The live rows' targets in range (Y3): live bit set, index < n
	// (unsigned: both with the sign bit flipped, compared signed).
	MOVQ BX, X3
	VPBROADCASTD X3, Y3
	VPAND Y13, Y3, Y3
	VPCMPEQD Y13, Y3, Y3
	VPXOR Y12, Y2, Y5
	VPCMPGTD Y5, Y14, Y5
	VPAND Y5, Y3, Y3

	// Found (Y6): in range, words[index] == word, word != 0.
	VMOVDQU (DI), Y6
	VPCMPEQD Y4, Y6, Y6
	VPAND Y3, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPCMPEQD Y7, Y4, Y4
	VPANDN Y6, Y4, Y6

	// In radius (Y8), each operation rounding once, ordered.
	VMOVUPS 256(DI), Y8
	VMOVUPS 512(DI), Y9
	VSUBPS (R8), Y8, Y8
	VSUBPS (R9), Y9, Y9
	VMULPS Y8, Y8, Y8
	VMULPS Y9, Y9, Y9
	VADDPS Y9, Y8, Y8
	VCMPPS $2, Y15, Y8, Y8

	// TTL > 0 (Y10).
	VMOVDQU (R10), Y10
	VPCMPGTD Y7, Y10, Y10

	// Marked: live and not plain (found, TTL > 0 and not in radius; an
	// index out of range is missing, so marked).
	VPAND Y10, Y6, Y6
	VPANDN Y6, Y8, Y6
	VMOVMSKPS Y6, R11
	NOTQ R11
	MOVQ BX, AX
	ANDQ $0xff, AX
	ANDQ AX, R11
	SHLQ CX, R11
	ORQ R11, DX
	SHRQ $8, BX

	ADDQ $64, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT step8

	MOVQ DX, ret+80(FP)
	VZEROUPPER
	RET

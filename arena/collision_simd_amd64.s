//go:build goexperiment.simd

#include "textflag.h"

// func collide64(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64
//
// Collision's scan of 64 rows in AVX-512, 16 rows a step (collision_simd.go
// states the contract). Registers: SI, R8, R9, R10 walk the rows' Target,
// X, Y and TTL; R11, R12, R13 are the Body table's words and X and Y,
// gathered by the targets' indexes; Z20 holds n, Z21 r2, Z22 zero; BX
// the live bits of the step's rows and above, DX collects the marks, CX
// is the step's first bit.
TEXT ·collide64(SB), NOSPLIT, $0-88
	MOVQ tgt+0(FP), SI
	MOVQ px+8(FP), R8
	MOVQ py+16(FP), R9
	MOVQ ttl+24(FP), R10
	MOVQ words+32(FP), R11
	MOVQ bx+40(FP), R12
	MOVQ by+48(FP), R13
	MOVQ n+56(FP), AX
	VPBROADCASTD AX, Z20
	VBROADCASTSS r2+64(FP), Z21
	VPXORD Z22, Z22, Z22
	MOVQ live+72(FP), BX
	XORQ DX, DX
	XORQ CX, CX

step:
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

	// Lease.Find: index < n, words[index] == word, word != 0 (K3), on
	// the live rows (K1: a dead row's stale target is not gathered, and an
	// index out of range is gathered from nowhere).
	KMOVW BX, K1
	VPCMPUD $1, Z20, Z2, K1, K1
	KMOVW K1, K2
	VPXORD Z6, Z6, Z6
	VPGATHERDD (R11)(Z2*4), K2, Z6
	VPCMPEQD Z6, Z4, K1, K3
	VPTESTMD Z4, Z4, K3, K3

	// The X and Y of the targets K1 probes (0 elsewhere): gathered with
	// the words, not after their test, so the three gathers' misses overlap.
	KMOVW K1, K4
	VXORPS Z7, Z7, Z7
	VGATHERDPS (R12)(Z2*4), K4, Z7
	KMOVW K1, K5
	VXORPS Z8, Z8, Z8
	VGATHERDPS (R13)(Z2*4), K5, Z8

	// (bx-px)*(bx-px) + (by-py)*(by-py) <= r2, each operation rounding
	// once (no fused multiply-add), ordered: false for NaN (K6).
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
	ADDQ $16, CX
	CMPQ CX, $64
	JLT step

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
// collide64 in AVX2, 8 rows a step, masks in vectors (all ones for a
// true lane). Y14 holds n with its sign bit flipped, Y15 r2; Y13 the row
// bits, Y12 the sign bit.
TEXT ·collide64x8(SB), NOSPLIT, $0-88
	MOVQ tgt+0(FP), SI
	MOVQ px+8(FP), R8
	MOVQ py+16(FP), R9
	MOVQ ttl+24(FP), R10
	MOVQ words+32(FP), R11
	MOVQ bx+40(FP), R12
	MOVQ by+48(FP), R13
	MOVQ n+56(FP), AX
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

	// Gathers of words, X and Y at those rows (0 elsewhere); each
	// gather clears its mask copy.
	VPXOR Y6, Y6, Y6
	VMOVDQA Y3, Y7
	VPGATHERDD Y7, (R11)(Y2*4), Y6
	VXORPS Y8, Y8, Y8
	VMOVDQA Y3, Y7
	VGATHERDPS Y7, (R12)(Y2*4), Y8
	VXORPS Y9, Y9, Y9
	VMOVDQA Y3, Y7
	VGATHERDPS Y7, (R13)(Y2*4), Y9

	// Found (Y6): in range, words[index] == word, word != 0.
	VPCMPEQD Y4, Y6, Y6
	VPAND Y3, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPCMPEQD Y7, Y4, Y4
	VPANDN Y6, Y4, Y6

	// In radius (Y8), each operation rounding once, ordered.
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
	VMOVMSKPS Y6, DI
	NOTQ DI
	MOVQ BX, AX
	ANDQ $0xff, AX
	ANDQ AX, DI
	SHLQ CX, DI
	ORQ DI, DX
	SHRQ $8, BX

	ADDQ $64, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $8, CX
	CMPQ CX, $64
	JLT step8

	MOVQ DX, ret+80(FP)
	VZEROUPPER
	RET

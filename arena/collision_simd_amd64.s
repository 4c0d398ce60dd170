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

//go:build goexperiment.simd && amd64

package arena

import (
	"math"
	"unsafe"

	"github.com/tickwork/tickwork"
)

// Collision's lane form: its scan in lanes AVX2 and AVX512, the generated
// scan hook (docs/schema.md, Scan hooks) filled by hand in assembly
// (collision_simd_amd64.s), because the distance test reads the targets'
// positions by row, which simd/archsimd cannot load (it has no gather).

func init() { collisionScan8, collisionScan16 = collisionScanAVX2, collisionScanAVX512 }

// collisionScanAVX512 is Collision's scan (tickwork.ScanVariant) of the
// live rows (bits of live) of rows row..row+63 of the Projectile columns,
// 16 rows a vector: collideScan.
func collisionScanAVX512(k *Collision, row int, live uint64) uint64 {
	return collideScan(k.pTarget[row:row+64], k.pX[row:row+64], k.pY[row:row+64], k.pTTL[row:row+64],
		k.bProbe.Lease().Words(), k.bX, k.bY, R2, live)
}

// collisionScanAVX2 is collisionScanAVX512 8 rows a vector: collideScan8.
func collisionScanAVX2(k *Collision, row int, live uint64) uint64 {
	return collideScan8(k.pTarget[row:row+64], k.pX[row:row+64], k.pY[row:row+64], k.pTTL[row:row+64],
		k.bProbe.Lease().Words(), k.bX, k.bY, R2, live)
}

// collideScan returns, of the 64 projectiles whose Target, X, Y and TTL
// are tgt, px, py and ttl (each of 64 or more elements), the live ones
// (bit i of live for projectile i), bit i set when Collision's match
// would take an arm for projectile i: its target is missing
// (Lease.Find's test, on words, the Body table's Lease.Words), or within
// the radius, (bx-px)*(bx-px) + (by-py)*(by-py) <= r2 rounding each
// operation once as the scalar body does (false for NaN), or its TTL is
// <= 0. Bit for bit those rows (TestCollideScan), so the body runs on
// exactly the rows it acts on. It reads words, bx and by only at the live
// rows' targets in range (and element 0), tests 16 rows an instruction
// (AVX-512; the CPU must have it) and allocates nothing. It panics when a
// Projectile slice has fewer than 64 elements (a caller's bug: pass 64
// rows).
func collideScan(tgt []tickwork.Handle, px, py []float32, ttl []int32, words []uint32, bx, by []float32, r2 float32, live uint64) uint64 {
	tgt, px, py, ttl = tgt[:64], px[:64], py[:64], ttl[:64]
	n := min(len(words), len(bx), len(by), math.MaxInt32) // the vector pass compares int32 indexes
	if n == 0 {
		return live // every target is missing
	}
	return collide64(&tgt[0], &px[0], &py[0], &ttl[0], unsafe.SliceData(words), unsafe.SliceData(bx), unsafe.SliceData(by), n, r2, live)
}

// collideScan8 is collideScan testing 8 rows an instruction (AVX2).
func collideScan8(tgt []tickwork.Handle, px, py []float32, ttl []int32, words []uint32, bx, by []float32, r2 float32, live uint64) uint64 {
	tgt, px, py, ttl = tgt[:64], px[:64], py[:64], ttl[:64]
	n := min(len(words), len(bx), len(by), math.MaxInt32)
	if n == 0 {
		return live
	}
	return collide64x8(&tgt[0], &px[0], &py[0], &ttl[0], unsafe.SliceData(words), unsafe.SliceData(bx), unsafe.SliceData(by), n, r2, live)
}

// collide64 is collideScan's loop in assembly (AVX-512): 64 rows from
// tgt, px, py, ttl, live the bits of the live ones; n >= 1 elements at
// words, bx and by.
//
//go:noescape
func collide64(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64

// collide64x8 is collideScan8's loop in assembly (AVX2), as collide64.
//
//go:noescape
func collide64x8(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64

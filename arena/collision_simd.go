//go:build goexperiment.simd && amd64

package arena

import (
	"math"
	"unsafe"

	"github.com/tickwork/tickwork"
)

// Collision's lane form: its scan in lanes AVX2 and AVX512, the generated
// scan hook (docs/schema.md, Scan hooks) filled by hand in assembly,
// because the distance test needs gathers of the targets' positions by
// row and simd/archsimd has no gather.

func init() { collisionScan8, collisionScan16 = collisionScanAVX2, collisionScanAVX512 }

// collisionScanAVX512 is Collision's scan (tickwork.ScanVariant) of the
// live rows (bits of live) of rows row..row+63 of the Projectile columns
// in AVX-512: collideScan.
func collisionScanAVX512(k *Collision, row int, live uint64) uint64 {
	return collideScan(k.pTarget[row:row+64], k.pX[row:row+64], k.pY[row:row+64], k.pTTL[row:row+64],
		k.bProbe.Lease().Words(), k.bX, k.bY, R2, live)
}

// collisionScanAVX2 is collisionScanAVX512 in AVX2: collideScan8.
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
// rows' targets in range, 16 a gather (AVX-512), and allocates nothing.
// It panics when a Projectile slice has fewer than 64 elements (a caller's
// bug: pass 64 rows).
func collideScan(tgt []tickwork.Handle, px, py []float32, ttl []int32, words []uint32, bx, by []float32, r2 float32, live uint64) uint64 {
	tgt, px, py, ttl = tgt[:64], px[:64], py[:64], ttl[:64]
	n := min(len(words), len(bx), len(by), math.MaxInt32) // the gathers' indexes are signed 32-bit
	return collide64(&tgt[0], &px[0], &py[0], &ttl[0], unsafe.SliceData(words), unsafe.SliceData(bx), unsafe.SliceData(by), n, r2, live)
}

// collideScan8 is collideScan in AVX2, 8 rows a gather.
func collideScan8(tgt []tickwork.Handle, px, py []float32, ttl []int32, words []uint32, bx, by []float32, r2 float32, live uint64) uint64 {
	tgt, px, py, ttl = tgt[:64], px[:64], py[:64], ttl[:64]
	n := min(len(words), len(bx), len(by), math.MaxInt32)
	return collide64x8(&tgt[0], &px[0], &py[0], &ttl[0], unsafe.SliceData(words), unsafe.SliceData(bx), unsafe.SliceData(by), n, r2, live)
}

// collide64 is collideScan's loop in assembly (collision_simd_amd64.s):
// 64 rows from tgt, px, py, ttl, live the bits of the live ones; n
// elements at words, bx and by.
//
//go:noescape
func collide64(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64

// collide64x8 is collide64 in AVX2 (collideScan8's loop).
//
//go:noescape
func collide64x8(tgt *tickwork.Handle, px, py *float32, ttl *int32, words *uint32, bx, by *float32, n int, r2 float32, live uint64) uint64

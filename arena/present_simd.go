//go:build goexperiment.simd && amd64

package arena

import (
	"simd/archsimd"
	"unsafe"

	"github.com/tickwork/tickwork/arena/rules"
)

func init() { presentSIMD8 = present8 }

// bitValues are the bits of one byte of a bitmap, one per row.
var bitValues = [8]uint32{1, 2, 4, 8, 16, 32, 64, 128}

// present8 is presentSIMD8 on 8 rows a step (Float32x8 and Int32x8, AVX2):
// the four columns are transposed in registers (interleave the 32-bit
// words of x with y and health with alive, then the 64-bit pairs, then the
// 128-bit halves) and stored as four whole vectors of two records each,
// into pres seen as 32-bit words (amd64, so little-endian: present.go's
// guards pin the layout). Bit for bit presentRows' records, as
// TestPresentLanes checks.
func present8(pres []rules.Slot, x, y []float32, health []int32, mask []uint64) int {
	n := len(pres) &^ 63
	if n == 0 {
		return 0
	}
	x, y, health, mask = x[:n], y[:n], health[:n], mask[:n>>6]
	dst := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(pres))), 4*n)
	bits := archsimd.LoadUint32x8(&bitValues)
	one := archsimd.BroadcastUint32x8(1)
	for i := 0; i < n; i += 8 {
		xv := archsimd.LoadFloat32x8Slice(x[i : i+8]).AsUint32x8()
		yv := archsimd.LoadFloat32x8Slice(y[i : i+8]).AsUint32x8()
		hv := archsimd.LoadInt32x8Slice(health[i : i+8]).AsUint32x8()
		b := uint32(mask[i>>6]>>(i&63)) & 0xff
		av := archsimd.BroadcastUint32x8(b).And(bits).Min(one)
		xy0, xy1 := xv.InterleaveLoGrouped(yv), xv.InterleaveHiGrouped(yv) // x0 y0 x1 y1 | x4 y4 x5 y5; x2 y2 x3 y3 | x6 ...
		ha0, ha1 := hv.InterleaveLoGrouped(av), hv.InterleaveHiGrouped(av)
		r0 := xy0.AsUint64x4().InterleaveLoGrouped(ha0.AsUint64x4()).AsUint32x8() // record 0 | record 4
		r1 := xy0.AsUint64x4().InterleaveHiGrouped(ha0.AsUint64x4()).AsUint32x8() // 1 | 5
		r2 := xy1.AsUint64x4().InterleaveLoGrouped(ha1.AsUint64x4()).AsUint32x8() // 2 | 6
		r3 := xy1.AsUint64x4().InterleaveHiGrouped(ha1.AsUint64x4()).AsUint32x8() // 3 | 7
		d := dst[4*i : 4*i+32]
		r0.Select128FromPair(0, 2, r1).StoreSlice(d[0:8])
		r2.Select128FromPair(0, 2, r3).StoreSlice(d[8:16])
		r0.Select128FromPair(1, 3, r1).StoreSlice(d[16:24])
		r2.Select128FromPair(1, 3, r3).StoreSlice(d[24:32])
	}
	return n
}

//go:build goexperiment.simd && amd64

package arena

import (
	"simd/archsimd"

	"github.com/tickwork/tickwork/arena/rules"
)

// The SIMD forms of the hand kernels (arena_gen_hand_kernels_test.go), 8 rows a
// vector (Float32x8, AVX2) and 16 (Float32x16, AVX-512): separate
// implementations of the bounce of rules.MoveUnits, which
// TestHandKernelsMatchRules holds to its bits (package lanes, "Bit
// identity"). The two widths are one code at two vector types, kept
// apart: a generic form would call archsimd's methods through a
// dictionary, not as instructions, and the 16-wide form is the baseline of
// the generated 16-wide variants (faster than the 8-wide one in lane
// AVX512).

func init() {
	moveBounce8, moveBounce16 = moveBounceSIMD8, moveBounceSIMD16
	advance8, advance16 = advanceSIMD8, advanceSIMD16
}

// moveBounceSIMD8 is moveBounce on Float32x8.
func moveBounceSIMD8(x, y, vx, vy []float32) int {
	n := len(x) &^ 7
	y, vx, vy = y[:n], vx[:n], vy[:n]
	dt := archsimd.BroadcastFloat32x8(rules.DT)
	w := archsimd.BroadcastFloat32x8(rules.W)
	w2 := archsimd.BroadcastFloat32x8(2 * rules.W)
	var zero archsimd.Float32x8
	sign := archsimd.BroadcastInt32x8(-1 << 31)
	for i := 0; i < n; i += 8 {
		bounce8(x[i:i+8], vx[i:i+8], dt, w, w2, zero, sign)
		bounce8(y[i:i+8], vy[i:i+8], dt, w, w2, zero, sign)
	}
	return n
}

// bounce8 moves and bounces 8 elements of one axis.
func bounce8(p, v []float32, dt, w, w2, zero archsimd.Float32x8, sign archsimd.Int32x8) {
	vv := archsimd.LoadFloat32x8Slice(v)
	pp := archsimd.LoadFloat32x8Slice(p).Add(vv.Mul(dt))
	lo := pp.Less(zero) // p < 0
	hi := pp.Greater(w) // p > W
	neg := pp.AsInt32x8().Xor(sign).AsFloat32x8()
	// lo ? -p : (hi ? 2W-p : p): the scalar if / else if, lo first.
	neg.Merge(w2.Sub(pp).Merge(pp, hi), lo).StoreSlice(p)
	vv.AsInt32x8().Xor(sign).AsFloat32x8().Merge(vv, lo.Or(hi)).StoreSlice(v)
}

// advanceSIMD8 is advance on Float32x8 and Int32x8.
func advanceSIMD8(x, y, vx, vy []float32, ttl []int32) int {
	n := len(x) &^ 7
	y, vx, vy, ttl = y[:n], vx[:n], vy[:n], ttl[:n]
	dt := archsimd.BroadcastFloat32x8(rules.DT)
	one := archsimd.BroadcastInt32x8(1)
	for i := 0; i < n; i += 8 {
		xs, ys := x[i:i+8], y[i:i+8]
		archsimd.LoadFloat32x8Slice(xs).Add(archsimd.LoadFloat32x8Slice(vx[i : i+8]).Mul(dt)).StoreSlice(xs)
		archsimd.LoadFloat32x8Slice(ys).Add(archsimd.LoadFloat32x8Slice(vy[i : i+8]).Mul(dt)).StoreSlice(ys)
		ts := ttl[i : i+8]
		archsimd.LoadInt32x8Slice(ts).Sub(one).StoreSlice(ts)
	}
	return n
}

// moveBounceSIMD16 is moveBounceSIMD8 on Float32x16.
func moveBounceSIMD16(x, y, vx, vy []float32) int {
	n := len(x) &^ 15
	y, vx, vy = y[:n], vx[:n], vy[:n]
	dt := archsimd.BroadcastFloat32x16(rules.DT)
	w := archsimd.BroadcastFloat32x16(rules.W)
	w2 := archsimd.BroadcastFloat32x16(2 * rules.W)
	var zero archsimd.Float32x16
	sign := archsimd.BroadcastInt32x16(-1 << 31)
	for i := 0; i < n; i += 16 {
		bounce16(x[i:i+16], vx[i:i+16], dt, w, w2, zero, sign)
		bounce16(y[i:i+16], vy[i:i+16], dt, w, w2, zero, sign)
	}
	return n
}

// bounce16 is bounce8 on 16 elements.
func bounce16(p, v []float32, dt, w, w2, zero archsimd.Float32x16, sign archsimd.Int32x16) {
	vv := archsimd.LoadFloat32x16Slice(v)
	pp := archsimd.LoadFloat32x16Slice(p).Add(vv.Mul(dt))
	lo := pp.Less(zero)
	hi := pp.Greater(w)
	neg := pp.AsInt32x16().Xor(sign).AsFloat32x16()
	neg.Merge(w2.Sub(pp).Merge(pp, hi), lo).StoreSlice(p)
	vv.AsInt32x16().Xor(sign).AsFloat32x16().Merge(vv, lo.Or(hi)).StoreSlice(v)
}

// advanceSIMD16 is advanceSIMD8 on Float32x16 and Int32x16.
func advanceSIMD16(x, y, vx, vy []float32, ttl []int32) int {
	n := len(x) &^ 15
	y, vx, vy, ttl = y[:n], vx[:n], vy[:n], ttl[:n]
	dt := archsimd.BroadcastFloat32x16(rules.DT)
	one := archsimd.BroadcastInt32x16(1)
	for i := 0; i < n; i += 16 {
		xs, ys := x[i:i+16], y[i:i+16]
		archsimd.LoadFloat32x16Slice(xs).Add(archsimd.LoadFloat32x16Slice(vx[i : i+16]).Mul(dt)).StoreSlice(xs)
		archsimd.LoadFloat32x16Slice(ys).Add(archsimd.LoadFloat32x16Slice(vy[i : i+16]).Mul(dt)).StoreSlice(ys)
		ts := ttl[i : i+16]
		archsimd.LoadInt32x16Slice(ts).Sub(one).StoreSlice(ts)
	}
	return n
}

//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// The SIMD kernels. Each handles the longest prefix of whole vectors and
// returns its length; the dispatch in kernels.go runs the scalar oracle on
// the rest (fewer than 8 or 16 elements), so no load or store ever reaches
// past len(x). They use separate Mul and Add (never MulAdd, which rounds
// once), ordered compares (false for NaN, as Go's < and >) and sign-bit
// flips for negation (as Go's unary minus: -(+0) is -0), so each element
// gets the bits moveBounceScalar and advanceScalar give it; see the package
// doc, "Bit identity".

const built = true

var (
	has256 = Available(AVX2)
	has512 = Available(AVX512)
)

// moveBounce8 is MoveBounce on Float32x8.
func moveBounce8(x, y, vx, vy []float32, dt, w float32) int {
	n := len(x) &^ 7
	y, vx, vy = y[:n], vx[:n], vy[:n]
	dtv := archsimd.BroadcastFloat32x8(dt)
	wv := archsimd.BroadcastFloat32x8(w)
	w2v := archsimd.BroadcastFloat32x8(float32(2 * w))
	var zero archsimd.Float32x8
	sign := archsimd.BroadcastInt32x8(-1 << 31)
	for i := 0; i < n; i += 8 {
		bounce8(x[i:i+8], vx[i:i+8], dtv, wv, w2v, zero, sign)
		bounce8(y[i:i+8], vy[i:i+8], dtv, wv, w2v, zero, sign)
	}
	return n
}

// bounce8 moves and bounces 8 elements of one axis.
func bounce8(p, v []float32, dt, w, w2, zero archsimd.Float32x8, sign archsimd.Int32x8) {
	vv := archsimd.LoadFloat32x8Slice(v)
	pp := archsimd.LoadFloat32x8Slice(p).Add(vv.Mul(dt))
	lo := pp.Less(zero) // p < 0
	hi := pp.Greater(w) // p > w
	neg := pp.AsInt32x8().Xor(sign).AsFloat32x8()
	// lo ? -p : (hi ? 2w-p : p): the scalar if / else if, lo first.
	neg.Merge(w2.Sub(pp).Merge(pp, hi), lo).StoreSlice(p)
	vv.AsInt32x8().Xor(sign).AsFloat32x8().Merge(vv, lo.Or(hi)).StoreSlice(v)
}

// advance8 is Advance on Float32x8 and Int32x8.
func advance8(x, y, vx, vy []float32, ttl []int32, dt float32) int {
	n := len(x) &^ 7
	y, vx, vy, ttl = y[:n], vx[:n], vy[:n], ttl[:n]
	dtv := archsimd.BroadcastFloat32x8(dt)
	one := archsimd.BroadcastInt32x8(1)
	for i := 0; i < n; i += 8 {
		xs, ys := x[i:i+8], y[i:i+8]
		archsimd.LoadFloat32x8Slice(xs).Add(archsimd.LoadFloat32x8Slice(vx[i : i+8]).Mul(dtv)).StoreSlice(xs)
		archsimd.LoadFloat32x8Slice(ys).Add(archsimd.LoadFloat32x8Slice(vy[i : i+8]).Mul(dtv)).StoreSlice(ys)
		ts := ttl[i : i+8]
		archsimd.LoadInt32x8Slice(ts).Sub(one).StoreSlice(ts)
	}
	return n
}

// moveBounce16 is MoveBounce on Float32x16 (AVX-512).
func moveBounce16(x, y, vx, vy []float32, dt, w float32) int {
	n := len(x) &^ 15
	y, vx, vy = y[:n], vx[:n], vy[:n]
	dtv := archsimd.BroadcastFloat32x16(dt)
	wv := archsimd.BroadcastFloat32x16(w)
	w2v := archsimd.BroadcastFloat32x16(float32(2 * w))
	var zero archsimd.Float32x16
	sign := archsimd.BroadcastInt32x16(-1 << 31)
	for i := 0; i < n; i += 16 {
		bounce16(x[i:i+16], vx[i:i+16], dtv, wv, w2v, zero, sign)
		bounce16(y[i:i+16], vy[i:i+16], dtv, wv, w2v, zero, sign)
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

// advance16 is advance8 on 16 elements.
func advance16(x, y, vx, vy []float32, ttl []int32, dt float32) int {
	n := len(x) &^ 15
	y, vx, vy, ttl = y[:n], vx[:n], vy[:n], ttl[:n]
	dtv := archsimd.BroadcastFloat32x16(dt)
	one := archsimd.BroadcastInt32x16(1)
	for i := 0; i < n; i += 16 {
		xs, ys := x[i:i+16], y[i:i+16]
		archsimd.LoadFloat32x16Slice(xs).Add(archsimd.LoadFloat32x16Slice(vx[i : i+16]).Mul(dtv)).StoreSlice(xs)
		archsimd.LoadFloat32x16Slice(ys).Add(archsimd.LoadFloat32x16Slice(vy[i : i+16]).Mul(dtv)).StoreSlice(ys)
		ts := ttl[i : i+16]
		archsimd.LoadInt32x16Slice(ts).Sub(one).StoreSlice(ts)
	}
	return n
}

// bitValues are the bits of one byte of a bitmap, one per element.
var bitValues = [8]uint32{1, 2, 4, 8, 16, 32, 64, 128}

// slots8 is Slots on 8 records a step: the four columns are transposed in
// registers (interleave the 32-bit words of x with y and h with alive,
// then the 64-bit pairs, then the 128-bit halves) and stored as four whole
// vectors of two records each.
func slots8(dst []uint32, x, y []float32, h []int32, alive []uint64) int {
	n := len(x) &^ 7
	y, h, dst = y[:n], h[:n], dst[:4*n]
	bits := archsimd.LoadUint32x8(&bitValues)
	one := archsimd.BroadcastUint32x8(1)
	for i := 0; i < n; i += 8 {
		xv := archsimd.LoadFloat32x8Slice(x[i : i+8]).AsUint32x8()
		yv := archsimd.LoadFloat32x8Slice(y[i : i+8]).AsUint32x8()
		hv := archsimd.LoadInt32x8Slice(h[i : i+8]).AsUint32x8()
		b := uint32(alive[i>>6]>>(i&63)) & 0xff
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

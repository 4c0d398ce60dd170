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

package lanes

import "math"

// MoveBounce advances points by one step of dt and bounces them off the
// walls of the square [0, w]², per axis: p += float32(v*dt); then p < 0
// becomes -p and p > w becomes float32(2*w) - p, turning v around (its sign
// bit flipped). x, y are positions in world units, vx, vy velocities in
// world units per second, dt seconds; y, vx and vy must be at least len(x)
// long (only len(x) points move; a shorter one panics). NaN positions and
// velocities pass through unbounced, as the comparisons are false for them.
//
// It runs lane l (Scalar when l is not Available) and gives the same bits
// in every lane. Allocates nothing; safe for concurrent use on disjoint
// slices.
func MoveBounce(l Lane, x, y, vx, vy []float32, dt, w float32) {
	y, vx, vy = y[:len(x)], vx[:len(x)], vy[:len(x)]
	n := 0
	switch {
	case l == AVX512 && has512:
		n = moveBounce16(x, y, vx, vy, dt, w)
	case l >= AVX2 && has256:
		n = moveBounce8(x, y, vx, vy, dt, w)
	}
	moveBounceScalar(x[n:], y[n:], vx[n:], vy[n:], dt, w)
}

// Advance moves points by one step of dt and ages them by one tick:
// x += float32(vx*dt), y += float32(vy*dt), ttl-- (wrapping at the int32
// minimum). Units and shapes as MoveBounce; y, vx, vy and ttl must be at
// least len(x) long.
//
// It runs lane l (Scalar when l is not Available) and gives the same bits
// in every lane. Allocates nothing; safe for concurrent use on disjoint
// slices.
func Advance(l Lane, x, y, vx, vy []float32, ttl []int32, dt float32) {
	y, vx, vy, ttl = y[:len(x)], vx[:len(x)], vy[:len(x)], ttl[:len(x)]
	n := 0
	switch {
	case l == AVX512 && has512:
		n = advance16(x, y, vx, vy, ttl, dt)
	case l >= AVX2 && has256:
		n = advance8(x, y, vx, vy, ttl, dt)
	}
	advanceScalar(x[n:], y[n:], vx[n:], vy[n:], ttl[n:], dt)
}

// Slots writes one record of four 32-bit words per element into dst:
// record i is dst[4i:4i+4] = the bits of x[i], the bits of y[i], h[i] and
// bit i of the bitmap alive (alive[i/64] >> (i%64) & 1) as 0 or 1. Only
// len(x) records are written; y and h must be at least len(x) long, dst at
// least 4*len(x) and alive at least (len(x)+63)/64 words (shorter ones
// panic). It packs struct-of-arrays columns into a presentation buffer of
// 16-byte records such as {X, Y float32; Health int32; Alive uint8} on a
// little-endian machine (the Alive byte, then three zero bytes).
//
// It runs lane l (Scalar when l is not Available) and gives the same words
// in every lane (it only moves bits). Allocates nothing; safe for
// concurrent use on disjoint dst.
func Slots(l Lane, dst []uint32, x, y []float32, h []int32, alive []uint64) {
	y, h, dst, alive = y[:len(x)], h[:len(x)], dst[:4*len(x)], alive[:(len(x)+63)/64]
	n := 0
	if l >= AVX2 && has256 {
		n = slots8(dst, x, y, h, alive)
	}
	slotsScalar(dst, x, y, h, alive, n)
}

// slotsScalar is the oracle of Slots, from element from on.
func slotsScalar(dst []uint32, x, y []float32, h []int32, alive []uint64, from int) {
	for i := from; i < len(x); i++ {
		r := dst[4*i : 4*i+4 : 4*i+4]
		r[0], r[1], r[2], r[3] = math.Float32bits(x[i]), math.Float32bits(y[i]), uint32(h[i]), uint32(alive[i>>6]>>(i&63)&1)
	}
}

// moveBounceScalar is the oracle of MoveBounce. Every product sits in an
// explicit float32 conversion, so the compiler cannot fuse it with the add
// into an FMA (Go may fuse x*y + z on arm64 and GOAMD64=v3): each operation
// rounds once, as the SIMD lanes' separate multiply and add do.
func moveBounceScalar(x, y, vx, vy []float32, dt, w float32) {
	y, vx, vy = y[:len(x)], vx[:len(x)], vy[:len(x)]
	w2 := float32(2 * w)
	for i := range x {
		px := x[i] + float32(vx[i]*dt)
		if px < 0 {
			px = -px
			vx[i] = -vx[i]
		} else if px > w {
			px = w2 - px
			vx[i] = -vx[i]
		}
		x[i] = px
		py := y[i] + float32(vy[i]*dt)
		if py < 0 {
			py = -py
			vy[i] = -vy[i]
		} else if py > w {
			py = w2 - py
			vy[i] = -vy[i]
		}
		y[i] = py
	}
}

// advanceScalar is the oracle of Advance; conversions as in moveBounceScalar.
func advanceScalar(x, y, vx, vy []float32, ttl []int32, dt float32) {
	y, vx, vy, ttl = y[:len(x)], vx[:len(x)], vy[:len(x)], ttl[:len(x)]
	for i := range x {
		x[i] += float32(vx[i] * dt)
		y[i] += float32(vy[i] * dt)
		ttl[i]--
	}
}
